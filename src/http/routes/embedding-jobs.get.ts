import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { EmbeddingJob } from '../embedding-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { embeddingJobView } from './embedding-job-view.ts';

/** GET /v1/embedding-jobs/{id} — state, and the result once completed; another account's job is 404. */
export const embeddingJobsGet: Route = (app, deps) => {
  app.get('/v1/embedding-jobs/:id', {
    schema: {
      summary: 'Get an embedding job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(EmbeddingJob, 'The job; with `result` (the POST /v1/embeddings answer) once completed'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const row = UUID_PATTERN.test(id) ? await getAccountJob(deps.database.db, owner.accountId, id, 'embeddings') : undefined;
    if (!row) throw new HorizonError('not_found', `no embedding job "${id}" for this account`);
    return embeddingJobView(row);
  });
};
