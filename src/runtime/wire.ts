// The /infer body on the wire (docs/runtime-protocol.md, "encoding"): value arrays travel as base64 of
// little-endian float64, NaN for missing. The Python worker decodes such a string with one
// np.frombuffer instead of parsing a JSON number per value, and answers in kind, which is where a
// large batch's time went on a GPU (bench/README.md). The public API stays JSON.
import { endianness } from 'node:os';
import type { InferRequest, InferResponse, Prediction } from './inference.ts';
import type { RuntimeSeries } from '../normalize.ts';

if (endianness() !== 'LE') throw new Error('the /infer base64 encoding assumes a little-endian machine');

/** float64 values, null as NaN, as base64. */
export function encodeFloat64(values: readonly (number | null)[]): string {
  const array = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) array[i] = values[i] ?? NaN;
  return Buffer.from(array.buffer).toString('base64');
}

/** The numbers of a base64 float64 string (the worker's predictions are always finite). Read with
 * readDoubleLE into a plain array: Array.from over a Float64Array copy cost 4x as much (bench/README.md). */
export function decodeFloat64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 8 !== 0) throw new Error(`a base64 float64 array of ${bytes.length} bytes`);
  const values = new Array<number>(bytes.length / 8);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readDoubleLE(i * 8);
  return values;
}

const encodeAll = (arrays: Record<string, readonly (number | null)[]>) =>
  Object.fromEntries(Object.entries(arrays).map(([name, values]) => [name, encodeFloat64(values)]));

/** The body the control plane POSTs to /infer: every value array base64, answers asked in base64. */
export function encodeInferRequest(request: InferRequest): Record<string, unknown> {
  return {
    ...request,
    encoding: 'base64',
    series: request.series.map((s: RuntimeSeries) => ({
      ...s,
      target: encodeFloat64(s.target),
      past_covariates: encodeAll(s.past_covariates),
      future_covariates: encodeAll(s.future_covariates),
    })),
  };
}

/** A base64 /infer answer with its arrays decoded, as the rest of the control plane reads it. */
export function decodeInferResponse(answer: Omit<InferResponse, 'predictions'> & { predictions: { mean: string; quantiles: Record<string, string> }[] }): InferResponse {
  if (!Array.isArray(answer.predictions)) return answer as unknown as InferResponse; // toContract names the fault
  return {
    ...answer,
    predictions: answer.predictions.map((p): Prediction => ({
      mean: decodeFloat64(p.mean),
      quantiles: Object.fromEntries(Object.entries(p.quantiles).map(([level, values]) => [level, decodeFloat64(values)])),
    })),
  };
}
