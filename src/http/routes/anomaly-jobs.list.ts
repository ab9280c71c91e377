import type { Route } from '../app-types.ts';
import { JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { AnomalyJobList } from '../anomaly-job-schemas.ts';
import { ownerOf } from '../auth.ts';
import { listAccountJobs } from '../../store/jobs.ts';
import { decodeCursor, encodeCursor, pageLimit } from './job-view.ts';
import { anomalyJobView } from './anomaly-job-view.ts';

/** GET /v1/anomaly-jobs — the caller's anomaly jobs, newest first, cursor-paginated (results not inlined). */
export const anomalyJobsList: Route = (app, deps) => {
  app.get('/v1/anomaly-jobs', {
    schema: {
      summary: 'List anomaly detection jobs', tags: ['jobs'], querystring: JobListQuery,
      response: { 200: jsonResponse(AnomalyJobList, 'A page of the account\'s anomaly jobs, newest first'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = pageLimit(request.query.limit);
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status, kind: 'anomalies' });
    return { jobs: page.jobs.map(anomalyJobView), next_cursor: page.next ? encodeCursor(page.next) : null };
  });
};
