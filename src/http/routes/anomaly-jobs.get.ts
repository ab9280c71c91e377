import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { AnomalyJob } from '../anomaly-job-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { UUID_PATTERN } from './job-view.ts';
import { anomalyJobView } from './anomaly-job-view.ts';

/** GET /v1/anomaly-jobs/{id} — state, and the result once completed; another account's job is 404. */
export const anomalyJobsGet: Route = (app, deps) => {
  app.get('/v1/anomaly-jobs/:id', {
    schema: {
      summary: 'Get an anomaly detection job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(AnomalyJob, 'The job; with `result` (the POST /v1/anomalies answer) once completed'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const row = UUID_PATTERN.test(id) ? await getAccountJob(deps.database.db, owner.accountId, id, 'anomalies') : undefined;
    if (!row) throw new HorizonError('not_found', `no anomaly job "${id}" for this account`);
    return anomalyJobView(row);
  });
};
