// One forecast code path for sync requests and jobs: normalised request → worker → contract shape.
import type { Static } from '@fastify/type-provider-typebox';
import { HorizonError } from './errors.ts';
import { normalizeForecastRequest, type ForecastRequestBody, type NormalizedRequest } from './normalize.ts';
import { planBacktest, scoreBacktest, type BacktestPlan, type EvaluationOptions } from './backtest.ts';
import type { InferenceClient, InferRequest, InferResponse } from './runtime/inference.ts';
import { PRISM_ID, runPrism } from './prism.ts';
import { findModel } from './catalog.ts';
import type { ModelRegistry } from './models.ts';
import type { ForecastResponse } from './schemas.ts';

export type ForecastResult = Static<typeof ForecastResponse>;

/** A validated forecast, ready to run now or to store as a job. */
export interface ForecastPlan extends NormalizedRequest {
  backtest?: BacktestPlan;
}

/** Everything that can make a request a 4xx, checked before anything is charged or stored. */
export function planForecast(body: ForecastRequestBody & { evaluation?: EvaluationOptions }, registry: ModelRegistry): ForecastPlan {
  // an omitted size means the default this deployment serves (the catalog's, if its weights are here)
  const model = findModel(registry.catalog, body.model ?? registry.defaultModel);
  const sized = body.model_size === undefined && model ? { ...body, model_size: registry.defaultSize(model) } : body;
  const normalized = normalizeForecastRequest(sized, registry.catalog, registry.defaultModel);
  registry.groupFor(normalized.model);
  registry.checkSize(normalized.model, normalized.size);
  return body.evaluation ? { ...normalized, backtest: planBacktest(body.evaluation, normalized, registry.catalog) } : normalized;
}

/** One model call: a worker's, or the ensemble's (which calls the workers of its members). */
function infer(inference: InferenceClient, registry: ModelRegistry, request: InferRequest): Promise<InferResponse> {
  const group = registry.groupFor(request.model);
  return request.model === PRISM_ID ? runPrism(inference, registry.catalog, registry.prismMembers(), request) : inference.infer(group, request);
}

/** The worker's timing of a forecast (ms) as a Server-Timing header value: shows, e.g., that a warm model did not load. */
export function serverTiming(timing: Record<string, number>): string {
  const names: Record<string, string> = { loaded_ms: 'load', queue_ms: 'queue', infer_ms: 'infer' };
  return Object.entries(names).filter(([key]) => Number.isFinite(timing[key])).map(([key, name]) => `${name};dur=${timing[key]}`).join(', ');
}

export async function runForecast(
  inference: InferenceClient, registry: ModelRegistry, plan: ForecastPlan, onTiming?: (timing: Record<string, number>) => void,
): Promise<ForecastResult> {
  // the backtest goes to the worker at the same time, so both can share its batches
  const [answer, backtest] = await Promise.all([
    infer(inference, registry, {
      model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon,
      quantiles: plan.quantiles, series: plan.series,
    }),
    plan.backtest ? infer(inference, registry, plan.backtest.request) : undefined,
  ]);
  if (onTiming && answer.timing) onTiming(answer.timing);
  const result = toContract(plan, answer);
  if (plan.backtest && backtest) result.metrics = { ...scoreBacktest(plan.backtest, backtest, [...plan.quantiles].sort((a, b) => a - b)) };
  return result;
}

/** Shapes the worker's answer as ForecastAPIResponse, checking what the contract promises. */
export function toContract(request: NormalizedRequest, answer: InferResponse): ForecastResult {
  const { horizon, quantiles } = request;
  if (answer.predictions.length !== request.series.length) {
    throw new HorizonError('inference_failed', `the model returned ${answer.predictions.length} predictions for ${request.series.length} series`);
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
    return [{ prediction, index: request.forecastIndex[i] }];
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
