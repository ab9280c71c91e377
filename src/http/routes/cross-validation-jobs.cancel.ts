import type { Route } from '../app-types.ts';
import { CrossValidationJob, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { cancelAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { crossValidationJobView } from './cross-validation-job-view.ts';

/** DELETE /v1/cross-validation-jobs/{id} — cancels a queued or running job; a finished one is 409. Units are not given back. */
export const crossValidationJobsCancel: Route = (app, deps) => {
  app.delete('/v1/cross-validation-jobs/:id', {
    schema: {
      summary: 'Cancel a cross-validation job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(CrossValidationJob, 'The cancelled job'), ...problemResponses(401, 404, 409) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    if (!UUID_PATTERN.test(id)) throw new HorizonError('not_found', `no cross-validation job "${id}" for this account`);
    const { cancelled, job } = await cancelAccountJob(deps.database.db, owner.accountId, id, deps.config.jobResultTtlSeconds, 'cross-validation');
    if (!job) throw new HorizonError('not_found', `no cross-validation job "${id}" for this account`);
    if (!cancelled) throw new HorizonError('job_not_cancellable', `job "${id}" is already ${job.status} and cannot be cancelled`);
    return crossValidationJobView(job);
  });
};
