import type { Route } from './index.ts';
import { JobList, JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../errors.ts';
import { listAccountJobs } from '../store/jobs.ts';
import { jobView, UUID_PATTERN } from './job-view.ts';

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(time);
  if (!id || !UUID_PATTERN.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new HorizonError('validation_failed', 'cursor is not one this API returned', { errors: [{ field: 'cursor', reason: 'not a cursor returned by this API' }] });
  }
  return { createdAt, id };
}

/** GET /v1/forecast-jobs — the caller's jobs, newest first, cursor-paginated (results not inlined). */
export const forecastJobsList: Route = (app, deps) => {
  app.get('/v1/forecast-jobs', {
    schema: { summary: 'List forecast jobs', tags: ['jobs'], querystring: JobListQuery, response: { 200: jsonResponse(JobList, 'A page of the account\'s jobs, newest first'), ...problemResponses(401, 422) } },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
    if (limit < 1 || limit > 100) {
      throw new HorizonError('validation_failed', `limit must be between 1 and 100, got ${limit}`, { errors: [{ field: 'limit', reason: `must be between 1 and 100, got ${limit}` }] });
    }
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status });
    const next = page.next ? Buffer.from(`${page.next.createdAt.toISOString()}|${page.next.id}`).toString('base64url') : null;
    return { jobs: page.jobs.map(jobView), next_cursor: next };
  });
};
