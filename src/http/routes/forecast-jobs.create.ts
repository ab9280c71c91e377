import { randomUUID } from 'node:crypto';
import type { Route } from './index.ts';
import { ForecastRequest, JobAccepted, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { insertJob } from '../../store/jobs.ts';
import { planForecast } from '../../forecasting/forecast.ts';
import { isAuto, planAuto, rejectAutoFields, storedAutoJob, type AutoBody } from '../../forecasting/auto.ts';
import { seriesRefsHook } from '../series-refs.ts';
import { HorizonError } from '../../errors.ts';

/** POST /v1/forecast-jobs — validates like the sync call, stores the job, then answers 202. */
export const forecastJobsCreate: Route = (app, deps) => {
  app.post('/v1/forecast-jobs', {
    schema: {
      summary: 'Queue a forecast job', tags: ['jobs'],
      body: ForecastRequest,
      response: { 202: { ...jsonResponse(JobAccepted, 'Queued; poll the job at the Location header'), headers: { location: { type: 'string', description: '/v1/forecast-jobs/{job_id}' } } }, ...problemResponses(400, 401, 403, 404, 413, 415, 422, 429, 500, 502) },
    },
    // series_ids (stored series) become inline series before the schema check (series-refs.ts)
    preValidation: seriesRefsHook(deps),
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as AutoBody;
    if ((body as { finetune_steps?: number }).finetune_steps) {
      const reason = 'finetune_steps is for POST /v1/forecast (fine-tune, forecast, keep nothing); a job that fine-tunes is POST /v1/fine-tuning-jobs, whose model then forecasts here';
      throw new HorizonError('validation_failed', reason, { errors: [{ field: 'finetune_steps', reason }] });
    }
    // model "auto": validated now (every 4xx before the 202), planned again when the job runs
    if (!isAuto(body.model, deps.registry)) rejectAutoFields(body);
    const plan = isAuto(body.model, deps.registry)
      ? storedAutoJob(planAuto(body, deps.registry, { candidates: deps.config.autoCandidates, windows: deps.config.autoWindows, refit: deps.config.autoRefit }, { pulls: deps.pulls, mode: 'job' }))
      : planForecast(body as Parameters<typeof planForecast>[0], deps.registry, { pulls: deps.pulls, mode: 'job' });
    // store: true — the job keeps its forecasts for scoring when it completes (server.ts)
    if (request.seriesRefs?.store) Object.assign(plan, { stored_series: { ...request.seriesRefs, accountId: owner.accountId } });
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    const job = await withRefundOn5xx(charge, async () => {
      await charge.persisted(); // a stored job's unit is stored first
      // stored before 202: if the enqueue below is lost, start-up reconciliation delivers the job
      // the unit is settled with the row (one transaction on PostgreSQL): a stored job is a charged one
      const row = await charge.settleWith((db) => insertJob(db, { id: randomUUID(), accountId: owner.accountId, model: plan.model, request: plan }));
      await deps.queue.enqueue(row.id).catch((error: Error) => request.log.warn({ job_id: row.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'));
      return row;
    });
    return reply.code(202).header('location', `/v1/forecast-jobs/${job.id}`)
      .send({ job_id: job.id, status: 'queued' as const, model: job.model, created_at: job.created_at.toISOString() });
  });
};
