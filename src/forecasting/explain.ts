// `explain: true` on POST /v1/forecast: each covariate's contribution to the mean forecast, per step (SHAP values).
// The worker forecasts every coalition of a series' covariates in the same model call as the forecast itself and
// shap's exact explainer turns them into Shapley values (runtime/horizon_runtime/explain.py): 2^M forecasts for a
// series of M covariates. Here: the 422s (a model without covariates, a series with too many) and the bound on a
// synchronous call's forecasts (cost.ts checkExplainBudget).
import { findModel, type CatalogModel } from '../runtime/catalog.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { RuntimeSeries } from '../runtime/worker-protocol.ts';
import type { FieldError } from '../errors.ts';
import { RequestValidationError } from './normalize.ts';

/** Covariates per series an explanation takes: 2^10 = 1,024 forecasts of the series (the worker's MAX_FEATURES). */
export const EXPLAIN_MAX_FEATURES = 10;

/** A series' features: its past covariates (known-future ones are among them), then its static ones. */
export function featuresOf(series: Pick<RuntimeSeries, 'past_covariates' | 'static_covariates'>): string[] {
  const past = Object.keys(series.past_covariates ?? {});
  return [...past, ...Object.keys(series.static_covariates ?? {}).filter((name) => !past.includes(name))];
}

/** The forecasts an explanation of these series costs: 2^M per series of M covariates (the coalitions). */
export function explainEvaluations(series: readonly Pick<RuntimeSeries, 'past_covariates' | 'static_covariates'>[]): number {
  return series.reduce((sum, s) => sum + 2 ** featuresOf(s).length, 0);
}

const usesCovariates = (m: CatalogModel) => m.covariates.past || m.covariates.future || m.covariates.static;

/** 422 when `model` cannot be explained: auto and prism pick or blend models (name one), a model that uses no
 * covariates has nothing to explain (the reason names the served models that use some). */
export function checkExplainModel(registry: ModelRegistry, model: string): void {
  const entry = findModel(registry.catalog, model);
  if (model !== 'auto' && (!entry || usesCovariates(entry))) return; // an unknown id: normalize's 422
  const served = new Set(registry.availableIds());
  const usable = registry.catalog.models.filter((m) => served.has(m.id) && usesCovariates(m)).map((m) => m.id);
  const which = usable.length ? `models that use covariates: ${usable.join(', ')}` : 'no served model uses covariates';
  const why = model === 'auto' || model === 'prism'
    ? `model "${model}" ${model === 'auto' ? 'picks a model per forecast' : 'blends forecasts made without covariates'}; `
      + `an explanation needs one model that uses covariates (${which})`
    : `model ${model} uses no covariates, so no exogenous feature changes its forecast (${which})`;
  throw new RequestValidationError([{ field: 'explain', reason: `true: ${why}` }]);
}

/** 422 unless some series carries covariates the model uses, and none more than EXPLAIN_MAX_FEATURES (after routing:
 * what the model does not use was dropped, with a warning). */
export function checkExplainSeries(model: string, series: readonly RuntimeSeries[]): void {
  const errors: FieldError[] = [];
  series.forEach((s, i) => {
    const m = featuresOf(s).length;
    if (m > EXPLAIN_MAX_FEATURES) {
      const reason = `has ${m} covariates; an explanation forecasts every subset of them (2^${m}), at most ${EXPLAIN_MAX_FEATURES} covariates per series`;
      errors.push({ series: i, field: `series[${i}]`, reason });
    }
  });
  if (!series.some((s) => featuresOf(s).length > 0)) {
    const fields = 'hist_variables, future_variables, static_variables';
    errors.push({ field: 'explain', reason: `true: no series carries covariates that ${model} uses (${fields}): there is nothing to explain` });
  }
  if (errors.length) throw new RequestValidationError(errors);
}
