// prism: Horizon's ensemble. Per quantile level (and for the mean), a combination of member
// models' forecasts in the spirit of the M3/M4 forecast-combination results (equal-weight "Comb" and
// the median "SCUM" beat the single models; weights learned from one short window are noisy):
//
//   forecast = MEDIAN_SHARE · median over members  +  (1 − MEDIAN_SHARE) · Σ_k w_k · member_k
//   w_k ∝ 1 / (member k's pinball loss at that level on the held-out tail window)
//
// The median is the robust prior (one member that fails on a series, e.g. a 52-week seasonal naive
// on short weekly data, cannot drag it); the learned inverse-loss part lets a member that is clearly
// better on this series' own recent history pull the forecast towards it. The tail window is the last
// min(horizon, ⌊n/3⌋) observations; every member forecasts it from what precedes it. Values are sorted
// across levels at every step so the quantiles stay monotone. Deterministic; the cost is two forecasts
// per member (the window and the horizon), sent to the workers at the same time.
//
// Chosen with eval/tools/prism-sim.py on M3 yearly/quarterly and Tourism yearly/quarterly (see
// eval/README.md, "prism"); the monthly sets and M4 Hourly/Weekly were not used to choose it.
import { HorizonError } from '../errors.ts';
import { findModel, type Catalog, type CatalogModel } from '../runtime/catalog.ts';
import { holdOutTail, type RuntimeSeries } from './normalize.ts';
import type { InferenceClient, InferRequest, InferResponse, Prediction } from '../runtime/inference.ts';
import { quantileLoss } from './metrics.ts';

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
const STATISTICAL = new Set([...STATISTICAL_MEMBERS, 'naive', 'auto-arima', 'auto-ces']);
/** share of the members' median in every blend; the rest is the inverse-loss weighted mean */
export const MEDIAN_SHARE = 0.5;

export interface PrismMember { model: string; size: string; group: string }

/** The members for this deployment: configured ones that are served, else served foundation models, else statistical ones. */
export function prismMembers(catalog: Catalog, configured: string[], isServed: (model: CatalogModel) => boolean): PrismMember[] {
  const served = (ids: string[]) => ids.map((id) => findModel(catalog, id)).filter((m): m is CatalogModel => !!m && m.id !== PRISM_ID && isServed(m));
  const toMember = (m: CatalogModel): PrismMember => ({ model: m.id, size: m.default_size, group: m.group });
  if (configured.length) return served(configured).map(toMember);
  const foundation = served(catalog.models.map((m) => m.id).filter((id) => !STATISTICAL.has(id)));
  return (foundation.length >= 2 ? foundation : served(STATISTICAL_MEMBERS)).map(toMember);
}

/** Length of the tail used to learn the weights: up to the horizon, at most a third of the history. */
function windowFor(series: RuntimeSeries, horizon: number): number {
  const observed = series.target.filter((v) => v !== null).length;
  const window = Math.min(horizon, Math.floor(series.target.length / 3));
  const tail = series.target.slice(series.target.length - window);
  return window >= 1 && observed - window >= 3 && tail.every((v) => v !== null) ? window : 0;
}

/** A member sees at most its own max_context (prism's own cap may be larger). */
function lastObservations(series: RuntimeSeries, n: number): RuntimeSeries {
  if (series.target.length <= n) return series;
  return {
    ...series,
    target: series.target.slice(-n),
    past_covariates: Object.fromEntries(Object.entries(series.past_covariates).map(([k, v]) => [k, v.slice(-n)])),
    ...(series.index && { index: series.index.slice(-n) }),
  };
}

/** Inverse-loss weights (∝ 1/loss, summing to 1); equal weights when nothing was learned. */
export function blendWeights(losses: number[]): number[] {
  const k = losses.length;
  if (!k) return [];
  if (losses.some((l) => !Number.isFinite(l))) return losses.map(() => 1 / k);
  const floor = Math.max(...losses) * 1e-6 + 1e-12;
  const raw = losses.map((l) => 1 / Math.max(l, floor));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => r / total);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** MEDIAN_SHARE · median of the members + the rest · the weighted mean, at every step. */
export function combine(values: number[][], weights: number[]): number[] {
  const horizon = values[0].length;
  return Array.from({ length: horizon }, (_, t) => {
    const column = values.map((v) => v[t]);
    const weighted = column.reduce((sum, v, k) => sum + weights[k] * v, 0);
    return MEDIAN_SHARE * median(column) + (1 - MEDIAN_SHARE) * weighted;
  });
}

const levelValues = (p: Prediction, q: number): number[] => {
  for (const [key, values] of Object.entries(p.quantiles)) if (Number(key) === q) return values;
  throw new HorizonError('inference_failed', `a prism member returned no quantile ${q}`);
};

export async function runPrism(inference: InferenceClient, catalog: Catalog, members: PrismMember[], plan: InferRequest): Promise<InferResponse> {
  const usable = members.filter((m) => {
    const caps = findModel(catalog, m.model)!.sizes[m.size];
    return plan.horizon <= caps.max_horizon;
  });
  if (usable.length < 2) {
    throw new HorizonError('model_unavailable', `prism needs at least two member models that can forecast ${plan.horizon} steps; available: ${usable.map((m) => m.model).join(', ') || 'none'}`);
  }
  const windows = plan.series.map((s) => windowFor(s, plan.horizon));
  const learnable = plan.series.map((s, i) => ({ i, window: windows[i] })).filter((x) => x.window > 0);
  const levels = [...new Set([...plan.quantiles])].sort((a, b) => a - b);
  const fitLevels = levels.length ? levels : [0.5];

  const call = (m: PrismMember, series: RuntimeSeries[], horizon: number) => {
    const maxContext = findModel(catalog, m.model)!.sizes[m.size].max_context;
    return inference.infer(m.group, { model: m.model, size: m.size, freq: plan.freq, horizon, quantiles: fitLevels, series: series.map((s) => lastObservations(s, maxContext)) });
  };

  // forecasts of the horizon, and of each learnable series' window (grouped by window length so
  // every call has one horizon)
  const byWindow = new Map<number, number[]>();
  for (const { i, window } of learnable) byWindow.set(window, [...(byWindow.get(window) ?? []), i]);
  const [forecasts, backtests] = await Promise.all([
    Promise.all(usable.map((m) => call(m, plan.series, plan.horizon))),
    Promise.all(usable.map((m) => Promise.all([...byWindow].map(async ([window, idx]) => {
      const answer = await call(m, idx.map((i) => holdOutTail(plan.series[i], window)), window);
      return idx.map((i, j) => [i, answer.predictions[j]] as const);
    })).then((parts) => new Map(parts.flat())))),
  ]);

  const predictions: Prediction[] = plan.series.map((s, i) => {
    const window = windows[i];
    const actual = window ? (s.target.slice(s.target.length - window) as number[]) : [];
    const memberForecasts = forecasts.map((f) => f.predictions[i]);
    const weightsFor = (loss: (p: Prediction) => number) => (window
      ? blendWeights(backtests.map((b) => loss(b.get(i)!)))
      : usable.map(() => 1 / usable.length));
    const meanWeights = weightsFor((p) => actual.reduce((sum, y, t) => sum + Math.abs(y - p.mean[t]), 0));
    const quantiles: Record<string, number[]> = {};
    for (const q of levels) {
      const weights = weightsFor((p) => quantileLoss(actual, levelValues(p, q), q));
      quantiles[String(q)] = combine(memberForecasts.map((p) => levelValues(p, q)), weights);
    }
    // the weights differ per level, so a blend can cross: sort across levels at every step
    for (let t = 0; t < plan.horizon && levels.length > 1; t++) {
      const column = levels.map((q) => quantiles[String(q)][t]).sort((a, b) => a - b);
      levels.forEach((q, j) => { quantiles[String(q)][t] = column[j]; });
    }
    return { mean: combine(memberForecasts.map((p) => p.mean), meanWeights), quantiles };
  });
  return { model: PRISM_ID, size: plan.size, predictions, warnings: [...new Set(forecasts.flatMap((f) => f.warnings))], timing: {} };
}
