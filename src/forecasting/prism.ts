// prism: Horizon's ensemble. Per quantile level (and for the mean), a combination of member
// models' forecasts in the spirit of the M3/M4 forecast-combination results (the median "SCUM" and
// equal-weight "Comb" beat the single models; weights learned from one short window are noisy):
//
//   forecast = MEDIAN_SHARE · median over members  +  (1 − MEDIAN_SHARE) · Σ_k w_k · member_k
//   w_k ∝ (min_j loss_j / loss_k)^WEIGHT_POWER
//   loss_k = POOL_SHARE · (mean over the request's series of their loss_k) + (1 − POOL_SHARE) · this series' loss_k
//   (POOL_SHARE 1 with LARGE_POOL members or more: the pools sized by cost, issue 35; where most statistical members
//   cannot model the frequency's seasons, SEASONS_UNMODELLED instead: blendSettings)
//   level q = level 0.5 + f · (level q − level 0.5), one f per request fitted on the windows (spreadFactor)
//
// v3 (issue 13). A series' loss of member k at a level is its pinball loss over up to ORIGINS rolling
// origins (windows of w = min(horizon, ⌊n/3⌋) steps: the last w, the w before them, …; every member
// forecasts each window from what precedes it), divided by Σ|actual| over those windows, so that
// series of any size weigh alike when the request's evidence is pooled: the series of one request are
// usually of one kind (the eval sends 64 of one dataset), and on short yearly series one window says
// little. Pooled evidence is steadier, so the weights are sharper than v2's 1/loss. The median is the
// robust prior (one member that fails on a series, e.g. a 52-week seasonal naive on short weekly data,
// cannot drag it). The levels are made monotone without moving the central one (the 0.5 level where
// asked: it is what MASE scores): above it a running max, below it a running min.
// Deterministic. v4 (issue 26): a member with a refit-free backtest (the statistical ones) is fitted once
// per series and its validation forecasts come from that fit applied to the history before each window
// (statsforecast's forward(), its cross_validation(refit=False)): members × 1 fits per series instead of
// members × (1 + ORIGINS), with the same accuracy on the eight evaluation sets (eval/README.md, "prism v4").
// Other members (foundation models) still forecast each origin, one call per member and window length.
//
// Chosen with eval/tools/prism-sim.py on M3 yearly/quarterly and Tourism yearly/quarterly (see
// eval/README.md, "prism v3"); the monthly sets and M4 Hourly/Weekly were not used to choose it. SEASONS_UNMODELLED
// (H, D, W) was chosen on M4 hourly and weekly and NN5 daily and weekly (eval/tools/pool-study.py).
import { HorizonError } from '../errors.ts';
import { findModel, type Catalog, type CatalogModel } from '../runtime/catalog.ts';
import { holdOutTail, type RuntimeSeries } from './normalize.ts';
import type { InferenceClient, InferRequest, InferResponse, Prediction } from '../runtime/inference.ts';
import { quantileLoss } from './metrics.ts';
import { PRISM_ID, type PrismMember } from '../runtime/prism-members.ts';
import { hasUnmodelledSeasons } from './seasons.ts';

export { PRISM_ID, STATISTICAL_MEMBERS, prismMembers, type PrismBacktest, type PrismMember } from '../runtime/prism-members.ts';

/** share of the members' median in every blend; the rest is the inverse-loss weighted mean */
export const MEDIAN_SHARE = 0.5;
/** rolling validation origins per series (fewer where the history is short) */
export const ORIGINS = 2;
/** share of the request's pooled loss in each series' loss; the rest is the series' own */
export const POOL_SHARE = 0.5;
/** with this many members or more (the pools sized by cost, issue 35), the request's pooled loss alone: among more
 * members one series' one or two windows single out a lucky one more often (eval/README.md, "Pools sized by cost") */
export const LARGE_POOL = 4;
export const LARGE_POOL_SHARE = 1;
/** exponent of the inverse-loss weights (v2: 1) */
export const WEIGHT_POWER = 8;

export interface BlendSettings { poolShare: number; power: number; medianShare: number }
/** Statistical members at a frequency whose seasons most of them cannot model (several seasons, or one longer than ETS's:
 * H, D, W; seasons.ts): their median is a biased prior there, so the windows' evidence alone, less sharply weighted.
 * Better on both metrics on all four such sets: M4 hourly MASE / WQL vs the best single 0.937 / 1.111 → 0.835 / 1.046,
 * M4 weekly 0.966 / 0.932 → 0.923 / 0.906, NN5 daily 1.006 / 1.059 → 0.989 / 1.041, NN5 weekly 0.940 / 0.940 → 0.932 /
 * 0.936 (eval/README.md, "prism where the members cannot model the seasons"). */
export const SEASONS_UNMODELLED: BlendSettings = { poolShare: 0.5, power: 4, medianShare: 0 };

/** The blend's settings for these members at `freq`. */
export function blendSettings(catalog: Catalog, members: PrismMember[], freq?: string): BlendSettings {
  const statistical = members.every((m) => !findModel(catalog, m.model)?.weights);
  if (statistical && hasUnmodelledSeasons(catalog, freq)) return SEASONS_UNMODELLED;
  return { poolShare: members.length >= LARGE_POOL ? LARGE_POOL_SHARE : POOL_SHARE, power: WEIGHT_POWER, medianShare: MEDIAN_SHARE };
}

/** The spread factors searched per request: 47 from ⅓ to 3, evenly spaced in log (1 the middle one). */
export const SPREAD_FACTORS = Array.from({ length: 47 }, (_, i) => (1 / 3) * 9 ** (i / 46));
const NEAREST_ONE_FIRST = SPREAD_FACTORS.map((f, i) => ({ f, i })).sort((a, b) => Math.abs(Math.log(a.f)) - Math.abs(Math.log(b.f))).map(({ i }) => i);

/** One series' blended validation forecasts: each window's actual values and the blend's columns (levels × steps). */
export interface BlendedWindows { windows: { actual: number[]; columns: number[][] }[]; scale: number }

/**
 * One factor for every level's distance from the centre level: the one that minimises the request's pinball loss of
 * the blend on its validation windows, summed over the levels (each series' loss ÷ its Σ|actual|, as the weights'
 * losses); ties go to the factor nearest 1, and 1 where no series has a window. The blend's spread, an average of
 * the members' intervals, is off alike across a request's series (too narrow or too wide for all of them), and the
 * windows show by how much. One factor, not one per level or per tail: those lose on the quarterly sets
 * (eval/README.md, "prism's spread calibrated on the windows").
 */
export function spreadFactor(levels: number[], centre: number, series: BlendedWindows[]): number {
  const loss = SPREAD_FACTORS.map(() => 0);
  for (const { windows, scale } of series) {
    for (const { actual, columns } of windows) {
      levels.forEach((q, j) => {
        if (j === centre) return;
        for (let t = 0; t < actual.length; t++) {
          const above = actual[t] - columns[centre][t];
          const spread = columns[j][t] - columns[centre][t];
          for (let i = 0; i < SPREAD_FACTORS.length; i++) {
            const miss = above - SPREAD_FACTORS[i] * spread; // the pinball loss of the level at centre + f · spread
            loss[i] += (miss >= 0 ? q * miss : (q - 1) * miss) / scale;
          }
        }
      });
    }
  }
  let best = NEAREST_ONE_FIRST[0];
  for (const i of NEAREST_ONE_FIRST) if (loss[i] < loss[best]) best = i;
  return SPREAD_FACTORS[best];
}

/** The validation windows of a series: length w = min(horizon, ⌊n/3⌋) and the origins k = 1..ORIGINS
 * (window k is the w steps ending (k − 1)·w before the end) whose window is fully observed and that
 * leave at least max(3, w) observations before it. */
export function validationWindows(target: (number | null)[], horizon: number, origins = ORIGINS): { window: number; origins: number } {
  const n = target.length;
  const window = Math.min(horizon, Math.floor(n / 3));
  let k = 0;
  while (window >= 1 && k < origins) {
    const end = n - k * window;
    const start = end - window;
    const before = target.slice(0, start).filter((v) => v !== null).length;
    if (before < Math.max(3, window) || !target.slice(start, end).every((v) => v !== null)) break;
    k++;
  }
  return { window: k ? window : 0, origins: k };
}

/** The series as it was (k − 1)·w steps before its end, with its last w steps held out to forecast. */
function atOrigin(series: RuntimeSeries, window: number, k: number): RuntimeSeries {
  const drop = (k - 1) * window;
  const n = series.target.length - drop;
  const earlier: RuntimeSeries = drop ? {
    ...series,
    target: series.target.slice(0, n),
    past_covariates: Object.fromEntries(Object.entries(series.past_covariates).map(([name, v]) => [name, v.slice(0, n)])),
    ...(series.index && { index: series.index.slice(0, n) }),
  } : series;
  return holdOutTail(earlier, window);
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

/** Inverse-loss weights ∝ (min loss / loss)^power, summing to 1; equal weights when nothing was learned. */
export function blendWeights(losses: number[], power = WEIGHT_POWER): number[] {
  const k = losses.length;
  if (!k) return [];
  if (losses.some((l) => !Number.isFinite(l))) return losses.map(() => 1 / k);
  const floor = Math.max(...losses) * 1e-6 + 1e-12;
  const floored = losses.map((l) => Math.max(l, floor));
  const best = Math.min(...floored);
  const raw = floored.map((l) => (best / l) ** power);
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => r / total);
}

/**
 * Each series' member losses mixed with the request's: POOL_SHARE · the mean over the series that have
 * losses + the rest · the series' own; the pooled losses alone for a series without a window;
 * undefined when no series of the request has one.
 */
export function pooledLosses(own: (number[] | undefined)[], poolShare = POOL_SHARE): (number[] | undefined)[] {
  const learned = own.filter((l): l is number[] => !!l && l.every(Number.isFinite));
  if (!learned.length) return own.map(() => undefined);
  const pooled = learned[0].map((_, k) => learned.reduce((sum, l) => sum + l[k], 0) / learned.length);
  return own.map((l) => (l && l.every(Number.isFinite) ? l.map((v, k) => poolShare * pooled[k] + (1 - poolShare) * v) : pooled));
}

/** Quantile columns made monotone without moving the level nearest 0.5: a running max above it, a running min below. */
export function monotoneFromCentre(levels: number[], columns: number[][]): number[][] {
  if (levels.length < 2) return columns;
  let centre = 0;
  levels.forEach((q, j) => { if (Math.abs(q - 0.5) < Math.abs(levels[centre] - 0.5)) centre = j; });
  const out = columns.map((c) => [...c]);
  for (let t = 0; t < out[0].length; t++) {
    for (let j = centre + 1; j < levels.length; j++) out[j][t] = Math.max(out[j][t], out[j - 1][t]);
    for (let j = centre - 1; j >= 0; j--) out[j][t] = Math.min(out[j][t], out[j + 1][t]);
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** medianShare · median of the members + the rest · the weighted mean, at every step. */
export function combine(values: number[][], weights: number[], medianShare = MEDIAN_SHARE): number[] {
  const horizon = values[0].length;
  return Array.from({ length: horizon }, (_, t) => {
    const column = values.map((v) => v[t]);
    const weighted = column.reduce((sum, v, k) => sum + weights[k] * v, 0);
    return medianShare ? medianShare * median(column) + (1 - medianShare) * weighted : weighted;
  });
}

const levelValues = (p: Prediction, q: number): number[] => {
  for (const [key, values] of Object.entries(p.quantiles)) if (Number(key) === q) return values;
  throw new HorizonError('inference_failed', `a prism member returned no quantile ${q}`);
};

/** The members that can forecast `horizon` steps (their size's max_horizon): the ones prism blends. */
export function usableMembers(catalog: Catalog, members: PrismMember[], horizon: number): PrismMember[] {
  return members.filter((m) => horizon <= findModel(catalog, m.model)!.sizes[m.size].max_horizon);
}

export async function runPrism(inference: InferenceClient, catalog: Catalog, members: PrismMember[], plan: InferRequest): Promise<InferResponse> {
  const usable = usableMembers(catalog, members, plan.horizon);
  if (usable.length < 2) {
    throw new HorizonError('model_unavailable', `prism needs at least two member models that can forecast ${plan.horizon} steps; ` +
      `available: ${usable.map((m) => m.model).join(', ') || 'none'}`);
  }
  const windows = plan.series.map((s) => validationWindows(s.target, plan.horizon));
  // the 0.5 level is blended too (the centre the spread is calibrated around), asked for or not
  const asked = [...new Set(plan.quantiles)];
  const levels = asked.length ? [...new Set([...asked, 0.5])].sort((a, b) => a - b) : [];
  const fitLevels = levels.length ? levels : [0.5];

  const call = (m: PrismMember, series: RuntimeSeries[], horizon: number) => {
    const maxContext = findModel(catalog, m.model)!.sizes[m.size].max_context;
    return inference.infer(
      m.group, { model: m.model, size: m.size, freq: plan.freq, horizon, quantiles: fitLevels, series: series.map((s) => lastObservations(s, maxContext)) },
    );
  };

  // 'refit' members: every (series, origin) of one window length in one call per member, beside the forecast
  const tasks = new Map<number, { i: number; k: number }[]>();
  windows.forEach(({ window, origins }, i) => {
    for (let k = 1; k <= origins; k++) tasks.set(window, [...(tasks.get(window) ?? []), { i, k }]);
  });
  const refit = async (m: PrismMember): Promise<[InferResponse, Map<string, Prediction>]> => Promise.all([
    call(m, plan.series, plan.horizon),
    Promise.all([...tasks].map(async ([window, list]) => {
      const answer = await call(m, list.map(({ i, k }) => atOrigin(plan.series[i], window, k)), window);
      return list.map(({ i, k }, j) => [`${i}:${k}`, answer.predictions[j]] as const);
    })).then((parts) => new Map(parts.flat())),
  ]);
  // 'forward' members: one call, each series carrying its windows; the worker fits once per series
  const forward = async (m: PrismMember): Promise<[InferResponse, Map<string, Prediction>]> => {
    const series = plan.series.map(
      (s, i) => (windows[i].origins ? { ...s, backtest: { window: windows[i].window, origins: windows[i].origins, step: windows[i].window } } : s),
    );
    const answer = await call(m, series, plan.horizon);
    const validation = new Map<string, Prediction>();
    answer.predictions.forEach((p, i) => p.backtest?.forEach((b, j) => validation.set(`${i}:${j + 1}`, b)));
    for (const p of answer.predictions) delete p.backtest;
    return [answer, validation];
  };
  const answers = await Promise.all(usable.map((m) => (m.backtest === 'forward' ? forward(m) : refit(m))));
  const forecasts = answers.map(([f]) => f);
  const backtests = answers.map(([, b]) => b);

  // each series' scale-free loss of every member: Σ over its origins of the loss ÷ Σ|actual|
  const actualAt = (i: number, k: number) => {
    const { window } = windows[i];
    const end = plan.series[i].target.length - (k - 1) * window;
    return plan.series[i].target.slice(end - window, end) as number[];
  };
  const ownLosses = (loss: (actual: number[], p: Prediction) => number) => plan.series.map((_, i) => {
    const { origins } = windows[i];
    if (!origins) return undefined;
    let scale = 0;
    for (let k = 1; k <= origins; k++) scale += actualAt(i, k).reduce((sum, y) => sum + Math.abs(y), 0);
    return backtests.map((b) => {
      let total = 0;
      for (let k = 1; k <= origins; k++) total += loss(actualAt(i, k), b.get(`${i}:${k}`)!);
      return total / Math.max(scale, 1e-9);
    });
  });
  const { poolShare, power, medianShare } = blendSettings(catalog, usable, plan.freq);
  const weightsFrom = (losses: (number[] | undefined)[]) =>
    pooledLosses(losses, poolShare).map((l) => (l ? blendWeights(l, power) : usable.map(() => 1 / usable.length)));
  const meanWeights = weightsFrom(ownLosses((actual, p) => actual.reduce((sum, y, t) => sum + Math.abs(y - p.mean[t]), 0)));
  const levelWeights = new Map(levels.map((q) => [q, weightsFrom(ownLosses((actual, p) => quantileLoss(actual, levelValues(p, q), q)))]));

  const blend = (memberForecasts: Prediction[], i: number) =>
    monotoneFromCentre(levels, levels.map((q) => combine(memberForecasts.map((p) => levelValues(p, q)), levelWeights.get(q)![i], medianShare)));
  const centre = levels.indexOf(0.5);
  const validation: BlendedWindows[] = plan.series.flatMap((_, i) => {
    const { origins } = windows[i];
    if (!origins) return [];
    const at = Array.from({ length: origins }, (_, j) => ({ actual: actualAt(i, j + 1), columns: blend(backtests.map((b) => b.get(`${i}:${j + 1}`)!), i) }));
    return [{ windows: at, scale: Math.max(at.reduce((sum, w) => sum + w.actual.reduce((a, y) => a + Math.abs(y), 0), 0), 1e-9) }];
  });
  const factor = levels.length ? spreadFactor(levels, centre, validation) : 1;

  const predictions: Prediction[] = plan.series.map((_, i) => {
    const memberForecasts = forecasts.map((f) => f.predictions[i]);
    const blended = blend(memberForecasts, i);
    const columns = blended.map((c) => c.map((v, t) => blended[centre][t] + factor * (v - blended[centre][t])));
    const quantiles = Object.fromEntries(levels.flatMap((q, j) => (asked.includes(q) ? [[String(q), columns[j]]] : [])));
    return { mean: combine(memberForecasts.map((p) => p.mean), meanWeights[i], medianShare), quantiles };
  });
  return { model: PRISM_ID, size: plan.size, predictions, warnings: [...new Set(forecasts.flatMap((f) => f.warnings))], timing: {} };
}
