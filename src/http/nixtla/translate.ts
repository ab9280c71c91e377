// The Nixtla SDK's columnar payloads (nixtla==0.9.0: nixtla/_payloads.py, nixtla_client.py) turned into
// Horizon request bodies, and Horizon's answers turned into what the SDK parses. Pure functions, no I/O.
//
// What the SDK sends: one flat `y` with `sizes` (values per series, series sorted by unique_id), optional
// `X` (one flat array per exogenous column, future columns first), `X_future` (per future column,
// n_series × h values), `start_datetime` (first timestamp per series; absent for integer time columns),
// `freq` as a pandas alias, `level` as percentages. What it parses: flat `mean` and `intervals`
// ({"lo-80": [...], "hi-80": [...]}) in the same series order; for cross-validation `idxs` (positions in
// its `y` of each forecast value) and `sizes` (forecast values per series); for in-sample answers `sizes`
// (the tail of each series covered); for anomalies also `anomaly`.
import type { Freq } from '../../runtime/catalog.ts';
import type { FieldError } from '../../errors.ts';
import type { InputSeries } from '../../forecasting/normalize.ts';
import { dateAtStep, parseIndex, type Grid } from '../../forecasting/calendar.ts';
import { multivariateScores, univariateScores, type ScoredTail } from './threshold-methods.ts';

/** The `series` object of every columnar payload. */
export interface NixtlaSeries {
  y: (number | null)[];
  sizes: number[];
  X?: (number | string | null)[][] | null;
  X_future?: (number | string | null)[][] | null;
  start_datetime?: string[] | null;
  categorical_exog?: number[] | null;
}

/** A level (percent) and the two quantiles of its central interval, keyed as the SDK names its columns. */
export interface LevelBand { key: string; lo: number; hi: number }

// ---------------------------------------------------------------- frequencies

const MONTHLY = new Set(['MS', 'M', 'ME', 'BM', 'BME', 'BMS', 'CBM', 'CBME', 'CBMS']);
const QUARTERLY = new Set(['Q', 'QE', 'QS', 'BQ', 'BQE', 'BQS']);
const YEARLY = new Set(['Y', 'YE', 'YS', 'A', 'AS', 'BA', 'BAS', 'BY', 'BYE', 'BYS']);

/** A pandas offset alias (as the SDK standardises it) → Horizon's freq; undefined when Horizon has no such grid. */
export function horizonFreq(pandasFreq: string): Freq | undefined {
  // a multiple of 1 is the alias itself (`1D`); any other multiple is another grid
  const match = /^(\d*)([A-Za-z]+)(?:-[A-Za-z]{3})?$/.exec(pandasFreq.trim());
  if (!match || (match[1] !== '' && Number(match[1]) !== 1)) return undefined;
  const base = match[2];
  const anchored = pandasFreq.includes('-');
  if (base === 'h' || base === 'H') return anchored ? undefined : 'H';
  if (base === 'D') return anchored ? undefined : 'D';
  if (base === 'W') return 'W';
  if (MONTHLY.has(base)) return anchored ? undefined : 'MS';
  if (QUARTERLY.has(base)) return 'Q';
  if (YEARLY.has(base)) return 'Y';
  return undefined;
}

export const FREQ_REASON = 'Horizon forecasts hourly (h), daily (D), weekly (W, W-SUN …), monthly (MS, ME), quarterly (QS, QE, Q-DEC …) and ' +
  'yearly (YS, YE …) series';

// ---------------------------------------------------------------- dates

/** A synthetic first date when the SDK sends none (an integer time column): the SDK dates the answer itself. */
const SYNTHETIC_START = '2000-01-01';

/** `start_datetime` as the SDK writes it (numpy `datetime_as_string`, or `isoformat()` with an offset) →
 * a date Horizon's calendar reads on `freq`'s grid. Only the wall-clock date (and, hourly, the time) is
 * kept: these dates never leave the server (the SDK dates its answer from its own frame). */
function startDate(freq: Freq, raw: string | undefined): string | undefined {
  if (raw === undefined) return SYNTHETIC_START;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(raw);
  if (!m) return undefined;
  if (freq !== 'H') return m[1];
  return `${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}`;
}

/** Dates on the grid from a start: shared by series with the same start (the calendar parses one index per distinct array). */
class Dates {
  private readonly grids = new Map<string, Grid | null>();
  private readonly runs = new Map<string, string[]>();
  private readonly freq: Freq;
  constructor(freq: Freq) { this.freq = freq; }

  grid(start: string): Grid | undefined {
    if (!this.grids.has(start)) {
      const parsed = parseIndex(this.freq, [start]);
      this.grids.set(start, parsed.ok ? parsed.index.grid : null);
    }
    return this.grids.get(start) ?? undefined;
  }

  /** dates at steps [from, to) of the grid starting at `start` */
  range(start: string, from: number, to: number): string[] {
    const key = `${start}|${from}`;
    let run = this.runs.get(key);
    const grid = this.grid(start)!;
    if (!run || run.length < to - from) {
      run = Array.from({ length: to - from }, (_, k) => dateAtStep(grid, from + k));
      this.runs.set(key, run);
    }
    return run.length === to - from ? run : run.slice(0, to - from);
  }
}

// ---------------------------------------------------------------- series

export interface SeriesOptions {
  freq: Freq;
  /** forecast: the horizon, to date X_future */
  h?: number;
  /** columns of X that are known in the future (forecast: the X_future columns; cross-validation: those not in hist_exog) */
  futureColumns: Set<number>;
  /** cross-validation: future columns carry no future values (each window takes them from the history) */
  futureFromHistory?: boolean;
}

/** The name of exogenous column j in Horizon's request (the SDK sends no names, only positions). */
export const exogName = (j: number) => `x${j}`;

/** Checks the columnar shape and splits it into Horizon's series; every problem is a field error. */
export function splitSeries(series: NixtlaSeries, options: SeriesOptions, errors: FieldError[]): InputSeries[] {
  const { y, sizes } = series;
  const n = sizes.length;
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total !== y.length) { errors.push({ field: 'series.sizes', reason: `the sizes add up to ${total} but y has ${y.length} values` }); return []; }
  const X = series.X ?? [];
  X.forEach((column, j) => {
    if (column.length !== y.length) errors.push({ field: `series.X[${j}]`, reason: `has ${column.length} values but y has ${y.length}` });
  });
  const future = series.X_future ?? [];
  if (options.h !== undefined) {
    future.forEach((column, j) => {
      if (column.length !== n * options.h!) errors.push({ field: `series.X_future[${j}]`, reason: `has ${column.length} values but ${n} series × ` +
        `h ${options.h} = ${n * options.h!} are needed` });
    });
  }
  const starts = series.start_datetime ?? undefined;
  if (starts && starts.length !== n) errors.push({ field: 'series.start_datetime', reason: `has ${starts.length} dates but sizes has ${n} series` });
  if (errors.length) return [];

  const dates = new Dates(options.freq);
  const out: InputSeries[] = [];
  let offset = 0;
  for (let i = 0; i < n; i++) {
    const size = sizes[i];
    const start = startDate(options.freq, starts?.[i]);
    if (!start || !dates.grid(start)) {
      errors.push({ series: i, field: `series.start_datetime[${i}]`, reason: `${JSON.stringify(starts?.[i])} is not a timestamp on the ${options.freq} grid` });
      offset += size;
      continue;
    }
    const s: InputSeries = { target: y.slice(offset, offset + size), index: dates.range(start, 0, size) };
    if (X.length) {
      const hist: Record<string, (number | null)[]> = {};
      const fut: Record<string, number[]> = {};
      X.forEach((column, j) => {
        hist[exogName(j)] = column.slice(offset, offset + size) as (number | null)[];
        if (options.futureColumns.has(j)) {
          fut[exogName(j)] = options.futureFromHistory ? [] : (future[j] ?? []).slice(i * options.h!, (i + 1) * options.h!) as number[];
        }
      });
      s.hist_variables = hist;
      if (Object.keys(fut).length) {
        s.future_variables = fut;
        if (!options.futureFromHistory) s.future_variables_index = dates.range(start, size, size + options.h!);
      }
    }
    out.push(s);
    offset += size;
  }
  return out;
}

// ---------------------------------------------------------------- levels

/** `level` (percent, as the SDK sends it: ints for quantiles it converted) → the bands and Horizon's quantiles, each once. */
export function levelBands(level: readonly number[] | null | undefined, errors: FieldError[]): { bands: LevelBand[]; quantiles: number[] } {
  const bands: LevelBand[] = [];
  for (const [k, l] of (level ?? []).entries()) {
    if (!(l >= 0 && l < 100)) { errors.push({ field: `level[${k}]`, reason: `${l} is not a percentage in [0, 100)` }); continue; }
    const lo = Number(((100 - l) / 200).toPrecision(12));
    const hi = Number(((100 + l) / 200).toPrecision(12));
    if (!bands.some((b) => b.key === String(l))) bands.push({ key: String(l), lo, hi });
  }
  const quantiles = [...new Set(bands.flatMap((b) => [b.lo, b.hi]))];
  return { bands, quantiles };
}

/** The bands of a stored answer's quantile keys ("0.1", "0.9" → level 80): a job's answer carries no request. */
export function bandsOfKeys(keys: readonly string[]): LevelBand[] {
  const qs = keys.filter((k) => k !== 'mean').map(Number).filter((q) => Number.isFinite(q));
  return qs.filter((q) => q <= 0.5 && qs.some((u) => Math.abs(u - (1 - q)) < 1e-9))
    .map((q) => ({ key: String(Number((100 - 200 * q).toPrecision(12))), lo: q, hi: qs.find((u) => Math.abs(u - (1 - q)) < 1e-9)! }))
    .sort((a, b) => Number(a.key) - Number(b.key));
}

// ---------------------------------------------------------------- answers

type Prediction = Record<string, (number | null)[]>;

function intervalsOf(bands: readonly LevelBand[], predictions: readonly Prediction[]): Record<string, (number | null)[]> | null {
  if (bands.length === 0) return null;
  const out: Record<string, (number | null)[]> = {};
  for (const b of bands) {
    out[`lo-${b.key}`] = predictions.flatMap((p) => p[String(b.lo)]);
    out[`hi-${b.key}`] = predictions.flatMap((p) => p[String(b.hi)]);
  }
  return out;
}

type Contributions = { base: number[]; features: Record<string, number[]> };

/** POST /v1/forecast's answer (or a completed forecast job's) → the SDK's forecast answer. */
export function forecastAnswer(
  result: { model: string; series: { prediction: Prediction; contributions?: Contributions }[][]; warnings?: unknown[] }, bands?: LevelBand[],
) {
  const predictions = result.series.map((s) => s[0].prediction);
  const levels = bands ?? bandsOfKeys(Object.keys(predictions[0] ?? {}));
  const contributions = featureContributions(result.series.map((s) => s[0].contributions));
  const mean = predictions.flatMap((p) => p.mean);
  const intervals = intervalsOf(levels, predictions);
  return { mean, intervals, weights_x: null, feature_contributions: contributions, model: result.model, warnings: result.warnings ?? [] };
}

/** /v1's `contributions` (explain) → the SDK's `feature_contributions`: one flat row per exogenous column in X's order
 * (x0, x1 …), then the base value, each over every series' horizon in the series order (the SDK zips them with its
 * columns and `base_value`). A column a series does not have contributes 0 there. Null without contributions. */
function featureContributions(perSeries: (Contributions | undefined)[]): number[][] | null {
  if (!perSeries.some((c) => c !== undefined)) return null;
  const names = [...new Set(perSeries.flatMap((c) => Object.keys(c?.features ?? {})))]
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  const row = (pick: (c: Contributions) => number[] | undefined) => perSeries.flatMap((c) => {
    const values = c && pick(c);
    return values ?? Array.from({ length: c?.base.length ?? 0 }, () => 0);
  });
  return [...names.map((name) => row((c) => c.features[name])), row((c) => c.base)];
}

/** A Horizon job's status as the SDK names it. */
export const JOB_STATUS: Record<string, 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled'> = {
  queued: 'pending', running: 'running', completed: 'succeeded', failed: 'failed', cancelled: 'cancelled',
};

/** GET /v1/forecast-jobs/{id}'s answer → the SDK's job: `result` is what the synchronous call answers. */
export function forecastJobAnswer(job: Parameters<typeof forecastAnswer>[0] & { job_id: string; status: string; error?: unknown }) {
  const status = JOB_STATUS[job.status];
  return { job_id: job.job_id, status, result: status === 'succeeded' ? forecastAnswer(job) : null, error: job.error ?? null };
}

interface CvResult {
  models: { model: string; series: { windows: { cutoff: number; prediction: Prediction }[] }[] }[];
  warnings?: unknown[];
}

/** POST /v1/cross-validation's answer → the SDK's: per series its windows (earliest first), `idxs` into the
 * SDK's `y` (series offsets from `sizes`), `sizes` = forecast values per series. */
export function crossValidationAnswer(result: CvResult, sizes: readonly number[], h: number, bands?: LevelBand[]) {
  const { model, series } = result.models[0];
  const idxs: number[] = [];
  const counts: number[] = [];
  const predictions: Prediction[] = [];
  let offset = 0;
  series.forEach((s, i) => {
    const windows = [...s.windows].sort((a, b) => a.cutoff - b.cutoff);
    for (const w of windows) {
      for (let k = 0; k < h; k++) idxs.push(offset + w.cutoff + k);
      predictions.push(w.prediction);
    }
    counts.push(windows.length * h);
    offset += sizes[i];
  });
  const levels = bands ?? bandsOfKeys(Object.keys(predictions[0] ?? {}));
  return {
    idxs, sizes: counts, mean: predictions.flatMap((p) => p.mean), intervals: intervalsOf(levels, predictions), weights_x: null, feature_contributions: null,
    model, warnings: result.warnings ?? [],
  };
}

/** In-sample (add_history) windows of a series of `n` values: horizon `step` windows tiling the history from
 * its end back to one season in (at most 20 windows, Horizon's cross-validation limit). */
export function inSampleWindows(lengths: readonly number[], seasonLength: number, maxHorizon: number): { horizon: number; n_windows: number } {
  const longest = Math.max(...lengths);
  const covered = Math.max(1, longest - Math.max(1, Math.min(seasonLength, longest - 1)));
  const horizon = Math.max(1, Math.min(maxHorizon, Math.ceil(covered / 20)));
  return { horizon, n_windows: Math.max(1, Math.min(20, Math.ceil(covered / horizon))) };
}

/** Cross-validation windows → the SDK's in-sample answer: per series the tail from its earliest forecast
 * position to its end (`sizes`), `mean` and `intervals` over it, null where no window forecast. */
export function inSampleAnswer(result: CvResult, lengths: readonly number[], h: number, bands?: LevelBand[]) {
  const { model, series } = result.models[0];
  const counts: number[] = [];
  const tails: Prediction[] = [];
  series.forEach((s, i) => {
    const n = lengths[i];
    const first = Math.min(n, ...s.windows.map((w) => w.cutoff));
    const keys = Object.keys(s.windows[0]?.prediction ?? { mean: [] });
    const tail: Prediction = Object.fromEntries(keys.map((k) => [k, Array.from({ length: n - first }, () => null as number | null)]));
    for (const w of s.windows) {
      for (const k of keys) for (let j = 0; j < h && w.cutoff + j < n; j++) tail[k][w.cutoff - first + j] = w.prediction[k][j];
    }
    if (!tail.mean) tail.mean = [];
    counts.push(n - first);
    tails.push(tail);
  });
  const levels = bands ?? bandsOfKeys(Object.keys(tails.find((t) => Object.keys(t).length > 1) ?? {}));
  return {
    sizes: counts, mean: tails.flatMap((t) => t.mean),
    intervals: levels.length === 0 ? null : Object.fromEntries(levels.flatMap((b) => [
      [`lo-${b.key}`, tails.flatMap((t) => t[String(b.lo)] ?? t.mean.map(() => null))],
      [`hi-${b.key}`, tails.flatMap((t) => t[String(b.hi)] ?? t.mean.map(() => null))],
    ])),
    weights_x: null, feature_contributions: null, model, warnings: result.warnings ?? [],
  };
}

interface AnomaliesResult {
  model: string;
  series: { scored_from: number; forecast: (number | null)[]; lo: (number | null)[]; hi: (number | null)[]; anomaly: boolean[] }[];
  warnings?: unknown[];
}

/** POST /v1/anomalies' answer → the SDK's batch anomaly answer: the scored tail of each series. */
export function anomaliesAnswer(result: AnomaliesResult, levelKey: string) {
  return {
    sizes: result.series.map((s) => s.forecast.length),
    mean: result.series.flatMap((s) => s.forecast),
    intervals: { [`lo-${levelKey}`]: result.series.flatMap((s) => s.lo), [`hi-${levelKey}`]: result.series.flatMap((s) => s.hi) },
    anomaly: result.series.flatMap((s) => s.anomaly),
    weights_x: null, model: result.model, warnings: result.warnings ?? [],
  };
}

interface OnlineResult {
  model: string;
  series: (ScoredTail & { scored_from: number; forecast: (number | null)[]; lo: (number | null)[]; hi: (number | null)[] })[];
  warnings?: unknown[];
}

/** POST /v1/anomalies' answer with detection_size → the SDK's online answer: per series its last values (`idxs`
 * into the SDK's `y`, `sizes`), the forecast as `mean`, flags and scores by `method` (threshold-methods.ts); the
 * band as `intervals` for univariate only (multivariate flags a step, not a band: the SDK shows no interval). */
export function onlineAnomaliesAnswer(result: OnlineResult, sizes: readonly number[], method: 'univariate' | 'multivariate', level: number) {
  const idxs: number[] = [];
  let offset = 0;
  result.series.forEach((s, i) => {
    for (let j = 0; j < s.forecast.length; j++) idxs.push(offset + s.scored_from + j);
    offset += sizes[i];
  });
  const key = String(level);
  const scores = method === 'multivariate' ? multivariateScores(result.series, level) : univariateScores(result.series, level);
  return {
    idxs, sizes: result.series.map((s) => s.forecast.length), mean: result.series.flatMap((s) => s.forecast), ...scores,
    intervals: method === 'multivariate' ? null : { [`lo-${key}`]: result.series.flatMap((s) => s.lo), [`hi-${key}`]: result.series.flatMap((s) => s.hi) },
    weights_x: null, model: result.model, warnings: result.warnings ?? [],
  };
}

// ---------------------------------------------------------------- errors

/** Horizon's field names in a 422 → the SDK's terms: series[i].target → series[i].y, hist/future
 * variable x<j> → X[j] / X_future[j], horizon → h, step → step_size, models[0].model → model,
 * quantiles → level. series[i] is the i-th series in unique_id order (the order the SDK sends). */
export function nixtlaTerms(text: string): string {
  return text
    .replace(/\.target\b/g, '.y')
    .replace(/\.hist_variables\.x(\d+)/g, '.X[$1]')
    .replace(/\.future_variables\.x(\d+)/g, '.X_future[$1]')
    .replace(/\bmodels\[0\]\.(model_size|model)\b/g, '$1')
    .replace(/^horizon\b/, 'h')
    .replace(/^step\b/, 'step_size')
    .replace(/^quantiles\b/, 'level')
    .replace(/^explain\b/, 'feature_contributions');
}
