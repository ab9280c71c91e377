// What one series costs to fit and forecast with one model, from the catalog's measured `cost` (the unit of
// every estimate in cost.ts, and of the cost-sized pools of prism and auto: model-pool.ts). A leaf module, so
// both can read it without an import circle.
import { findModel, type Catalog } from '../runtime/catalog.ts';
import type { RuntimeSeries } from './normalize.ts';

/** A series carrying a `backtest` (validation forecasts from the same fit: statsforecast's forward() at
 * each origin; prism's members, cross-validation with refit false) costs (1 + this) forecasts. Measured
 * with `bench/model_cost.py --backtest`: fit + two forward() origins took 1.1-1.7× a forecast. */
export const BACKTEST_COST_FACTOR = 1;

/** The observed history a fit sees: from the first observed value to the end (leading nulls are dropped). */
function observedLength(target: (number | null)[]): number {
  const first = target.findIndex((v) => v !== null);
  return first < 0 ? 0 : target.length - first;
}

/** The catalog's season length m of `freq` (1 for a freq it does not list). */
export function seasonLength(catalog: Catalog, freq: string): number {
  return catalog.season_length[freq as keyof Catalog['season_length']] ?? 1;
}

/** ms of one core to fit and forecast one series with `model`/`size` (0 for a model without `cost`). */
export function seriesCostMs(catalog: Catalog, model: string, size: string, freq: string, series: RuntimeSeries): number {
  const entry = findModel(catalog, model);
  if (!entry?.cost) return 0;
  const maxContext = entry.sizes[size]?.max_context ?? Infinity;
  const n = Math.min(observedLength(series.target), maxContext);
  const m = seasonLength(catalog, freq);
  const ms = entry.cost.ms_per_series + (entry.cost.us_per_point * n / 1000) * Math.max(1, m / 12);
  return series.backtest ? ms * (1 + BACKTEST_COST_FACTOR) : ms;
}
