// One forecast code path for sync requests and jobs: normalised request → worker → contract shape.
import { HorizonError } from '../errors.ts';
import { normalizeForecastRequest, RequestValidationError, type ForecastRequestBody, type NormalizedRequest } from './normalize.ts';
import { planBacktest, scoreBacktest, type BacktestPlan, type EvaluationOptions } from './backtest.ts';
import type { InferenceClient, InferRequest, InferResponse } from '../runtime/inference.ts';
import { PRISM_ID, runPrism, usableMembers, type PrismMember } from './prism.ts';
import { costSizedPool, type PoolInfo } from './model-pool.ts';
import { findModel } from '../runtime/catalog.ts';
import { covariateErrors, covariateKinds, howToServeCovariateModels, kindWords, servedCovariateModels } from './covariates.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager, PullProgress } from '../runtime/model-pull.ts';
import { contractShape, toContract, type ForecastResult } from './contract.ts';
import type { AnswerThreads } from './answer-threads.ts';
import { noteLogFields } from '../contract/request-context.ts';
import { checkExplainModel, checkExplainSeries } from './explain.ts';
import { jointAndSamplesErrors, type JointAndSamples } from './joint-and-samples.ts';

// toContract lives in contract.ts (it also runs in the answer threads); re-exported for its callers
export { toContract, type ForecastResult };

/** A validated forecast, ready to run now or to store as a job. */
export interface ForecastPlan extends NormalizedRequest {
  backtest?: BacktestPlan;
  /** model prism: the members it combines — the request's `prism_members`, else the deployment's (HORIZON_PRISM_MEMBERS,
   * served foundation models) or the statistical pool sized by this request's cost (model-pool.ts) */
  prism_members?: PrismMember[];
  /** model prism: where its members came from (the answer's `prism.pool`) */
  prism_pool?: PoolInfo;
  /** `explain: true`: the worker also answers each covariate's contribution (explain.ts) */
  explain?: boolean;
  /** `multivariate: true`: the series forecast jointly; `samples`: sample paths per series, with `seed` (joint-and-samples.ts) */
  multivariate?: boolean;
  samples?: number;
  seed?: number;
}

/** A model a request names in a list (`auto_candidates`, `prism_members`): an id (`"id:size"` also) or {model, model_size}. */
export type ModelRef = string | { model: string; model_size?: string };

export function parseModelRef(ref: ModelRef): { model: string; model_size?: string } {
  if (typeof ref !== 'string') return ref;
  const [model, model_size] = ref.split(':');
  return model_size ? { model, model_size } : { model };
}

export interface PlannedRef { model: string; size: string; plan: ForecastPlan }

/**
 * Each model of a list field (`auto_candidates`, `prism_members`) planned on the whole request `base`, as
 * `model` would be: against the caller's catalog (its own private models included, another account's are
 * unknown ids), with the same 422s (did-you-mean, size, horizon, not served) naming the item
 * (`field[k].model`, `field[k].model_size`); a `reserved` id is a 422 with its reason, a model twice one naming
 * `field[k]`. With `leaveOut` (a list the client did not send), a model that cannot take the request is
 * left out and described in `skipped` instead (an error on a series is still the request's 422).
 */
export function planModelRefs(
  refs: readonly ModelRef[], field: string, base: ForecastRequestBody & { evaluation?: EvaluationOptions }, registry: ModelRegistry,
  options: { pulls?: PullManager; mode?: 'sync' | 'job'; reserved: Record<string, string>; noun: string; leaveOut?: boolean },
): { planned: PlannedRef[]; skipped: string[] } {
  const planned: PlannedRef[] = [];
  const seen = new Set<string>();
  const skipped: string[] = [];
  refs.forEach((raw, k) => {
    const ref = parseModelRef(raw);
    const item = `${field}[${k}]`;
    if (Object.hasOwn(options.reserved, ref.model)) throw new RequestValidationError([{ field: `${item}.model`, reason: options.reserved[ref.model] }]);
    try {
      const plan = planForecast({ ...base, model: ref.model, model_size: ref.model_size }, registry, { pulls: options.pulls, mode: options.mode ?? 'sync' });
      const key = `${plan.model}:${plan.size}`;
      if (seen.has(key)) throw new RequestValidationError([{ field: item, reason: `${plan.model} (size ${plan.size}) is already a ${options.noun}` }]);
      seen.add(key);
      planned.push({ model: plan.model, size: plan.size, plan });
    } catch (error) {
      // (an error on a series is the request's, whichever model found it: a 422 naming the series)
      const onSeries = error instanceof RequestValidationError && error.errors.some((e) => e.series !== undefined);
      if (options.leaveOut && !onSeries && (error instanceof RequestValidationError || error instanceof HorizonError)) {
        skipped.push(`${ref.model}${ref.model_size ? `:${ref.model_size}` : ''} ` +
          `(${error instanceof RequestValidationError ? error.errors[0].reason : error.message})`);
        return;
      }
      const onItem = (
        e: { series?: number; field: string; reason: string },
      ) => (e.field === 'model' || e.field === 'model_size' ? { ...e, field: `${item}.${e.field}` } : e);
      if (error instanceof RequestValidationError) throw new RequestValidationError(error.errors.map(onItem));
      // not served (weights missing, runtime not installed): the same 422, naming the item
      if (error instanceof HorizonError && error.errors) throw new HorizonError(
        error.code, error.message, { errors: error.errors.map(onItem), unavailable: error.unavailable, headers: error.headers },
      );
      throw error;
    }
  });
  return { planned, skipped };
}

/** 422 for `prism_members` on a request whose model is not prism. */
export function rejectPrismMembers(body: { model?: string; prism_members?: unknown }, model: string | undefined): void {
  if (body.prism_members === undefined || model === PRISM_ID) return;
  const reason = `prism_members applies only to model "prism" (this request's model is ${JSON.stringify(model ?? 'the default')})`;
  throw new RequestValidationError([{ field: 'prism_members', reason }]);
}

/** The members a request names for prism, each planned on the request (a 422 names `prism_members[k]`). */
function planPrismMembers(
  refs: readonly ModelRef[], body: ForecastRequestBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' },
): PrismMember[] {
  const base = { ...body, model: undefined, model_size: undefined, evaluation: undefined };
  const { planned } = planModelRefs(refs, 'prism_members', base, registry, {
    ...options, noun: 'member',
    reserved: { [PRISM_ID]: 'prism cannot be its own member', auto: 'model "auto" cannot be a prism member: name the models themselves' },
  });
  return planned.map((m) => registry.prismMemberOf(m.model, m.size));
}

/** prism blends its members' forecasts made without covariates: a request that sends some is a 422 naming them, never
 * a blend that silently dropped them (src/forecasting/covariates.ts). */
function refuseCovariatesOfPrism(series: ForecastRequestBody['series'], registry: ModelRegistry): void {
  const kinds = covariateKinds(series);
  if (!kinds) return;
  const served = servedCovariateModels(registry, kinds);
  const fix = served.length
    ? `served models that use them: ${served.join(', ')}, or model "auto" (its candidates are then those)`
    : `no served model uses them; ${howToServeCovariateModels(registry, kinds)}`;
  const why = `prism blends forecasts made without covariates and would drop the request's ${kindWords(kinds)}: ${fix}; or send the request without them`;
  throw new RequestValidationError(covariateErrors(series, kinds, why));
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
export function checkWeights(
  registry: ModelRegistry, pulls: PullManager | undefined, model: string, size: string, mode: 'sync' | 'job' | 'warmup',
): PullProgress | undefined {
  if (!pulls || !registry.weightsMissing(model, size)) { registry.checkSize(model, size); return undefined; }
  const finished = pulls.take(model, size);
  if (finished?.state === 'failed') throw new HorizonError('pull_failed', `pulling the weights of ${model} ${size} failed: ${finished.error?.message}`);
  const progress = pulls.start(model, size);
  if (mode === 'sync') {
    throw new HorizonError('model_pulling', `the weights of ${model} ${size} are being pulled from the Hub (${describePull(progress)}); retry ` +
      `after ${PULL_RETRY_AFTER_S} s, or GET /v1/warmup?model=${model}&model_size=${size} to follow the pull`, {
      headers: { 'retry-after': String(PULL_RETRY_AFTER_S) },
    });
  }
  return progress;
}

/** Everything that can make a request a 4xx, checked before anything is charged or stored. */
export function planForecast(
  request: ForecastRequestBody & JointAndSamples & { evaluation?: EvaluationOptions; prism_members?: ModelRef[]; explain?: boolean }, registry: ModelRegistry,
  options: { pulls?: PullManager; mode?: 'sync' | 'job'; minObserved?: number } = {},
): ForecastPlan {
  const { prism_members: memberRefs, explain, ...body } = request;
  // an explanation needs one model that uses covariates: checked first (prism's members are planned without it)
  if (explain) checkExplainModel(registry, body.model ?? registry.defaultModel);
  rejectPrismMembers(request, body.model ?? registry.defaultModel);
  // prism with the request's members: each checked as `model` would be (planned first, so the log fields stay prism's)
  const members = memberRefs && planPrismMembers(memberRefs, body, registry, options);
  // an omitted size means the default this deployment serves (the catalog's, if its weights are here)
  const model = findModel(registry.catalog, body.model ?? registry.defaultModel);
  const sized = body.model_size === undefined && model ? { ...body, model_size: registry.defaultSize(model) } : body;
  noteLogFields({ model: sized.model ?? registry.defaultModel, size: sized.model_size, series: Array.isArray(body.series) ? body.series.length : undefined });
  const normalized = normalizeForecastRequest(sized, registry.catalog, registry.defaultModel, { minObserved: options.minObserved });
  noteLogFields({ model: normalized.model, size: normalized.size });
  if (normalized.model === PRISM_ID) refuseCovariatesOfPrism(body.series, registry);
  // prism is served while two of the deployment's members are; with its own members (each served) it needs none of those
  if (!members) {
    registry.groupFor(normalized.model);
    checkWeights(registry, options.pulls, normalized.model, normalized.size, options.mode ?? 'sync');
  }
  const plan: ForecastPlan = members ? { ...normalized, prism_members: members, prism_pool: { source: 'request' } }
    : normalized.model === PRISM_ID ? { ...normalized, ...deploymentPrism(registry, normalized) } : normalized;
  if (explain) { checkExplainSeries(normalized.model, normalized.series); plan.explain = true; }
  // a joint forecast, sample paths: only where the model's library does it, else a 422 naming the models that do
  const joint = jointAndSamplesErrors(request, findModel(registry.catalog, normalized.model), body.series, normalized.horizon, registry);
  if (joint.length) throw new RequestValidationError(joint);
  if (request.multivariate) plan.multivariate = true;
  if (request.samples) Object.assign(plan, { samples: request.samples }, request.seed === undefined ? {} : { seed: request.seed });
  return body.evaluation ? { ...plan, backtest: planBacktest(body.evaluation, normalized, registry.catalog) } : plan;
}

/** prism's members for a request that names none: HORIZON_PRISM_MEMBERS, else the served foundation models, else the
 * statistical models whose estimated cost per series for this request fits HORIZON_POOL_BUDGET_MS (model-pool.ts). */
function deploymentPrism(registry: ModelRegistry, request: NormalizedRequest): Pick<ForecastPlan, 'prism_members' | 'prism_pool'> {
  const source = registry.prismSource();
  if (source !== 'statistical') return { prism_members: registry.prismMembers(), prism_pool: { source } };
  const { models, info } = costSizedPool(registry, request.freq, request.series);
  return { prism_members: models.map((id) => registry.prismMemberOf(id, findModel(registry.catalog, id)!.default_size)), prism_pool: info };
}

/** The answer's `prism` object: the members blended (those that can forecast the horizon) and where they came from. */
function prismInfo(registry: ModelRegistry, plan: ForecastPlan): ForecastResult['prism'] {
  const members = usableMembers(registry.catalog, plan.prism_members ?? registry.prismMembers(), plan.horizon);
  // (a job stored before pools were sized has no prism_pool: it runs the deployment's members)
  const source = registry.prismSource();
  return {
    members: members.map((m) => ({ model: m.model, model_size: m.size })), pool: plan.prism_pool ?? { source: source === 'statistical' ? 'cost' : source },
  };
}

/** One model call: a worker's, or the ensemble's (which calls the workers of its members: the request's
 * `prism_members` where it named them, else the deployment's). */
export function infer(inference: InferenceClient, registry: ModelRegistry, request: InferRequest, members?: PrismMember[]): Promise<InferResponse> {
  if (request.model === PRISM_ID && members) return runPrism(inference, registry.catalog, members, request);
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
  return (await forecastWithAnswer(inference, registry, plan, onTiming, pulls)).result;
}

/** runForecast, with the worker's answer as it came (a hierarchy reads its series' in-sample fitted values: hierarchy.ts). */
export async function forecastWithAnswer(
  inference: InferenceClient, registry: ModelRegistry, plan: ForecastPlan, onTiming?: (timing: Record<string, number>) => void,
  pulls?: PullManager,
): Promise<{ result: ForecastResult; answer: InferResponse }> {
  // a job accepted while its weights (or those of the prism members it names) were missing waits for their pull (auto-pull)
  for (const { model, size } of plan.prism_members ?? [plan]) {
    if (pulls && registry.weightsMissing(model, size)) {
      await pulls.ensure(model, size).catch((error: Error) => {
        throw new HorizonError('pull_failed', `pulling the weights of ${model} ${size} failed: ${error.message}`);
      });
    }
  }
  // the backtest goes to the worker at the same time, so both can share its batches
  const [answer, backtest] = await Promise.all([
    infer(inference, registry, inferRequestOf(plan), plan.prism_members),
    plan.backtest ? infer(inference, registry, plan.backtest.request, plan.prism_members) : undefined,
  ]);
  if (onTiming && answer.timing) onTiming(answer.timing);
  const result = toContract(plan, answer);
  if (plan.model === PRISM_ID) result.prism = prismInfo(registry, plan);
  if (plan.backtest && backtest) result.metrics = { ...scoreBacktest(plan.backtest, backtest, [...plan.quantiles].sort((a, b) => a - b)) };
  return { result, answer };
}

/** The model call of a plan: what goes to the worker (or prism). */
function inferRequestOf(plan: NormalizedRequest): InferRequest {
  const request: InferRequest = { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series };
  const { multivariate, samples, seed } = plan as ForecastPlan;
  if (multivariate) request.multivariate = true;
  if (samples) Object.assign(request, { samples }, seed === undefined ? {} : { seed });
  return (plan as ForecastPlan).explain ? { ...request, explain: true } : request;
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
  if (plan.backtest || plan.model === PRISM_ID || plan.explain) return undefined;
  noteLogFields({ answer: 'thread' }); // the request's log line says where its answer was written
  return (async () => {
    const text = await inference.inferText(registry.groupFor(plan.model), inferRequestOf(plan));
    const shaped = await threads.shape(text, contractShape(plan));
    onTiming?.(shaped.timing);
    return shaped.body;
  })();
}
