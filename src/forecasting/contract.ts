// The worker's answer as the contract's ForecastAPIResponse (B.2), checked. Its own module, free of the
// service's state, because it also runs in the answer threads (answer-threads.ts).
// Not to be confused with src/contract/ (the contract's own schemas, read by every layer): this module makes one
// worker answer into contract/schemas.ts's ForecastResponse.
import type { Static } from '@fastify/type-provider-typebox';
import { HorizonError } from '../errors.ts';
import type { NormalizedRequest } from './normalize.ts';
import type { InferResponse } from '../runtime/inference.ts';
import { decodeInferResponse, joinChunkAnswers } from '../runtime/wire.ts';
import type { ForecastResponse } from '../contract/schemas.ts';

export type ForecastResult = Static<typeof ForecastResponse>;

/** What shaping an answer needs of the request: everything but the series' values. */
export type ContractShape = Pick<NormalizedRequest, 'model' | 'size' | 'horizon' | 'quantiles' | 'forecastIndex' | 'warnings'> & { seriesCount: number };

export function contractShape(request: NormalizedRequest): ContractShape {
  const { model, size, horizon, quantiles, forecastIndex, warnings } = request;
  return { model, size, horizon, quantiles, forecastIndex, warnings, seriesCount: request.series.length };
}

const encoder = new TextEncoder();

/** The contract's JSON bytes of a worker's /infer answer text (what an answer thread does). encode() gives
 * a fresh buffer of its own, so a thread transfers it instead of copying. */
export function answerBytes(text: string | string[], shape: ContractShape, chunkSeries = 0): { body: Uint8Array; timing: Record<string, number> } {
  // a call cut into fair chunks (runtime/inference.ts): the chunks' answers joined in order
  const answer = typeof text === 'string' ? decodeInferResponse(JSON.parse(text)) : joinChunkAnswers(
    text.map((t) => decodeInferResponse(JSON.parse(t))), chunkSeries,
  );
  return { body: encoder.encode(JSON.stringify(shapeAnswer(shape, answer))), timing: answer.timing ?? {} };
}

/** Shapes the worker's answer as ForecastAPIResponse, checking what the contract promises. */
export function toContract(request: NormalizedRequest, answer: InferResponse): ForecastResult {
  return shapeAnswer(contractShape(request), answer);
}

export function shapeAnswer(request: ContractShape, answer: InferResponse): ForecastResult {
  const { horizon, quantiles } = request;
  if (answer.predictions.length !== request.seriesCount) {
    throw new HorizonError('inference_failed', `the model returned ${answer.predictions.length} predictions for ${request.seriesCount} series`);
  }
  const ascending = [...quantiles].sort((a, b) => a - b);
  const series = answer.predictions.map((p, i) => {
    // levels are matched numerically, so "0.1" from Python and 0.1 here always meet
    const byLevel = new Map(Object.entries(p.quantiles).map(([k, v]) => [Number(k), v]));
    const check = (name: string, values: number[] | undefined): number[] => {
      if (!values || values.length !== horizon || !values.every(Number.isFinite)) {
        throw new HorizonError('inference_failed', `the model returned an invalid "${name}" forecast for series ${i} (expected ${horizon} finite values)`);
      }
      return values;
    };
    const prediction: Record<string, number[]> = { mean: check('mean', p.mean) };
    const sorted = ascending.map((q) => [...check(String(q), byLevel.get(q))]);
    // quantiles never cross (contract B.2): a running maximum over ascending levels at each step
    for (let l = 1; l < sorted.length; l++) {
      for (let t = 0; t < horizon; t++) if (sorted[l][t] < sorted[l - 1][t]) sorted[l][t] = sorted[l - 1][t];
    }
    ascending.forEach((q, l) => { prediction[String(q)] = sorted[l]; });
    // sample paths (a request's `samples`): each a path of horizon finite values
    if (p.samples) return [{ prediction, index: request.forecastIndex[i], samples: p.samples.map((path, k) => check(`samples[${k}]`, path)) }];
    if (!p.contributions) return [{ prediction, index: request.forecastIndex[i] }];
    const { base, features } = p.contributions;
    const contributions = { base: check('base', base), features: Object.fromEntries(Object.entries(features).map(([name, v]) => [name, check(name, v)])) };
    return [{ prediction, index: request.forecastIndex[i], contributions }];
  });
  return {
    status: 'completed',
    model: request.model,
    model_size: request.size,
    series,
    metrics: null,
    warnings: [...request.warnings, ...answer.warnings.map((message) => ({ field: 'model', message }))],
  };
}
