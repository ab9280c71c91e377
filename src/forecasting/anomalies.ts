// Anomaly detection (POST /v1/anomalies): every scored timestep of every series gets a band, the central
// interval at `level` of its prediction from the values before it; an observation outside it is an anomaly.
// Two modes (issue 33):
// - "in-sample" (the default for a statistical model at step 1): ONE fit per series; the fit's in-sample
//   one-step-ahead fitted values and their interval (statsforecast's forecast(fitted=True), the worker's
//   `in_sample`, docs/runtime-protocol.md) score the whole history. All series are one model call.
// - "windows": each timestep forecast `step` steps ahead from the values before it, a fit per window:
//   strictly out of sample, and the only mode for step > 1 and for models not fitted to the history (the
//   foundation models). All windows of all series are ONE model call (the worker batches them).
// model "auto" picks a model per series from its candidates' in-sample fits and scores in-sample.
// `detection_size` (online detection) scores only the last detection_size positions of each series: in mode
// windows only their windows are forecast (each from the history before it); in mode in-sample the one fit per
// series is the same, and only those positions of its fitted values are scored.
import { infer, planForecast, planModelRefs, toContract, type ForecastPlan } from './forecast.ts';
import { truncate } from './cross-validation.ts';
import { AUTO_ID, AUTO_STATISTICAL, isAuto } from './auto.ts';
import { parseIndex } from './calendar.ts';
import { RequestValidationError, type InputSeries, type RequestWarning } from './normalize.ts';
import { HorizonError } from '../errors.ts';
import { findModel, type Freq } from '../runtime/catalog.ts';
import type { InferenceClient, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

/** Windows (scored timesteps, summed over series) one request in mode windows may ask for: bounds the model call. */
export const MAX_ANOMALY_WINDOWS = 20_000;
/** Scored timesteps one request in mode in-sample may ask for: bounds the answer (its model time, one fit per
 * series, is bounded by the sync budget). */
export const MAX_IN_SAMPLE_POSITIONS = 200_000;
/** Values of history each window's forecast sees, unless `context` says otherwise (capped at max_context). */
export const DEFAULT_ANOMALY_CONTEXT = 128;
export const DEFAULT_ANOMALY_LEVEL = 99;
/** Observations before the first scored window: two seasons (H 48, D 14, W 104, MS 24, Q 8), at least 8. */
export const defaultMinHistory = (seasonLength: number) => Math.max(2 * seasonLength, 8);

export type AnomalyMode = 'in-sample' | 'windows';

export interface AnomaliesBody {
  series: InputSeries[]; freq: string; model?: string; model_size?: string;
  level?: number; step?: number; context?: number; min_history?: number; mode?: AnomalyMode; detection_size?: number;
}

/** The window that scores position `position` of series `series`: the `context` values before its cutoff. */
interface Window { series: number; position: number; cutoff: number; input: InputSeries }

export interface AnomaliesPlan {
  body: AnomaliesBody; mode: AnomalyMode; model: string; size: string;
  level: number; step: number; context: number; minHistory: number;
  /** [lo, 0.5, hi]: the band's quantile levels and the median */
  quantiles: [number, number, number];
  /** per series: the first scored position (positions before it are not scored) */
  scoredFrom: number[];
  /** per series: the first position model auto compares its candidates' fits on (min_history + step - 1: the
   * whole scorable history, also when detection_size scores only the end) */
  comparedFrom: number[];
  /** series whose index has gaps: a window's forecast date is checked against the observation's */
  gappy: Set<number>;
  /** the model calls: mode windows, one with every window; mode in-sample, one per model (model auto: per
   * candidate) with every series whole and `in_sample` set */
  calls: ForecastPlan[];
  /** mode windows: the position each series of the call scores */
  windows: Window[];
  /** mode in-sample: per series and sent position, the index of its value in the series the model fits (-1:
   * before the last max_context steps, which is all the model is sent) */
  fittedAt: number[][];
  warnings: RequestWarning[];
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

/** Why mode in-sample cannot score a request of `model` at `step` (undefined: it can). */
function inSampleRefusal(registry: ModelRegistry, model: string, step: number): string | undefined {
  if (step !== 1) return `it scores one-step-ahead fitted values, and step is ${step}`;
  if (!findModel(registry.catalog, model)?.refit_free_backtest) {
    return `model ${model} is not fitted to each history, so it has no in-sample fitted values `
      + '(the statistical models have them: refit_free_backtest in GET /v1/models)';
  }
  return undefined;
}

function chooseMode(body: AnomaliesBody, registry: ModelRegistry, model: string, step: number): AnomalyMode {
  const refusal = inSampleRefusal(registry, model, step);
  if (body.mode === 'in-sample' && refusal) throw invalid('mode', `mode "in-sample" is not possible here: ${refusal}; use mode "windows"`);
  return body.mode ?? (refusal ? 'windows' : 'in-sample');
}

type PlanOptions = { pulls?: PullManager; mode?: 'sync' | 'job'; autoCandidates?: string[] };
const invalid = (field: string, reason: string) => new RequestValidationError([{ field, reason }]);
/** `step` errors the forecast names `horizon` */
const renamed = (errors: { series?: number; field: string; reason: string }[]) =>
  errors.map((e) => (e.field === 'horizon' ? { ...e, field: 'step', reason: e.reason.replace(/^horizon/, 'step') } : e));
/** The series as sent, without known-future values (an anomaly request forecasts nothing beyond the history). */
const historiesOf = (body: AnomaliesBody) => body.series.map(({ future_variables: _f, future_variables_index: _i, ...s }) => s);

/** Every 4xx of an anomaly request, before anything is charged; windows the model refuses become warnings. */
export function planAnomalies(body: AnomaliesBody, registry: ModelRegistry, options: PlanOptions = {}): AnomaliesPlan {
  const level = body.level ?? DEFAULT_ANOMALY_LEVEL;
  const step = body.step ?? 1;
  const seasonLength = registry.catalog.season_length[body.freq as keyof typeof registry.catalog.season_length] ?? 1;
  const minHistory = body.min_history ?? defaultMinHistory(seasonLength);
  const quantiles = bandLevels(level);
  if (!(quantiles[0] > 0 && quantiles[2] < 1)) {
    throw invalid('level', `level ${level} leaves no band: its quantiles ${quantiles[0]} and ${quantiles[2]} must lie strictly between 0 and 1`);
  }
  const plan = (series: InputSeries[], model: string | undefined, context?: number) => planForecast(
    { series, horizon: step, freq: body.freq as never, model, model_size: body.model_size, context, quantiles: [...new Set(quantiles)] },
    registry, { pulls: options.pulls, mode: options.mode ?? 'sync' });

  // the series as sent first: a bad date, model or step is a 422 naming the input series, never a window left out
  const auto = isAuto(body.model, registry);
  let whole: ForecastPlan[];
  const warnings: RequestWarning[] = [];
  try {
    whole = auto ? planAutoCandidates(body, registry, options, quantiles, warnings) : [plan(historiesOf(body), body.model)];
  } catch (error) {
    if (error instanceof RequestValidationError) throw new RequestValidationError(renamed(error.errors));
    throw error;
  }
  const mode = auto ? autoMode(body, step) : chooseMode(body, registry, whole[0].model, step);
  // the series' own warnings (gaps, covariates the model ignores), once per series rather than per window;
  // in mode windows the request-level ones come with the windows' call
  const gappy = new Set(whole[0].warnings.filter((w) => w.series !== undefined && w.field === `series[${w.series}].index`).map((w) => w.series!));
  for (const w of whole[0].warnings) if (w.series !== undefined || mode === 'in-sample') warnings.push(w);

  // position t is scored from the values before t - step + 1, at least min_history of them
  const first = minHistory + step - 1;
  const comparedFrom = body.series.map((s) => Math.min(first, s.target.length));
  const scoredFrom = body.detection_size === undefined ? comparedFrom : detectionStarts(body, body.detection_size, minHistory, step);
  const total = body.series.reduce((sum, s, i) => sum + s.target.length - scoredFrom[i], 0);
  if (total === 0) {
    const longest = Math.max(...body.series.map((s) => s.target.length));
    throw invalid('min_history', `no series has a timestep to score: the first scored position is min_history ${minHistory} + step ${step} - 1 = ${first}, `
      + `and the longest series has ${longest} values`);
  }
  const limit = mode === 'windows' ? MAX_ANOMALY_WINDOWS : MAX_IN_SAMPLE_POSITIONS;
  if (total > limit) {
    const how = mode === 'windows' ? 'one window each, mode windows' : 'mode in-sample';
    throw invalid('series', `${total} timesteps to score (${how}) exceed the maximum of ${limit} per request; `
      + `send fewer or shorter series, or ${body.detection_size === undefined ? 'raise min_history or set detection_size' : 'lower detection_size'}`);
  }
  body.series.forEach((s, i) => {
    if (s.target.length > scoredFrom[i]) return;
    const message = `series ${i} has ${s.target.length} values, not more than the ${first} before the first scored position `
      + `(min_history ${minHistory} + step ${step} - 1): nothing is scored`;
    warnings.push({ series: i, field: `series[${i}].target`, message });
  });
  const common = { body, mode, level, step, minHistory, quantiles, scoredFrom, comparedFrom, gappy, warnings };
  if (mode === 'in-sample') {
    const message = `context applies to mode "windows"; mode "in-sample" fits each series' whole history `
      + `(its last ${whole[0].context} values at most: max_context) once`;
    if (body.context !== undefined) warnings.push({ field: 'context', message });
    const calls = whole.map((p) => ({ ...p, series: p.series.map((s) => ({ ...s, in_sample: true })) }));
    const fittedAt = body.series.map((s, i) => fittedIndex(s, calls[0].series[i].target.length, body.freq as Freq, gappy.has(i)));
    const [model, size] = auto ? [AUTO_ID, AUTO_ID] : [whole[0].model, whole[0].size];
    return { ...common, model, size, context: whole[0].context, calls, windows: [], fittedAt };
  }
  const context = Math.min(body.context ?? DEFAULT_ANOMALY_CONTEXT, whole[0].context);
  if (body.context !== undefined && body.context > whole[0].context) {
    const { model, size, context: cap } = whole[0];
    warnings.push({ field: 'context', message: `context ${body.context} exceeds the max_context ${cap} of model ${model} (size ${size}); using ${cap}` });
  }
  const { windows, call } = planWindows(body, context, scoredFrom, warnings, (inputs) => plan(inputs, body.model, context));
  return { ...common, model: call.model, size: call.size, context, calls: [call], windows, fittedAt: [] };
}

/** Per series, the first of its last `size` positions: a 422 naming detection_size where a series has fewer
 * positions after its first `min_history + step - 1` values (each scored position needs that history before it). */
function detectionStarts(body: AnomaliesBody, size: number, minHistory: number, step: number): number[] {
  const first = minHistory + step - 1;
  const errors = body.series.flatMap((s, i) => {
    const scorable = s.target.length - first;
    if (size <= scorable) return [];
    const most = scorable > 0 ? `at most ${scorable} can be scored` : 'none can be scored';
    return [{ series: i, field: 'detection_size', reason: `detection_size ${size} exceeds what series ${i} can score: it has `
      + `${s.target.length} values, the first min_history ${minHistory} + step ${step} - 1 = ${first} are history only, so ${most}; `
      + 'lower detection_size or min_history' }];
  });
  if (errors.length) throw new RequestValidationError(errors);
  return body.series.map((s) => s.target.length - size);
}

/** Per sent position, the index of its value in the series the model fits: the last `length` steps of the
 * series' grid (gaps filled; at most max_context), -1 before them. */
function fittedIndex(s: InputSeries, length: number, freq: Freq, gappy: boolean): number[] {
  const parsed = gappy ? parseIndex(freq, s.index) : undefined;
  const steps = parsed?.ok ? parsed.index.steps : s.index.map((_, p) => p);
  const start = steps[steps.length - 1] + 1 - length;
  return steps.map((step) => (step >= start ? step - start : -1));
}

/** One window per scored position, all planned as one model call; a window the model refuses (e.g. its
 * context holds no observation) is left out, named in `warnings`. */
function planWindows(
  body: AnomaliesBody, context: number, scoredFrom: number[], warnings: RequestWarning[], plan: (inputs: InputSeries[]) => ForecastPlan,
): { windows: Window[]; call: ForecastPlan } {
  const step = body.step ?? 1;
  const windows: Window[] = [];
  body.series.forEach((s, i) => {
    for (let t = scoredFrom[i]; t < s.target.length; t++) {
      const cutoff = t - step + 1;
      const start = Math.max(0, cutoff - context);
      windows.push({ series: i, position: t, cutoff, input: truncate(from(s, start), cutoff - start, step) });
    }
  });
  let kept = windows;
  for (;;) {
    try {
      return { windows: kept, call: plan(kept.map((w) => w.input)) };
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
      for (const { series, reason, positions } of grouped.values()) warnings.push(notScored(series, positions, reason));
      kept = kept.filter((_, k) => !bad.has(k));
    }
  }
}

/** The warning for positions of a series left unscored. */
function notScored(series: number, positions: number[], reason: string): RequestWarning {
  const what = positions.length === 1 ? `position ${positions[0]}` : `positions ${ranges(positions)}`;
  return { series, field: `series[${series}].target`, message: `${what} not scored: ${reason}` };
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

// ---- model "auto": the candidates' in-sample fits, a pick per series -------------------------------------

/** model auto scores in-sample only: a pick per series from one fit per candidate. */
function autoMode(body: AnomaliesBody, step: number): AnomalyMode {
  const why = body.mode === 'windows' ? 'mode "windows"' : step !== 1 ? `step ${step}` : undefined;
  if (!why) return 'in-sample';
  throw invalid(body.mode === 'windows' ? 'mode' : 'step',
    `model "auto" picks a model per series from the candidates' in-sample fits (mode "in-sample", step 1), so not with ${why}; name a model for that`);
}

/** The candidates that have in-sample fitted values: the operator's HORIZON_AUTO_CANDIDATES, else auto's statistical ones. */
function autoCandidates(registry: ModelRegistry, settings?: string[]): string[] {
  const refs = settings?.length ? settings : AUTO_STATISTICAL.filter((id) => registry.availableIds().includes(id));
  return refs.filter((ref) => findModel(registry.catalog, ref.split(':')[0])?.refit_free_backtest);
}

/** Each candidate planned on the whole request at step 1; one that cannot take it is left out, named in `warnings`. */
function planAutoCandidates(
  body: AnomaliesBody, registry: ModelRegistry, options: PlanOptions, quantiles: number[], warnings: RequestWarning[],
): ForecastPlan[] {
  if (body.model_size !== undefined) throw invalid('model_size', 'not with model "auto": its candidates run at their default sizes');
  const base = { series: historiesOf(body), horizon: 1, freq: body.freq as never, quantiles: [...new Set(quantiles)] };
  const refs = autoCandidates(registry, options.autoCandidates);
  const { planned, skipped } = planModelRefs(refs, 'model', base, registry, {
    pulls: options.pulls, mode: options.mode ?? 'sync', noun: 'candidate', reserved: { [AUTO_ID]: 'model "auto" cannot be its own candidate' }, leaveOut: true,
  });
  if (planned.length === 0) {
    const why = skipped.length ? `: ${skipped.join('; ')}` : '';
    throw invalid('model', `model "auto" has no candidate with in-sample fitted values for this request${why}; name a model`);
  }
  const foundation = (options.autoCandidates ?? []).filter((ref) => !refs.includes(ref));
  if (skipped.length) warnings.push({ field: 'model', message: `auto: candidate(s) left out, they cannot take this request: ${skipped.join('; ')}` });
  if (foundation.length) {
    warnings.push({ field: 'model', message: `auto: candidate(s) left out, they have no in-sample fitted values: ${foundation.join(', ')}` });
  }
  return planned.map((p) => p.plan);
}

/** Per series, the candidate whose in-sample fitted values are closest to the observations (mean absolute
 * error over the positions from comparedFrom on that every candidate fits), ties to the earlier candidate; with its error. */
function pickPerSeries(p: AnomaliesPlan, answers: InferResponse[]): { pick: number; mae: number | null }[] {
  return p.body.series.map((s, i) => {
    const fitted = answers.map((a) => a.predictions[i].in_sample?.mean ?? []);
    const sums = answers.map(() => 0);
    let count = 0;
    for (let t = p.comparedFrom[i]; t < s.target.length; t++) {
      const y = s.target[t];
      const k = p.fittedAt[i][t];
      if (y === null || k < 0 || !fitted.every((f) => Number.isFinite(f[k]))) continue;
      fitted.forEach((f, c) => { sums[c] += Math.abs(y - f[k]); });
      count++;
    }
    if (count === 0) return { pick: 0, mae: null };
    const pick = sums.reduce((best, sum, c) => (sum < sums[best] ? c : best), 0);
    return { pick, mae: sums[pick] / count };
  });
}

// ---- the answer ---------------------------------------------------------------------------------------

type Columns = ReturnType<typeof emptyColumns>[number];

function emptyColumns(p: AnomaliesPlan) {
  return p.body.series.map((s, i) => {
    const n = s.target.length - p.scoredFrom[i];
    const column = <T>(fill: T) => Array.from({ length: n }, () => fill);
    return {
      scored_from: p.scoredFrom[i], index: s.index.slice(p.scoredFrom[i]), actual: s.target.slice(p.scoredFrom[i]),
      forecast: column<number | null>(null), median: column<number | null>(null), lo: column<number | null>(null), hi: column<number | null>(null),
      anomaly: column(false), score: column<number | null>(null), anomalies: [] as number[],
    };
  });
}

/** Column j (position `position`) gets its forecast and band [f, m, l, h]; the observation is flagged and scored. */
function score(out: Columns, j: number, position: number, [f, m, l, h]: number[]): void {
  out.forecast[j] = f; out.median[j] = m; out.lo[j] = l; out.hi[j] = h;
  const y = out.actual[j];
  if (y === null) return; // a missing value is never flagged
  out.anomaly[j] = y < l || y > h;
  if (out.anomaly[j]) out.anomalies.push(position);
  // signed residual in units of the band's half on its side: |score| > 1 exactly when outside
  const half = y >= m ? h - m : m - l;
  out.score[j] = y === m ? 0 : half > 0 ? (y - m) / half : null;
}

/** The model call(s), then per timestep: band, observation, anomaly flag and score. */
export async function runAnomalies(p: AnomaliesPlan, inference: InferenceClient, registry: ModelRegistry) {
  const answers = await Promise.all(p.calls.map((call) =>
    infer(inference, registry, { model: call.model, size: call.size, freq: call.freq, horizon: p.step, quantiles: call.quantiles, series: call.series })));
  const series = emptyColumns(p);
  const scored = p.mode === 'windows' ? scoreWindows(p, answers[0], series) : scoreInSample(p, answers, series);
  return {
    model: p.model, model_size: p.size, mode: p.mode, level: p.level, step: p.step, context: p.context, min_history: p.minHistory,
    ...(p.body.detection_size !== undefined && {
      detection_size: p.body.detection_size,
    }), quantiles: p.quantiles, n_windows: scored.count, n_anomalies: series.reduce((sum, s) => sum + s.anomalies.length, 0),
    series, warnings: scored.warnings, ...(scored.auto && { auto: scored.auto }),
  };
}

/** Mode windows: the `step`-th forecast step of each window scores its position. */
function scoreWindows(p: AnomaliesPlan, answer: InferResponse, series: Columns[]) {
  const { step, quantiles: [lo, mid, hi] } = p;
  const result = toContract(p.calls[0], answer);
  // the windows' own per-series warnings repeat the series' (already in p.warnings); request-level and model ones stay
  const warnings = [...p.warnings, ...result.warnings.filter((w) => w.series === undefined)];
  const offDate = new Set<number>();
  p.windows.forEach((w, k) => {
    const { prediction, index } = result.series[k][0];
    // after a gap in the index the window's k-th forecast step is not the observation's date
    if (p.gappy.has(w.series) && Date.parse(index[step - 1]) !== Date.parse(p.body.series[w.series].index[w.position])) { offDate.add(w.series); return; }
    const band = [prediction.mean[step - 1], prediction[String(mid)][step - 1], prediction[String(lo)][step - 1], prediction[String(hi)][step - 1]];
    score(series[w.series], w.position - p.scoredFrom[w.series], w.position, band);
  });
  for (const i of offDate) {
    const message = `series ${i}: timesteps right after a gap in the index were not scored (their forecast falls on another date)`;
    warnings.push({ series: i, field: `series[${i}].index`, message });
  }
  return { count: p.windows.length, warnings, auto: undefined };
}

/** Mode in-sample: each position's fitted value and interval from its series' one fit (model auto: the pick's). */
function scoreInSample(p: AnomaliesPlan, answers: InferResponse[], series: Columns[]) {
  const auto = p.calls.length > 1 || p.model === AUTO_ID;
  const picks = auto ? pickPerSeries(p, answers) : p.body.series.map(() => ({ pick: 0, mae: null }));
  const warnings = [...p.warnings];
  // the model's warnings (one per series here, not per window: e.g. a fit without seasonality on a short series)
  answers.forEach((answer, c) => {
    for (const message of answer.warnings) {
      const i = /^series (\d+): /.exec(message)?.[1];
      if (auto && i !== undefined && picks[Number(i)].pick !== c) continue; // a candidate's note on a series it does not score
      warnings.push({ field: 'model', message: auto ? `model ${p.calls[c].model}: ${message}` : message });
    }
  });
  const [lo, mid, hi] = p.quantiles.map(String);
  let count = 0;
  p.body.series.forEach((s, i) => {
    const fit = answers[picks[i].pick].predictions[i].in_sample;
    if (!fit) throw new HorizonError('inference_failed', `the model returned no in-sample values for series ${i}`);
    const q = Object.fromEntries(Object.entries(fit.quantiles).map(([k, v]) => [String(Number(k)), v]));
    const [before, unfitted]: number[][] = [[], []];
    for (let t = p.scoredFrom[i]; t < s.target.length; t++) {
      const k = p.fittedAt[i][t];
      if (k < 0) { before.push(t); continue; }
      const band = [fit.mean[k], q[mid][k], q[lo][k], q[hi][k]];
      if (!band.every(Number.isFinite)) { unfitted.push(t); continue; }
      score(series[i], t - p.scoredFrom[i], t, band);
      count++;
    }
    const model = p.calls[picks[i].pick].model;
    const cap = p.context;
    if (before.length) warnings.push(notScored(i, before, `before the last ${cap} values of the series, all that model ${model} fits (max_context ${cap})`));
    if (unfitted.length) warnings.push(notScored(i, unfitted, `model ${model} has no in-sample fitted value there `
      + '(naive has none for the first value, seasonal-naive none for the first season; none before the first observation)'));
  });
  const autoInfo = auto ? {
    candidates: p.calls.map((c) => ({ model: c.model, model_size: c.size })),
    series: picks.map(({ pick, mae }) => ({ model: p.calls[pick].model, model_size: p.calls[pick].size, mae })),
  } : undefined;
  return { count, warnings, auto: autoInfo };
}
