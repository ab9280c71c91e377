// The statistical models prism combines when neither the request nor the operator names them and fewer than two
// foundation models are served (issue 35), and model "auto" chooses from with HORIZON_AUTO_CANDIDATES=pool: the
// pool is sized by cost for each request. Every served statistical model (catalog `cost`) joins when its estimated cost per series for THIS
// request (series-cost.ts: the series' history × the model's measured cost, seasons counted) fits
// HORIZON_POOL_BUDGET_MS, on top of the base three (auto-ets, auto-theta, seasonal-naive: the pool before,
// always in where served, so no request gets a smaller pool than before). Short yearly series get every model,
// auto-arima included; long hourly or weekly series the cheap ones (damped-ets, dyn-opt-theta, mstl).
//
// The mean over the request's series, not the request's total: how series are batched into requests (or a job
// into chunks) does not change the pool, so neither does the forecast of a series.
import { findModel, type CatalogModel, type Freq } from '../runtime/catalog.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { RuntimeSeries } from './normalize.ts';
import { seriesCostMs } from './series-cost.ts';

/** always in the pool where served: the pool before issue 35 */
export const POOL_BASE = ['auto-ets', 'auto-theta', 'seasonal-naive'];
/** never in a sized pool (a request or the operator may still name them): naive, on non-seasonal data the same
 * forecast as seasonal-naive (a second vote for it) and on seasonal data the worst single model of the evaluation
 * sets; ces, whose validation from its fit (statsforecast's forward(), prism's and auto's windows) costs ~20× its
 * fit on short series (0.80 s against 0.036 s a Tourism yearly series with 2 origins; auto-ets 0.003 s for both),
 * so with it no request would keep prism or auto within 1.5× its members' single forecasts (eval/README.md,
 * "Pools sized by cost") */
export const POOL_EXCLUDED = ['naive', 'ces'];
/** HORIZON_POOL_BUDGET_MS default: ms of one core per series (catalog estimate). 2,000 takes auto-arima on yearly
 * series (its estimate there ~1,600 ms) and nothing over ~2 s a series: not auto-arima on quarterly or longer
 * series, not auto-ets or ces on hourly series of ~1,000 points or more (eval/README.md, "Pools sized by cost") */
export const POOL_DEFAULT_BUDGET_MS = 2000;

/** Where a prism's members or auto's candidates came from: `request` (prism_members, auto_candidates),
 * `operator` (HORIZON_PRISM_MEMBERS, HORIZON_AUTO_CANDIDATES), `foundation` (the served foundation models),
 * `cost` (the pool sized by this request's cost), `default` (auto's fixed default: auto-ets, auto-theta, seasonal-naive,
 * and mstl where the freq has several seasons or one longer than AutoETS models: H, D, W). */
export type PoolSource = 'request' | 'operator' | 'foundation' | 'cost' | 'default';
export interface PoolInfo {
  source: PoolSource;
  /** `cost` only: the budget per series and the served statistical models it left out, with their estimates */
  budget_ms?: number;
  left_out?: { model: string; estimate_ms: number }[];
}

/** mstl with no season longer than 1 at `freq` (yearly data) is auto-ets: the adapter falls back to it. */
function sameAsAnother(registry: ModelRegistry, id: string, freq: string | undefined): boolean {
  if (id !== 'mstl' || freq === undefined) return false;
  const { catalog } = registry;
  const seasons = catalog.mstl_season_lengths?.[freq as Freq] ?? [catalog.season_length[freq as Freq] ?? 1];
  return seasons.every((m) => m <= 1);
}

/** The served statistical models a sized pool may hold at `freq`, in pool order: the base three, then the others in
 * catalog order (not naive or ces: POOL_EXCLUDED; not a model that gives another's forecast at this freq). */
export function statisticalPool(registry: ModelRegistry, freq?: string): string[] {
  const served = new Set(registry.availableIds());
  const statistical = registry.catalog.models
    .filter((m) => m.cost && !m.weights && served.has(m.id) && !POOL_EXCLUDED.includes(m.id) && !sameAsAnother(registry, m.id, freq)).map((m) => m.id);
  return [...POOL_BASE.filter((id) => statistical.includes(id)), ...statistical.filter((id) => !POOL_BASE.includes(id))];
}

/** The mean estimated ms of one core per series of `model` (default size) on this request. */
export function meanSeriesCostMs(registry: ModelRegistry, model: CatalogModel, freq: string, series: readonly RuntimeSeries[]): number {
  if (!series.length) return 0;
  const total = series.reduce((sum, s) => sum + seriesCostMs(registry.catalog, model.id, model.default_size, freq, s), 0);
  return total / series.length;
}

/** Of `ids`, those within `budgetMs` per series on this request (the base three always) and what was left out. */
export function sizeByCost(
  registry: ModelRegistry, ids: readonly string[], freq: string, series: readonly RuntimeSeries[], budgetMs: number,
): { models: string[]; info: PoolInfo } {
  const models: string[] = [];
  const leftOut: { model: string; estimate_ms: number }[] = [];
  for (const id of ids) {
    const estimate = meanSeriesCostMs(registry, findModel(registry.catalog, id)!, freq, series);
    if (POOL_BASE.includes(id) || estimate <= budgetMs) models.push(id);
    else leftOut.push({ model: id, estimate_ms: Math.round(estimate) });
  }
  return { models, info: { source: 'cost', budget_ms: budgetMs, left_out: leftOut } };
}

/** The cost-sized pool of this request: ids in pool order and what was left out. */
export function costSizedPool(
  registry: ModelRegistry, freq: string, series: readonly RuntimeSeries[], budgetMs = registry.poolBudgetMs ?? POOL_DEFAULT_BUDGET_MS,
): { models: string[]; info: PoolInfo } {
  return sizeByCost(registry, statisticalPool(registry, freq), freq, series, budgetMs);
}
