// Rolling-origin cross-validation (POST /v1/cross-validation, its job variant, `model: "auto"`):
// the windows, one plan per model (every 4xx before anything is charged), then ONE model call per
// model with every window of every series, scored with src/forecasting/metrics.ts via the backtest's scorer.
import { infer, planForecast, toContract, type ForecastPlan } from './forecast.ts';
import { RequestValidationError, type RequestWarning } from './normalize.ts';
import { scoreBacktest, type BacktestPlan } from './backtest.ts';
import { coverage } from './metrics.ts';
import type { InputSeries } from './normalize.ts';
import { renumberWarnings, type InferenceClient, type InferResponse, type Prediction } from '../runtime/inference.ts';
import { findModel } from '../runtime/catalog.ts';
import type { RuntimeSeries } from './normalize.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';

/**
 * Window w (0 = latest) of a series of n values (as sent) has its cutoff at n - horizon - w*step:
 * the forecast uses the values before the cutoff, the actuals are the `horizon` values from it.
 * Every window of a model is one input series of ONE model call (and one normalised request, so a
 * window's forecast equals POST /v1/forecast on the truncated history).
 */
export interface CrossValidationBody {
  series: InputSeries[]; horizon: number; freq: string; models: (string | { model: string; model_size?: string })[];
  /** true (default): each window fitted on its own; false: from the whole-history fit (refit_free_backtest models);
   * 'form' (model "auto"'s default): the whole-history fit's form fitted again before each cutoff */
  n_windows?: number; step?: number; refit?: boolean | 'form'; metric?: 'wql' | 'mase' | 'smape';
  season_length?: number; context?: number; quantiles?: number[];
}
export interface Win { series: number; window: number; cutoff: number; input: InputSeries; actual: number[]; train: number[] }

/** The input series cut to its first `cutoff` values; a future variable gets its own historical values over the window. */
export function truncate(s: InputSeries, cutoff: number, horizon: number): InputSeries {
  const hist = s.hist_variables ?? {};
  const out: InputSeries = { target: s.target.slice(0, cutoff), index: s.index.slice(0, cutoff) };
  if (s.hist_variables) out.hist_variables = Object.fromEntries(Object.entries(hist).map(([k, v]) => [k, v.slice(0, cutoff)]));
  if (s.future_variables) {
    out.future_variables = Object.fromEntries(
      Object.keys(s.future_variables).map((k) => [k, (hist[k] ?? []).slice(cutoff, cutoff + horizon).map((v) => v ?? 0)]),
    );
    out.future_variables_index = s.index.slice(cutoff, cutoff + horizon);
  }
  if (s.static_variables) out.static_variables = s.static_variables;
  return out;
}

function centralCoverage(actual: number[], prediction: Record<string, number[]>, levels: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of levels) {
    if (q >= 0.5) continue;
    const upper = levels.find((u) => Math.abs(u - (1 - q)) < 1e-9);
    if (upper === undefined) continue;
    out[String(Math.round((1 - 2 * q) * 1000) / 10)] = coverage(actual, prediction[String(q)], prediction[String(upper)]);
  }
  return out;
}


/** A validated cross-validation, ready to charge (one unit per model) and run, now or as a job. */
export interface CrossValidationPlan {
  body: CrossValidationBody; horizon: number; nWindows: number; step: number; metric: 'wql' | 'mase' | 'smape';
  seasonLength: number; warnings: RequestWarning[];
  /** per model: the windows' plan, the windows it kept, and the plan of the whole series (what a refit-free call sends) */
  plans: { plan: ForecastPlan; wins: Win[]; full: ForecastPlan }[];
}

/** Every 4xx of a cross-validation, before anything is charged; windows that do not fit become warnings. */
export function planCrossValidation(
  body: CrossValidationBody, registry: ModelRegistry, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {},
): CrossValidationPlan {
  const { horizon } = body;
  const nWindows = body.n_windows ?? 1;
  const step = body.step ?? horizon;
  const metric = body.metric ?? 'wql';
  const seasonLength = body.season_length ?? registry.catalog.season_length[body.freq as keyof typeof registry.catalog.season_length];
  const warnings: RequestWarning[] = [];

  // the windows of every series; those that do not fit are named in warnings
  const windows: Win[] = [];
  body.series.forEach((s, i) => {
    const n = s.target.length;
    for (let w = 0; w < nWindows; w++) {
      const cutoff = n - horizon - w * step;
      const field = `series[${i}].target`;
      if (cutoff < 1) { warnings.push({ series: i, field, message: `window ${w} left out: its cutoff ${cutoff} leaves no history (n ${n} - ` +
        `horizon ${horizon} - ${w}*step ${step})` }); continue; }
      const actual = s.target.slice(cutoff, cutoff + horizon);
      if (actual.some((v) => v === null)) { warnings.push({ series: i, field, message: `window ${w} left out: a value to score ` +
        `(positions ${cutoff}..${cutoff + horizon - 1}) is missing` }); continue; }
      const train = s.target.slice(0, cutoff).filter((v): v is number => v !== null);
      if (train.length === 0) { warnings.push({ series: i, field, message: `window ${w} left out: nothing observed before its cutoff ${cutoff}` }); continue; }
      if (train.length <= seasonLength) warnings.push({ series: i, field, message: `window ${w}: ${train.length} observations before the cutoff are not more ` +
        `than season_length ${seasonLength}; its MASE uses m = 1` });
      windows.push({ series: i, window: w, cutoff, input: truncate(s, cutoff, horizon), actual: actual as number[], train });
    }
  });

  // one plan per model (every 4xx before anything is charged); a window the model refuses is left out with the reason
  const plans: CrossValidationPlan['plans'] = [];
  for (const [m, ref] of body.models.entries()) {
    const { model, model_size } = typeof ref === 'string' ? { model: ref, model_size: undefined } : ref;
    const onModel = (
      errors: { series?: number; field: string; reason: string }[],
    ) => errors.map((e) => ({ ...e, field: e.field === 'model' || e.field === 'model_size' ? `models[${m}].${e.field}` : e.field }));
    const plan = (series: InputSeries[]) => planForecast(
      { series, horizon, freq: body.freq as never, model, model_size, context: body.context, quantiles: body.quantiles }, registry,
      { pulls: options.pulls, mode: options.mode ?? 'sync' },
    );
    // the request as sent first (future values come from the history here, so not those): a bad date or
    // model is a 422 naming the input series, never a window left out
    let full: ForecastPlan;
    try {
      full = plan(body.series.map(({ future_variables: _f, future_variables_index: _i, ...s }) => s));
    } catch (error) {
      if (error instanceof RequestValidationError) throw new RequestValidationError(onModel(error.errors));
      throw error;
    }
    if (windows.length === 0) throw new RequestValidationError([{ field: 'n_windows', reason: `no window of any series fits its history (window w needs more ` +
      `than horizon ${horizon} + w*step ${step} values)` }]);
    // then the windows: one the model refuses (e.g. too short for it) is left out, with the reason
    let wins = windows;
    let planned: ForecastPlan | undefined;
    while (!planned) {
      try {
        planned = plan(wins.map((w) => w.input));
      } catch (error) {
        if (!(error instanceof RequestValidationError)) throw error;
        const general = error.errors.filter((e) => e.series === undefined);
        if (general.length) throw new RequestValidationError(onModel(general));
        const bad = new Set(error.errors.map((e) => e.series!));
        for (const e of error.errors) {
          const w = wins[e.series!];
          warnings.push({ series: w.series, field: `series[${w.series}].target`, message: `window ${w.window} left out for model ${model}: ${e.reason}` });
        }
        if (bad.size === wins.length) throw new RequestValidationError(
          [{ field: `models[${m}].model`, reason: `no window fits model ${model}: ${error.errors[0].reason}` }],
        );
        wins = wins.filter((_, k) => !bad.has(k));
      }
    }
    plans.push({ plan: planned, wins, full });
  }

  return { body, horizon, nWindows, step, metric, seasonLength, warnings, plans };
}

/** A forecast window to score: its actuals, the history before it (MASE's scale) and the prediction ("mean" and levels). */
export interface ScoredWindow { actual: number[]; train: number[]; prediction: Record<string, number[]> }
export type WindowScores = { mase: number | null; wql: number | null; smape: number; coverage: Record<string, number> };

/** Windows scored with the backtest's scorer: each window's scores, and theirs pooled (MASE, sMAPE means; WQL and
 * coverage over every value). */
export function scoreWindows(
  items: readonly ScoredWindow[], horizon: number, seasonLength: number, levels: number[],
): { aggregate: WindowScores; windows: WindowScores[] } {
  const bt: BacktestPlan = {
    holdout: horizon, seasonLength, train: items.map((w) => w.train), actual: items.map((w) => w.actual), request: undefined as never,
  };
  const answer: InferResponse = { model: '', size: '', warnings: [], timing: {}, predictions: items.map(
    (w) => ({ mean: w.prediction.mean, quantiles: Object.fromEntries(levels.map((q) => [String(q), w.prediction[String(q)]])) }),
  ) };
  const scored = scoreBacktest(bt, answer, levels);
  const cov = items.map((w) => centralCoverage(w.actual, w.prediction, levels));
  const keys = Object.keys(cov[0] ?? {});
  const pooled = Object.fromEntries(keys.map((key) => {
    let inside = 0, total = 0;
    items.forEach((w, k) => { inside += cov[k][key] * w.actual.length; total += w.actual.length; });
    return [key, inside / total];
  }));
  return { aggregate: { ...scored.aggregate, coverage: pooled }, windows: scored.series.map((s, k) => ({ ...s, coverage: cov[k] })) };
}

/** The models ranked by `metric` (ties by MASE, null scores last). */
export function leaderboardOf(
  models: readonly { model: string; model_size: string; scores: WindowScores }[], metric: 'wql' | 'mase' | 'smape',
): { rank: number; model: string; model_size: string; score: number | null }[] {
  const cmp = (x: number | null, y: number | null) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : x - y);
  const order = [...models].sort((a, b) => cmp(a.scores[metric], b.scores[metric]) || cmp(a.scores.mase, b.scores.mase));
  return order.map((m, r) => ({ rank: r + 1, model: m.model, model_size: m.model_size, score: m.scores[metric] }));
}

export type CrossValidationResult = Awaited<ReturnType<typeof runCrossValidation>>;

/** The windows of one model from ONE call on the whole series (refit false or 'form', a model with
 * refit_free_backtest): each series carries its windows as a `backtest` (window = horizon, step), the worker
 * fits it once and forecasts every cutoff from that fit ('none') or from that fit's form fitted again ('form'). Undefined when that cannot serve every kept
 * window (e.g. the
 * context cap left no history before the earliest cutoff): the caller refits. Also gives the forecast of
 * the whole series, which `auto` uses for the candidates it picks. */
async function refitFreeWindows(
  { wins, full }: CrossValidationPlan['plans'][number], cv: CrossValidationPlan, inference: InferenceClient, registry: ModelRegistry, refit: 'none' | 'form',
): Promise<{ windows: InferResponse; full: InferResponse } | undefined> {
  const origins = new Map<number, number>();
  for (const w of wins) origins.set(w.series, Math.max(origins.get(w.series) ?? 0, w.window + 1));
  const series = full.series.map((s, i) => {
    const k = origins.get(i);
    if (!k) return s;
    // the plan may have cut the history to `context`: cutoffs count from the end
    const earliest = s.target.length - cv.horizon - (k - 1) * cv.step;
    return earliest >= 1 && s.target.slice(0, earliest).some((v) => v !== null) ? {
      ...s, backtest: { window: cv.horizon, origins: k, step: cv.step, ...(refit === 'form' ? { refit } : {}) },
    } : undefined;
  });
  if (series.some((s) => s === undefined)) return undefined;
  const answer = await infer(
    inference, registry,
    { model: full.model, size: full.size, freq: full.freq, horizon: cv.horizon, quantiles: full.quantiles, series: series as RuntimeSeries[] },
  );
  const predictions = wins.map((w) => answer.predictions[w.series].backtest?.[w.window]);
  if (predictions.some((p) => !p)) return undefined;
  // a series' warnings go to each of its windows, renumbered to the windows' call
  const warnings = renumberWarnings(answer.warnings, (i) => wins.flatMap((w, k) => (w.series === i ? [k] : [])));
  for (const p of answer.predictions) delete p.backtest;
  return { windows: { ...answer, warnings, predictions: predictions as Prediction[] }, full: answer };
}

/** One model call per model (all windows of all series together), then the scores and the leaderboard. */
export async function runCrossValidation(cv: CrossValidationPlan, inference: InferenceClient, registry: ModelRegistry) {
  return (await crossValidate(cv, inference, registry)).result;
}

/** runCrossValidation, and per model the forecast of the whole series where a refit-free call made one. */
export async function crossValidate(cv: CrossValidationPlan, inference: InferenceClient, registry: ModelRegistry) {
  const { body, horizon, nWindows, step, metric, seasonLength, plans } = cv;
  const refit = body.refit ?? true;
  const warnings = [...cv.warnings];
  const levels = [...(plans[0].plan.quantiles)].sort((a, b) => a - b);
  const calls = await Promise.all(plans.map(async (p) => {
    const forward = refit !== true && findModel(registry.catalog, p.plan.model)?.refit_free_backtest
      ? await refitFreeWindows(p, cv, inference, registry, refit === 'form' ? 'form' : 'none') : undefined;
    if (forward) return forward;
    const { plan } = p;
    return { windows: await infer(
      inference, registry, { model: plan.model, size: plan.size, freq: plan.freq, horizon, quantiles: plan.quantiles, series: plan.series },
    ), full: undefined };
  }));
  const answers = calls.map((c) => c.windows);
  const models = plans.map(({ plan, wins }, m) => {
    const result = toContract(plan, answers[m]);
    for (const w of result.warnings) warnings.push({ ...w, message: `model ${plan.model}: ${w.message}` });
    const predictions = result.series.map((p) => p[0]);
    // scored with the backtest's scorer over the contract's (non-crossing) quantiles
    const itemOf = (k: number): ScoredWindow => ({ actual: wins[k].actual, train: wins[k].train, prediction: predictions[k].prediction });
    const all = wins.map((_, k) => k);
    const series = body.series.map((_, i) => {
      const ks = all.filter((k) => wins[k].series === i);
      if (ks.length === 0) return { scores: null, windows: [] };
      const s = scoreWindows(ks.map(itemOf), horizon, seasonLength, levels);
      return {
        scores: s.aggregate,
        windows: ks.map((k, j) => ({
          window: wins[k].window, cutoff: wins[k].cutoff, index: predictions[k].index, prediction: predictions[k].prediction,
          actual: wins[k].actual, scores: s.windows[j],
        })),
      };
    });
    return { model: plan.model, model_size: plan.size, scores: scoreWindows(all.map(itemOf), horizon, seasonLength, levels).aggregate, series };
  });
  const result = {
    horizon, n_windows: nWindows, step, refit, season_length: seasonLength, quantiles: levels, metric,
    leaderboard: leaderboardOf(models, metric), models, warnings,
  };
  return { result, full: calls.map((c) => c.full), answers };
}
