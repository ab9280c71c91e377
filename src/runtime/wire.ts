// The /infer body on the wire (docs/runtime-protocol.md, "encoding"): value arrays travel as base64 of
// little-endian float64, NaN for missing. The Python worker decodes such a string with one
// np.frombuffer instead of parsing a JSON number per value, and answers in kind, which is where a
// large batch's time went on a GPU (bench/README.md). The public API stays JSON.
import { endianness } from 'node:os';
import type { EmbedRequest, EmbedResponse, InferRequest, InferResponse, Prediction, RuntimeSeries, WorkerEmbedding } from './worker-protocol.ts';

if (endianness() !== 'LE') throw new Error('the /infer base64 encoding assumes a little-endian machine');

/** float64 values, null as NaN, as base64. */
export function encodeFloat64(values: readonly (number | null)[]): string {
  const array = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) array[i] = values[i] ?? NaN;
  return Buffer.from(array.buffer).toString('base64');
}

/** The numbers of a base64 float64 string (NaN stays NaN: in-sample values where nothing is fitted). Read with
 * readDoubleLE into a plain array: Array.from over a Float64Array copy cost 4x as much (bench/README.md). */
export function decodeFloat64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 8 !== 0) throw new Error(`a base64 float64 array of ${bytes.length} bytes`);
  const values = new Array<number>(bytes.length / 8);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readDoubleLE(i * 8);
  return values;
}

/** The numbers of a base64 little-endian float32 string, widened to float64: exact (every float32 is a
 * double), so an answer sent as float32 reads as the very doubles its float64 form would. */
export function decodeFloat32(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`a base64 float32 array of ${bytes.length} bytes`);
  const values = new Array<number>(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}

const encodeAll = (arrays: Record<string, readonly (number | null)[]>) =>
  Object.fromEntries(Object.entries(arrays).map(([name, values]) => [name, encodeFloat64(values)]));

/** The body the control plane POSTs to /infer: every value array base64, answers asked in base64 and,
 * with `float32` (the default), as float32 bytes where every value of the answer is a float32
 * (the worker checks; docs/runtime-protocol.md "float32"). */
export function encodeInferRequest(request: InferRequest, float32 = true): Record<string, unknown> {
  return {
    ...request,
    encoding: 'base64',
    float32,
    series: request.series.map((s: RuntimeSeries) => ({
      ...s,
      target: encodeFloat64(s.target),
      past_covariates: encodeAll(s.past_covariates),
      future_covariates: encodeAll(s.future_covariates),
    })),
  };
}

/** A base64 /infer answer with its arrays decoded, as the rest of the control plane reads it: "dtype"
 * float32 or float64 (absent: float64, what a worker without float32 answers sends). */
type EncodedForecast = { mean: string; quantiles: Record<string, string> };
type EncodedPrediction = EncodedForecast & {
  backtest?: EncodedForecast[]; in_sample?: EncodedForecast; contributions?: { base: string; features: Record<string, string> }; samples?: string;
};

/** One base64 float64 string of paths after paths, `horizon` values each, as arrays (sample paths). */
function samplePaths(text: string, horizon: number): number[][] {
  const values = decodeFloat64(text);
  return Array.from({ length: horizon ? values.length / horizon : 0 }, (_, k) => values.slice(k * horizon, (k + 1) * horizon));
}
export function decodeInferResponse(answer: Omit<InferResponse, 'predictions'> & { dtype?: string; predictions: EncodedPrediction[] }): InferResponse {
  if (!Array.isArray(answer.predictions)) return answer as unknown as InferResponse; // toContract names the fault
  const { dtype = 'float64', ...rest } = answer;
  if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`an /infer answer of dtype ${JSON.stringify(dtype)}`);
  const decode = dtype === 'float32' ? decodeFloat32 : decodeFloat64;
  return {
    ...rest,
    predictions: answer.predictions.map((p): Prediction => {
      const decoded: Prediction = {
        mean: decode(p.mean), quantiles: Object.fromEntries(Object.entries(p.quantiles).map(([level, values]) => [level, decode(values)])),
      };
      // validation forecasts are always float64 (protocol.py encode_predictions)
      const float64 = (f: EncodedForecast) => ({
        mean: decodeFloat64(f.mean), quantiles: Object.fromEntries(Object.entries(f.quantiles).map(([level, values]) => [level, decodeFloat64(values)])),
      });
      if (p.backtest) decoded.backtest = p.backtest.map(float64);
      // in-sample values too (NaN where nothing is fitted)
      if (p.in_sample) decoded.in_sample = float64(p.in_sample);
      // sample paths too (float64 always)
      if (p.samples !== undefined) decoded.samples = samplePaths(p.samples, decoded.mean.length);
      // feature contributions too (explain)
      if (p.contributions) {
        const { base, features } = p.contributions;
        decoded.contributions = {
          base: decodeFloat64(base), features: Object.fromEntries(Object.entries(features).map(([name, values]) => [name, decodeFloat64(values)])),
        };
      }
      return decoded;
    }),
  };
}

/** The answers of a call cut into chunks of `chunkSeries` series, as one answer: predictions in order,
 * per-series warnings renumbered to the whole call (the others once), timings summed. */
export function joinChunkAnswers(answers: InferResponse[], chunkSeries: number): InferResponse {
  const warnings: string[] = [];
  const seen = new Set<string>();
  answers.forEach((answer, k) => {
    const offset = k * chunkSeries;
    for (const w of (answer.warnings ?? []).map(
      (text) => text.replace(/^series (\d+): /, (_, i: string) => `series ${Number(i) + offset}: `),
    )) if (!seen.has(w)) { seen.add(w); warnings.push(w); }
  });
  const timing: Record<string, number> = {};
  for (const answer of answers) for (const [key, ms] of Object.entries(answer.timing ?? {})) timing[key] = (timing[key] ?? 0) + ms;
  return { ...answers[0], warnings, timing, predictions: answers.flatMap((a) => a.predictions) };
}

/** The body the control plane POSTs to /embed: targets base64, the answer asked in base64 (float32 values). */
export function encodeEmbedRequest(request: EmbedRequest): Record<string, unknown> {
  return { ...request, encoding: 'base64', series: request.series.map((s) => ({ target: encodeFloat64(s.target) })) };
}

type EncodedEmbedding = { vector: string; patches?: string; summary?: string | null };

/** A base64 /embed answer with its arrays decoded: `patches` cut into rows of `dimension`, a row of NaN (a patch the
 * model masks: no observed value) as null. */
export function decodeEmbedResponse(answer: Omit<EmbedResponse, 'embeddings'> & { dtype?: string; embeddings: EncodedEmbedding[] }): EmbedResponse {
  const { dtype, ...rest } = answer;
  if (dtype !== 'float32') throw new Error(`an /embed answer of dtype ${JSON.stringify(dtype)}`);
  const width = answer.dimension;
  return {
    ...rest,
    embeddings: answer.embeddings.map((e): WorkerEmbedding => {
      const decoded: WorkerEmbedding = { vector: decodeFloat32(e.vector) };
      if (e.patches !== undefined) {
        const values = decodeFloat32(e.patches);
        decoded.patches = Array.from({ length: width ? values.length / width : 0 }, (_, k) => {
          const row = values.slice(k * width, (k + 1) * width);
          return row.every(Number.isNaN) ? null : row;
        });
        decoded.summary = e.summary == null ? null : decodeFloat32(e.summary);
      }
      return decoded;
    }),
  };
}

/** The answers of an /embed call cut into chunks, as one answer: embeddings in order, warnings once, timings summed. */
export function joinEmbedAnswers(answers: EmbedResponse[]): EmbedResponse {
  const timing: Record<string, number> = {};
  for (const answer of answers) for (const [key, ms] of Object.entries(answer.timing ?? {})) timing[key] = (timing[key] ?? 0) + ms;
  return { ...answers[0], warnings: [...new Set(answers.flatMap((a) => a.warnings ?? []))], timing, embeddings: answers.flatMap((a) => a.embeddings) };
}
