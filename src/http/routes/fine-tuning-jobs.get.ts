import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { FineTuningJob } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { fineTuningJobView } from './fine-tuning-job-view.ts';

/** GET /v1/fine-tuning-jobs/{id} — state, progress (step, loss, validation loss), the training summary once completed. */
export const fineTuningJobsGet: Route = (app, deps) => {
  app.get('/v1/fine-tuning-jobs/:id', {
    schema: {
      summary: 'Get a fine-tuning job', tags: ['fine-tuning'], params: JobIdParams,
      response: { 200: jsonResponse(FineTuningJob, 'The job'), ...problemResponses(401, 404) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const row = UUID_PATTERN.test(id) ? await getAccountJob(deps.database.db, owner.accountId, id, 'fine-tuning') : undefined;
    if (!row) throw new HorizonError('not_found', `no fine-tuning job "${id}" for this account`);
    return fineTuningJobView(row);
  });
};
