// What cross-sectional and temporal hierarchies (hierarchy.ts, hierarchy-temporal.ts) and their cross-validation
// (hierarchy-cv.ts) share (issue 39): the plan's types, the fields a hierarchy refuses, a request of nodes planned as a
// plain one (or model auto's) with its errors named after the nodes, the reconciliation's settings and fallbacks, and a
// node's forecast as the answer gives it.
import { HorizonError } from '../errors.ts';
import { forecastWithAnswer, planForecast, runForecast, type ForecastPlan, type ForecastResult } from './forecast.ts';
import { isAuto, planAuto, rejectAutoFields, runAuto, storedAutoJob, isStoredAutoJob, type AutoBody, type AutoSettings, type StoredAutoJob } from './auto.ts';
import { DEFAULT_QUANTILES, MAX_QUANTILE_LEVELS, MIN_REQUEST_OBSERVED, RequestValidationError, type FieldError } from './normalize.ts';
import {
  FALLBACK_METHOD, RESIDUAL_INTERVALS, RESIDUAL_METHODS, type HierarchyOptions, type HierarchyStructure, type ReconcileIntervals, type ReconcileMethod,
} from './hierarchy-spec.ts';
import { covariateKinds, kindWords } from './covariates.ts';
import type { Freq } from '../runtime/catalog.ts';
import type { InferenceClient, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

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
  /** a temporal hierarchy (hierarchy-temporal.ts): each level's forecast, coarsest first; the plan itself forecasts the series */
  temporal?: { name: Freq; k: number; plan: ForecastPlan | StoredAutoJob }[];
}

/** A hierarchical forecast's plan: the nodes' forecast (a plan, or model auto's stored request) and the reconciliation. */
export type HierarchicalPlan = (ForecastPlan | StoredAutoJob) & { hierarchy: HierarchyRun };

export function isHierarchicalPlan(request: unknown): request is HierarchicalPlan {
  const h = (request as { hierarchy?: { structure?: unknown } } | null)?.hierarchy;
  return typeof h === 'object' && h !== null && h.structure !== undefined;
}

export interface HierarchyDeps { pulls?: PullManager; mode?: 'sync' | 'job'; auto: AutoSettings }

/** q and 1 - q for every requested level (so each interval has both ends), rounded clear of float noise; 0.5 once.
 * A level within 1e-12 of 0 or 1 has no such mirror (1 - q rounds to 1 or 0): a 422 naming it. */
export function symmetricLevels(quantiles: readonly number[]): number[] {
  const out = [...quantiles];
  const errors: FieldError[] = [];
  quantiles.forEach((q, i) => {
    const other = Number((1 - q).toPrecision(12));
    if (!(other > 0 && other < 1)) {
      errors.push({ field: `quantiles[${i}]`, reason: `with a hierarchy each level q is reconciled with its mirror 1 - q (an interval's two ends), `
        + `and ${q}'s is not strictly between 0 and 1: use a level between 1e-12 and 1 - 1e-12` });
    } else if (!out.some((p) => Math.abs(p - other) < 1e-12)) out.push(other);
  });
  if (!errors.length && out.length > MAX_QUANTILE_LEVELS) {
    errors.push({ field: 'quantiles', reason: `with a hierarchy each level q is reconciled with its mirror 1 - q, and these ${quantiles.length} levels `
      + `with their mirrors are ${out.length}; at most ${MAX_QUANTILE_LEVELS} are allowed (send levels in pairs q, 1 - q)` });
  }
  if (errors.length) throw new RequestValidationError(errors);
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
export function refuseFields(body: HierarchyBody): void {
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
export function planNodes(body: HierarchyBody, series: AutoBody['series'], registry: ModelRegistry, deps: HierarchyDeps): ForecastPlan | StoredAutoJob {
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
export function onNodes(structure: HierarchyStructure) {
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

/** A planned request of nodes run as a plain request's (or model auto's), with the worker's answer where one model made it
 * and `withAnswer` asks for it (its in-sample fitted values). */
export async function forecastPlanned(
  nodes: ForecastPlan | StoredAutoJob, inference: InferenceClient, registry: ModelRegistry, deps: HierarchyDeps, withAnswer: boolean,
): Promise<{ result: ForecastResult; answer?: InferResponse }> {
  if (isStoredAutoJob(nodes)) {
    const auto = planAuto(nodes.auto_request, registry, deps.auto, { pulls: deps.pulls, mode: 'job' });
    return { result: await runAuto(auto, inference, registry, deps.pulls) };
  }
  if (!withAnswer) return { result: await runForecast(inference, registry, nodes, undefined, deps.pulls) };
  return forecastWithAnswer(inference, registry, nodes, undefined, deps.pulls);
}

export type Forecast = { mean: number[]; quantiles: Record<string, number[]> };

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

/** 422 for `reconcile`, `reconcile_intervals` or `reconcile_level` on a request without a hierarchy. */
export function rejectReconcileFields(body: Partial<HierarchyOptions>): void {
  if (body.hierarchy !== undefined) return;
  const sent = (['reconcile', 'reconcile_intervals', 'reconcile_level'] as const).filter((f) => body[f] !== undefined);
  if (sent.length) {
    throw new RequestValidationError(sent.map((field) => ({ field, reason: `applies only with a hierarchy (the request has no \`hierarchy\`)` })));
  }
}
