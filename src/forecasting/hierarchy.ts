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
import { planAuto, isStoredAutoJob, type AutoSettings, type StoredAutoJob } from './auto.ts';
import type { ForecastPlan, ForecastResult } from './forecast.ts';
import { autoCostMs, forecastCostMs } from './cost.ts';
import { DEFAULT_QUANTILES, RequestValidationError, type RequestWarning } from './normalize.ts';
import { hierarchyStructure, levelTags, reconcileSettings, summingMatrix, type HierarchyOptions } from './hierarchy-spec.ts';
import { nodeSeries } from './hierarchy-series.ts';
import { planTemporal, runTemporal } from './hierarchy-temporal.ts';
import {
  answerForecast, forecastPlanned, onNodes, planNodes, refuseFields, renameNodeErrors, settingsFor,
  type Forecast, type HierarchicalPlan, type HierarchyBody, type HierarchyDeps, type HierarchyRun,
} from './hierarchy-nodes.ts';
import { findModel, type Freq } from '../runtime/catalog.ts';
import type { InferenceClient, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { reconcileHierarchy, type HierarchyReconcileRequest } from '../runtime/hierarchy.ts';

// the shared parts, for the modules that took them from here
export {
  answerForecast, isHierarchicalPlan, refuseCovariates, rejectReconcileFields, renameNodeErrors, settingsFor, symmetricLevels,
  type HierarchicalPlan, type HierarchyBody, type HierarchyDeps, type HierarchyRun,
} from './hierarchy-nodes.ts';

/** Every 4xx of a hierarchical forecast, before anything is charged or stored; the plan to run now or as a job. */
export function planHierarchy(body: HierarchyBody, registry: ModelRegistry, deps: HierarchyDeps): HierarchicalPlan {
  if (body.hierarchy?.temporal !== undefined) return planTemporal(body, registry, deps);
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
  const { hierarchy, ...nodes } = plan;
  const costOf = (p: ForecastPlan | StoredAutoJob) => (isStoredAutoJob(p)
    ? autoCostMs(registry, planAuto(p.auto_request, registry, auto, { mode: 'job' }), cpuWorkers) : forecastCostMs(registry, p, cpuWorkers));
  // a temporal hierarchy's levels are forecasts of their own
  return costOf(nodes) + (hierarchy.temporal ?? []).reduce((sum, level) => sum + costOf(level.plan), 0);
}

/** Per node, the history the model saw and its in-sample one-step fitted values (null where the model gives none); the
 * worker aligns them at their end, the forecast's origin. Model auto (its candidates may differ per node): none. */
function inSampleOf(plan: HierarchicalPlan, answer: InferResponse | undefined): HierarchyReconcileRequest['in_sample'] {
  if (isStoredAutoJob(plan)) return null;
  return plan.series.map((s, k) => {
    const fitted = answer?.predictions[k].in_sample?.mean;
    return { target: s.target, fitted: fitted ? fitted.map((v) => (Number.isFinite(v) ? v : null)) : null };
  });
}

/** Runs a planned hierarchical forecast: the nodes' forecast, the reconciliation, the answer (sync and jobs alike). */
export async function runHierarchy(plan: HierarchicalPlan, inference: InferenceClient, registry: ModelRegistry, deps: HierarchyDeps): Promise<ForecastResult> {
  if (plan.hierarchy.temporal) return runTemporal(plan, inference, registry, deps);
  const run = plan.hierarchy;
  const { structure } = run;
  const { hierarchy: _, ...nodes } = plan;
  const { result, answer } = await forecastPlanned(nodes, inference, registry, deps, !run.noFit);
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
