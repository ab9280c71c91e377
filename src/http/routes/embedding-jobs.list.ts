import type { Route } from '../app-types.ts';
import { JobListQuery, problemResponses, jsonResponse } from '../schemas.ts';
import { EmbeddingJobList } from '../embedding-schemas.ts';
import { ownerOf } from '../auth.ts';
import { listAccountJobs } from '../../store/jobs.ts';
import { decodeCursor, encodeCursor, pageLimit } from './job-view.ts';
import { embeddingJobView } from './embedding-job-view.ts';

/** GET /v1/embedding-jobs — the caller's embedding jobs, newest first, cursor-paginated (results not inlined). */
export const embeddingJobsList: Route = (app, deps) => {
  app.get('/v1/embedding-jobs', {
    schema: {
      summary: 'List embedding jobs', tags: ['jobs'], querystring: JobListQuery,
      response: { 200: jsonResponse(EmbeddingJobList, 'A page of the account\'s embedding jobs, newest first'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const limit = pageLimit(request.query.limit);
    const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    const page = await listAccountJobs(deps.database.db, owner.accountId, { limit, after, status: request.query.status, kind: 'embeddings' });
    return { jobs: page.jobs.map(embeddingJobView), next_cursor: page.next ? encodeCursor(page.next) : null };
  });
};
