// Anomaly detection (POST /v1/anomalies): every scored timestep of every series is forecast `step`
// steps ahead from the values before it, with the central interval at `level`; an observation outside
// that band is an anomaly. All windows of all series are ONE model call (the worker batches them).
import { infer, planForecast, toContract, type ForecastPlan } from './forecast.ts';
import { truncate } from './cross-validation.ts';
import { RequestValidationError, type InputSeries, type RequestWarning } from './normalize.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

/** Windows (scored timesteps, summed over series) one request may ask for: bounds the model call. */
export const MAX_ANOMALY_WINDOWS = 20_000;
/** Values of history each window's forecast sees, unless `context` says otherwise (capped at max_context). */
export const DEFAULT_ANOMALY_CONTEXT = 128;
export const DEFAULT_ANOMALY_LEVEL = 99;
/** Observations before the first scored window: two seasons (H 48, D 14, W 104, MS 24, Q 8), at least 8. */
export const defaultMinHistory = (seasonLength: number) => Math.max(2 * seasonLength, 8);

export interface AnomaliesBody {
  series: InputSeries[]; freq: string; model?: string; model_size?: string;
  level?: number; step?: number; context?: number; min_history?: number;
}

/** The window that scores position `position` of series `series`: the `context` values before its cutoff. */
interface Window { series: number; position: number; cutoff: number; input: InputSeries }

export interface AnomaliesPlan {
  body: AnomaliesBody; level: number; step: number; context: number; minHistory: number;
  /** [lo, 0.5, hi]: the band's quantile levels and the median */
  quantiles: [number, number, number];
  /** per series: the first scored position (positions before it are not scored) */
  scoredFrom: number[];
  /** series whose index has gaps: a window's forecast date is checked against the observation's */
  gappy: Set<number>;
  windows: Window[]; plan: ForecastPlan; warnings: RequestWarning[];
}

/** The series from position `start` on (the forecast's context); truncate() then cuts it at the window's cutoff. */
function from(s: InputSeries, start: number): InputSeries {
  if (start === 0) return s;
  const out: InputSeries = { ...s, target: s.target.slice(start), index: s.index.slice(start) };
  if (s.hist_variables) out.hist_variables = Object.fromEntries(Object.entries(s.hist_variables).map(([k, v]) => [k, v.slice(start)]));
  return out;
}

/** The quantile levels of the central interval at `level` percent, rounded clear of float noise (99 → 0.005, 0.995). */
export function bandLevels(level: number): [number, number, number] {
  const lo = Number(((100 - level) / 200).toPrecision(12));
  return [lo, 0.5, Number((1 - lo).toPrecision(12))];
}

/** Every 4xx of an anomaly request, before anything is charged; windows the model refuses become warnings. */
export function planAnomalies(body: AnomaliesBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {}): AnomaliesPlan {
  const level = body.level ?? DEFAULT_ANOMALY_LEVEL;
  const step = body.step ?? 1;
  const seasonLength = registry.catalog.season_length[body.freq as keyof typeof registry.catalog.season_length] ?? 1;
  const minHistory = body.min_history ?? defaultMinHistory(seasonLength);
  const quantiles = bandLevels(level);
  if (!(quantiles[0] > 0 && quantiles[2] < 1)) throw new RequestValidationError([{ field: 'level', reason: `level ${level} leaves no band: its quantiles ${quantiles[0]} and ${quantiles[2]} must lie strictly between 0 and 1` }]);
  const warnings: RequestWarning[] = [];
  const renamed = (errors: { series?: number; field: string; reason: string }[]) => errors.map((e) => (e.field === 'horizon' ? { ...e, field: 'step', reason: e.reason.replace(/^horizon/, 'step') } : e));
  const plan = (series: InputSeries[], context?: number) => planForecast({ series, horizon: step, freq: body.freq as never, model: body.model, model_size: body.model_size, context, quantiles: [...new Set(quantiles)] }, registry, { pulls: options.pulls, mode: options.mode ?? 'sync' });

  // the series as sent first: a bad date, model or step is a 422 naming the input series, never a window left out
  let whole: ForecastPlan;
  try {
    whole = plan(body.series.map(({ future_variables: _f, future_variables_index: _i, ...s }) => s));
  } catch (error) {
    if (error instanceof RequestValidationError) throw new RequestValidationError(renamed(error.errors));
    throw error;
  }
  const context = Math.min(body.context ?? DEFAULT_ANOMALY_CONTEXT, whole.context);
  if (body.context !== undefined && body.context > whole.context) warnings.push({ field: 'context', message: `context ${body.context} exceeds the max_context ${whole.context} of model ${whole.model} (size ${whole.size}); using ${whole.context}` });
  // the series' own warnings (gaps, covariates the model ignores), once per series rather than per window
  const gappy = new Set(whole.warnings.filter((w) => w.series !== undefined && w.field === `series[${w.series}].index`).map((w) => w.series!));
  for (const w of whole.warnings) if (w.series !== undefined) warnings.push(w);

  // window of position t: cutoff t - step + 1, at least min_history values before it
  const first = minHistory + step - 1;
  const scoredFrom = body.series.map((s) => Math.min(first, s.target.length));
  const total = body.series.reduce((sum, s) => sum + Math.max(0, s.target.length - first), 0);
  if (total === 0) throw new RequestValidationError([{ field: 'min_history', reason: `no series has a timestep to score: the first scored position is min_history ${minHistory} + step ${step} - 1 = ${first}, and the longest series has ${Math.max(...body.series.map((s) => s.target.length))} values` }]);
  if (total > MAX_ANOMALY_WINDOWS) throw new RequestValidationError([{ field: 'series', reason: `${total} timesteps to score (one window each) exceed the maximum of ${MAX_ANOMALY_WINDOWS} per request; send fewer or shorter series, or raise min_history` }]);
  const windows: Window[] = [];
  body.series.forEach((s, i) => {
    if (s.target.length <= first) warnings.push({ series: i, field: `series[${i}].target`, message: `series ${i} has ${s.target.length} values, not more than the ${first} before the first scored position (min_history ${minHistory} + step ${step} - 1): nothing is scored` });
    for (let t = first; t < s.target.length; t++) {
      const cutoff = t - step + 1;
      const start = Math.max(0, cutoff - context);
      windows.push({ series: i, position: t, cutoff, input: truncate(from(s, start), cutoff - start, step) });
    }
  });

  // the windows: one the model refuses (e.g. its context holds no observation) is left out, with the reason
  let kept = windows;
  for (;;) {
    try {
      const planned = plan(kept.map((w) => w.input), context);
      return { body, level, step, context, minHistory, quantiles, scoredFrom, gappy, windows: kept, plan: planned, warnings };
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      const general = error.errors.filter((e) => e.series === undefined);
      if (general.length) throw new RequestValidationError(renamed(general));
      const bad = new Set(error.errors.map((e) => e.series!));
      if (bad.size === kept.length) throw new RequestValidationError([{ field: 'series', reason: `no timestep can be forecast: ${error.errors[0].reason}` }]);
      // one warning per series and reason, naming the positions (ranges), however many windows
      const grouped = new Map<string, { series: number; reason: string; positions: number[] }>();
      for (const e of error.errors) {
        const w = kept[e.series!];
        const reason = /holds? (only null|no observed target value)/.test(e.reason)
          ? `the ${context} values before the window's cutoff (context ${context}) hold no observation`
          : `the model refused the window: ${e.reason.replace(/series \d+/g, 'the window')}`;
        const key = `${w.series}\u0000${reason}`;
        if (!grouped.has(key)) grouped.set(key, { series: w.series, reason, positions: [] });
        grouped.get(key)!.positions.push(w.position);
      }
      for (const { series, reason, positions } of grouped.values()) {
        const what = positions.length === 1 ? `position ${positions[0]}` : `positions ${ranges(positions)}`;
        warnings.push({ series, field: `series[${series}].target`, message: `${what} not scored: ${reason}` });
      }
      kept = kept.filter((_, k) => !bad.has(k));
    }
  }
}

/** Ascending positions as ranges: 3, 5–8, 11. */
function ranges(positions: number[]): string {
  const out: string[] = [];
  for (let k = 0; k < positions.length;) {
    let j = k;
    while (j + 1 < positions.length && positions[j + 1] === positions[j] + 1) j++;
    out.push(j === k ? String(positions[k]) : `${positions[k]}–${positions[j]}`);
    k = j + 1;
  }
  return out.join(', ');
}

/** One model call with every window, then per timestep: band, observation, anomaly flag and score. */
export async function runAnomalies(p: AnomaliesPlan, inference: InferenceClient, registry: ModelRegistry) {
  const { plan, windows, step, quantiles: [lo, mid, hi] } = p;
  const answer = await infer(inference, registry, { model: plan.model, size: plan.size, freq: plan.freq, horizon: step, quantiles: plan.quantiles, series: plan.series });
  const result = toContract(plan, answer);
  // the windows' own per-series warnings repeat the series' (already in p.warnings); request-level and model ones stay
  const warnings = [...p.warnings, ...result.warnings.filter((w) => w.series === undefined)];
  const series = p.body.series.map((s, i) => {
    const n = s.target.length - p.scoredFrom[i];
    const column = <T>(fill: T) => Array.from({ length: n }, () => fill);
    return {
      scored_from: p.scoredFrom[i], index: s.index.slice(p.scoredFrom[i]), actual: s.target.slice(p.scoredFrom[i]),
      forecast: column<number | null>(null), median: column<number | null>(null), lo: column<number | null>(null), hi: column<number | null>(null),
      anomaly: column(false), score: column<number | null>(null), anomalies: [] as number[],
    };
  });
  const offDate = new Set<number>();
  windows.forEach((w, k) => {
    const { prediction, index } = result.series[k][0];
    const out = series[w.series];
    const j = w.position - p.scoredFrom[w.series];
    // after a gap in the index the window's k-th forecast step is not the observation's date
    if (p.gappy.has(w.series) && Date.parse(index[step - 1]) !== Date.parse(p.body.series[w.series].index[w.position])) { offDate.add(w.series); return; }
    const [f, m, l, h] = [prediction.mean[step - 1], prediction[String(mid)][step - 1], prediction[String(lo)][step - 1], prediction[String(hi)][step - 1]];
    out.forecast[j] = f; out.median[j] = m; out.lo[j] = l; out.hi[j] = h;
    const y = out.actual[j];
    if (y === null) return; // a missing value is never flagged
    out.anomaly[j] = y < l || y > h;
    if (out.anomaly[j]) out.anomalies.push(w.position);
    // signed residual in units of the band's half on its side: |score| > 1 exactly when outside
    const half = y >= m ? h - m : m - l;
    out.score[j] = y === m ? 0 : half > 0 ? (y - m) / half : null;
  });
  for (const i of offDate) warnings.push({ series: i, field: `series[${i}].index`, message: `series ${i}: timesteps right after a gap in the index were not scored (their forecast falls on another date)` });
  return {
    model: plan.model, model_size: plan.size, level: p.level, step, context: p.context, min_history: p.minHistory,
    quantiles: p.quantiles, n_windows: windows.length, n_anomalies: series.reduce((sum, s) => sum + s.anomalies.length, 0),
    series, warnings,
  };
}
