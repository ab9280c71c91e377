import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from './index.ts';
import { Job, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { jobView, UUID_PATTERN } from './job-view.ts';

/** GET /v1/forecast-jobs/{id} — state, and the result once completed; another account's job is 404. */
export const forecastJobsGet: Route = (app, deps) => {
  app.get('/v1/forecast-jobs/:id', {
    schema: { summary: 'Get a forecast job', tags: ['jobs'], params: JobIdParams, response: { 200: jsonResponse(Job, 'The job; with the forecast once completed'), ...problemResponses(401, 404) } },
    serializerCompiler: plainJsonSerializer,
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const row = UUID_PATTERN.test(id) ? await getAccountJob(deps.database.db, owner.accountId, id) : undefined;
    if (!row) throw new HorizonError('not_found', `no forecast job "${id}" for this account`);
    return jobView(row);
  });
};
