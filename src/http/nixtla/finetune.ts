// TimeGPT's fine-tuning calls on Horizon's fine-tuning jobs and private models (docs/fine-tuning.md):
// finetune() is POST /v1/fine-tuning-jobs, waited for here, and answers the private model's name, which
// finetuned_model_id then runs on every call; jobs.finetune() is the same job, polled by the SDK;
// finetuned_models / finetuned_model / delete_finetuned_model are GET /v1/models (the account's private
// models) and DELETE /v1/models/{id}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError, type FieldError } from '../../errors.ts';
import { findModel, type Catalog, type Freq } from '../../runtime/catalog.ts';
import { getAccountJob, getJob } from '../../store/jobs.ts';
import { getPrivateModel } from '../../store/private-models.ts';
import { PRIVATE_MODEL_NAME } from '../fine-tuning-schemas.ts';
import {
  NixtlaFinetuned, NixtlaFinetunedModel, NixtlaFinetunedModels, NixtlaFinetuneRequest, NixtlaJob, NixtlaJobAccepted, NixtlaJobParams,
} from './schemas.ts';
import { FREQ_REASON, horizonFreq, splitSeries, type NixtlaSeries } from './translate.ts';
import { callHorizon, fineTunableBase, finetuneMode, sayModel, throwIfAny, TIMEGPT_NAME, type NixtlaContext } from './common.ts';

type FinetuneBody = Static<typeof NixtlaFinetuneRequest> & { series: NixtlaSeries };
type FinetunedModel = Static<typeof NixtlaFinetunedModel>;

/** A Horizon job's status as the SDK names it. */
const STATUS: Record<string, 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled'> = {
  queued: 'pending', running: 'running', completed: 'succeeded', failed: 'failed', cancelled: 'cancelled',
};
/** How often a synchronous finetune() looks at its job. */
const POLL_MS = 250;

/** The horizon a job trains and validates for (the SDK's finetune has none): one season of `freq`, at most the
 * base's max_horizon and a third of the shortest series (the held-out window, a context and a target: docs/fine-tuning.md). */
export function finetuneHorizon(catalog: Catalog, freq: Freq, maxHorizon: number, sizes: readonly number[]): number {
  return Math.max(1, Math.min(catalog.season_length[freq], maxHorizon, Math.floor(Math.min(...sizes) / 3)));
}

/** The SDK's finetune payload → POST /v1/fine-tuning-jobs' body; every 422 at once, before anything is charged. */
async function fineTuningJobBody(ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: FinetuneBody, job: boolean) {
  const errors: FieldError[] = [];
  const refuse = (field: string, sent: unknown, why: string) => errors.push({ field, reason: `${JSON.stringify(sent)}: ${why}` });
  if (body.finetuned_model_id) {
    const why = 'Horizon fine-tunes a catalog base (chronos-2), not a fine-tuned model; fine-tune the base on all the series instead';
    refuse('finetuned_model_id', body.finetuned_model_id, why);
  }
  if (body.finetune_steps < 1) refuse('finetune_steps', body.finetune_steps, 'a fine-tuning job trains at least 1 step');
  const mode = finetuneMode(body, errors);
  if (body.series.X?.length || body.series.X_future?.length) {
    errors.push({ field: 'series.X', reason: 'finetune takes the target only (the SDK sends no exogenous columns)' });
  }
  if (body.job_options && !job) refuse('job_options', body.job_options, 'job options are for jobs.finetune(); leave them out');
  else if (body.job_options?.timeout_seconds !== undefined) {
    refuse('job_options.timeout_seconds', body.job_options.timeout_seconds, 'a Horizon job has no timeout of its own; submit without job_timeout_seconds');
  }
  const model = TIMEGPT_NAME.test(body.model) ? fineTunableBase(ctx, 'model') : body.model;
  Object.assign(request.logFields, { nixtla_model: body.model, model });
  sayModel(ctx, reply, model);
  const freq = horizonFreq(body.freq);
  if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
  const name = body.output_model_id ?? undefined;
  if (name !== undefined && !PRIVATE_MODEL_NAME.test(name)) {
    refuse('output_model_id', name, `a fine-tuned model's name is 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit`);
    throwIfAny(errors);
  }
  // a name taken is Horizon's 409, which the SDK retries for a minute: said at once, as the 422 it is for this call
  if (name !== undefined && await getPrivateModel(ctx.database.db, ownerOf(request).accountId, name)) {
    refuse('output_model_id', name, `this account has a fine-tuned model of this name already: delete_finetuned_model("${name}") or choose another`);
  }
  throwIfAny(errors);
  const series = splitSeries(body.series, { freq: freq!, futureColumns: new Set() }, errors);
  throwIfAny(errors);
  const entry = findModel(ctx.registry.catalog, model);
  const maxHorizon = entry?.sizes[ctx.registry.defaultSize(entry)]?.max_horizon ?? 1;
  const horizon = finetuneHorizon(ctx.registry.catalog, freq!, maxHorizon, body.series.sizes);
  return { model, series, freq, horizon, steps: body.finetune_steps, mode, ...(name !== undefined && { name }) };
}

/** Horizon's field names of a fine-tuning job in the SDK's terms. */
function finetuneTerms(error: unknown): unknown {
  if (!(error instanceof HorizonError) || !error.errors) return error;
  const terms: Record<string, string> = { name: 'output_model_id', steps: 'finetune_steps', mode: 'finetune_depth' };
  const errors = error.errors.map((e) => ({ ...e, field: terms[e.field] ?? e.field }));
  const detail = errors.map((e) => `${e.field}: ${e.reason}`).join('; ');
  return new HorizonError(error.code, detail, { errors, headers: error.headers, unavailable: error.unavailable });
}

async function submit(app: App, ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, job: boolean): Promise<{ job_id: string; name: string }> {
  const body = await fineTuningJobBody(ctx, request, reply, request.body as FinetuneBody, job);
  try {
    return (await callHorizon(app, request, reply, 'POST', '/v1/fine-tuning-jobs', body)).body;
  } catch (error) {
    throw finetuneTerms(error);
  }
}

/** A finished job's failure as this call's error (its code when Horizon has it, else fine_tuning_failed). */
function failure(job: { status: string; error?: unknown }): HorizonError {
  // not job_cancelled (409): the SDK retries a 409, which would submit the training again
  if (job.status === 'cancelled') return new HorizonError('fine_tuning_failed', 'the fine-tuning job was cancelled before it finished; no model was made');
  const { code, detail } = (job.error ?? {}) as { code?: string; detail?: string };
  return new HorizonError('fine_tuning_failed', `the fine-tuning job failed${code ? ` (${code})` : ''}: ${detail ?? 'no detail'}`);
}

/** The SDK's FinetunedModel of one entry of GET /v1/models (a private model's), its frequency read from its job. */
async function finetunedModel(ctx: NixtlaContext, accountId: string, m: Record<string, any>): Promise<FinetunedModel> {
  const job = m.job_id ? await getJob(ctx.database.db, m.job_id) : undefined;
  const freq = (job?.request as { freq?: string } | undefined)?.freq ?? '';
  return {
    id: m.name, created_at: m.created_at, created_by: accountId, base_model_id: m.base_model, steps: m.training?.steps ?? 0,
    depth: m.training?.mode === 'lora' ? 1 : 5, loss: 'default', model: m.base_model, freq, horizon_model_id: m.model_id, base_size: m.base_size,
  };
}

const ID_PARAMS = { params: NixtlaJobParams, tags: ['nixtla'] };

export function finetuneRoutes(app: App, ctx: NixtlaContext): void {
  app.post('/v2/finetune', {
    schema: {
      summary: 'Nixtla SDK: finetune (POST /v1/fine-tuning-jobs, waited for)', tags: ['nixtla'], body: NixtlaFinetuneRequest,
      response: { 200: jsonResponse(NixtlaFinetuned, 'The private model it made'), ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500, 502) },
    },
  }, async (request, reply) => {
    const { job_id: id, name } = await submit(app, ctx, request, reply, false);
    // the training runs as the job it is, whether or not this call waits: a client that goes away leaves it running
    let gone = false;
    reply.raw.on('close', () => { gone = !reply.raw.writableFinished; });
    const accountId = ownerOf(request).accountId;
    for (;;) {
      const row = await getAccountJob(ctx.database.db, accountId, id, 'fine-tuning');
      if (row?.status === 'completed') return { finetuned_model_id: name };
      if (!row || row.status === 'failed' || row.status === 'cancelled') throw failure(row ?? { status: 'failed' });
      if (gone) return reply;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });

  app.post('/v2/finetune/async', {
    schema: {
      summary: 'Nixtla SDK: jobs.finetune() (POST /v1/fine-tuning-jobs)', tags: ['nixtla'], body: NixtlaFinetuneRequest,
      response: {
        202: jsonResponse(NixtlaJobAccepted, 'Queued as a Horizon fine-tuning job'), ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500),
      },
    },
  }, async (request, reply) => {
    const { job_id: id } = await submit(app, ctx, request, reply, true);
    return reply.code(202).send({ job_id: id, status: 'pending' as const });
  });

  app.get('/v2/finetune/jobs/:id', {
    schema: {
      summary: 'Nixtla SDK: a fine-tuning job (GET /v1/fine-tuning-jobs/{id})', ...ID_PARAMS,
      response: { 200: jsonResponse(NixtlaJob, 'The job: `result` holds finetuned_model_id once succeeded'), ...problemResponses(401, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { body: job } = await callHorizon(app, request, reply, 'GET', `/v1/fine-tuning-jobs/${encodeURIComponent(id)}`);
    const status = STATUS[job.status];
    return { job_id: job.job_id, status, result: status === 'succeeded' ? { finetuned_model_id: job.name } : null, error: job.error ?? null };
  });

  app.get('/v2/finetuned_models', {
    schema: {
      summary: 'Nixtla SDK: finetuned_models (the account\'s private models, GET /v1/models)', tags: ['nixtla'],
      response: { 200: jsonResponse(NixtlaFinetunedModels, 'The account\'s fine-tuned models'), ...problemResponses(401) },
    },
  }, async (request, reply) => {
    const { body } = await callHorizon(app, request, reply, 'GET', '/v1/models');
    const own = (body.models as Record<string, any>[]).filter((m) => m.private);
    return { finetuned_models: await Promise.all(own.map((m) => finetunedModel(ctx, ownerOf(request).accountId, m))) };
  });

  app.get('/v2/finetuned_models/:id', {
    schema: {
      summary: 'Nixtla SDK: finetuned_model (GET /v1/models/{id})', ...ID_PARAMS,
      response: { 200: jsonResponse(NixtlaFinetunedModel, 'One fine-tuned model'), ...problemResponses(401, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { body } = await callHorizon(app, request, reply, 'GET', `/v1/models/${encodeURIComponent(id)}`);
    if (!body.private) throw new HorizonError('not_found', `no fine-tuned model "${id}" for this account (finetuned_models() lists them)`);
    return finetunedModel(ctx, ownerOf(request).accountId, body);
  });

  app.delete('/v2/finetuned_models/:id', {
    schema: {
      summary: 'Nixtla SDK: delete_finetuned_model (DELETE /v1/models/{id})', ...ID_PARAMS,
      response: { 204: { type: 'null', description: 'Deleted' }, ...problemResponses(401, 404) },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await callHorizon(app, request, reply, 'DELETE', `/v1/models/${encodeURIComponent(id)}`);
    return reply.code(204).send(null);
  });
}
