// Coherent forecasts for a hierarchy (issue 39; docs/api.md "Hierarchies"): the request's series are the bottom of
// a tree (hierarchy-spec.ts), each aggregate is the sum of its series (hierarchy-series.ts); every node, bottom and
// aggregates, is forecast with the requested model through the very path a plain request takes (planForecast and
// runForecast, or model "auto"'s planAuto and runAuto), as ONE request whose series are the nodes; then the
// worker's POST /hierarchy/reconcile (hierarchicalforecast) makes the forecasts add up. The answer's series[i] is
// input series i's reconciled forecast; `hierarchy` holds every node's base and reconciled forecast.
// - Quantiles: the model is asked for the symmetric completion of the requested levels (q and 1 - q), so that each
//   interval the reconciliation reads has both ends; only the requested levels are answered, rearranged (sorted per
//   step) so that they never cross.
// - Methods that weigh by in-sample residuals (wls_var, mint_shrink, mint_cov, erm) and the intervals that resample
//   them (bootstrap, permbu) use the model's in-sample fitted values (the statistical models: catalog
//   refit_free_backtest, the worker's `in_sample`). A model without them (foundation models, prism, auto) falls back
//   to wls_struct and normality, said in `hierarchy.warnings` and `hierarchy.method`; so does a covariance the
//   worker finds singular.
import { HorizonError } from '../errors.ts';
import { forecastWithAnswer, planForecast, runForecast, type ForecastPlan, type ForecastResult } from './forecast.ts';
import { isAuto, planAuto, rejectAutoFields, runAuto, storedAutoJob, isStoredAutoJob, type AutoBody, type AutoSettings, type StoredAutoJob } from './auto.ts';
import { autoCostMs, forecastCostMs } from './cost.ts';
import { DEFAULT_QUANTILES, MIN_REQUEST_OBSERVED, RequestValidationError, type FieldError, type RequestWarning } from './normalize.ts';
import {
  FALLBACK_METHOD, RESIDUAL_INTERVALS, RESIDUAL_METHODS, hierarchyStructure, levelTags, reconcileSettings, summingMatrix,
  type HierarchyOptions, type HierarchyStructure, type ReconcileIntervals, type ReconcileMethod,
} from './hierarchy-spec.ts';
import { nodeSeries } from './hierarchy-series.ts';
import { covariateKinds, kindWords } from './covariates.ts';
import { findModel, type Freq } from '../runtime/catalog.ts';
import type { InferenceClient, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { reconcileHierarchy, type HierarchyReconcileRequest } from '../runtime/hierarchy.ts';

export type HierarchyBody = AutoBody & Partial<HierarchyOptions> & {
  explain?: boolean; finetune_steps?: number; multivariate?: boolean; samples?: number; seed?: number; store?: boolean;
};

/** What a hierarchical forecast reconciles: stored with a job, as the node forecast's plan's `hierarchy`. */
export interface HierarchyRun {
  structure: HierarchyStructure;
  method: ReconcileMethod;
  intervals: ReconcileIntervals;
  level?: string;
  /** the levels the client asked for, in its order (the node forecast asks for their symmetric completion) */
  quantiles: number[];
  /** the forecast dates, every node's */
  index: string[];
  /** set when the model has no in-sample fitted values (the reason) */
  noFit?: string;
}

/** A hierarchical forecast's plan: the nodes' forecast (a plan, or model auto's stored request) and the reconciliation. */
export type HierarchicalPlan = (ForecastPlan | StoredAutoJob) & { hierarchy: HierarchyRun };

export function isHierarchicalPlan(request: unknown): request is HierarchicalPlan {
  const h = (request as { hierarchy?: { structure?: unknown } } | null)?.hierarchy;
  return typeof h === 'object' && h !== null && h.structure !== undefined;
}

export interface HierarchyDeps { pulls?: PullManager; mode?: 'sync' | 'job'; auto: AutoSettings }

/** q and 1 - q for every requested level (so each interval has both ends), rounded clear of float noise; 0.5 once. */
export function symmetricLevels(quantiles: readonly number[]): number[] {
  const out = [...quantiles];
  for (const q of quantiles) {
    const other = Number((1 - q).toPrecision(12));
    if (!out.some((p) => Math.abs(p - other) < 1e-12)) out.push(other);
  }
  return out;
}

/** Covariates: an aggregate has none (a sum of covariates means nothing); one 422 per series and field that sends some. */
function covariateErrorsOf(series: HierarchyBody['series']): FieldError[] {
  const kinds = covariateKinds(series);
  if (!kinds) return [];
  return series.flatMap((s, i) => (['hist_variables', 'future_variables', 'static_variables'] as const)
    .filter((field) => s[field] && Object.keys(s[field]).length)
    .map((field) => ({ series: i, field: `series[${i}].${field}`, reason: `not with a hierarchy: an aggregate has no ${kindWords(kinds)} `
      + '(a sum of covariates means nothing); send the series without them' })));
}

/** 422 for covariates in a hierarchy's series (cross-validation too). */
export function refuseCovariates(series: HierarchyBody['series']): void {
  const errors = covariateErrorsOf(series);
  if (errors.length) throw new RequestValidationError(errors);
}

/** The fields a hierarchical forecast refuses: one forecast per node, then the reconciliation, is all it runs. */
function refuseFields(body: HierarchyBody): void {
  const errors: FieldError[] = [];
  const why = (field: string, reason: string) => errors.push({ field, reason });
  if (body.evaluation !== undefined) why('evaluation', 'not with a hierarchy: POST /v1/cross-validation with the same hierarchy scores base and reconciled '
    + 'forecasts per level');
  if (body.explain) why('explain', 'not with a hierarchy: explain a plain forecast (the reconciliation mixes every node\'s forecast)');
  if (body.finetune_steps) why('finetune_steps', 'not with a hierarchy: fine-tune a model to keep (POST /v1/fine-tuning-jobs), then forecast the '
    + 'hierarchy with it');
  if (body.multivariate) why('multivariate', 'not with a hierarchy: its nodes are forecast each on its own, then reconciled');
  if (body.samples) why('samples', 'not with a hierarchy: the reconciliation reconciles quantiles, not sample paths');
  errors.push(...covariateErrorsOf(body.series));
  if (errors.length) throw new RequestValidationError(errors);
}

/** The nodes' forecast planned as a plain request's (or model auto's), every 4xx before anything is charged. */
function planNodes(body: HierarchyBody, series: AutoBody['series'], registry: ModelRegistry, deps: HierarchyDeps): ForecastPlan | StoredAutoJob {
  const { hierarchy: _h, reconcile: _r, reconcile_intervals: _i, reconcile_level: _l, store: _s, ...rest } = body;
  const request = { ...rest, series, quantiles: symmetricLevels(body.quantiles ?? DEFAULT_QUANTILES) };
  if (isAuto(body.model, registry)) {
    return storedAutoJob(planAuto(request, registry, deps.auto, { pulls: deps.pulls, mode: deps.mode ?? 'sync' }));
  }
  rejectAutoFields(request);
  const options = { pulls: deps.pulls, mode: deps.mode ?? 'sync', minObserved: MIN_REQUEST_OBSERVED };
  return planForecast(request as Parameters<typeof planForecast>[0], registry, options);
}

/** A node forecast's error, named after the node: a bottom node's as its input series', an aggregate's with its id and series. */
function onNodes(structure: HierarchyStructure) {
  const firstBottom = structure.nodes.length - structure.seriesCount;
  return <T extends { series?: number; field: string }>(e: T, text: keyof T): T => {
    if (e.series === undefined) return e;
    const k = e.series;
    const node = structure.nodes[k];
    const rename = (s: string) => s.replace(new RegExp(`series\\[${k}\\]`, 'g'), k >= firstBottom ? `series[${k - firstBottom}]` : 'hierarchy')
      .replace(new RegExp(`\\bseries ${k}\\b`, 'g'), k >= firstBottom ? `series ${k - firstBottom}` : `node ${JSON.stringify(node.id)}`);
    const renamed = { ...e, field: rename(e.field), [text]: rename(String(e[text])) };
    if (k >= firstBottom) return { ...renamed, series: k - firstBottom };
    const { series: _, ...rest } = renamed;
    return { ...rest, [text]: `node ${JSON.stringify(node.id)} (the sum of series ${node.series.join(', ')}): ${String(renamed[text])}` } as T;
  };
}

/** A 422 of the nodes' request as the client's: each error named after its node (onNodes). */
export function renameNodeErrors(error: RequestValidationError, structure: HierarchyStructure): RequestValidationError {
  const rename = onNodes(structure);
  return new RequestValidationError(error.errors.map((e) => rename(e, 'reason')));
}

/** Every 4xx of a hierarchical forecast, before anything is charged or stored; the plan to run now or as a job. */
export function planHierarchy(body: HierarchyBody, registry: ModelRegistry, deps: HierarchyDeps): HierarchicalPlan {
  refuseFields(body);
  const structure = hierarchyStructure(body.hierarchy!, body.series.length);
  const { method, intervals, level } = reconcileSettings(body as HierarchyOptions, structure);
  // the input series first, as a plain request of them: their 422s name them as sent
  const bottom = planNodes(body, body.series, registry, deps);
  const nodes = nodeSeries(body.series, body.freq as Freq, body.horizon, structure);
  let plan: ForecastPlan | StoredAutoJob;
  try {
    plan = planNodes(body, nodes, registry, deps);
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    throw renameNodeErrors(error, structure);
  }
  const model = isStoredAutoJob(plan) ? undefined : findModel(registry.catalog, plan.model);
  const noFit = model?.refit_free_backtest ? undefined
    : `model ${isStoredAutoJob(plan) ? '"auto"' : plan.model} has no in-sample fitted values (${isStoredAutoJob(plan)
      ? 'its candidates may differ per node' : 'only the statistical models are fitted to each history'})`;
  // the statistical models' one-step in-sample fitted values, for the methods that weigh by residuals
  if (!isStoredAutoJob(plan) && !noFit) plan = { ...plan, series: plan.series.map((s) => ({ ...s, in_sample: true })) };
  const index = isStoredAutoJob(bottom) ? forecastIndexOf(plan, registry, deps) : bottom.forecastIndex[0];
  const quantiles = body.quantiles ?? [...DEFAULT_QUANTILES];
  const run: HierarchyRun = { structure, method, intervals, quantiles, index, ...(level && { level }), ...(noFit && { noFit }) };
  return { ...plan, hierarchy: run };
}

/** model auto's forecast dates: those of its first candidate's plan of the nodes. */
function forecastIndexOf(plan: ForecastPlan | StoredAutoJob, registry: ModelRegistry, deps: HierarchyDeps): string[] {
  if (!isStoredAutoJob(plan)) return plan.forecastIndex[0];
  return planAuto(plan.auto_request, registry, deps.auto, { pulls: deps.pulls, mode: 'job' }).candidates[0].plan.forecastIndex[0];
}

/** The estimated model time of a hierarchical forecast (the sync budget's 413 and a job's chunks: cost.ts). */
export function hierarchyCostMs(registry: ModelRegistry, plan: HierarchicalPlan, cpuWorkers: number, auto: AutoSettings): number {
  const { hierarchy: _, ...nodes } = plan;
  if (isStoredAutoJob(nodes)) return autoCostMs(registry, planAuto(nodes.auto_request, registry, auto, { mode: 'job' }), cpuWorkers);
  return forecastCostMs(registry, nodes, cpuWorkers);
}

/** The nodes' forecast: the result as a plain request's, and the worker's answer where a single model made it. */
async function forecastNodes(
  plan: HierarchicalPlan, inference: InferenceClient, registry: ModelRegistry, deps: HierarchyDeps,
): Promise<{ result: ForecastResult; answer?: InferResponse }> {
  const { hierarchy: _, ...nodes } = plan;
  if (isStoredAutoJob(nodes)) {
    const auto = planAuto(nodes.auto_request, registry, deps.auto, { pulls: deps.pulls, mode: 'job' });
    return { result: await runAuto(auto, inference, registry, deps.pulls) };
  }
  if (plan.hierarchy.noFit) return { result: await runForecast(inference, registry, nodes, undefined, deps.pulls) };
  return forecastWithAnswer(inference, registry, nodes, undefined, deps.pulls);
}

type Forecast = { mean: number[]; quantiles: Record<string, number[]> };

/** Per node, the history the model saw and its in-sample one-step fitted values (null where the model gives none); the
 * worker aligns them at their end, the forecast's origin. Model auto (its candidates may differ per node): none. */
function inSampleOf(plan: HierarchicalPlan, answer: InferResponse | undefined): HierarchyReconcileRequest['in_sample'] {
  if (isStoredAutoJob(plan)) return null;
  return plan.series.map((s, k) => {
    const fitted = answer?.predictions[k].in_sample?.mean;
    return { target: s.target, fitted: fitted ? fitted.map((v) => (Number.isFinite(v) ? v : null)) : null };
  });
}

/** The method and intervals the worker is asked for: a model without in-sample fitted values falls back (with a warning). */
export function settingsFor(
  run: HierarchyRun, fitted: boolean, noFit = run.noFit,
): { method: ReconcileMethod; intervals: ReconcileIntervals; warnings: string[] } {
  const warnings: string[] = [];
  let { method, intervals } = run;
  if (!fitted && RESIDUAL_METHODS.has(method)) {
    warnings.push(`reconcile ${JSON.stringify(method)} weighs by in-sample residuals and ${noFit ?? 'the model gave no in-sample fitted values'}: `
      + `${FALLBACK_METHOD} was used (weights from the hierarchy's structure)`);
    method = FALLBACK_METHOD;
  }
  if (!fitted && RESIDUAL_INTERVALS.has(intervals) && run.quantiles.length) {
    const why = noFit ?? 'the model gave none';
    warnings.push(`reconcile_intervals ${JSON.stringify(intervals)} resamples in-sample residuals and ${why}: normality was used`);
    intervals = 'normality';
  }
  return { method, intervals, warnings };
}

/** Runs a planned hierarchical forecast: the nodes' forecast, the reconciliation, the answer (sync and jobs alike). */
export async function runHierarchy(plan: HierarchicalPlan, inference: InferenceClient, registry: ModelRegistry, deps: HierarchyDeps): Promise<ForecastResult> {
  const run = plan.hierarchy;
  const { structure } = run;
  const { result, answer } = await forecastNodes(plan, inference, registry, deps);
  const base: Forecast[] = result.series.map(([s]) => {
    const { mean, ...quantiles } = s.prediction;
    return { mean, quantiles };
  });
  const inSample = inSampleOf(plan, answer);
  const settings = settingsFor(run, !!inSample && inSample.every((s) => s.fitted !== null && s.fitted !== undefined));
  const levels = [...new Set(Object.keys(base[0].quantiles).map(Number))].sort((a, b) => a - b);
  const answerOf = await reconcileHierarchy(inference, {
    node_ids: structure.nodes.map((n) => n.id), S: summingMatrix(structure), tags: levelTags(structure),
    method: settings.method, intervals: settings.intervals, reconcile_level: run.level ?? null, quantiles: levels, seed: 0, base, in_sample: inSample,
  });
  if (answerOf.reconciled.length !== structure.nodes.length) {
    throw new HorizonError('inference_failed', `the reconciliation returned ${answerOf.reconciled.length} forecasts for ${structure.nodes.length} nodes`);
  }
  return hierarchyAnswer(plan, result, base, answerOf.reconciled, {
    method: answerOf.method, intervals: answerOf.intervals, warnings: [...settings.warnings, ...answerOf.warnings],
  });
}

/** A node's forecast as the answer gives it: the mean and the requested levels, sorted per step (they never cross). */
export function answerForecast(f: Forecast, requested: readonly number[], horizon: number): Record<string, number[]> {
  const byLevel = new Map(Object.entries(f.quantiles).map(([k, v]) => [Number(k), v]));
  const levels = [...byLevel.keys()].sort((a, b) => a - b);
  const sorted = levels.map(() => new Array<number>(horizon));
  for (let t = 0; t < horizon; t++) {
    const column = levels.map((q) => byLevel.get(q)![t]).sort((a, b) => a - b);
    column.forEach((v, l) => { sorted[l][t] = v; });
  }
  const out: Record<string, number[]> = { mean: [...f.mean] };
  for (const q of [...requested].sort((a, b) => a - b)) {
    const l = levels.findIndex((p) => Math.abs(p - q) < 1e-9);
    if (l < 0) throw new HorizonError('inference_failed', `the reconciliation returned no quantile ${q}`);
    out[String(q)] = sorted[l];
  }
  return out;
}

/** The contract's answer: series[i] = input series i's reconciled forecast; `hierarchy` every node's base and reconciled. */
function hierarchyAnswer(
  plan: HierarchicalPlan, result: ForecastResult, base: Forecast[], reconciled: Forecast[],
  info: { method: string; intervals: string; warnings: string[] },
): ForecastResult {
  const { structure, quantiles, index } = plan.hierarchy;
  const horizon = index.length;
  const firstBottom = structure.nodes.length - structure.seriesCount;
  const rename = onNodes(structure);
  const nodes = structure.nodes.map((node, k) => ({
    ...node, index, base: answerForecast(base[k], quantiles, horizon), reconciled: answerForecast(reconciled[k], quantiles, horizon),
  }));
  const out: ForecastResult = {
    ...result,
    series: nodes.slice(firstBottom).map((n) => [{ prediction: n.reconciled, index }]),
    warnings: result.warnings.map((w) => rename(w as RequestWarning, 'message')),
    hierarchy: { method: info.method, intervals: info.intervals, warnings: info.warnings, nodes },
  };
  if (out.auto) out.auto = { ...out.auto, series: out.auto.series.slice(firstBottom) };
  return out;
}

/** 422 for `reconcile`, `reconcile_intervals` or `reconcile_level` on a request without a hierarchy. */
export function rejectReconcileFields(body: Partial<HierarchyOptions>): void {
  if (body.hierarchy !== undefined) return;
  const sent = (['reconcile', 'reconcile_intervals', 'reconcile_level'] as const).filter((f) => body[f] !== undefined);
  if (sent.length) {
    throw new RequestValidationError(sent.map((field) => ({ field, reason: `applies only with a hierarchy (the request has no \`hierarchy\`)` })));
  }
}
