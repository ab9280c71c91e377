// prism: Horizon's ensemble. Per quantile level (and for the mean), a weighted blend of member
// models' forecasts, the weights learned on a held-out tail window of each series' own history:
// every member forecasts the last `window` observations from what precedes them, and a member's
// weight at a level is proportional to 1 / (its pinball loss there)², mixed with equal weights
// so one lucky window cannot hand a single member everything. Deterministic; the cost is two
// forecasts per member (the window and the horizon), sent to the workers at the same time.
import { HorizonError } from './errors.ts';
import { findModel, type Catalog, type CatalogModel } from './catalog.ts';
import type { RuntimeSeries } from './normalize.ts';
import type { InferenceClient, InferRequest, InferResponse, Prediction } from './runtime/inference.ts';
import { quantileLoss } from './metrics.ts';

export const PRISM_ID = 'prism';
/**
 * Statistical fallback members, used when fewer than two foundation models are served. auto-arima
 * is left out for bounded cost (a long seasonal series takes it a minute); add it with
 * HORIZON_PRISM_MEMBERS.
 */
export const STATISTICAL_MEMBERS = ['auto-ets', 'auto-theta', 'seasonal-naive', 'naive'];
const STATISTICAL = new Set([...STATISTICAL_MEMBERS, 'naive']);
/** share of equal weights in every blend (shrinkage towards the plain average) */
const UNIFORM_SHARE = 0.3;

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

function truncate(series: RuntimeSeries, window: number): RuntimeSeries {
  const n = series.target.length;
  return {
    target: series.target.slice(0, n - window),
    past_covariates: Object.fromEntries(Object.entries(series.past_covariates).map(([k, v]) => [k, v.slice(0, n - window)])),
    future_covariates: Object.fromEntries(Object.keys(series.future_covariates).map((k) => [k, series.past_covariates[k].slice(n - window).map((v) => v ?? 0)])),
    static_covariates: series.static_covariates,
  };
}

/** A member sees at most its own max_context (prism's own cap may be larger). */
function lastObservations(series: RuntimeSeries, n: number): RuntimeSeries {
  if (series.target.length <= n) return series;
  return {
    ...series,
    target: series.target.slice(-n),
    past_covariates: Object.fromEntries(Object.entries(series.past_covariates).map(([k, v]) => [k, v.slice(-n)])),
  };
}

/** Weights ∝ 1/loss², mixed with equal weights; equal weights when nothing was learned. */
export function blendWeights(losses: number[]): number[] {
  const k = losses.length;
  if (losses.some((l) => !Number.isFinite(l))) return losses.map(() => 1 / k);
  const floor = Math.max(...losses) * 1e-6 + 1e-12;
  const raw = losses.map((l) => 1 / (Math.max(l, floor) ** 2));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => UNIFORM_SHARE / k + (1 - UNIFORM_SHARE) * (r / total));
}

function blend(predictions: Prediction[], weights: number[], pick: (p: Prediction) => number[]): number[] {
  const horizon = pick(predictions[0]).length;
  return Array.from({ length: horizon }, (_, t) => predictions.reduce((sum, p, k) => sum + weights[k] * pick(p)[t], 0));
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
      const answer = await call(m, idx.map((i) => truncate(plan.series[i], window)), window);
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
      quantiles[String(q)] = blend(memberForecasts, weights, (p) => levelValues(p, q));
    }
    return { mean: blend(memberForecasts, meanWeights, (p) => p.mean), quantiles };
  });
  return { model: PRISM_ID, size: plan.size, predictions, warnings: [...new Set(forecasts.flatMap((f) => f.warnings))], timing: {} };
}
