import { randomUUID } from 'node:crypto';
import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { FineTuningRequest, FineTuningJob, type FineTuningBody } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeUnits, withRefundOn5xx } from '../charge.ts';
import { insertJob } from '../../store/jobs.ts';
import { checkModelNameFree, planFineTuningJob } from '../../forecasting/fine-tuning-job-plan.ts';
import type { FineTuningJobRequest } from '../../jobs/fine-tuning-job.ts';
import { fineTuningJobView } from './fine-tuning-job-view.ts';

/** POST /v1/fine-tuning-jobs — validates like a forecast (every 4xx before anything is stored or charged: the
 * rules are forecasting/fine-tuning-job-plan.ts's), charges ceil(steps / 100) units, stores the job, then
 * answers 202. The model it makes is the account's. */
export const fineTuningJobsCreate: Route = (app, deps) => {
  app.post('/v1/fine-tuning-jobs', {
    schema: {
      summary: 'Queue a fine-tuning job', tags: ['fine-tuning'],
      body: FineTuningRequest,
      response: { 202: {
        ...jsonResponse(FineTuningJob, 'Queued; poll the job at the Location header'),
        headers: { location: { type: 'string', description: '/v1/fine-tuning-jobs/{job_id}' } },
      }, ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as FineTuningBody;
    const plan = planFineTuningJob(body, deps.registry, deps.config.fineTuneMaxSteps);
    await checkModelNameFree(deps.database.db, owner.accountId, body.name);
    const job: FineTuningJobRequest = { name: plan.name, freq: plan.freq, spec: plan.spec };
    const charge = await chargeUnits(deps.database.db, owner.accountId, reply, plan.units);
    const row = await withRefundOn5xx(charge, async () => {
      await charge.persisted();
      const { model, size, model_id } = plan.spec;
      const models = [{ model, model_size: size, model_id, name: plan.name }];
      const stored = await insertJob(deps.database.db, { id: randomUUID(), accountId: owner.accountId, kind: 'fine-tuning', model, models, request: job });
      await deps.queue.enqueue(stored.id, 'fine-tuning').catch(
        (error: Error) => request.log.warn({ job_id: stored.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'),
      );
      return stored;
    });
    return reply.code(202).header('location', `/v1/fine-tuning-jobs/${row.id}`).send(fineTuningJobView(row));
  });
};
