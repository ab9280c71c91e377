import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Route } from '../app-types.ts';
import type { AppContext } from '../app-types.ts';
import { ForecastRequest, JobAccepted, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { insertJob, type JobSummary } from '../../store/jobs.ts';
import { JsonText, writePayload } from '../../store/job-payloads.ts';
import { planForecast } from '../../forecasting/forecast.ts';
import { MIN_REQUEST_OBSERVED } from '../../forecasting/normalize.ts';
import { isAuto, planAuto, rejectAutoFields, storedAutoJob, type AutoBody } from '../../forecasting/auto.ts';
import { refuseJointAndSamples } from '../../forecasting/joint-and-samples.ts';
import { seriesRefsHook } from '../series-refs.ts';
import { checkPlannedJob, LargeBody, planInThread } from '../large-forecast.ts';
import { HorizonError } from '../../errors.ts';
import { rejectReconcileFields, type HierarchyBody } from '../../forecasting/hierarchy.ts';
import { planHierarchyFor } from '../hierarchy-forecast.ts';

/** POST /v1/forecast-jobs — validates like the sync call, stores the job, then answers 202. A large body is
 * read, validated and planned in a forecast thread, and its plan stored as the thread wrote it (large-forecast.ts). */
export const forecastJobsCreate: Route = (app, deps) => {
  app.post('/v1/forecast-jobs', {
    schema: {
      summary: 'Queue a forecast job', tags: ['jobs'],
      body: ForecastRequest,
      response: { 202: {
        ...jsonResponse(JobAccepted, 'Queued; poll the job at the Location header'),
        headers: { location: { type: 'string', description: '/v1/forecast-jobs/{job_id}' } },
      }, ...problemResponses(400, 401, 403, 404, 413, 415, 422, 429, 500, 502) },
    },
    // a large body arrives as bytes (LargeBody) and is validated in a forecast thread: the handler rethrows
    // the schema's verdict for every other body, as Fastify would have
    attachValidation: true,
    // series_ids (stored series) become inline series before the schema check (series-refs.ts)
    preValidation: seriesRefsHook(deps),
  }, async (request, reply) => {
    let body = request.body as AutoBody;
    if (request.body instanceof LargeBody) {
      const read = await planInThread(deps, request.body, deps.config, '/v1/forecast-jobs');
      if (read.kind === 'planned-job') {
        checkPlannedJob(deps, read);
        return accepted(reply, await storeJob(deps, request, reply, read.model, new JsonText(read.body)));
      }
      body = read.body as AutoBody; // auto, prism, a backtest: the loop's path on the parsed body (its schema is checked)
    } else if (request.validationError) {
      throw request.validationError;
    }
    const owner = ownerOf(request);
    if ((body as { explain?: boolean }).explain) {
      const reason = 'true: explanations run synchronously only (POST /v1/forecast, at most 4,096 forecasts of coalitions per call): send ' +
        'fewer series per call';
      throw new HorizonError('validation_failed', reason, { errors: [{ field: 'explain', reason }] });
    }
    if ((body as { finetune_steps?: number }).finetune_steps) {
      const reason = 'finetune_steps is for POST /v1/forecast (fine-tune, forecast, keep nothing); a job that fine-tunes is POST /v1/fine-tuning-jobs, whose ' +
        'model then forecasts here';
      throw new HorizonError('validation_failed', reason, { errors: [{ field: 'finetune_steps', reason }] });
    }
    // a hierarchy: its plan (the nodes' forecast and the reconciliation) is stored, run as the sync route runs it
    if ((body as HierarchyBody).hierarchy !== undefined) {
      const planned = planHierarchyFor(deps, body as HierarchyBody, 'job');
      if (request.seriesRefs?.store) Object.assign(planned, { stored_series: { ...request.seriesRefs, accountId: owner.accountId } });
      return accepted(reply, await storeJob(deps, request, reply, planned.model, planned));
    }
    rejectReconcileFields(body as HierarchyBody);
    // model "auto": validated now (every 4xx before the 202), planned again when the job runs
    if (!isAuto(body.model, deps.registry)) rejectAutoFields(body);
    else refuseJointAndSamples(body, 'model "auto" picks among models that may not', deps.registry);
    const plan = isAuto(body.model, deps.registry)
      ? storedAutoJob(planAuto(
        body, deps.registry, { candidates: deps.config.autoCandidates, windows: deps.config.autoWindows, refit: deps.config.autoRefit },
        { pulls: deps.pulls, mode: 'job' },
      ))
      : planForecast(body as Parameters<typeof planForecast>[0], deps.registry, { pulls: deps.pulls, mode: 'job', minObserved: MIN_REQUEST_OBSERVED });
    // store: true — the job keeps its forecasts for scoring when it completes (server.ts)
    if (request.seriesRefs?.store) Object.assign(plan, { stored_series: { ...request.seriesRefs, accountId: owner.accountId } });
    return accepted(reply, await storeJob(deps, request, reply, plan.model, plan));
  });
};

/** Charges the unit and stores the job (`plan`: an object, or a thread's JSON), then hands it to the queue. */
async function storeJob(deps: AppContext, request: FastifyRequest, reply: FastifyReply, model: string, plan: unknown): Promise<JobSummary> {
  const { accountId } = ownerOf(request);
  const charge = await chargeRequest(deps.database.db, accountId, reply);
  return withRefundOn5xx(charge, async () => {
    await charge.persisted(); // a stored job's unit is stored first
    const id = randomUUID();
    // a large plan's parts are written before the row's transaction, one statement each (store/job-payloads.ts)
    const stored = plan instanceof JsonText ? new JsonText(await writePayload(deps.database.db, id, plan)) : plan;
    // stored before 202: if the enqueue below is lost, start-up reconciliation delivers the job
    // the unit is settled with the row (one transaction on PostgreSQL): a stored job is a charged one
    const row = await charge.settleWith((db) => insertJob(db, { id, accountId, model, request: stored }));
    await deps.queue.enqueue(row.id)
      .catch((error: Error) => request.log.warn({ job_id: row.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'));
    return row;
  });
}

function accepted(reply: FastifyReply, job: JobSummary) {
  return reply.code(202).header('location', `/v1/forecast-jobs/${job.id}`)
    .send({ job_id: job.id, status: 'queued' as const, model: job.model, created_at: job.created_at.toISOString() });
}
