import { randomUUID } from 'node:crypto';
import type { Route } from '../app-types.ts';
import { CrossValidationRequest, CrossValidationJobAccepted, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeUnits, withRefundOn5xx } from '../charge.ts';
import { insertJob } from '../../store/jobs.ts';
import { crossValidationPlanOf, type HierarchyCvBody } from '../../forecasting/hierarchy-cv.ts';
import { rejectReconcileFields } from '../../forecasting/hierarchy.ts';
import { jobModels } from '../../jobs/cross-validation-job.ts';

/** POST /v1/cross-validation-jobs — validates like POST /v1/cross-validation (every 4xx before anything is
 * stored or charged), charges one unit per model (all or nothing), stores the job, then answers 202. */
export const crossValidationJobsCreate: Route = (app, deps) => {
  app.post('/v1/cross-validation-jobs', {
    schema: {
      summary: 'Queue a cross-validation job', tags: ['jobs'],
      body: CrossValidationRequest,
      response: { 202: {
        ...jsonResponse(CrossValidationJobAccepted, 'Queued; poll the job at the Location header'),
        headers: { location: { type: 'string', description: '/v1/cross-validation-jobs/{job_id}' } },
      }, ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as HierarchyCvBody;
    rejectReconcileFields(body);
    // with a hierarchy: the nodes' cross-validation (src/forecasting/hierarchy-cv.ts), planned again when the job runs
    const plan = crossValidationPlanOf(body, deps.registry, { pulls: deps.pulls, mode: 'job' });
    const models = jobModels(plan);
    // one unit per model, all or nothing; a 5xx while storing gives every unit back
    const charge = await chargeUnits(deps.database.db, owner.accountId, reply, plan.plans.length);
    const job = await withRefundOn5xx(charge, async () => {
      await charge.persisted(); // a stored job's units are stored first
      // stored before 202 (the validated body; the job plans it again when it runs): if the enqueue below
      // is lost, start-up reconciliation delivers the job
      // the units are settled with the row (one transaction on PostgreSQL): a stored job is a charged one
      const row = await charge.settleWith((db) => insertJob(db, {
        id: randomUUID(), accountId: owner.accountId, kind: 'cross-validation', model: models.map((m) => m.model).join(','), models, request: body,
      }));
      await deps.queue.enqueue(row.id).catch(
        (error: Error) => request.log.warn({ job_id: row.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'),
      );
      return row;
    });
    return reply.code(202).header('location', `/v1/cross-validation-jobs/${job.id}`)
      .send({ job_id: job.id, status: 'queued' as const, models, created_at: job.created_at.toISOString() });
  });
};
