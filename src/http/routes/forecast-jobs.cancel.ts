import type { Route } from '../app-types.ts';
import { Job, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { cancelAccountJob } from '../../store/jobs.ts';
import { jobView, UUID_PATTERN } from './job-view.ts';

/** DELETE /v1/forecast-jobs/{id} — cancels a queued or running job; a finished one is 409. */
export const forecastJobsCancel: Route = (app, deps) => {
  app.delete('/v1/forecast-jobs/:id', {
    schema: {
      summary: 'Cancel a forecast job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(Job, 'The cancelled job'), ...problemResponses(401, 404, 409) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    if (!UUID_PATTERN.test(id)) throw new HorizonError('not_found', `no forecast job "${id}" for this account`);
    const { cancelled, job } = await cancelAccountJob(deps.database.db, owner.accountId, id, deps.config.jobResultTtlSeconds);
    if (!job) throw new HorizonError('not_found', `no forecast job "${id}" for this account`);
    if (!cancelled) throw new HorizonError('job_not_cancellable', `job "${id}" is already ${job.status} and cannot be cancelled`);
    return jobView(job);
  });
};
