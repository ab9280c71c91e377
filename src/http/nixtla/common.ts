// What every /nixtla route shares: the call onto Horizon's own /v1 operation, the model a name means,
// and the TimeGPT settings Horizon cannot honour (a 422 naming each, never ignored).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../app.ts';
import { ERRORS, HorizonError, validationError, type ErrorCode, type FieldError, type Problem } from '../../errors.ts';
import { findModel } from '../../runtime/catalog.ts';
import { AUTO_ID } from '../../forecasting/auto.ts';
import { currentRequest } from '../request-context.ts';
import { nixtlaTerms, type NixtlaSeries } from './translate.ts';

export interface NixtlaContext extends AppContext {
  /** HORIZON_NIXTLA_DEFAULT_MODEL: what a TimeGPT name (timegpt-*, azureai) runs */
  nixtlaDefaultModel: string;
}

/** The model names TimeGPT answers to (nixtla==0.9.0 documents timegpt-1, timegpt-1-long-horizon, timegpt-2,
 * timegpt-2-mini, timegpt-2-pro, timegpt-2.1; azureai for Azure deployments). */
export const TIMEGPT_NAME = /^(timegpt(-[a-z0-9.-]+)?|azureai)$/i;

export type Task = 'forecast' | 'cross_validation' | 'anomaly_detection';

/** The Horizon model a requested name runs: a TimeGPT name means HORIZON_NIXTLA_DEFAULT_MODEL; `auto` picks a
 * model per forecast, so a task that runs one model (cross-validation, anomalies) runs HORIZON_DEFAULT_MODEL
 * instead when "auto" came from a TimeGPT name, and a 422 when it was asked for by name. Said in the
 * x-horizon-model header (a known model only: sayModel) and the request's log line. */
export function resolveModel(ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, requested: string, task: Task, finetunedModelId?: string | null): string {
  // a fine-tuned model is the account's private model (ft-… or its name): it is what runs, whatever `model` says
  let model = finetunedModelId ?? (TIMEGPT_NAME.test(requested) ? ctx.nixtlaDefaultModel : requested);
  if (model === AUTO_ID && task !== 'forecast') {
    if (!TIMEGPT_NAME.test(requested)) {
      throw validationError([{ field: 'model', reason: `"auto" picks a model per forecast; ${task} runs one model: name one (GET /nixtla/v2/models)` }]);
    }
    model = ctx.registry.defaultModel;
  }
  Object.assign(request.logFields, { nixtla_model: requested, model });
  sayModel(ctx, reply, model);
  return model;
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
  multivariate?: boolean; model_parameters?: Record<string, unknown> | null; feature_contributions?: boolean;
  job_options?: { timeout_seconds?: number };
  series: NixtlaSeries;
}

/** Fine-tuning maps onto Horizon's (docs/fine-tuning.md): finetune_steps → /v1/forecast's inline
 * finetune_steps, finetuned_model_id → the account's private model as `model`. What has no equivalent is a 422. */
const FINETUNE_HOW = 'Horizon fine-tunes with Chronos2Pipeline.fit (finetune_steps on forecast; a model to keep: POST /v1/fine-tuning-jobs, then finetuned_model_id=<its id>)';

/** A field error per TimeGPT-only setting the request asks for; `job`: it is an async job submission (…/async). */
export function unsupportedSettings(body: TimegptSettings, task: Task, job = false): FieldError[] {
  const errors: FieldError[] = [];
  if ((body.finetune_steps ?? 0) > 0 && task !== 'forecast') errors.push({ field: 'finetune_steps', reason: `${body.finetune_steps}: inline fine-tuning is for forecast only; ${FINETUNE_HOW}` });
  if ((body.finetune_depth ?? 1) !== 1) errors.push({ field: 'finetune_depth', reason: `${body.finetune_depth}: ${FINETUNE_HOW}, which has no depth setting; leave finetune_depth at 1` });
  if ((body.finetune_loss ?? 'default') !== 'default') errors.push({ field: 'finetune_loss', reason: `${JSON.stringify(body.finetune_loss)}: ${FINETUNE_HOW}, which trains on its own quantile loss; leave finetune_loss at "default"` });
  if (body.multivariate) errors.push({ field: 'multivariate', reason: 'true: multivariate forecasts are a TimeGPT feature; Horizon\'s models forecast each series on its own' });
  if (body.feature_contributions) errors.push({ field: 'feature_contributions', reason: 'true: Horizon computes no feature contributions (SHAP values)' });
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
  if (body.series.categorical_exog?.length) errors.push({ field: 'categorical_exog_list', reason: 'categorical exogenous features are not supported: Horizon\'s models take numeric covariates (encode categories as numbers, e.g. one-hot columns)' });
  for (const [j, column] of (body.series.X ?? []).entries()) {
    if (column.some((v) => typeof v === 'string')) errors.push({ field: `series.X[${j}]`, reason: 'holds strings: categorical exogenous features are not supported; Horizon\'s models take numeric covariates (encode categories as numbers, e.g. one-hot columns)' });
  }
  return errors;
}

/** 422 unless the model uses the covariates sent (Horizon would drop them with a warning the SDK never shows). */
export function checkCovariates(ctx: NixtlaContext, model: string, uses: { past: boolean; future: boolean }, errors: FieldError[]): void {
  if (!uses.past && !uses.future) return;
  const entry = findModel(ctx.registry.catalog, model);
  if (!entry) return; // `auto` (its candidates route covariates each their own way) or an unknown id (the /v1 422)
  const served = ctx.registry.catalog.models.filter((m) => (m.covariates.past || m.covariates.future) && ctx.registry.availableIds().includes(m.id)).map((m) => m.id);
  const which = served.length ? `served models that use covariates: ${served.join(', ')}` : 'no served model uses covariates';
  if (uses.future && !entry.covariates.future) {
    errors.push({ field: 'X_df', reason: `model ${model} does not use known-future covariates (${which})` });
  } else if (uses.past && !entry.covariates.past) {
    errors.push({ field: 'hist_exog_list', reason: `model ${model} does not use historical covariates (${which})` });
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
export async function callHorizon(app: App, request: FastifyRequest, reply: FastifyReply, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const res = await app.inject({
    method, url,
    headers: { authorization: request.headers.authorization ?? '', ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload }),
  });
  const headers: Record<string, string> = {};
  for (const name of PASSED_ON) if (res.headers[name] !== undefined) headers[name] = String(res.headers[name]);
  Object.assign(request.logFields, { v1_request_id: res.headers['x-request-id'] });
  let parsed: any;
  try { parsed = res.body ? JSON.parse(res.body) : undefined; } catch { parsed = undefined; }
  if (res.statusCode >= 400) throw horizonErrorOf(res.statusCode, parsed as Problem | undefined, headers, payload?.length ?? 0);
  void reply.headers(headers);
  return { status: res.statusCode, body: parsed };
}

function horizonErrorOf(status: number, problem: Problem | undefined, headers: Record<string, string>, sent: number): HorizonError {
  const code: ErrorCode = problem && problem.code in ERRORS ? problem.code : 'internal_error';
  let detail = problem?.detail ?? `Horizon answered ${status}`;
  if (code === 'payload_too_large') {
    detail = `the Horizon request this call becomes (${sent} bytes: one date per value) is over HORIZON_BODY_LIMIT_BYTES; send fewer series per call (e.g. num_partitions=2): ${detail}`;
  }
  if ((code as string) === 'use_job_api') {
    detail = `${detail}; with the Nixtla SDK: client.jobs.forecast(…) or client.jobs.cross_validation(…) (the same arguments), then job.wait()`;
  }
  const errors = problem?.errors?.map((e) => ({ ...e, field: nixtlaTerms(e.field) }));
  return new HorizonError(code, errors?.length ? errors.slice(0, 5).map((e) => `${e.field}: ${e.reason}`).join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '') : detail, {
    errors, headers, unavailable: problem?.unavailable_reason,
  });
}
