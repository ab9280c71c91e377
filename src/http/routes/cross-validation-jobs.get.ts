import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { CrossValidationJob, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { crossValidationJobView } from './cross-validation-job-view.ts';

/** GET /v1/cross-validation-jobs/{id} — state, and the result once completed; another account's job is 404. */
export const crossValidationJobsGet: Route = (app, deps) => {
  app.get('/v1/cross-validation-jobs/:id', {
    schema: {
      summary: 'Get a cross-validation job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(CrossValidationJob, 'The job; with `result` (the cross-validation answer) once completed'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const row = UUID_PATTERN.test(id) ? await getAccountJob(deps.database.db, owner.accountId, id, 'cross-validation') : undefined;
    if (!row) throw new HorizonError('not_found', `no cross-validation job "${id}" for this account`);
    return crossValidationJobView(row);
  });
};
