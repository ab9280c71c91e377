// A forecast thread (HORIZON_ANSWER_THREADS): besides the large answers of answer-thread.ts, it takes a large
// POST /v1/forecast body as bytes and does everything that grows with the body — JSON parse, the route's
// schema validation (the same compiler and options as the app), normalisation, the cost estimate and the
// worker request's base64 encoding — so the event loop does none of it (issue 26 item 5; bench/README.md,
// "Request threads"). Requests that need more than a plain model call (auto, prism, evaluation) come back
// as 'fallback': the loop parses them as before (the schema has been checked here already).
import { parentPort, workerData } from 'node:worker_threads';
import secureJson from 'secure-json-parse';
import AjvCompiler from '@fastify/ajv-compiler';
import { answerReply, postReply, type AnswerJob } from '../forecasting/answer-thread.ts';
import { contractShape, type ContractShape } from '../forecasting/contract.ts';
import { normalizeForecastRequest, RequestValidationError, type ForecastRequestBody } from '../forecasting/normalize.ts';
import { callCostMs } from '../forecasting/cost.ts';
import { AUTO_FIELDS, AUTO_ID } from '../forecasting/auto.ts';
import { PRISM_ID } from '../forecasting/prism.ts';
import { encodeInferRequest } from '../runtime/wire.ts';
import { inlineBodyOf, type StoredSeriesPayload } from '../forecasting/stored-payload.ts';
import { findModel, isCpuModel, type Catalog } from '../runtime/catalog.ts';
import { HorizonError, type FieldError } from '../errors.ts';
import { AJV_OPTIONS } from './ajv-options.ts';
import { ForecastRequest, SHARED_SCHEMAS } from './schemas.ts';
import { fieldErrorsFromAjv, type AjvError } from './validation-errors.ts';

/** What the thread needs of the deployment's state (the registry lives on the event loop). */
export interface RequestContext {
  catalog: Catalog; defaultModel: string;
  /** each model's default size on this deployment (registry.defaultSize: the catalog's, if its weights are here) */
  defaultSizes: Record<string, string>;
  float32: boolean; cpuWorkers: number;
  /** a plan of more series is encoded as chunks of this many (the inference client's fair chunks; 0: one body);
   * cpuChunkSeries for a CPU model's (catalog `cost`) */
  chunkSeries?: number;
  cpuChunkSeries?: number;
}
/** A large body as bytes, or a by-reference forecast's stored series as numbers (stored-payload.ts). */
export interface RequestJob { id: number; kind: 'request'; bytes?: Uint8Array; stored?: StoredSeriesPayload; context: RequestContext }
export type RequestReply =
  | { id: number; kind: 'planned'; model: string; size: string; seriesCount: number; points: number; estimateMs: number; shape: ContractShape; inferBody: string; inferBodies?: string[]; chunkSeries: number }
  | { id: number; kind: 'fallback' }
  | { id: number; kind: 'bad_json' }
  | { id: number; kind: 'invalid'; errors: FieldError[] }
  | { id: number; kind: 'failed'; code?: string; message: string };

// the same validator the app compiles for the route (Fastify: @fastify/ajv-compiler, the shared schemas, AJV_OPTIONS)
const validate = AjvCompiler()(Object.fromEntries(SHARED_SCHEMAS.map((s) => [(s as { $id?: string }).$id, s])), { customOptions: { ...AJV_OPTIONS }, plugins: [] } as never)({ schema: ForecastRequest } as never) as ((data: unknown) => boolean) & { errors?: AjvError[] };
const decoder = new TextDecoder();

export function planRequest({ id, bytes, stored, context }: RequestJob): RequestReply {
  let body: Record<string, unknown>;
  try {
    body = stored ? inlineBodyOf(stored, true) : secureJson.parse(decoder.decode(bytes!), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { id, kind: 'bad_json' };
  }
  // stored series were checked when they were stored (stored-series.ts): the schema checks the rest of the
  // body with the first of them, not every stored value again
  const checked = stored ? { ...body, series: (body.series as unknown[]).slice(0, 1) } : body;
  if (!validate(checked)) return { id, kind: 'invalid', errors: fieldErrorsFromAjv(validate.errors ?? [], 'body') };
  const { catalog, defaultModel } = context;
  // model "auto" (unless the catalog has such a model), prism and a backtest make more than one model call
  const auto = body.model === AUTO_ID && !findModel(catalog, AUTO_ID);
  // inline fine-tuning (finetune_steps) runs on the loop's path too (src/forecasting/inline-fine-tuning.ts)
  if (auto || body.model === PRISM_ID || body.evaluation !== undefined || body.finetune_steps) return { id, kind: 'fallback' };
  // auto fields or prism_members with another model: rejectAutoFields and planForecast answer it on the loop
  if (AUTO_FIELDS.some((f) => body[f] !== undefined) || body.prism_members !== undefined) return { id, kind: 'fallback' };
  try {
    const model = findModel(catalog, (body.model as string | undefined) ?? defaultModel);
    const sized = body.model_size === undefined && model ? { ...body, model_size: context.defaultSizes[model.id] } : body;
    const plan = normalizeForecastRequest(sized as unknown as ForecastRequestBody, catalog, defaultModel);
    const request = { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series };
    return {
      id, kind: 'planned', model: plan.model, size: plan.size, seriesCount: plan.series.length, points: (body.series as { target: unknown[] }[]).reduce((n, s) => n + s.target.length, 0),
      estimateMs: callCostMs(catalog, request, context.cpuWorkers), shape: contractShape(plan),
      ...chunkedBodies(request, context),
    };
  } catch (error) {
    if (error instanceof RequestValidationError) return { id, kind: 'invalid', errors: error.errors };
    return { id, kind: 'failed', code: error instanceof HorizonError ? error.code : undefined, message: (error as Error).message };
  }
}

/** The worker request: one body, or (more series than a fair chunk: the inference client's rule,
 * InferenceClient.chunkSeriesFor) one body per chunk of that many series. */
function chunkedBodies(request: Parameters<typeof encodeInferRequest>[0], context: RequestContext): { inferBody: string; inferBodies?: string[]; chunkSeries: number } {
  const size = (isCpuModel(context.catalog, request.model) ? context.cpuChunkSeries : undefined) ?? context.chunkSeries ?? 0;
  if (size <= 0 || request.series.length <= size) return { inferBody: JSON.stringify(encodeInferRequest(request, context.float32)), chunkSeries: size };
  const inferBodies: string[] = [];
  for (let start = 0; start < request.series.length; start += size) inferBodies.push(JSON.stringify(encodeInferRequest({ ...request, series: request.series.slice(start, start + size) }, context.float32)));
  return { inferBody: '', inferBodies, chunkSeries: size };
}

if (parentPort && import.meta.url === (workerData as { entry?: string } | null)?.entry) {
  parentPort.on('message', (job: RequestJob | AnswerJob) => {
    if (job.kind === 'request') parentPort!.postMessage(planRequest(job));
    else postReply(answerReply(job));
  });
}
