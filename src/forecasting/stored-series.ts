// Stored series (issue 25, docs/stored-series.md): validating a history and an append against the
// series' calendar grid, turning a stored series back into an inline one (forecast by reference), and
// scoring a stored forecast with the backtest scorer once the actuals cover it.
//
// Decisions:
// - A series is stored on its grid from its first date: target[k] is grid step k, a gap is null. The
//   history only grows at its end; PUT replaces it whole.
// - Append rule: dates strictly ascending within one append. A date at or before the last stored one
//   must carry exactly the stored value (null for a missing one): it is then a no-op, so a retried
//   append changes nothing (idempotent by timestamp); any other value is a 422 (appends never rewrite
//   history; PUT does). Dates after the last stored one are appended; skipped grid steps become null.
// - A forecast is scored once every one of its steps is in the history; a step whose actual is null
//   is left out of its scores (scored on the observed steps; none observed: scores are null).
import { createHash } from 'node:crypto';
import type { Freq, Catalog } from '../runtime/catalog.ts';
import type { Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';
import { insertForecasts, type ForecastInsert } from '../store/series.ts';
import { FREQS } from '../runtime/catalog.ts';
import { HorizonError, type FieldError } from '../errors.ts';
import { dateAtStep, epochDay, fillGaps, parseDate, parseIndex, stampAtStep, type Grid, type Stamp } from './calendar.ts';
import { DEFAULT_QUANTILES, RequestValidationError, type InputSeries } from './normalize.ts';
import { scoreBacktest, type BacktestPlan } from './backtest.ts';
import { coverage, quantileLoss, seasonalScale } from './metrics.ts';

/** `observations` is reserved: POST /v1/series/observations is the bulk append. */
export const SERIES_ID_PATTERN = '^(?!observations$)[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$';
const MAX_TARGET_MAGNITUDE = 1e100;

export interface SeriesLimits {
  /** stored series per account (0 = no limit) */
  maxSeries: number;
  /** grid steps per series, gaps included (0 = no limit) */
  maxPoints: number;
}

/** What a series forecasts after each append that adds steps (forecast_every: 1) — stored with store: true. */
export interface SeriesSchedule {
  every: number; horizon: number; model?: string; model_size?: string; quantiles?: number[]; context?: number;
  evaluation?: { holdout?: number; season_length?: number };
}


export interface SeriesWebhook { url: string; secret: string }

const isFiniteValue = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_TARGET_MAGNITUDE;

function checkValues(target: readonly unknown[], field: string, errors: FieldError[]): void {
  const bad = target.findIndex((v) => v !== null && !isFiniteValue(v));
  if (bad >= 0) errors.push({ field: `${field}[${bad}]`, reason: `${JSON.stringify(target[bad])} is not a finite number within ±1e100 or null (missing)` });
}

/** The history of a PUT: its grid and the values on it (gaps filled with null). */
export function validateHistory(
  body: { freq: string; index: string[]; target: (number | null)[] }, limits: SeriesLimits,
): { freq: Freq; grid: Grid; target: (number | null)[] } {
  const errors: FieldError[] = [];
  if (!(FREQS as readonly string[]).includes(body.freq)) errors.push({ field: 'freq', reason: `freq ${JSON.stringify(body.freq)} is not one ` +
    `of ${FREQS.join(', ')}` });
  if (body.index.length !== body.target.length) errors.push({ field: 'target', reason: `target has ${body.target.length} values but index ` +
    `has ${body.index.length} dates; they must be equally long` });
  checkValues(body.target, 'target', errors);
  if (!body.target.some((v) => v !== null)) errors.push({ field: 'target', reason: 'every value is null; a series needs at least one observed value' });
  if (errors.length) throw new RequestValidationError(errors);
  const freq = body.freq as Freq;
  const parsed = parseIndex(freq, body.index);
  if (!parsed.ok) throw new RequestValidationError([{ field: `index[${parsed.error.position}]`, reason: parsed.error.reason }]);
  const { steps, grid } = parsed.index;
  const length = steps[steps.length - 1] + 1;
  if (limits.maxPoints > 0 && length > limits.maxPoints) {
    throw new RequestValidationError([{ field: 'index', reason: `the history spans ${length} grid steps (gaps included); a stored series holds at ` +
      `most ${limits.maxPoints} (HORIZON_SERIES_MAX_POINTS)` }]);
  }
  return { freq, grid, target: fillGaps(body.target, steps) };
}

/** A PUT's settings, as far as they go together (docs/stored-series.md): `schedule` and `forecast_every` each need
 * the other; a drift rule on the MASE ratio needs the schedule's `evaluation` (the backtest it compares with);
 * a webhook needs a drift rule (drift events are what it receives). The schedule as stored, or null. */
export function storedSchedule(body: {
  schedule?: Omit<SeriesSchedule, 'every'>; forecast_every?: number; drift?: { max_mase_ratio?: number }; webhook?: unknown;
}): SeriesSchedule | null {
  if (body.forecast_every !== undefined && !body.schedule) {
    throw new RequestValidationError([{ field: 'forecast_every', reason: 'needs `schedule` (at least its horizon): what each scheduled forecast asks' }]);
  }
  if (body.schedule && body.forecast_every === undefined) {
    throw new RequestValidationError([{ field: 'schedule', reason: 'needs `forecast_every`: after how many appended steps a forecast is made' }]);
  }
  if (body.drift?.max_mase_ratio !== undefined && body.schedule && !body.schedule.evaluation) {
    const reason = 'compares the rolling MASE with the model\'s own backtest: the schedule needs `evaluation` (e.g. {}) so each scheduled forecast carries one';
    throw new RequestValidationError([{ field: 'drift.max_mase_ratio', reason }]);
  }
  if (body.webhook && !body.drift) throw new RequestValidationError([{ field: 'webhook', reason: 'a webhook receives drift events: it needs a `drift` rule' }]);
  return body.schedule ? { every: body.forecast_every!, ...body.schedule } : null;
}

/** The scheduled forecasts an append makes due (forecast_every): each grown series whose latest stored forecast
 * (`latest`: its length then) is `every` or more steps behind its new length, or that has none; series with the
 * same schedule go in one request, POST /v1/forecast's body by reference with store: true. */
export function dueScheduledForecasts(
  grown: readonly { id: string; schedule: unknown; points: number }[], latest: ReadonlyMap<string, number>,
): { ids: string[]; request: Record<string, unknown> }[] {
  const groups = new Map<string, { schedule: SeriesSchedule; ids: string[] }>();
  for (const s of grown) {
    const schedule = s.schedule as SeriesSchedule | null;
    if (!schedule) continue;
    const last = latest.get(s.id);
    if (last !== undefined && s.points - last < schedule.every) continue;
    const key = JSON.stringify(schedule);
    const group = groups.get(key) ?? { schedule, ids: [] };
    group.ids.push(s.id);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ schedule: { every: _every, ...asked }, ids }) => ({ ids, request: { ...asked, series_ids: ids, store: true } }));
}

const instantOf = (s: Stamp) => epochDay(s.year, s.month, s.day) * 86_400 + s.secondOfDay;
const MONTHS: Partial<Record<Freq, number>> = { MS: 1, Q: 3, Y: 12 };
const STEP_SECONDS: Partial<Record<Freq, number>> = { D: 86_400, W: 7 * 86_400, H: 3_600 };

/** The grid step of a date, or why it is not on the grid. */
export function stepOfDate(grid: Grid, date: string): { step: number } | { reason: string } {
  const parsed = parseDate(grid.freq, date);
  if (!parsed.ok) return { reason: parsed.reason };
  const stamp = parsed.stamp;
  const months = MONTHS[grid.freq];
  let step: number;
  if (months) {
    const diff = (stamp.year - grid.origin.year) * 12 + (stamp.month - grid.origin.month);
    step = Math.floor(diff / months);
    const expected = stampAtStep(grid, step);
    if (diff % months !== 0 || expected.day !== stamp.day) {
      return { reason: `${JSON.stringify(date)} is off the series' ${grid.freq} grid (from ${dateAtStep(grid, 0)}): the nearest grid date ` +
        `is ${dateAtStep(grid, step)}` };
    }
  } else {
    const seconds = instantOf(stamp) - instantOf(grid.origin);
    const unit = STEP_SECONDS[grid.freq]!;
    step = Math.floor(seconds / unit);
    if (seconds % unit !== 0) {
      return { reason: `${JSON.stringify(date)} is off the series' ${grid.freq} grid (from ${dateAtStep(grid, 0)}): the nearest grid date before it ` +
        `is ${dateAtStep(grid, step)}` };
    }
  }
  return { step };
}

export interface AppendDecision {
  /** values to add at the end of the stored target (gaps as null) */
  append: (number | null)[];
  appended: number;
  unchanged: number;
}

/** Which stored series an append is to, for the messages: its id and, in a bulk append, its place (series[i]). */
export interface AppendTarget { id: string; position?: number }

/** Applies the append rule (header comment) to a stored target, every refusal a 422 naming the position; then
 * the series' size: grown past limits.maxPoints grid steps (HORIZON_SERIES_MAX_POINTS), a 409 series_limit. */
export function decideAppend(
  grid: Grid, stored: ArrayLike<number | null>, body: { index: string[]; target: (number | null)[] }, limits: SeriesLimits, target?: AppendTarget,
): AppendDecision {
  const decision = appendRule(grid, stored, body);
  const points = stored.length + decision.append.length;
  if (limits.maxPoints > 0 && points > limits.maxPoints) {
    const which = target ? `series "${target.id}"${target.position === undefined ? '' : ` (series[${target.position}])`}` : 'the series';
    throw new HorizonError('series_limit', `${which} would hold ${points} grid steps, more than its limit of ${limits.maxPoints} `
      + '(HORIZON_SERIES_MAX_POINTS); replace it with a shorter history (PUT /v1/series/{id})');
  }
  return decision;
}

/** One item of a bulk append (POST /v1/series/observations). */
export interface AppendItem { series_id: string; index: string[]; target: (number | null)[] }

/** A bulk append appends to each series once: a 422 naming the second place of a repeated id. */
export function checkDistinctSeries(items: readonly AppendItem[]): void {
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const earlier = seen.get(item.series_id);
    if (earlier !== undefined) {
      const reason = `"${item.series_id}" is also series[${earlier}]; append each series once per request`;
      throw new RequestValidationError([{ field: `series[${i}].series_id`, reason }]);
    }
    seen.set(item.series_id, i);
  }
}

/** Whether an append reaches into the stored steps (its first date on or before the last one): then it compares
 * stored values (a retry), and the store reads the stored targets for it. */
export function reachesStoredSteps(grid: Grid, points: number, firstDate: string | undefined): boolean {
  if (firstDate === undefined) return false;
  const placed = stepOfDate(grid, firstDate);
  return !('reason' in placed) && placed.step < points;
}

/** The decisions of a bulk append, all or nothing: 404 for the first id the account does not store, every
 * series' 422s at once (named series[i].…), a series_limit at once. */
export function decideAppends(
  items: readonly AppendItem[], found: ReadonlyMap<string, { grid: unknown; target: ArrayLike<number | null> }>, limits: SeriesLimits,
): AppendDecision[] {
  const missing = items.findIndex((s) => !found.has(s.series_id));
  if (missing >= 0) throw new HorizonError('not_found', `no stored series "${items[missing].series_id}" for this account (series[${missing}])`);
  const errors: FieldError[] = [];
  const decisions = items.map((item, i): AppendDecision => {
    const row = found.get(item.series_id)!;
    try {
      return decideAppend(row.grid as Grid, row.target, item, limits, { id: item.series_id, position: i });
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      errors.push(...error.errors.map((e) => ({ series: i, field: `series[${i}].${e.field}`, reason: e.reason })));
      return { append: [], appended: 0, unchanged: 0 };
    }
  });
  if (errors.length) throw new RequestValidationError(errors);
  return decisions;
}

function appendRule(grid: Grid, stored: ArrayLike<number | null>, body: { index: string[]; target: (number | null)[] }): AppendDecision {
  const errors: FieldError[] = [];
  if (body.index.length !== body.target.length) errors.push({ field: 'target', reason: `target has ${body.target.length} values but index ` +
    `has ${body.index.length} dates; they must be equally long` });
  checkValues(body.target, 'target', errors);
  if (errors.length) throw new RequestValidationError(errors);
  const points = stored.length;
  const lastDate = dateAtStep(grid, points - 1);
  const append: (number | null)[] = [];
  let appended = 0;
  let unchanged = 0;
  let previous = -Infinity;
  for (const [i, date] of body.index.entries()) {
    const placed = stepOfDate(grid, date);
    if ('reason' in placed) { errors.push({ field: `index[${i}]`, reason: placed.reason }); break; }
    const { step } = placed;
    if (step <= previous) {
      errors.push({ field: `index[${i}]`, reason: `${JSON.stringify(date)} ${step === previous ? 'repeats' : 'comes before'} the previous ` +
        `date ${JSON.stringify(body.index[i - 1])}; the dates of an append must be strictly ascending` });
      break;
    }
    previous = step;
    const value = body.target[i];
    if (step < points) {
      const existing = step < 0 ? undefined : stored[step];
      if (step < 0) {
        errors.push({ field: `index[${i}]`, reason: `${JSON.stringify(date)} is before the series' first date ${dateAtStep(grid, 0)}; appends only continue ` +
          `a series (PUT replaces its history)` });
      } else if (existing !== value) {
        const shown = (v: number | null | undefined) => (v === null || v === undefined ? 'missing (null)' : String(v));
        errors.push({ field: `target[${i}]`, reason: `${JSON.stringify(date)} is already stored as ${shown(existing)}, not ${shown(value)}: an append may ` +
          `repeat stored dates with their stored values (a retry) but never changes them; PUT /v1/series/{id} replaces the history (the last stored ` +
          `date is ${lastDate})` });
      } else {
        unchanged += 1;
      }
      continue;
    }
    while (points + append.length < step) append.push(null);
    append.push(value);
    appended += 1;
  }
  if (errors.length) throw new RequestValidationError(errors);
  return { append, appended, unchanged };
}

/** The series as an inline InputSeries: the stored steps with their dates (gaps as null values).
 * `dates` caches the dates of each grid (series that start together share them: one calendar walk). */
export function inlineSeries(grid: Grid, target: readonly (number | null)[], dates = new Map<string, string[]>()): InputSeries {
  const key = JSON.stringify(grid);
  let known = dates.get(key);
  if (!known) dates.set(key, known = []);
  for (let k = known.length; k < target.length; k++) known.push(dateAtStep(grid, k));
  return { index: known.length === target.length ? [...known] : known.slice(0, target.length), target: [...target] };
}

/** What a stored forecast needs to be scored (a stored_forecasts row). */
export interface ScorableForecast {
  first_step: number;
  horizon: number;
  quantiles: unknown;
  season_length: number;
  context: number;
  prediction: unknown;
}

/** Scores of one forecast: the backtest scorer's MASE/WQL/sMAPE on its observed steps, the coverage of
 * each central interval, and what the rolling views pool (|actual| sum, MASE scale). */
export interface ForecastScores {
  observed: number;
  mase: number | null;
  wql: number | null;
  smape: number | null;
  coverage: Record<string, number>;
  /** Σ|y| over the observed steps: the WQL weight when forecasts are pooled */
  abs_actual: number;
  /** the in-sample seasonal-naive error the MASE divides by (null: undefined or zero) */
  scale: number | null;
  season_length: number;
}

/** The central intervals of a quantile set: "80" → [0.1, 0.9]. */
export function centralIntervals(levels: number[]): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (const q of [...levels].sort((a, b) => a - b)) {
    if (q >= 0.5) continue;
    const upper = levels.find((u) => Math.abs(u - (1 - q)) < 1e-9);
    if (upper !== undefined) out.push([String(Math.round((1 - 2 * q) * 1000) / 10), q, upper]);
  }
  return out;
}

/** The forecast's actuals from the target, or undefined while the target does not cover every step. */
export function actualsFor(forecast: ScorableForecast, target: readonly (number | null)[]): (number | null)[] | undefined {
  if (forecast.first_step + forecast.horizon > target.length) return undefined;
  return target.slice(forecast.first_step, forecast.first_step + forecast.horizon);
}

/** Scores a forecast with the backtest scorer (scoreBacktest), the history before it as the training part. */
export function scoreStoredForecast(
  forecast: ScorableForecast, target: readonly (number | null)[],
): { actuals: (number | null)[]; scores: ForecastScores } | undefined {
  const actuals = actualsFor(forecast, target);
  if (!actuals) return undefined;
  const levels = (forecast.quantiles as number[]);
  const prediction = forecast.prediction as Record<string, number[]>;
  const observedSteps = actuals.flatMap((v, k) => (v === null ? [] : [k]));
  const train = target.slice(Math.max(0, forecast.first_step - forecast.context), forecast.first_step).filter((v): v is number => v !== null);
  const m = train.length > forecast.season_length ? forecast.season_length : 1;
  let scale: number | null = null;
  try { const s = seasonalScale(train, m); scale = Number.isFinite(s) && s > 0 ? s : null; } catch { scale = null; }
  if (observedSteps.length === 0) {
    return { actuals, scores: { observed: 0, mase: null, wql: null, smape: null, coverage: {}, abs_actual: 0, scale, season_length: m } };
  }
  const pick = (values: number[]) => observedSteps.map((k) => values[k]);
  const actual = pick(actuals as number[]);
  const plan: BacktestPlan = {
    holdout: actual.length, seasonLength: forecast.season_length, train: [train], actual: [actual],
    request: { model: '', size: '', freq: 'D', horizon: actual.length, quantiles: levels, series: [] },
  };
  const quantiles = Object.fromEntries(levels.map((q) => [String(q), pick(prediction[String(q)])]));
  const scored = scoreBacktest(plan, { predictions: [{ mean: pick(prediction.mean), quantiles }], warnings: [] } as never, [...levels].sort((a, b) => a - b));
  const cov: Record<string, number> = {};
  for (const [key, lo, hi] of centralIntervals(levels)) cov[key] = coverage(actual, pick(prediction[String(lo)]), pick(prediction[String(hi)]));
  return {
    actuals,
    scores: {
      observed: actual.length, mase: scored.series[0].mase, wql: scored.series[0].wql, smape: scored.series[0].smape, coverage: cov,
      abs_actual: actual.reduce((a, y) => a + Math.abs(y), 0), scale, season_length: m,
    },
  };
}

/** A scored forecast as the rolling views read it. */
export interface ScoredForecast extends ScorableForecast { model: string; actuals: unknown; scores: unknown }

export interface RollingAccuracy {
  forecasts: number;
  /** mean of the forecasts' MASE (those with one) */
  mase: number | null;
  /** WQL pooled over the forecasts: Σ quantile losses / Σ |actual| (gluonts' weighting, as across series) */
  wql: number | null;
  smape: number | null;
  /** per central interval: observed steps inside it / observed steps */
  coverage: Record<string, number>;
  by_step: { step: number; forecasts: number; mase: number | null; wql: number | null; coverage: Record<string, number> }[];
}

const meanOf = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** Rolling accuracy over scored forecasts: aggregates, and the same per horizon step. */
export function rollingAccuracy(rows: ScoredForecast[]): RollingAccuracy {
  const scores = rows.map((r) => r.scores as ForecastScores);
  let wqlLoss = 0;
  let wqlScale = 0;
  const coverageCounts = new Map<string, { inside: number; steps: number }>();
  for (const [i, s] of scores.entries()) {
    if (s.wql !== null && s.abs_actual > 0) { wqlLoss += s.wql * s.abs_actual; wqlScale += s.abs_actual; }
    for (const [key, value] of Object.entries(s.coverage)) {
      const c = coverageCounts.get(key) ?? { inside: 0, steps: 0 };
      c.inside += value * s.observed;
      c.steps += s.observed;
      coverageCounts.set(key, c);
    }
    void i;
  }
  const maxH = Math.max(0, ...rows.map((r) => r.horizon));
  const byStep: RollingAccuracy['by_step'] = [];
  for (let k = 0; k < maxH; k++) {
    const errors: number[] = [];
    let loss = 0;
    let scale = 0;
    let count = 0;
    const cov = new Map<string, { inside: number; steps: number }>();
    for (const row of rows) {
      const actual = (row.actuals as (number | null)[])[k];
      if (k >= row.horizon || actual === null || actual === undefined) continue;
      count += 1;
      const s = row.scores as ForecastScores;
      const prediction = row.prediction as Record<string, number[]>;
      const levels = row.quantiles as number[];
      if (s.scale !== null) errors.push(Math.abs(actual - prediction.mean[k]) / s.scale);
      if (levels.length) {
        let l = 0;
        for (const q of levels) l += quantileLoss([actual], [prediction[String(q)][k]], q);
        loss += (2 * l) / levels.length;
        scale += Math.abs(actual);
      }
      for (const [key, lo, hi] of centralIntervals(levels)) {
        const c = cov.get(key) ?? { inside: 0, steps: 0 };
        c.steps += 1;
        if (actual >= prediction[String(lo)][k] && actual <= prediction[String(hi)][k]) c.inside += 1;
        cov.set(key, c);
      }
    }
    byStep.push({
      step: k + 1, forecasts: count, mase: meanOf(errors), wql: scale > 0 ? loss / scale : null,
      coverage: Object.fromEntries([...cov].map(([key, c]) => [key, c.inside / c.steps])),
    });
  }
  return {
    forecasts: rows.length,
    mase: meanOf(scores.flatMap((s) => (s.mase === null ? [] : [s.mase]))),
    wql: wqlScale > 0 ? wqlLoss / wqlScale : null,
    smape: meanOf(scores.flatMap((s) => (s.smape === null ? [] : [s.smape]))),
    coverage: Object.fromEntries([...coverageCounts].filter(([, c]) => c.steps > 0).map(([key, c]) => [key, c.inside / c.steps])),
    by_step: byStep,
  };
}

/** The MASE seasonality a stored forecast is scored with: the catalog's for its freq. */
export function seasonLengthOf(catalog: Catalog, freq: Freq): number {
  return catalog.season_length[freq];
}

/** The stored series a by-reference forecast was made from (series_ids), kept with a job's plan too. */
export interface SeriesRefs {
  ids: string[];
  /** per series: the grid step of its first forecast value (its length when it was read) */
  firstSteps: number[];
  freq: Freq;
  /** store: true — keep the forecasts (issue time, model, request) for scoring */
  store: boolean;
}

/** The stored_forecasts rows of a by-reference forecast with store: true. `idOf(i)` names series i's row:
 * random for a sync call, derived from the job id for a job (a redelivered job stores nothing twice). */
export function forecastRecords(
  accountId: string, refs: SeriesRefs, request: { horizon: number; quantiles: number[]; context?: number; model?: string; model_size?: string },
  result: {
    model: string; model_size: string; series: { prediction: Record<string, number[]>; index: string[] }[][];
    metrics?: { holdout: number; series: { mase: number | null; wql: number | null }[] };
  },
  catalog: Catalog, idOf: (i: number) => string,
): ForecastInsert[] {
  const levels = [...request.quantiles].sort((a, b) => a - b);
  return refs.ids.map((seriesId, i) => {
    const firstStep = refs.firstSteps[i];
    const context = Math.min(request.context ?? firstStep, firstStep);
    return {
      id: idOf(i), account_id: accountId, series_id: seriesId, model: result.model, model_size: result.model_size,
      first_step: firstStep, horizon: request.horizon, quantiles: levels, season_length: seasonLengthOf(catalog, refs.freq), context,
      request: {
        series_id: seriesId, freq: refs.freq, horizon: request.horizon, model: result.model, model_size: result.model_size, context, quantiles: levels,
      },
      prediction: result.series[i][0].prediction, forecast_index: result.series[i][0].index,
      // asked with `evaluation`: the model's own backtest on this series, the drift rule's max_mase_ratio baseline
      backtest: result.metrics ? { mase: result.metrics.series[i].mase, wql: result.metrics.series[i].wql, holdout: result.metrics.holdout } : null,
    };
  });
}

/** A job's stored-forecast ids: a UUID from a hash of the job id and the series position. */
export function jobForecastId(jobId: string, i: number): string {
  const hex = createHash('sha256').update(`horizon-stored-forecast\u0000${jobId}\u0000${i}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A job's plan with store: true carries its series references and account (forecast-jobs.create.ts). */
export interface JobSeriesRefs extends SeriesRefs { accountId: string }

/** Stores a completed job's by-reference forecasts (store: true); ids from the job id, so a redelivered
 * job stores each forecast once. Undefined refs: nothing to store. */
export async function storeJobForecasts(
  db: Kysely<Schema>, catalog: Catalog, request: unknown, result: unknown, jobId: string,
): Promise<void> {
  const refs = (request as { stored_series?: JobSeriesRefs }).stored_series;
  if (!refs?.store) return;
  // a plain plan holds horizon, quantiles and context; a stored auto job its body (auto_request)
  const asked = ((request as { auto_request?: unknown }).auto_request ?? request) as { horizon: number; quantiles?: number[]; context?: number };
  // a hierarchy's node forecast asks for more levels than the client (hierarchy.ts): the client's are kept
  const quantiles = (request as { hierarchy?: { quantiles?: number[] } }).hierarchy?.quantiles ?? asked.quantiles ?? [...DEFAULT_QUANTILES];
  const records = forecastRecords(
    refs.accountId, refs, { horizon: asked.horizon, quantiles, context: asked.context },
    result as Parameters<typeof forecastRecords>[3], catalog, (i) => jobForecastId(jobId, i),
  );
  await insertForecasts(db, records);
}
