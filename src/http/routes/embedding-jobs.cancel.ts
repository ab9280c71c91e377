import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { EmbeddingJob } from '../embedding-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { cancelAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { embeddingJobView } from './embedding-job-view.ts';

/** DELETE /v1/embedding-jobs/{id} — cancels a queued or running job; a finished one is 409. The unit is not given back. */
export const embeddingJobsCancel: Route = (app, deps) => {
  app.delete('/v1/embedding-jobs/:id', {
    schema: {
      summary: 'Cancel an embedding job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(EmbeddingJob, 'The cancelled job'), ...problemResponses(401, 404, 409) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    if (!UUID_PATTERN.test(id)) throw new HorizonError('not_found', `no embedding job "${id}" for this account`);
    const { cancelled, job } = await cancelAccountJob(deps.database.db, owner.accountId, id, deps.config.jobResultTtlSeconds, 'embeddings');
    if (!job) throw new HorizonError('not_found', `no embedding job "${id}" for this account`);
    if (!cancelled) throw new HorizonError('job_not_cancellable', `job "${id}" is already ${job.status} and cannot be cancelled`);
    return embeddingJobView(job);
  });
};
