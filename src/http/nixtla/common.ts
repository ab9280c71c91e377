// What every /nixtla route shares: the call onto Horizon's own /v1 operation, the model a name means,
// and the TimeGPT settings Horizon cannot honour (a 422 naming each, never ignored).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../app-types.ts';
import { ERRORS, HorizonError, validationError, type ErrorCode, type FieldError, type Problem } from '../../errors.ts';
import { findModel, type Covariates } from '../../runtime/catalog.ts';
import { AUTO_ID, defaultCandidates } from '../../forecasting/auto.ts';
import { howToServeCovariateModels, kindWords, servedCovariateModels, usesKinds } from '../../forecasting/covariates.ts';
import { FINE_TUNABLE_ADAPTERS } from '../../forecasting/inline-fine-tuning.ts';
import { describeModels, jointModels, samplingModels } from '../../forecasting/joint-and-samples.ts';
import { currentRequest } from '../request-context.ts';
import { nixtlaTerms, type NixtlaSeries } from './translate.ts';
import { kindsOf, type SdkColumns } from './columns.ts';

export interface NixtlaContext extends AppContext {
  /** HORIZON_NIXTLA_DEFAULT_MODEL: what a TimeGPT name (timegpt-*, azureai) runs */
  nixtlaDefaultModel: string;
}

/** The model names TimeGPT answers to (nixtla==0.9.0 documents timegpt-1, timegpt-1-long-horizon, timegpt-2,
 * timegpt-2-mini, timegpt-2-pro, timegpt-2.1; azureai for Azure deployments). */
export const TIMEGPT_NAME = /^(timegpt(-[a-z0-9.-]+)?|azureai)$/i;

export type Task = 'forecast' | 'cross_validation' | 'anomaly_detection';

/** What a call asks to run: `model` as sent, the SDK's finetuned_model_id, its exogenous columns, its finetune_steps. */
export interface ModelAsk { requested: string; finetunedModelId?: string | null; columns?: SdkColumns; finetuneSteps?: number; explain?: boolean;
  /** forecast(multivariate=True) / simulate(): a TimeGPT name runs a model that forecasts jointly / draws sample paths */
  needs?: 'multivariate' | 'samples' }

/** The Horizon model a requested name runs: a TimeGPT name means HORIZON_NIXTLA_DEFAULT_MODEL, or with finetune_steps the
 * fine-tunable base (chronos-2); `auto` picks a model per forecast, and POST /v1/anomalies' auto one per series (anomaly
 * detection without covariates keeps it), so a task that runs one model (cross-validation, anomalies with covariates)
 * runs HORIZON_DEFAULT_MODEL instead when "auto" came from a TimeGPT name (with covariates, one of auto's
 * candidates that uses them), and a 422 when it was asked for by name. Said in the x-horizon-model header (a known model
 * only: sayModel) and the request's log line. */
export function resolveModel(ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, task: Task, ask: ModelAsk): string {
  const timegpt = TIMEGPT_NAME.test(ask.requested);
  // a fine-tuned model is the account's private model (ft-… or its name): it is what runs, whatever `model` says
  let model = ask.finetunedModelId ?? (timegpt ? ctx.nixtlaDefaultModel : ask.requested);
  if (!ask.finetunedModelId && timegpt && (ask.finetuneSteps ?? 0) > 0 && task !== 'anomaly_detection') {
    model = fineTunableBase(ctx, 'finetune_steps');
  } else if (!ask.finetunedModelId && timegpt && ask.needs) {
    model = capableModel(ctx, ask.needs);
  } else if (model === AUTO_ID && task === 'anomaly_detection' && !(ask.columns && kindsOf(ask.columns))) {
    // POST /v1/anomalies' own "auto": a statistical model per series from its candidates' in-sample fits
  } else if (model === AUTO_ID && timegpt && ask.explain) {
    // feature_contributions explain one model's forecast: one of auto's candidates that uses the covariates
    model = oneModelForAuto(ctx, ask.columns && kindsOf(ask.columns));
  } else if (model === AUTO_ID && task !== 'forecast') {
    if (!timegpt) {
      throw validationError([{ field: 'model', reason: `"auto" picks a model per forecast; ${task} runs one model: name one (GET /nixtla/v2/models)` }]);
    }
    model = oneModelForAuto(ctx, ask.columns && kindsOf(ask.columns));
  }
  Object.assign(request.logFields, { nixtla_model: ask.requested, model });
  sayModel(ctx, reply, model);
  return model;
}

/** The served base a TimeGPT name fine-tunes (the first fine-tunable family of the catalog, chronos-2); else a 422 on
 * `field` naming what serves it. */
export function fineTunableBase(ctx: NixtlaContext, field: string): string {
  const tunable = ctx.registry.catalog.models.filter((m) => FINE_TUNABLE_ADAPTERS.has(m.adapter) && !m.id.startsWith('ft-'));
  const served = tunable.find((m) => ctx.registry.availableIds().includes(m.id));
  if (served) return served.id;
  const how = tunable.map((m) => {
    const why = typeof ctx.registry.unavailableReason === 'function' ? ctx.registry.unavailableReason(m) : undefined;
    return `${m.id}: ${why?.command ? `\`${why.command}\`` : why?.detail ?? 'not served'}`;
  });
  const reason = `a TimeGPT name fine-tunes Horizon's fine-tunable model, which this deployment does not serve (${how.join('; ')})`;
  throw validationError([{ field, reason }]);
}

/** What a TimeGPT name runs for a joint forecast or sample paths: HORIZON_NIXTLA_DEFAULT_MODEL (then HORIZON_DEFAULT_MODEL)
 * where it can, else the first served model that can (catalog order: chronos-2 / chronos, then the statistical ones);
 * none served: a 422 naming each and what serves it. */
function capableModel(ctx: NixtlaContext, needs: 'multivariate' | 'samples'): string {
  const able = needs === 'multivariate' ? jointModels(ctx.registry) : samplingModels(ctx.registry);
  const served = new Set(ctx.registry.availableIds());
  const pick = [ctx.nixtlaDefaultModel, ctx.registry.defaultModel, ...able.map((m) => m.id)].find((id) => served.has(id) && able.some((m) => m.id === id));
  if (pick) return pick;
  const what = needs === 'multivariate' ? 'forecasts series jointly' : 'draws sample paths';
  throw validationError(
    [{ field: needs === 'multivariate' ? 'multivariate' : 'model', reason: `no served model ${what}: ${describeModels(ctx.registry, able)}` }],
  );
}

/** auto's candidates that use every kind of covariate sent: the operator's (HORIZON_AUTO_CANDIDATES) that do and are
 * served, else the default ones that do (what /v1's auto then cross-validates; src/forecasting/auto.ts). */
function autoCovariatePool(ctx: NixtlaContext, kinds: Covariates): string[] {
  const configured = ctx.config?.autoCandidates ?? [];
  if (!configured.length) return defaultCandidates(ctx.registry, kinds);
  const served = new Set(servedCovariateModels(ctx.registry, kinds));
  return configured.map((c) => c.split(':')[0]).filter((id) => served.has(id));
}

/** What "auto" from a TimeGPT name runs where one model runs: HORIZON_DEFAULT_MODEL, or, with covariates it does not use,
 * the first of auto's candidates that uses them (none: checkCovariates' 422 says what would serve one). */
function oneModelForAuto(ctx: NixtlaContext, kinds: Covariates | undefined): string {
  const fallback = ctx.registry.defaultModel;
  const entry = findModel(ctx.registry.catalog, fallback);
  if (!kinds || (entry && usesKinds(entry, kinds))) return fallback;
  return autoCovariatePool(ctx, kinds)[0] ?? fallback;
}

/** Sets x-horizon-model to `models` (one id, or several joined by commas) when each is a model this request can
 * run: a catalog id, "auto", or one of the caller's private models by id or name. Anything else is the caller's
 * text (an unknown name, which /v1 answers with a 422 on `model`) and never goes into a header: a control
 * character there makes Node refuse the whole answer, and non-ASCII text would go out as Latin-1 bytes. */
export function sayModel(ctx: NixtlaContext, reply: FastifyReply, ...models: string[]): void {
  const own = (currentRequest()?.privateModels ?? []) as { name?: string }[];
  const known = (model: string) => model === AUTO_ID || findModel(ctx.registry.catalog, model) !== undefined || own.some((m) => m.name === model);
  if (models.length > 0 && models.every(known)) void reply.header('x-horizon-model', models.join(','));
}

/** TimeGPT's settings: the SDK sends them with every call; accepted at their defaults, a 422 otherwise. */
export interface TimegptSettings {
  finetune_steps?: number; finetune_depth?: number; finetune_loss?: string; finetuned_model_id?: string | null;
  multivariate?: boolean; model_parameters?: Record<string, unknown> | null; feature_contributions?: boolean; feature_contributions_type?: string;
  job_options?: { timeout_seconds?: number };
  series: NixtlaSeries;
}

/** Fine-tuning maps onto Horizon's (docs/fine-tuning.md): finetune_steps → /v1/forecast's inline finetune_steps,
 * finetune() → POST /v1/fine-tuning-jobs, finetuned_model_id → the account's private model as `model`. */
const FINETUNE_HOW = 'Horizon fine-tunes with Chronos2Pipeline.fit (finetune_steps on forecast; a model to keep: finetune(), which is '
  + 'POST /v1/fine-tuning-jobs, then finetuned_model_id=<its id>)';

/** TimeGPT's finetune_depth (1 little … 5 the entire model) → the two modes of Chronos2Pipeline.fit: 1 a LoRA adapter
 * (the fewest weights trained), 5 every weight (full); 2-4 have no equivalent. finetune_loss: the library trains on
 * Chronos-2's own quantile loss, TimeGPT's "default". Unset: depth 1, as the SDK sends it. */
export function finetuneMode(body: { finetune_depth?: number; finetune_loss?: string }, errors: FieldError[]): 'lora' | 'full' {
  const depth = body.finetune_depth ?? 1;
  if (depth !== 1 && depth !== 5) {
    const why = 'which trains a LoRA adapter (finetune_depth=1) or every weight (finetune_depth=5); depths 2-4 have no equivalent';
    errors.push({ field: 'finetune_depth', reason: `${depth}: ${FINETUNE_HOW}, ${why}` });
  }
  if ((body.finetune_loss ?? 'default') !== 'default') {
    const why = 'which trains on Chronos-2\'s own quantile loss; leave finetune_loss at "default"';
    errors.push({ field: 'finetune_loss', reason: `${JSON.stringify(body.finetune_loss)}: ${FINETUNE_HOW}, ${why}` });
  }
  return depth === 5 ? 'full' : 'lora';
}

/** A field error per TimeGPT-only setting the request asks for; `job`: it is an async job submission (…/async). */
export function unsupportedSettings(body: TimegptSettings, task: Task, job = false): FieldError[] {
  const errors: FieldError[] = [];
  if ((body.finetune_steps ?? 0) > 0 && task === 'anomaly_detection') {
    errors.push({ field: 'finetune_steps', reason: `${body.finetune_steps}: inline fine-tuning is for forecast and cross_validation; ${FINETUNE_HOW}` });
  }
  finetuneMode(body, errors);
  if (body.multivariate && task !== 'forecast') {
    errors.push({ field: 'multivariate', reason: `true: a joint (multivariate) forecast is forecast(multivariate=True) (POST /v1/forecast's ` +
      `multivariate); ${task} forecasts each series on its own` });
  }
  featureContributions(body, task, job, errors);
  if (body.model_parameters && Object.keys(body.model_parameters).length > 0) {
    errors.push({ field: 'model_parameters', reason: `${Object.keys(body.model_parameters).join(', ')}: TimeGPT model settings have no Horizon equivalent` });
  }
  // the SDK sends job_options only with an async job (jobs.*(job_timeout_seconds=…)); it refuses the timeout on a
  // synchronous call itself, as that creates no job to bound: the same rule here, naming what was sent
  if (body.job_options && !job) {
    const where = 'async job submissions (POST /nixtla/v2/forecast/async, /nixtla/v2/cross_validation/async)';
    const why = `job options are for ${where}; a synchronous request creates no job: leave job_options out`;
    errors.push({ field: 'job_options', reason: `${JSON.stringify(body.job_options)}: ${why}` });
  } else if (body.job_options?.timeout_seconds !== undefined) {
    const why = 'a Horizon job has no timeout of its own (each model call is bounded by HORIZON_INFERENCE_TIMEOUT_MS); submit without job_timeout_seconds';
    errors.push({ field: 'job_options.timeout_seconds', reason: `${body.job_options.timeout_seconds}: ${why}` });
  }
  if (body.series.categorical_exog?.length) errors.push({ field: 'categorical_exog_list', reason: 'categorical exogenous features are not supported: ' +
    'Horizon\'s models take numeric covariates (encode categories as numbers, e.g. one-hot columns)' });
  for (const [j, column] of (body.series.X ?? []).entries()) {
    if (column.some((v) => typeof v === 'string')) errors.push({ field: `series.X[${j}]`, reason: 'holds strings: categorical exogenous features are not ' +
      'supported; Horizon\'s models take numeric covariates (encode categories as numbers, e.g. one-hot columns)' });
  }
  return errors;
}

/** What would serve a model that uses these covariates (a pull, a setup, a licence). A translation in a forecast thread
 * (thread.ts) has a registry without the workers' state: there GET /v1/models says it. */
function howToServe(ctx: NixtlaContext, kinds: Covariates): string {
  return typeof ctx.registry.unavailableReason === 'function' ? howToServeCovariateModels(ctx.registry, kinds) : 'GET /v1/models says what serves each';
}

/** 422 unless the model uses the covariates sent (Horizon would drop them with a warning the SDK never shows), naming the
 * user's columns; "auto" uses them when one of its candidates does (/v1's auto then cross-validates only those). */
export function checkCovariates(ctx: NixtlaContext, model: string, requested: string, columns: SdkColumns, errors: FieldError[]): void {
  const kinds = kindsOf(columns);
  if (!kinds) return;
  const fields = [
    { field: columns.fields.future, labels: columns.future, kind: 'future' as const },
    { field: columns.fields.hist, labels: columns.hist, kind: 'past' as const },
  ].filter((f) => f.labels.length > 0);
  const served = servedCovariateModels(ctx.registry, kinds);
  const which = served.length ? `served models that use them: ${served.join(', ')}` : `no served model uses them; ${howToServe(ctx, kinds)}`;
  const timegpt = TIMEGPT_NAME.test(requested) ? ', what the TimeGPT name runs here,' : '';
  // a position (#k) is explained once per error; hist_exog_list[k] explains itself
  const noteOf = (labels: string[]) => (labels.some((l) => l.includes('#')) ? ` (${columns.note})` : '');
  if (model === AUTO_ID) {
    if (autoCovariatePool(ctx, kinds).length) return;
    const pool = ctx.config?.autoCandidates?.length ? 'no served model of HORIZON_AUTO_CANDIDATES uses them' : which;
    for (const f of fields) {
      const why = `model "auto"${timegpt} forecasts only with models that use ${kindWords(kinds)} and never drops them, and ${pool}`;
      errors.push({ field: f.field, reason: `${f.labels.join(', ')}${noteOf(f.labels)}: ${why}; or call without ${f.field}` });
    }
    return;
  }
  const entry = findModel(ctx.registry.catalog, model);
  if (!entry) return; // an unknown id: the /v1 422
  for (const f of fields) {
    if (entry.covariates[f.kind]) continue;
    const words = f.kind === 'future' ? 'known-future' : 'historical';
    errors.push({ field: f.field, reason: `${f.labels.join(', ')}${noteOf(f.labels)}: model ${model}${timegpt} does not use ${words} covariates (${which})` });
  }
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length) throw validationError(errors);
}

const PASSED_ON = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'server-timing'];

/** Horizon's own operation, called in-process through its route (app.inject with the caller's own key): the
 * same auth, validation, quota charge, refund on 5xx, job store and log line as the call over HTTP, as the
 * MCP tools do (src/http/routes/mcp.ts). Its rate-limit headers come along; an error becomes this request's
 * error, in the SDK's terms. */
export async function callHorizon(
  app: App, request: FastifyRequest, reply: FastifyReply, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown,
  options: { largeAnswerBytes?: number } = {},
): Promise<{ status: number; body: any; raw?: Buffer }> {
  // a body a forecast thread wrote already (JSON bytes: large-bodies.ts) goes as it is
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const res = await app.inject({
    method, url,
    headers: { authorization: request.headers.authorization ?? '', ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload }),
    // the answer as bytes: inject would decode every answer to a string, a large one for nothing (large-bodies.ts)
    payloadAsStream: true,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res.stream()) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const name of PASSED_ON) if (res.headers[name] !== undefined) headers[name] = String(res.headers[name]);
  Object.assign(request.logFields, { v1_request_id: res.headers['x-request-id'] });
  // an answer of options.largeAnswerBytes or more stays bytes, for a forecast thread to translate (large-bodies.ts)
  if (res.statusCode < 400 && options.largeAnswerBytes !== undefined && raw.length >= options.largeAnswerBytes) {
    void reply.headers(headers);
    return { status: res.statusCode, body: undefined, raw };
  }
  let parsed: any;
  try { parsed = raw.length ? JSON.parse(raw.toString()) : undefined; } catch { parsed = undefined; }
  if (res.statusCode >= 400) throw horizonErrorOf(res.statusCode, parsed as Problem | undefined, headers, payload?.length ?? 0);
  void reply.headers(headers);
  return { status: res.statusCode, body: parsed };
}

function horizonErrorOf(status: number, problem: Problem | undefined, headers: Record<string, string>, sent: number): HorizonError {
  const code: ErrorCode = problem && problem.code in ERRORS ? problem.code : 'internal_error';
  let detail = problem?.detail ?? `Horizon answered ${status}`;
  if (code === 'payload_too_large') {
    detail = `the Horizon request this call becomes (${sent} bytes: one date per value) is over HORIZON_BODY_LIMIT_BYTES; send fewer series per call (e.g. ` +
      `num_partitions=2): ${detail}`;
  }
  if ((code as string) === 'use_job_api') {
    detail = `${detail}; with the Nixtla SDK: client.jobs.forecast(…) or client.jobs.cross_validation(…) (the same arguments), then job.wait()`;
  }
  const errors = problem?.errors?.map((e) => ({ ...e, field: nixtlaTerms(e.field) }));
  return new HorizonError(code, errors?.length ? errors.slice(0, 5).map(
    (e) => `${e.field}: ${e.reason}`,
  ).join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '') : detail, {
    errors, headers, unavailable: problem?.unavailable_reason,
  });
}

/** feature_contributions: Shapley values of a synchronous forecast (POST /v1/forecast `explain`); elsewhere a 422 naming why. */
function featureContributions(body: TimegptSettings, task: Task, job: boolean, errors: FieldError[]): void {
  if (!body.feature_contributions) return;
  const type = body.feature_contributions_type ?? 'shapley';
  if (task !== 'forecast') {
    const where = task === 'cross_validation' ? 'cross-validation and in-sample (add_history) forecasts' : 'anomaly detection';
    errors.push({ field: 'feature_contributions', reason: `true: Horizon explains forecast() only (POST /v1/forecast explain), not ${where}` });
  } else if (job) {
    const reason = 'true: explanations run synchronously only (POST /v1/forecast explain): call forecast(), with fewer series per call if it is too large';
    errors.push({ field: 'feature_contributions', reason });
  } else if (type !== 'shapley') {
    const why = 'Horizon\'s feature contributions are Shapley values (shap\'s exact explainer over every coalition of the covariates): "shapley" only';
    errors.push({ field: 'feature_contributions_type', reason: `${JSON.stringify(type)}: ${why}` });
  }
}
