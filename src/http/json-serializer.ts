/** Response serializer of the routes that answer forecasts (large number arrays): V8's JSON.stringify
 * writes 256 series × 10 arrays × 64 values in a third of the schema-compiled serializer's time
 * (bench/README.md, "control plane at batch 256"). Their handlers build exactly the schema's fields
 * (toContract, jobView), so the schema still documents the answer and nothing extra can leak.
 * A module of its own: the routes that use it are registered by routes/index.ts, so taking it from
 * there made an import circle. */
export const plainJsonSerializer = () => (data: unknown): string => JSON.stringify(data);
