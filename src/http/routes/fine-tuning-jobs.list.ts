import type { Route } from '../app-types.ts';
import { JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { FineTuningJobList } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { listAccountJobs } from '../../store/jobs.ts';
import { decodeCursor, encodeCursor, pageLimit } from './job-view.ts';
import { fineTuningJobView } from './fine-tuning-job-view.ts';

/** GET /v1/fine-tuning-jobs — the caller's fine-tuning jobs, newest first, cursor-paginated. */
export const fineTuningJobsList: Route = (app, deps) => {
  app.get('/v1/fine-tuning-jobs', {
    schema: {
      summary: 'List fine-tuning jobs', tags: ['fine-tuning'], querystring: JobListQuery,
      response: { 200: jsonResponse(FineTuningJobList, 'A page of the account\'s fine-tuning jobs, newest first'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = pageLimit(request.query.limit);
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status, kind: 'fine-tuning' });
    return { jobs: page.jobs.map(fineTuningJobView), next_cursor: page.next ? encodeCursor(page.next) : null };
  });
};
