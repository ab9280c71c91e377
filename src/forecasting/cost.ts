// The estimate of a request's model time (issue 26: no surprise 504s, jobs of any size complete). A
// synchronous request estimated above HORIZON_SYNC_BUDGET_MS is refused at once (413 use_job_api, before
// anything is charged) instead of running into the worker-call timeout; a job estimated above
// HORIZON_JOB_CHUNK_BUDGET_MS runs its model calls in chunks of series that each fit that budget
// (src/jobs/chunks.ts).
//
// A series costs ms_per_series + us_per_point · n / 1000 · max(1, m / 12) ms of one core (catalog
// `cost`, measured with bench/model_cost.py), n = its observed history (from its first observed value,
// capped at the size's max_context), m = the catalog's season length of the freq (seasonal fits cost
// more per point). A model call costs the sum over its series divided by the CPU parallelism
// (HORIZON_CPU_WORKERS: the worker fits a call's series in that many processes), but never less than its
// dearest series (one series is never split). A model without `cost` (the foundation models) is
// estimated 0: never refused, never chunked.
import { HorizonError } from '../errors.ts';
import { findModel, type Catalog } from '../runtime/catalog.ts';
import type { InferRequest } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { ORIGINS, PRISM_ID, type PrismMember } from './prism.ts';
import { BACKTEST_COST_FACTOR, seasonLength, seriesCostMs } from './series-cost.ts';

// (one series' cost lives in series-cost.ts, which the cost-sized pools also read: model-pool.ts)
export { BACKTEST_COST_FACTOR, seriesCostMs };
import type { ForecastPlan } from './forecast.ts';
import type { AutoPlan } from './auto.ts';
import type { CrossValidationPlan } from './cross-validation.ts';
import type { AnomaliesPlan } from './anomalies.ts';

/** A prism member that refits at its validation origins (a foundation model, or HORIZON_PRISM_BACKTEST=refit)
 * costs its forecast × (1 + this): ORIGINS more forecasts on shorter histories, and the blend. A member
 * with a refit-free backtest (prism v4's statistical members) costs what a series carrying a `backtest` costs. */
export const PRISM_COST_FACTOR = ORIGINS;
/** The estimated wall time of `costs` (per series, ms of one core) fitted in one call: their sum over the
 * CPU parallelism, at least the dearest one. */
export function callMs(costs: readonly number[], cpuWorkers: number): number {
  let total = 0;
  let most = 0;
  for (const c of costs) { total += c; if (c > most) most = c; }
  return Math.max(total / Math.max(1, cpuWorkers), most);
}

/** One worker call's estimate (a model of a worker, not prism). */
export function callCostMs(catalog: Catalog, request: InferRequest, cpuWorkers: number): number {
  return callMs(request.series.map((s) => seriesCostMs(catalog, request.model, request.size, request.freq, s)), cpuWorkers);
}

/** A model call as forecast.ts's infer() makes it: a worker's, or prism's (Σ over members — the request's
 * `prism_members` where it named them, else the deployment's: × (1 + BACKTEST_COST_FACTOR) for a member
 * validated from its one fit, × (1 + PRISM_COST_FACTOR) for one that refits). */
export function requestCostMs(registry: ModelRegistry, request: InferRequest, cpuWorkers: number, members?: PrismMember[]): number {
  if (request.model !== PRISM_ID) return callCostMs(registry.catalog, request, cpuWorkers);
  return (members ?? registry.prismMembers()).reduce((sum, m) => {
    const one = callCostMs(registry.catalog, { ...request, model: m.model, size: m.size }, cpuWorkers);
    return sum + one * (1 + (m.backtest === 'forward' ? BACKTEST_COST_FACTOR : PRISM_COST_FACTOR));
  }, 0);
}

/** A forecast plan (plain model or prism), its backtest included. */
export function forecastCostMs(registry: ModelRegistry, plan: ForecastPlan, cpuWorkers: number): number {
  const forecast = requestCostMs(
    registry, { model: plan.model, size: plan.size, freq: plan.freq, horizon: plan.horizon, quantiles: plan.quantiles, series: plan.series }, cpuWorkers,
    plan.prism_members,
  );
  return forecast + (plan.backtest ? requestCostMs(registry, plan.backtest.request, cpuWorkers, plan.prism_members) : 0);
}

/** model "auto": Σ candidates' forecasts of the request × (1 + windows) (the cross-validation, then the final forecasts). */
export function autoCostMs(registry: ModelRegistry, plan: AutoPlan, cpuWorkers: number): number {
  // refit false or 'form': a candidate with a refit-free backtest is fitted once on the whole history, its
  // windows from that fit or from its form (a fraction of a search, about what forward() costs) and its forecast too
  // (a non-seasonal fit's form is searched again at each window: cheap, but counted as refits)
  const refit = plan.cv?.body.refit ?? true;
  return plan.candidates.reduce((sum, c) => {
    const fromOneFit = refit === false || (refit === 'form' && seasonLength(registry.catalog, c.plan.freq) > 1);
    const once = fromOneFit && findModel(registry.catalog, c.model)?.refit_free_backtest;
    return sum + forecastCostMs(registry, c.plan, cpuWorkers) * (1 + (once ? BACKTEST_COST_FACTOR : plan.nWindows));
  }, 0);
}

/** A cross-validation: one call per model with every window of every series. */
export function crossValidationCostMs(registry: ModelRegistry, cv: CrossValidationPlan, cpuWorkers: number): number {
  return cv.plans.reduce((sum, { plan }) => sum + forecastCostMs(registry, plan, cpuWorkers), 0);
}

/** An anomaly request: its model calls. Mode windows: one fit per window (each window a series of the one
 * call); mode in-sample: one fit per series and model (model auto: per candidate). */
export function anomaliesCostMs(registry: ModelRegistry, plan: AnomaliesPlan, cpuWorkers: number): number {
  return plan.calls.reduce((sum, call) => sum + forecastCostMs(registry, call, cpuWorkers), 0);
}

/** 413 use_job_api when a synchronous request's estimate is over the budget: checked before anything is charged.
 * `instead`: what to do, where no job route takes the same body (the job route's sentence otherwise). */
export function checkSyncBudget(estimateMs: number, budgetMs: number, jobPath: string | null, series: number, instead?: string): void {
  if (estimateMs <= budgetMs) return;
  throw new HorizonError('use_job_api',
    `this request (${series} series) is estimated at ${Math.ceil(estimateMs)} ms of model time, `
    + `over this deployment's budget of ${budgetMs} ms for a synchronous call (HORIZON_SYNC_BUDGET_MS); `
    + (instead ?? `send the same body to POST ${jobPath}: a job runs it in chunks that each fit the worker-call timeout, `
      + `and GET ${jobPath}/{job_id} shows its progress and result`));
}

/** The forecasts a synchronous explanation may cost (explain.ts: 2^M per series of M covariates): about what a
 * foundation model forecasts in a few seconds on a CPU (one batch of 256 series of 1-2 s, on chronos-2 base). */
export const EXPLAIN_SYNC_EVALUATIONS = 4096;

/** 413 use_job_api when an explanation is over EXPLAIN_SYNC_EVALUATIONS forecasts: checked before anything is charged.
 * Explanations run synchronously only, so the way out is fewer series (or covariates) per call. */
export function checkExplainBudget(evaluations: number, series: number): void {
  if (evaluations <= EXPLAIN_SYNC_EVALUATIONS) return;
  throw new HorizonError('use_job_api',
    `explaining this request (${series} series) takes ${evaluations} forecasts (2^M per series of M covariates), over the `
    + `${EXPLAIN_SYNC_EVALUATIONS} a synchronous call may make; explanations run synchronously only: send fewer series per call `
    + '(or fewer covariates per series)');
}
