import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { Job, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { getAccountJob } from '../../store/jobs.ts';
import { JsonText } from '../../store/job-payloads.ts';
import type { JobViewReply } from '../forecast-thread.ts';
import { jobView, UUID_PATTERN } from './job-view.ts';

/** GET /v1/forecast-jobs/{id} — state, and the result once completed; another account's job is 404. A large
 * result (stored in parts, store/job-payloads.ts) is parsed and written as the answer's JSON in a forecast
 * thread: the same bytes jobView and the serializer give on the event loop. */
export const forecastJobsGet: Route = (app, deps) => {
  app.get('/v1/forecast-jobs/:id', {
    schema: {
      summary: 'Get a forecast job', tags: ['jobs'], params: JobIdParams,
      response: { 200: jsonResponse(Job, 'The job; with the forecast once completed'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const threads = deps.answerThreads;
    const read = () => getAccountJob(deps.database.db, owner.accountId, id, 'forecast', { resultAsText: threads !== undefined });
    const row = UUID_PATTERN.test(id) ? await read() : undefined;
    if (!row) throw new HorizonError('not_found', `no forecast job "${id}" for this account`);
    if (!(row.result instanceof JsonText)) return jobView(row);
    const { result, ...rest } = row;
    const text = result.value instanceof Uint8Array ? result.text() : result.value;
    const answer = await threads!.run({ kind: 'job-view', row: rest, result: text }) as JobViewReply;
    if ('error' in answer) throw new Error(answer.error.message);
    reply.type('application/json; charset=utf-8');
    return Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength) as unknown as ReturnType<typeof jobView>;
  });
};
