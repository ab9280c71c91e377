import type { Route } from '../app-types.ts';
import { JobList, JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { listAccountJobs } from '../../store/jobs.ts';
import { jobView, decodeCursor, encodeCursor, pageLimit } from './job-view.ts';

/** GET /v1/forecast-jobs — the caller's jobs, newest first, cursor-paginated (results not inlined). */
export const forecastJobsList: Route = (app, deps) => {
  app.get('/v1/forecast-jobs', {
    schema: {
      summary: 'List forecast jobs', tags: ['jobs'], querystring: JobListQuery,
      response: { 200: jsonResponse(JobList, 'A page of the account\'s jobs, newest first'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = pageLimit(request.query.limit);
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status });
    return { jobs: page.jobs.map(jobView), next_cursor: page.next ? encodeCursor(page.next) : null };
  });
};
