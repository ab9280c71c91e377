// The SDK's async jobs (client.jobs.forecast(), client.jobs.cross_validation()) on Horizon's durable jobs:
// submit POST {task}/async → 202 {job_id}; poll GET {task}/jobs/{id} → {status, result, error};
// cancel POST async/jobs/{id}/cancel. The job is Horizon's own (POST /v1/forecast-jobs,
// /v1/cross-validation-jobs: validated and charged at submit, stored before the 202, retried, kept
// HORIZON_JOB_RESULT_TTL_SECONDS); the same job is readable through /v1 too.
import { Type } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { HorizonError, validationError } from '../../errors.ts';
import { getJob } from '../../store/jobs.ts';
import { NixtlaCrossValidationRequest, NixtlaForecastRequest, NixtlaJob, NixtlaJobAccepted, NixtlaJobParams } from './schemas.ts';
import { crossValidationAnswer, forecastJobAnswer, JOB_STATUS } from './translate.ts';
import { LargeBody } from '../large-body.ts';
import { answerInThread, forecastRequestInThread, largeAnswerBytes } from './large-bodies.ts';
import { callHorizon, sayModel, type NixtlaContext } from './common.ts';
import { forecastRequest, type ForecastBody } from './forecast.ts';
import { crossValidationRequest, type CrossValidationBody } from './cross-validation.ts';

const STATUS = JOB_STATUS;

const submitted = (summary: string) => ({
  202: jsonResponse(NixtlaJobAccepted, summary),
  ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502),
});
const polled = { 200: jsonResponse(NixtlaJob, 'The job: `result` is what the synchronous call answers, once succeeded'), ...problemResponses(401, 404) };

export function jobRoutes(app: App, ctx: NixtlaContext): void {
  app.post('/v2/forecast/async', {
    schema: {
      summary: 'Nixtla SDK: jobs.forecast() (POST /v1/forecast-jobs)', tags: ['nixtla'], body: NixtlaForecastRequest,
      response: submitted('Queued as a Horizon forecast job'),
    },
    attachValidation: true, // a large payload: as POST /v2/forecast (forecast.ts)
  }, async (request, reply) => {
    const large = request.body instanceof LargeBody ? request.body : undefined;
    if (!large && request.validationError) throw request.validationError;
    const translate = (body: unknown) => forecastRequest(ctx, request, reply, body as ForecastBody, true);
    const { horizon } = large ? await forecastRequestInThread(ctx, request, reply, large, true, translate) : translate(request.body);
    const { body } = await callHorizon(app, request, reply, 'POST', '/v1/forecast-jobs', horizon);
    return reply.code(202).send({ job_id: body.job_id, status: 'pending' as const });
  });

  app.post('/v2/cross_validation/async', {
    schema: { summary: 'Nixtla SDK: jobs.cross_validation() (POST ' +
      '/v1/cross-validation-jobs)', tags: ['nixtla'], body: NixtlaCrossValidationRequest, response: submitted('Queued as a Horizon cross-validation job') },
  }, async (request, reply) => {
    const payload = request.body as CrossValidationBody;
    if (payload.full_history) throw validationError([{ field: 'full_history', reason: 'in-sample forecasts (add_history) run synchronously only: call ' +
      'forecast(add_history=True) without _is_async_job' }]);
    const { horizon } = crossValidationRequest(ctx, request, reply, payload, true);
    const { body } = await callHorizon(app, request, reply, 'POST', '/v1/cross-validation-jobs', horizon);
    return reply.code(202).send({ job_id: body.job_id, status: 'pending' as const });
  });

  app.get('/v2/forecast/jobs/:id', {
    schema: { summary: 'Nixtla SDK: a forecast job (GET /v1/forecast-jobs/{id})', tags: ['nixtla'], params: NixtlaJobParams, response: polled },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const path = `/v1/forecast-jobs/${encodeURIComponent(id)}`;
    const { body: job, raw } = await callHorizon(app, request, reply, 'GET', path, undefined, { largeAnswerBytes: largeAnswerBytes(ctx) });
    if (!raw) {
      sayModel(ctx, reply, job.model);
      return forecastJobAnswer(job);
    }
    // a large result: translated in a forecast thread (large-bodies.ts)
    const answer = await answerInThread(ctx, request, raw, undefined, true);
    sayModel(ctx, reply, answer.model!);
    reply.type('application/json; charset=utf-8');
    return answer.body as unknown as ReturnType<typeof forecastJobAnswer>;
  });

  app.get('/v2/cross_validation/jobs/:id', {
    schema: { summary: 'Nixtla SDK: a cross-validation job (GET /v1/cross-validation-jobs/{id})', tags: ['nixtla'], params: NixtlaJobParams, response: polled },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { body: job } = await callHorizon(app, request, reply, 'GET', `/v1/cross-validation-jobs/${encodeURIComponent(id)}`);
    sayModel(ctx, reply, ...job.models.map((m: { model: string }) => m.model));
    const status = STATUS[job.status];
    let result = null;
    if (status === 'succeeded') {
      // the answer's idxs count from the start of the SDK's `y`: the series lengths are the stored request's
      const row = await getJob(ctx.database.db, job.job_id);
      const stored = row?.request as { series: { target: unknown[] }[] } | undefined;
      if (!stored) throw new HorizonError('not_found', `no cross-validation job "${id}" for this account`);
      result = crossValidationAnswer(job.result, stored.series.map((s) => s.target.length), job.result.horizon);
    }
    return { job_id: job.job_id, status, result, error: job.error ?? null };
  });

  app.post('/v2/async/jobs/:id/cancel', {
    schema: {
      summary: 'Nixtla SDK: cancel a job (DELETE /v1/forecast-jobs/{id}, /v1/cross-validation-jobs/{id}, /v1/fine-tuning-jobs/{id} or /v1/anomaly-jobs/{id})',
      tags: ['nixtla'], params: NixtlaJobParams,
      response: {
        200: jsonResponse(Type.Object({ job_id: Type.String(), status: Type.Literal('cancelled') }), 'Cancelled (its quota unit is not given back)'),
        ...problemResponses(401, 404, 409),
      },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    // the id says nothing of its kind: each job store route in turn (jobs.finetune()'s are fine-tuning jobs)
    for (const kind of ['forecast-jobs', 'cross-validation-jobs', 'fine-tuning-jobs', 'anomaly-jobs']) {
      try {
        await callHorizon(app, request, reply, 'DELETE', `/v1/${kind}/${encodeURIComponent(id)}`);
        return { job_id: id, status: 'cancelled' as const };
      } catch (error) {
        if (!(error instanceof HorizonError && error.code === 'not_found')) throw error;
      }
    }
    throw new HorizonError('not_found', `no job "${id}" for this account`);
  });
}
