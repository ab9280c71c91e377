// `model: "auto"` on POST /v1/forecast and /v1/forecast-jobs: a bounded rolling-origin cross-validation
// (src/forecasting/cross-validation.ts, the same windows and scores as POST /v1/cross-validation) over a set of
// candidate models, then each series forecast by its winner — per series (`auto_scope: "series"`) or
// one model for the whole request (`auto_scope: "request"`, the CV leaderboard's first). The response is
// the ForecastAPIResponse with `model: "auto"` and an `auto` object: per series the model picked, its CV
// score and the metric.
//
// Bounded cost: at most AUTO_MAX_WINDOWS windows (default HORIZON_AUTO_WINDOWS, step = horizon), one
// model call per candidate with every window of every series, then one call per picked model with the
// series it won. Candidates: the request's `auto_candidates`, else HORIZON_AUTO_CANDIDATES, else what
// this deployment serves — foundation models first, then auto-ets, auto-theta, seasonal-naive (and mstl where the
// frequency has several seasons or one longer than AutoETS models: hourly, daily, weekly), at most AUTO_MAX_DEFAULT_CANDIDATES of them; with
// HORIZON_AUTO_CANDIDATES=pool (and no foundation model served), every served statistical model whose estimated cost
// per series for this request fits HORIZON_POOL_BUDGET_MS (src/forecasting/model-pool.ts, issue 35: not the default,
// it picked worse on every single-season set, eval/README.md),
// named with its source in the answer's `auto.pool`. Charged one request, like prism (which also calls its members
// several times): the extra calls are bounded by the server, not chosen freely by the client.
import type { Static } from '@fastify/type-provider-typebox';
import { HorizonError } from '../errors.ts';
import { findModel, type Covariates } from '../runtime/catalog.ts';
import { covariateErrors, covariateKinds, howToServeCovariateModels, kindWords, servedCovariateModels, usesKinds } from './covariates.ts';
import { infer, parseModelRef, planModelRefs, rejectPrismMembers, toContract, type ForecastPlan, type ForecastResult, type ModelRef } from './forecast.ts';
import { crossValidate, planCrossValidation, type CrossValidationPlan, type CrossValidationResult } from './cross-validation.ts';
import { RequestValidationError, type ForecastRequestBody, type RequestWarning } from './normalize.ts';
import type { AutoInfo } from '../contract/schemas.ts';
import { renumberWarnings, type InferenceClient, type InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { POOL_DEFAULT_BUDGET_MS, sizeByCost, statisticalPool, type PoolInfo } from './model-pool.ts';
import { hasUnmodelledSeasons } from './seasons.ts';

export const AUTO_ID = 'auto';
/** the most CV windows `auto` runs (the operator's HORIZON_AUTO_WINDOWS is capped here) */
export const AUTO_MAX_WINDOWS = 3;
/** default windows; chosen with the offline study in eval/README.md ("model auto") */
export const AUTO_DEFAULT_WINDOWS = 2;
/** default candidates when neither the request nor the operator names any: at most this many */
export const AUTO_MAX_DEFAULT_CANDIDATES = 4;
/** the statistical candidates after the served foundation models (auto-arima and auto-ces are left out for cost, as in prism; naive equals seasonal-naive on
 * yearly data and is the worst single model on the seasonal sets of eval/) */
export const AUTO_STATISTICAL = ['auto-ets', 'auto-theta', 'seasonal-naive'];
/** joins AUTO_STATISTICAL where the frequency has several seasons (the catalog's mstl_season_lengths: hourly 24 + 168,
 * daily 7 + 365) or one longer than AutoETS models (seasons.ts ETS_MAX_SEASON: weekly's 52, where auto-ets is non-seasonal): mstl
 * decomposes them with STL. auto over the three + mstl: M4 hourly MASE 1.1023 / WQL 0.0285 (it picks mstl, the
 * best single) against 1.1811 / 0.0376; M4 weekly 2.4547 / 0.0469 against 2.3903 / 0.0503 (1.028 / 0.983 of the best
 * single against 1.002 / 1.055); NN5 daily and weekly unchanged. Its `form` windows reuse its whole-history decomposition
 * (the runtime's _decomposed_window), so it costs auto about one fit; more candidates on the other sets picked worse
 * (eval/README.md, "auto's candidates by frequency") */
export const AUTO_MULTI_SEASON = 'mstl';
/** HORIZON_AUTO_CANDIDATES=pool: the statistical pool sized by the request's cost (model-pool.ts), as prism's */
export const AUTO_POOL_SETTING = 'pool';
/** series scope: a series leaves the request's winner only for a candidate whose CV score on it is below this share of the winner's */
export const AUTO_SWITCH_RATIO = 0.8;
export const AUTO_DEFAULT_METRIC: AutoMetric = 'mase';
/** request scope by default: on the offline study it was at least as good as per-series picks (eval/README.md, "model auto") */
export const AUTO_DEFAULT_SCOPE: AutoScope = 'request';
export const AUTO_FIELDS = ['auto_candidates', 'auto_scope', 'auto_metric'] as const;

export type AutoScope = 'series' | 'request';
export type AutoMetric = 'wql' | 'mase' | 'smape';
export type AutoResult = ForecastResult & { auto: Static<typeof AutoInfo> };
export type AutoBody = ForecastRequestBody & {
  auto_candidates?: ModelRef[]; auto_scope?: AutoScope; auto_metric?: AutoMetric; evaluation?: unknown; prism_members?: ModelRef[];
};
/** How `auto` cross-validates a statistical candidate (HORIZON_AUTO_REFIT), each fitted once per series on the
 * whole history, whose forecast is given where the candidate is picked:
 * 'form' (default): each window is fitted again with the form that whole-history fit chose (AutoETS's
 *   components, AutoTheta's variant; a non-seasonal fit's whole search, which is cheap, is redone): the
 *   windows' parameters never saw the window, at a fraction of a full search;
 * true: every candidate refitted from scratch at each window (candidates × (windows + 1) fits);
 * false: the windows forecast from the whole-history fit (statsforecast's forward()): the fit has seen the
 *   windows, which flatters the flexible models (auto-ets): e.g. Tourism monthly WQL −3.3 % → +16.6 %.
 * Figures for all three on the eight evaluation sets: eval/README.md, "auto: refits, one fit, or the form". */
export type AutoRefit = boolean | 'form';
export const AUTO_DEFAULT_REFIT: AutoRefit = 'form';
export interface AutoSettings { candidates?: string[]; windows?: number; refit?: AutoRefit }

/** why a series got its model: its own CV winner, the request's (pooled) winner, or no window fit it */
type PickedBy = 'series' | 'request' | 'fallback';
interface Candidate { model: string; size: string; plan: ForecastPlan }

/** A validated `auto` request: the candidates (each planned on the whole request) and the CV, ready to charge and run. */
export interface AutoPlan {
  model: typeof AUTO_ID; size: typeof AUTO_ID;
  body: AutoBody; scope: AutoScope; metric: AutoMetric; nWindows: number; step: number;
  candidates: Candidate[];
  /** where the candidates came from (the answer's `auto.pool`) */
  pool: PoolInfo;
  /** null when no window of any series fits its history: every series gets the fallback */
  cv: CrossValidationPlan | null;
  warnings: RequestWarning[];
}

/** What a job stores: the request as sent (planned again when the job runs, so the row stays small). */
export interface StoredAutoJob { model: typeof AUTO_ID; size: typeof AUTO_ID; series: unknown[]; auto_request: AutoBody }

export function isStoredAutoJob(request: unknown): request is StoredAutoJob {
  return typeof request === 'object' && request !== null && 'auto_request' in request;
}

export function storedAutoJob(plan: AutoPlan): StoredAutoJob {
  return { model: AUTO_ID, size: AUTO_ID, series: plan.body.series, auto_request: plan.body };
}

/** 422 for `auto_*` fields on a request whose model is not "auto". */
export function rejectAutoFields(body: AutoBody): void {
  const sent = AUTO_FIELDS.filter((f) => body[f] !== undefined);
  if (sent.length) throw new RequestValidationError(sent.map((field) => ({ field, reason: `${field} applies only to model "auto" (this request's model ` +
    `is ${JSON.stringify(body.model ?? 'the default')})` })));
}

/** The default candidates: served foundation models (catalog order), then the statistical ones, at most AUTO_MAX_DEFAULT_CANDIDATES;
 * with `sized` (HORIZON_AUTO_CANDIDATES=pool) and no foundation model served, every served statistical model, to be sized by
 * the request's cost (model-pool.ts) once planned. With `kinds` (the request's covariates), only the models that use every kind sent. */
export function defaultCandidatePool(registry: ModelRegistry, kinds?: Covariates, freq?: string, sized = false): { ids: string[]; sized: boolean } {
  const served = new Set(registry.availableIds());
  const uses = (id: string) => served.has(id) && (!kinds || usesKinds(findModel(registry.catalog, id)!, kinds));
  const foundation = registry.catalog.models.filter((m) => m.weights && uses(m.id)).map((m) => m.id);
  if (!foundation.length && sized) return { ids: statisticalPool(registry, freq).filter(uses), sized: true };
  return { ids: [...foundation, ...defaultStatistical(registry, freq).filter(uses)].slice(0, AUTO_MAX_DEFAULT_CANDIDATES), sized: false };
}

/** auto's default statistical candidates at `freq`: AUTO_STATISTICAL, and AUTO_MULTI_SEASON where the frequency has several
 * seasons or one longer than ETS models (seasons.ts). */
export function defaultStatistical(registry: ModelRegistry, freq?: string): string[] {
  return hasUnmodelledSeasons(registry.catalog, freq) ? [...AUTO_STATISTICAL, AUTO_MULTI_SEASON] : AUTO_STATISTICAL;
}

/** The ids defaultCandidatePool may use, before any request sizes them. */
export function defaultCandidates(registry: ModelRegistry, kinds?: Covariates): string[] {
  return defaultCandidatePool(registry, kinds).ids;
}

/** A request with covariates: the candidates that use every kind sent, so none is dropped (covariates.ts). A candidate the
 * client names that would drop some is a 422 naming it; the operator's or default ones that would are left out, with a
 * warning; none left is a 422 naming the series' covariate fields and what would serve a model that uses them. */
function covariateCandidates(
  refs: readonly ModelRef[], kinds: Covariates, body: AutoBody, registry: ModelRegistry, source: 'client' | 'operator' | 'default', warnings: RequestWarning[],
): ModelRef[] {
  const served = servedCovariateModels(registry, kinds);
  const dropping = refs.map((ref, k) => ({ ref, k, model: findModel(registry.catalog, parseModelRef(ref).model) }))
    .filter((c) => c.model && !usesKinds(c.model, kinds));
  const what = kindWords(kinds);
  if (source === 'client' && dropping.length) {
    throw new RequestValidationError(dropping.map(({ k, model }) => ({
      field: `auto_candidates[${k}].model`,
      reason: `${model!.id} does not use the request's ${what}, which auto never drops: name candidates that use them (served: ${served.join(', ') || 'none'})`,
    })));
  }
  if (dropping.length) {
    const ids = dropping.map((c) => c.model!.id).join(', ');
    warnings.push({ field: 'model', message: `auto: candidate(s) left out, they do not use the request's ${what}: ${ids}` });
  }
  const kept = refs.filter((_, k) => !dropping.some((c) => c.k === k));
  if (kept.length) return kept;
  const fix = served.length
    ? `served models that use them: ${served.join(', ')} (name them in auto_candidates)`
    : `no served model uses them; ${howToServeCovariateModels(registry, kinds)}; or send the request without them`;
  const pool = source === 'operator' ? 'HORIZON_AUTO_CANDIDATES holds no model that uses them' : 'no candidate uses them';
  const why = `model "auto" forecasts only with models that use the request's ${what}, and ${pool}: ${fix}`;
  throw new RequestValidationError(covariateErrors(body.series, kinds, why));
}

/** Every 4xx of an `auto` request, before anything is charged. */
export function planAuto(
  body: AutoBody, registry: ModelRegistry, settings: AutoSettings, options: { pulls?: PullManager; mode?: 'sync' | 'job' } = {},
): AutoPlan {
  const { auto_candidates: requested, auto_scope: scope = AUTO_DEFAULT_SCOPE, auto_metric: metric = AUTO_DEFAULT_METRIC, evaluation, ...rest } = body;
  rejectPrismMembers(body, AUTO_ID);
  if (evaluation !== undefined) throw new RequestValidationError([{ field: 'evaluation', reason: 'not with model "auto": its `auto` object carries the ' +
    'cross-validation scores of the model picked for each series (POST /v1/cross-validation gives every window)' }]);
  if (body.model_size !== undefined) throw new RequestValidationError([{ field: 'model_size', reason: 'not with model "auto": give each candidate\'s size in ' +
    'auto_candidates ({"model": id, "model_size": size} or "id:size")' }]);
  const nWindows = Math.min(AUTO_MAX_WINDOWS, Math.max(1, settings.windows ?? AUTO_DEFAULT_WINDOWS));
  const warnings: RequestWarning[] = [];
  const base = { ...rest, model: undefined, model_size: undefined };

  // the candidates, each planned on the whole request: a bad one the client named is a 422 naming it;
  // one from the operator's or the default list that cannot take this request is left out, with a warning
  const fromClient = requested !== undefined;
  const sizedPool = settings.candidates?.length === 1 && settings.candidates[0] === AUTO_POOL_SETTING;
  const source = fromClient ? 'client' : settings.candidates?.length && !sizedPool ? 'operator' : 'default';
  const kinds = covariateKinds(body.series);
  const defaults = source === 'default' ? defaultCandidatePool(registry, kinds, typeof body.freq === 'string' ? body.freq : undefined, sizedPool) : undefined;
  let refs = fromClient ? requested : source === 'operator' ? settings.candidates! : defaults!.ids;
  if (kinds) refs = covariateCandidates(refs, kinds, body, registry, source, warnings);
  const planned = planModelRefs(refs, 'auto_candidates', base, registry, {
    pulls: options.pulls, mode: options.mode ?? 'sync', noun: 'candidate',
    reserved: { [AUTO_ID]: 'model "auto" cannot be its own candidate' }, leaveOut: !fromClient,
  });
  const { skipped } = planned;
  let candidates = planned.planned;
  // the statistical pool sized by this request's cost (each candidate planned on the same normalised series)
  const hasFoundation = refs.some((r) => findModel(registry.catalog, parseModelRef(r).model)?.weights);
  let pool: PoolInfo = { source: fromClient ? 'request' : source === 'operator' ? 'operator' : hasFoundation ? 'foundation' : 'default' };
  if (defaults?.sized && candidates.length) {
    const sized = sizeByCost(registry, candidates.map((c) => c.model), body.freq, candidates[0].plan.series, registry.poolBudgetMs ?? POOL_DEFAULT_BUDGET_MS);
    candidates = candidates.filter((c) => sized.models.includes(c.model));
    pool = sized.info;
  }
  if (skipped.length) warnings.push({ field: 'model', message: `auto: candidate(s) left out, they cannot take this request: ${skipped.join('; ')}` });
  if (candidates.length === 0) throw new RequestValidationError([{ field: 'model', reason: `no auto candidate can forecast this ` +
    `request${skipped.length ? `: ${skipped.join('; ')}` : ''}; name candidates in auto_candidates` }]);

  // the cross-validation; a candidate that refuses every window is a 422 (client's) or left out (others)
  let cv: CrossValidationPlan | null = null;
  for (;;) {
    try {
      cv = planCrossValidation({
        series: body.series, horizon: body.horizon, freq: body.freq, models: candidates.map((c) => ({ model: c.model, model_size: c.size })),
        n_windows: nWindows, step: body.horizon, metric, context: body.context, quantiles: body.quantiles, refit: settings.refit ?? AUTO_DEFAULT_REFIT,
      }, registry, { pulls: options.pulls, mode: options.mode ?? 'sync' });
      break;
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      if (error.errors.some((e) => e.field === 'n_windows')) { cv = null; break; }
      const onModel = error.errors.map((e) => /^models\[(\d+)\]\.(.+)$/.exec(e.field)).find(Boolean);
      if (!onModel) throw error;
      const m = Number(onModel[1]);
      if (fromClient) {
        const k = refs.findIndex((r) => parseModelRef(r).model === candidates[m].model);
        throw new RequestValidationError(error.errors.map((e) => ({ ...e, field: e.field.replace(/^models\[\d+\]/, `auto_candidates[${k}]`) })));
      }
      warnings.push({ field: 'model', message: `auto: candidate ${candidates[m].model} left out: ${error.errors[0].reason}` });
      candidates.splice(m, 1);
      if (candidates.length === 0) throw new RequestValidationError([{ field: 'model', reason: 'no auto candidate can forecast the cross-validation ' +
        'windows of this request' }]);
    }
  }
  return { model: AUTO_ID, size: AUTO_ID, body, scope, metric, nWindows, step: body.horizon, candidates, pool, cv, warnings };
}

type CvSeriesScores = CrossValidationResult['models'][number]['series'][number]['scores'];

/** The CV's own order (src/forecasting/cross-validation.ts): the metric, ties by MASE, null last. */
function compare(metric: AutoMetric) {
  const cmp = (x: number | null, y: number | null) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : x - y);
  return (a: CvSeriesScores, b: CvSeriesScores) => cmp(a?.[metric] ?? null, b?.[metric] ?? null) || cmp(a?.mase ?? null, b?.mase ?? null);
}

/** Runs the CV, picks a model per series, forecasts each series with its pick: one call per picked model. */
export async function runAuto(plan: AutoPlan, inference: InferenceClient, registry: ModelRegistry, pulls?: PullManager): Promise<AutoResult> {
  const { body, scope, metric, candidates } = plan;
  // a job accepted while a candidate's weights were missing waits for their pull (auto-pull), as runForecast does
  for (const c of candidates) {
    if (pulls && registry.weightsMissing(c.model, c.size)) {
      await pulls.ensure(c.model, c.size).catch((error: Error) => {
        throw new HorizonError('pull_failed', `pulling the weights of ${c.model} ${c.size} failed: ${error.message}`);
      });
    }
  }
  const n = body.series.length;
  const warnings: RequestWarning[] = [...plan.warnings];
  const validated = plan.cv ? await crossValidate(plan.cv, inference, registry) : null;
  const cv = validated?.result ?? null;
  for (const w of cv?.warnings ?? []) warnings.push({ ...w, message: `auto cross-validation: ${w.message}` });

  // the CV answer lists models in the candidates' order (one plan per candidate)
  const indexOf = (model: string, size: string) => candidates.findIndex((c) => c.model === model && c.size === size);
  const pooled = cv && cv.leaderboard[0].score !== null ? indexOf(cv.leaderboard[0].model, cv.leaderboard[0].model_size) : -1;
  const fallback = pooled >= 0 ? pooled : 0;
  const order = compare(metric);
  const picks = Array.from({ length: n }, (_, i) => {
    const scores = cv ? cv.models.map((m) => m.series[i].scores) : candidates.map(() => null);
    if (scores.every((s) => s === null)) {
      warnings.push({ series: i, field: `series[${i}].target`, message: `auto: no cross-validation window fits this series (it needs more than ` +
        `horizon ${body.horizon} values); forecast ` +
        `with ${candidates[fallback].model}, ${pooled >= 0 ? `the request's cross-validation winner` : 'the first candidate'}` });
      return { c: fallback, windows: 0, by: 'fallback' as PickedBy, score: null as number | null };
    }
    const own = scores.map((_, k) => k).sort((a, b) => order(scores[a], scores[b]) || a - b)[0];
    // series scope: the series' own winner when it is clearly better here than the request's winner
    const value = (k: number) => scores[k]?.[metric] ?? null;
    const clearly = pooled < 0 || (value(own) !== null && (value(pooled) === null || value(own)! < AUTO_SWITCH_RATIO * value(pooled)!));
    const c = scope === 'series' && (own === pooled || clearly) ? own : pooled >= 0 ? pooled : own;
    const by: PickedBy = c === own && (scope === 'series' || pooled < 0) ? 'series' : 'request';
    return { c, windows: cv!.models[c].series[i].windows.length, by, score: value(c) };
  });

  // the forecasts: one call per picked candidate with the series it won, on the plan made for the whole request
  const series: ForecastResult['series'] = new Array(n);
  const used = [...new Set(picks.map((p) => p.c))].sort((a, b) => a - b);
  const general = new Set<string>();
  for (const c of used) {
    for (const w of candidates[c].plan.warnings) {
      if (w.series === undefined) {
        const key = `${w.field}\u0000${w.message}`;
        if (!general.has(key)) { general.add(key); warnings.push(w); }
      } else if (picks[w.series].c === c) warnings.push(w);
    }
  }
  const answers = await Promise.all(used.map(async (c) => {
    const full = candidates[c].plan;
    const idx = picks.map((p, i) => (p.c === c ? i : -1)).filter((i) => i >= 0);
    const sub: ForecastPlan = { ...full, series: idx.map((i) => full.series[i]), forecastIndex: idx.map((i) => full.forecastIndex[i]), warnings: [] };
    // a refit-free cross-validation already forecast the whole series from the same fit: no second call
    const made = validated?.full[c];
    const answer = made ? pick(made, idx) : await infer(
      inference, registry, { model: sub.model, size: sub.size, freq: sub.freq, horizon: sub.horizon, quantiles: sub.quantiles, series: sub.series },
    );
    return { c, idx, result: toContract(sub, answer) };
  }));
  for (const { c, idx, result } of answers) {
    idx.forEach((i, j) => { series[i] = result.series[j]; });
    for (const w of result.warnings) warnings.push({ ...w, message: `model ${candidates[c].model}: ${w.message}` });
  }
  return {
    status: 'completed', model: AUTO_ID, model_size: AUTO_ID, series, metrics: null, warnings,
    auto: {
      scope, metric, n_windows: plan.nWindows, step: plan.step,
      candidates: candidates.map((c) => ({ model: c.model, model_size: c.size })),
      pool: plan.pool,
      leaderboard: cv ? cv.leaderboard : [],
      series: picks.map((p) => ({ model: candidates[p.c].model, model_size: candidates[p.c].size, score: p.score, windows: p.windows, picked_by: p.by })),
    },
  };
}

/** The answer for the series `idx` of a whole-request answer, its per-series warnings renumbered. */
function pick(answer: InferResponse, idx: number[]): InferResponse {
  const at = new Map(idx.map((i, j) => [i, j]));
  const warnings = renumberWarnings(answer.warnings, (i) => (at.has(i) ? [at.get(i)!] : []));
  return { ...answer, warnings, predictions: idx.map((i) => answer.predictions[i]) };
}

/** Whether a model id names `auto` (and the catalog does not define a model of that id). */
export function isAuto(model: string | undefined, registry: ModelRegistry): boolean {
  return model === AUTO_ID && !findModel(registry.catalog, AUTO_ID);
}
