// One forecast code path for sync requests and jobs: normalised request → worker → contract shape.
import { HorizonError } from '../errors.ts';
import { normalizeForecastRequest, type ForecastRequestBody, type NormalizedRequest } from './normalize.ts';
import { planBacktest, scoreBacktest, type BacktestPlan, type EvaluationOptions } from './backtest.ts';
import type { InferenceClient, InferRequest, InferResponse } from '../runtime/inference.ts';
import { PRISM_ID, runPrism } from './prism.ts';
import { findModel } from '../runtime/catalog.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager, PullProgress } from '../runtime/model-pull.ts';
import { contractShape, toContract, type ForecastResult } from './contract.ts';
import type { AnswerThreads } from './answer-threads.ts';
import { noteLogFields } from '../contract/request-context.ts';

// toContract lives in contract.ts (it also runs in the answer threads); re-exported for its callers
export { toContract, type ForecastResult };

/** A validated forecast, ready to run now or to store as a job. */
export interface ForecastPlan extends NormalizedRequest {
  backtest?: BacktestPlan;
}

/** Seconds a client should wait before asking again about a pull under way. */
const PULL_RETRY_AFTER_S = 5;

function describePull(p: PullProgress): string {
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  return p.bytes_total === null ? 'resolving the repository' : `${mb(p.bytes_done)} of ${mb(p.bytes_total)}, ${p.files_done} of ${p.files_total} files`;
}

/** With auto-pull (HORIZON_AUTO_PULL=1), what a request for a size without weights does: 'job' starts the
 * pull and lets the job wait for it; 'sync' starts it and answers 503 + Retry-After; 'warmup' returns the
 * pull's progress (the route answers 202). A pull that failed is reported once (502), the next request
 * starts another. Without auto-pull, or when the weights are there, this is the registry's size check. */
export function checkWeights(registry: ModelRegistry, pulls: PullManager | undefined, model: string, size: string, mode: 'sync' | 'job' | 'warmup'): PullProgress | undefined {
  if (!pulls || !registry.weightsMissing(model, size)) { registry.checkSize(model, size); return undefined; }
  const finished = pulls.take(model, size);
  if (finished?.state === 'failed') throw new HorizonError('pull_failed', `pulling the weights of ${model} ${size} failed: ${finished.error?.message}`);
  const progress = pulls.start(model, size);
  if (mode === 'sync') {
    throw new HorizonError('model_pulling', `the weights of ${model} ${size} are being pulled from the Hub (${describePull(progress)}); retry after ${PULL_RETRY_AFTER_S} s, or GET /v1/warmup?model=${model}&model_size=${size} to follow the pull`, {
      headers: { 'retry-after': String(PULL_RETRY_AFTER_S) },
    });
  }
  return progress;
}

/** Everything that can make a request a 4xx, checked before anything is charged or stored. */
export function planForecast(
  body: ForecastRequestBody & { evaluation?: EvaluationOptions }, registry: ModelRegistry,
  options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {},
): ForecastPlan {
  // an omitted size means the default this deployment serves (the catalog's, if its weights are here)
  const model = findModel(registry.catalog, body.model ?? registry.defaultModel);
  const sized = body.model_size === undefined && model ? { ...body, model_size: registry.defaultSize(model) } : body;
  noteLogFields({ model: sized.model ?? registry.defaultModel, size: sized.model_size, series: Array.isArray(body.series) ? body.series.length : undefined });
  const normalized = normalizeForecastRequest(sized, registry.catalog, registry.defaultModel);
  noteLogFields({ model: normalized.model, size: normalized.size });
  registry.groupFor(normalized.model);
  checkWeights(registry, options.pulls, normalized.model, normalized.size, options.mode ?? 'sync');
  return body.evaluation ? { ...normalized, backtest: planBacktest(body.evaluation, normalized, registry.catalog) } : normalized;
}

/** One model call: a worker's, or the ensemble's (which calls the workers of its members). */
export function infer(inference: InferenceClient, registry: ModelRegistry, request: InferRequest): Promise<InferResponse> {
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
  pulls?: PullManager,
): Promise<ForecastResult> {
  // a job accepted while its weights were missing waits for their pull (auto-pull)
  if (pulls && registry.weightsMissing(plan.model, plan.size)) {
    await pulls.ensure(plan.model, plan.size).catch((error: Error) => {
      throw new HorizonError('pull_failed', `pulling the weights of ${plan.model} ${plan.size} failed: ${error.message}`);
    });
  }
  // the backtest goes to the worker at the same time, so both can share its batches
  const [answer, backtest] = await Promise.all([
    infer(inference, registry, inferRequestOf(plan)),
    plan.backtest ? infer(inference, registry, plan.backtest.request) : undefined,
  ]);
  if (onTiming && answer.timing) onTiming(answer.timing);
  const result = toContract(plan, answer);
  if (plan.backtest && backtest) result.metrics = { ...scoreBacktest(plan.backtest, backtest, [...plan.quantiles].sort((a, b) => a - b)) };
  return result;
}

/** The model call of a plan: what goes to the worker (or prism). */
function inferRequestOf(plan: NormalizedRequest): InferRequest {
  return { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series };
}

/** The sync route's plain forecast when its answer is large: the worker's answer text goes to an answer
 * thread, which decodes, checks and writes it as the response's JSON bytes (answer-threads.ts). Undefined
 * where that does not apply (no threads, prism, a backtest, a small answer): the caller runs runForecast,
 * which gives the same bytes on the event loop. A sync plan always has its weights (planForecast's
 * checkWeights refuses it otherwise), so unlike a job there is no pull to wait for. */
export function forecastBytes(
  inference: InferenceClient, registry: ModelRegistry, plan: ForecastPlan, threads: AnswerThreads | undefined,
  onTiming?: (timing: Record<string, number>) => void,
): Promise<Buffer> | undefined {
  if (!threads?.worthIt(plan.series.length, plan.horizon, plan.quantiles.length)) return undefined;
  if (plan.backtest || plan.model === PRISM_ID) return undefined;
  noteLogFields({ answer: 'thread' }); // the request's log line says where its answer was written
  return (async () => {
    const text = await inference.inferText(registry.groupFor(plan.model), inferRequestOf(plan));
    const shaped = await threads.shape(text, contractShape(plan));
    onTiming?.(shaped.timing);
    return shaped.body;
  })();
}
