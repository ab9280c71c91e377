import { randomUUID } from 'node:crypto';
import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { EmbeddingJobAccepted, EmbeddingsRequest } from '../embedding-schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { insertJob } from '../../store/jobs.ts';
import type { EmbeddingsBody } from '../../forecasting/embeddings.ts';
import { embeddingJobSummary, planEmbeddingJob } from '../../jobs/embedding-job.ts';

/** POST /v1/embedding-jobs — validates like POST /v1/embeddings (every 4xx before anything is stored or charged; the
 * answer's size is capped per job, not per synchronous call), charges its one unit, stores the job, then answers 202. */
export const embeddingJobsCreate: Route = (app, deps) => {
  app.post('/v1/embedding-jobs', {
    schema: {
      summary: 'Queue an embedding job', tags: ['jobs'],
      body: EmbeddingsRequest,
      response: {
        202: {
          ...jsonResponse(EmbeddingJobAccepted, 'Queued; poll the job at the Location header'),
          headers: { location: { type: 'string', description: '/v1/embedding-jobs/{job_id}' } },
        },
        ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502),
      },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as EmbeddingsBody;
    const { model, ...planned } = embeddingJobSummary(planEmbeddingJob(body, { registry: deps.registry, pulls: deps.pulls }));
    // one unit, as the synchronous call; a 5xx while storing gives it back
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    const job = await withRefundOn5xx(charge, async () => {
      await charge.persisted(); // a stored job's unit is stored first
      // stored before 202 (the validated body; the job plans it again when it runs): if the enqueue below is lost,
      // start-up reconciliation delivers the job. The unit is settled with the row: a stored job is a charged one
      const row = await charge.settleWith((db) => insertJob(db, {
        id: randomUUID(), accountId: owner.accountId, kind: 'embeddings', model, models: planned, request: body,
      }));
      await deps.queue.enqueue(row.id, 'embeddings')
        .catch((error: Error) => request.log.warn({ job_id: row.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'));
      return row;
    });
    return reply.code(202).header('location', `/v1/embedding-jobs/${job.id}`)
      .send({ job_id: job.id, status: 'queued' as const, model, ...planned, created_at: job.created_at.toISOString() });
  });
};
