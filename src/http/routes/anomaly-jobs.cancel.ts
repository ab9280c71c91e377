import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { AnomalyJob } from '../anomaly-job-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { cancelAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { anomalyJobView } from './anomaly-job-view.ts';

/** DELETE /v1/anomaly-jobs/{id} — cancels a queued or running job (its chunks not yet sent are not run); a finished
 * one is 409. The unit is not given back. */
export const anomalyJobsCancel: Route = (app, deps) => {
  app.delete('/v1/anomaly-jobs/:id', {
    schema: {
      summary: 'Cancel an anomaly detection job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(AnomalyJob, 'The cancelled job'), ...problemResponses(401, 404, 409) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    if (!UUID_PATTERN.test(id)) throw new HorizonError('not_found', `no anomaly job "${id}" for this account`);
    const { cancelled, job } = await cancelAccountJob(deps.database.db, owner.accountId, id, deps.config.jobResultTtlSeconds, 'anomalies');
    if (!job) throw new HorizonError('not_found', `no anomaly job "${id}" for this account`);
    if (!cancelled) throw new HorizonError('job_not_cancellable', `job "${id}" is already ${job.status} and cannot be cancelled`);
    return anomalyJobView(job);
  });
};
