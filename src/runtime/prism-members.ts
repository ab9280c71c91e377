// Which models prism combines on this deployment: a question about what the registry serves
// (runtime/models.ts answers it for GET /v1/models and prism's availability), so it lives in the
// runtime layer; forecasting/prism.ts, which runs the ensemble, re-exports it.
import { findModel, type Catalog, type CatalogModel } from './catalog.ts';

export const PRISM_ID = 'prism';
/**
 * Statistical fallback members, used when fewer than two foundation models are served: ETS and
 * Theta (the two strongest cheap models on M3/M4) and the seasonal naive (the best of the three on
 * strongly seasonal hourly data, and a third voice for the median). naive is left out (it drags the
 * blend); auto-arima for bounded cost (a long seasonal series takes it a minute) and auto-ces because
 * statsforecast's AutoCES costs ~10× AutoETS per series here; add any of them with
 * HORIZON_PRISM_MEMBERS.
 */
export const STATISTICAL_MEMBERS = ['auto-ets', 'auto-theta', 'seasonal-naive'];

/** How a member's validation forecasts are made: 'forward' = from its fit on the whole history
 * (statsforecast's forward(), one fit per series; models with refit_free_backtest), 'refit' = a forecast
 * of each origin's truncated history of its own (one call per window length). */
export type PrismBacktest = 'forward' | 'refit';
export interface PrismMember { model: string; size: string; group: string; backtest: PrismBacktest }

/** The members for this deployment: configured ones that are served, else served foundation models, else statistical ones.
 * `backtest` 'refit' refits every member at every origin (v3); 'forward' (the default) does so only where the model has no refit-free backtest. */
export function prismMembers(
  catalog: Catalog, configured: string[], isServed: (model: CatalogModel) => boolean, backtest: PrismBacktest = 'forward',
): PrismMember[] {
  const served = (ids: string[]) => ids.map((id) => findModel(catalog, id)).filter((m): m is CatalogModel => !!m && m.id !== PRISM_ID && isServed(m));
  const toMember = (m: CatalogModel) => prismMember(m, m.default_size, backtest);
  if (configured.length) return served(configured).map(toMember);
  // foundation models are the ones with weights; every model without (the statistical ones) is a fallback only
  const foundation = served(catalog.models.filter((m) => m.weights).map((m) => m.id));
  return (foundation.length >= 2 ? foundation : served(STATISTICAL_MEMBERS)).map(toMember);
}

/** One member: `model` at `size`, validated the way `backtest` says (a model without a refit-free backtest always refits). */
export function prismMember(model: CatalogModel, size: string, backtest: PrismBacktest = 'forward'): PrismMember {
  return { model: model.id, size, group: model.group, backtest: backtest === 'forward' && model.refit_free_backtest ? 'forward' : 'refit' };
}
