import type { Route } from '../app-types.ts';
import { CrossValidationJobList, JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { listAccountJobs } from '../../store/jobs.ts';
import { decodeCursor, encodeCursor, pageLimit } from './job-view.ts';
import { crossValidationJobView } from './cross-validation-job-view.ts';

/** GET /v1/cross-validation-jobs — the caller's cross-validation jobs, newest first, cursor-paginated (results not inlined). */
export const crossValidationJobsList: Route = (app, deps) => {
  app.get('/v1/cross-validation-jobs', {
    schema: {
      summary: 'List cross-validation jobs', tags: ['jobs'], querystring: JobListQuery,
      response: { 200: jsonResponse(CrossValidationJobList, 'A page of the account\'s cross-validation jobs, newest first'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = pageLimit(request.query.limit);
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status, kind: 'cross-validation' });
    return { jobs: page.jobs.map(crossValidationJobView), next_cursor: page.next ? encodeCursor(page.next) : null };
  });
};
