import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { FineTuningJob } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { cancelAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { fineTuningJobView } from './fine-tuning-job-view.ts';

/** DELETE /v1/fine-tuning-jobs/{id} — cancels a queued or running job: the training process stops within
 * seconds (the runner polls the row each second, then SIGTERM) and no model is left. Units are not given back. */
export const fineTuningJobsCancel: Route = (app, deps) => {
  app.delete('/v1/fine-tuning-jobs/:id', {
    schema: {
      summary: 'Cancel a fine-tuning job', tags: ['fine-tuning'], params: JobIdParams,
      response: { 200: jsonResponse(FineTuningJob, 'The cancelled job'), ...problemResponses(401, 404, 409) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    if (!UUID_PATTERN.test(id)) throw new HorizonError('not_found', `no fine-tuning job "${id}" for this account`);
    const { cancelled, job } = await cancelAccountJob(deps.database.db, owner.accountId, id, deps.config.jobResultTtlSeconds, 'fine-tuning');
    if (!job) throw new HorizonError('not_found', `no fine-tuning job "${id}" for this account`);
    if (!cancelled) throw new HorizonError('job_not_cancellable', `job "${id}" is already ${job.status} and cannot be cancelled`);
    return fineTuningJobView(job);
  });
};
