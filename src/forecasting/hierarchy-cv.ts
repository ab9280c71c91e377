// Cross-validation of a hierarchy (POST /v1/cross-validation and its jobs with a `hierarchy`; issue 39): every node's
// series (hierarchy-series.ts) is cross-validated as a plain request's series would be (cross-validation.ts: one model
// call per model with every window of every node), then each window is reconciled across the nodes (the worker's
// POST /hierarchy/reconcile, one call per model and window). The answer is the cross-validation's shape with the
// reconciled forecasts as input series i's windows (their scores rank the leaderboard), and per model a `hierarchy`:
// per level and per node, the scores of the base forecasts and of the reconciled ones, and every window of every node.
// Methods that weigh by residuals use each window's own in-sample fit (refit true, a statistical model); a
// refit-free cross-validation (refit false or "form") fits once on the whole history, whose residuals would have
// seen the window: it falls back, as a model without fitted values does.
import { HorizonError } from '../errors.ts';
import {
  crossValidate, leaderboardOf, planCrossValidation, scoreWindows, type CrossValidationBody, type CrossValidationPlan, type ScoredWindow, type WindowScores,
} from './cross-validation.ts';
import { answerForecast, refuseCovariates, renameNodeErrors, settingsFor, symmetricLevels, type HierarchyRun } from './hierarchy.ts';
import { hierarchyStructure, levelTags, reconcileSettings, summingMatrix, type HierarchyOptions } from './hierarchy-spec.ts';
import { nodeSeries } from './hierarchy-series.ts';
import { DEFAULT_QUANTILES, RequestValidationError, type RequestWarning } from './normalize.ts';
import { findModel, type Freq } from '../runtime/catalog.ts';
import type { InferenceClient, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { reconcileHierarchy } from '../runtime/hierarchy.ts';

export type HierarchyCvBody = CrossValidationBody & Partial<HierarchyOptions>;

/** A hierarchy's cross-validation: the nodes' (a plain cross-validation of their series) and the reconciliation. */
export interface HierarchyCvPlan { cv: CrossValidationPlan; run: HierarchyRun; requested: number[] }

/** Every 4xx of a hierarchy's cross-validation, before anything is charged. */
export function planHierarchyCv(body: HierarchyCvBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {}): HierarchyCvPlan {
  refuseCovariates(body.series);
  if (body.hierarchy!.temporal !== undefined) {
    throw new RequestValidationError([{ field: 'hierarchy.temporal', reason: 'temporal hierarchies are forecast (POST /v1/forecast, '
      + '/v1/forecast-jobs), not cross-validated: cross-validate a cross-sectional hierarchy (labels and levels, or aggregates)' }]);
  }
  const structure = hierarchyStructure(body.hierarchy!, body.series.length);
  const { method, intervals, level } = reconcileSettings(body as HierarchyOptions, structure);
  const { hierarchy: _h, reconcile: _r, reconcile_intervals: _i, reconcile_level: _l, ...plain } = body;
  // the input series first, as a plain cross-validation of them: their 422s name them as sent
  planCrossValidation(plain, registry, options);
  const requested = body.quantiles ?? [...DEFAULT_QUANTILES];
  const nodes = { ...plain, series: nodeSeries(body.series, body.freq as Freq, body.horizon, structure), quantiles: symmetricLevels(requested) };
  let cv: CrossValidationPlan;
  try {
    cv = planCrossValidation(nodes, registry, options);
  } catch (error) {
    if (error instanceof RequestValidationError) throw renameNodeErrors(error, structure);
    throw error;
  }
  for (const [m, { plan: p, wins }] of cv.plans.entries()) {
    const counts = new Map<number, number>();
    for (const w of wins) counts.set(w.window, (counts.get(w.window) ?? 0) + 1);
    if (![...counts.values()].some((c) => c === structure.nodes.length)) {
      throw new RequestValidationError([{ field: `models[${m}].model`, reason: `no window of ${p.model} fits every node of the hierarchy (a window is `
        + 'reconciled across all nodes; see the windows left out in a cross-validation without hierarchy)' }]);
    }
  }
  // each window's in-sample one-step fitted values, where each window is a fit of its own (refit true) of a model that has them
  const refit = body.refit ?? true;
  for (const p of cv.plans) {
    if (refit === true && findModel(registry.catalog, p.plan.model)?.refit_free_backtest) {
      p.plan = { ...p.plan, series: p.plan.series.map((s) => ({ ...s, in_sample: true })) };
    }
  }
  const rename = (w: RequestWarning) => renameNodeErrors(new RequestValidationError([{ ...w, reason: w.message }]), structure).errors[0];
  cv.warnings = cv.warnings.map((w) => { const { reason, ...e } = rename(w); return { ...e, message: reason }; });
  const run: HierarchyRun = { structure, method, intervals, quantiles: requested, index: [], ...(level && { level }) };
  return { cv, run, requested };
}

type Forecast = { mean: number[]; quantiles: Record<string, number[]> };
const asForecast = ({ mean, ...quantiles }: Record<string, number[]>): Forecast => ({ mean, quantiles });

interface NodeWindow { k: number; window: number; cutoff: number; index: string[]; actual: number[]; train: number[]; base: Forecast; wi: number }

/** One model's windows per node, grouped by window number: those every node has are reconciled. */
function windowsByNumber(cv: CrossValidationPlan, m: number, models: ReturnType<typeof toModels>): Map<number, NodeWindow[]> {
  const { wins } = cv.plans[m];
  const byNumber = new Map<number, NodeWindow[]>();
  const position = new Map<string, number>(wins.map((w, wi) => [`${w.series}:${w.window}`, wi]));
  models[m].series.forEach((s, k) => {
    for (const w of s.windows) {
      const wi = position.get(`${k}:${w.window}`)!;
      const entry = { k, window: w.window, cutoff: w.cutoff, index: w.index, actual: w.actual, train: wins[wi].train, base: asForecast(w.prediction), wi };
      byNumber.set(w.window, [...(byNumber.get(w.window) ?? []), entry]);
    }
  });
  return byNumber;
}
const toModels = (result: Awaited<ReturnType<typeof crossValidate>>['result']) => result.models;

/** Per node, the history of one window and its in-sample fitted values (null where the model gave none). */
function windowInSample(cv: CrossValidationPlan, m: number, answer: InferResponse, nodes: NodeWindow[]) {
  const plan = cv.plans[m].plan;
  return nodes.map((n) => {
    const fitted = answer.predictions[n.wi].in_sample?.mean;
    return { target: plan.series[n.wi].target, fitted: fitted ? fitted.map((v) => (Number.isFinite(v) ? v : null)) : null };
  });
}

interface ReconciledWindow { window: number; nodes: NodeWindow[]; reconciled: Forecast[] }

/** Reconciles each window every node has (one worker call per window); the others are named in warnings. */
async function reconcileWindows(
  plan: HierarchyCvPlan, m: number, result: Awaited<ReturnType<typeof crossValidate>>, inference: InferenceClient, info: ModelInfo,
): Promise<ReconciledWindow[]> {
  const { cv, run } = plan;
  const { structure } = run;
  const byNumber = windowsByNumber(cv, m, result.result.models);
  const full = [...byNumber.entries()].filter(([, nodes]) => nodes.length === structure.nodes.length).sort(([a], [b]) => a - b);
  for (const [w, nodes] of byNumber) {
    if (nodes.length === structure.nodes.length) continue;
    const missing = structure.nodes.filter((_, k) => !nodes.some((n) => n.k === k)).map((n) => JSON.stringify(n.id));
    info.warnings.push(`window ${w} is not reconciled: nodes ${missing.join(', ')} have no window ${w} (see the warnings)`);
  }
  return Promise.all(full.map(async ([window, nodes]) => {
    const inSample = windowInSample(cv, m, result.answers[m], nodes);
    const settings = settingsFor(run, inSample.every((s) => s.fitted !== null), info.noFit);
    for (const warning of settings.warnings) if (!info.warnings.includes(warning)) info.warnings.push(warning);
    const levels = Object.keys(nodes[0].base.quantiles).map(Number).sort((a, b) => a - b);
    const answer = await reconcileHierarchy(inference, {
      node_ids: structure.nodes.map((n) => n.id), S: summingMatrix(structure), tags: levelTags(structure), method: settings.method,
      intervals: settings.intervals, reconcile_level: run.level ?? null, quantiles: levels, seed: 0, base: nodes.map((n) => n.base), in_sample: inSample,
    });
    if (answer.reconciled.length !== nodes.length) {
      throw new HorizonError('inference_failed', `the reconciliation returned ${answer.reconciled.length} forecasts for ${nodes.length} nodes`);
    }
    info.method.add(answer.method);
    info.intervals.add(answer.intervals);
    for (const warning of answer.warnings) if (!info.warnings.includes(`window ${window}: ${warning}`)) info.warnings.push(`window ${window}: ${warning}`);
    return { window, nodes, reconciled: answer.reconciled };
  }));
}

interface ModelInfo { method: Set<string>; intervals: Set<string>; warnings: string[]; noFit?: string }

/** Runs a planned hierarchy cross-validation: the nodes' cross-validation, each window reconciled, the scores. */
export async function runHierarchyCv(plan: HierarchyCvPlan, inference: InferenceClient, registry: ModelRegistry) {
  const { cv, requested } = plan;
  const crossValidated = await crossValidate(cv, inference, registry);
  const levels = [...requested].sort((a, b) => a - b);
  const models = await Promise.all(cv.plans.map(async ({ plan: p }, m) => {
    const noFit = (cv.body.refit ?? true) !== true ? `refit ${JSON.stringify(cv.body.refit)} fits each node once on its whole history, whose residuals `
      + 'have seen the windows' : findModel(registry.catalog, p.model)?.refit_free_backtest ? undefined
      : `model ${p.model} has no in-sample fitted values (only the statistical models are fitted to each history)`;
    const info: ModelInfo = { method: new Set(), intervals: new Set(), warnings: [], ...(noFit && { noFit }) };
    const windows = await reconcileWindows(plan, m, crossValidated, inference, info);
    return { model: p.model, model_size: p.size, ...modelScores(plan, windows, levels, info) };
  }));
  const { result } = crossValidated;
  const warnings = result.warnings;
  return { ...result, quantiles: levels, leaderboard: leaderboardOf(models, result.metric), models, warnings };
}

/** A window's forecasts as the answer gives them (the requested levels, never crossing) and scored. */
function scoredWindow(n: NodeWindow, reconciled: Forecast, levels: number[], cv: CrossValidationPlan) {
  const horizon = cv.horizon;
  const base = answerForecast(n.base, levels, horizon);
  const rec = answerForecast(reconciled, levels, horizon);
  const score = (prediction: Record<string, number[]>) => scoreWindows([{ actual: n.actual, train: n.train, prediction }], horizon, cv.seasonLength, levels);
  return {
    window: n.window, cutoff: n.cutoff, index: n.index, actual: n.actual, base, reconciled: rec,
    scores: { base: score(base).windows[0], reconciled: score(rec).windows[0] },
  };
}

/** A model's answer: input series i's reconciled windows and scores, and the hierarchy's levels and nodes, base vs reconciled. */
function modelScores(plan: HierarchyCvPlan, windows: ReconciledWindow[], levels: number[], info: ModelInfo) {
  const { cv, run: { structure } } = plan;
  const pool = (items: ScoredWindow[]): WindowScores | null => (items.length ? scoreWindows(items, cv.horizon, cv.seasonLength, levels).aggregate : null);
  const nodes = structure.nodes.map((node, k) => {
    const own = windows.map((w) => scoredWindow(w.nodes[k], w.reconciled[k], levels, cv));
    const items = (which: 'base' | 'reconciled') => own.map(
      (w, j): ScoredWindow => ({ actual: w.actual, train: windows[j].nodes[k].train, prediction: w[which] }),
    );
    return { ...node, scores: { base: pool(items('base')), reconciled: pool(items('reconciled')) }, windows: own, items };
  });
  const levelScores = structure.levels.map((level) => {
    const members = nodes.filter((n) => n.level === level);
    return { level, nodes: members.length, scores: {
      base: pool(members.flatMap((n) => n.items('base'))), reconciled: pool(members.flatMap((n) => n.items('reconciled'))),
    } };
  });
  const firstBottom = structure.nodes.length - structure.seriesCount;
  const series = nodes.slice(firstBottom).map((n) => ({
    scores: n.scores.reconciled,
    windows: n.windows.map((w) => ({
      window: w.window, cutoff: w.cutoff, index: w.index, prediction: w.reconciled, actual: w.actual, scores: w.scores.reconciled,
    })),
  }));
  const bottom = nodes.slice(firstBottom).flatMap((n) => n.items('reconciled'));
  return {
    // (planHierarchyCv refuses a model with no window every node has)
    scores: pool(bottom)!, series,
    hierarchy: {
      method: [...info.method].join(', '), intervals: [...info.intervals].join(', '), warnings: info.warnings,
      levels: levelScores, nodes: nodes.map(({ items: _, ...n }) => n),
    },
  };
}

/** The nodes' cross-validation of a body with a hierarchy, else the body's own: what a job's cost and chunks are estimated on. */
export function crossValidationPlanOf(body: HierarchyCvBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {}) {
  return body.hierarchy !== undefined ? planHierarchyCv(body, registry, options).cv : planCrossValidation(body, registry, options);
}
export type HierarchyCvResult = Awaited<ReturnType<typeof runHierarchyCv>>;
