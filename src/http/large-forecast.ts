// Large POST /v1/forecast bodies in a forecast thread (forecast-thread.ts). The JSON content-type parser
// hands such a body over as bytes (LargeBody) instead of parsing it on the event loop; the route's handler
// asks a thread to parse, validate, normalise and encode it, then does on the loop only what needs the
// deployment's state — the registry's checks, the charge — and moves bytes: the encoded request to the
// worker, the worker's answer text to a thread, the contract's JSON bytes to the client. Answers and
// errors are the ones the loop path gives (test/forecast.answer-threads.test.ts compares them byte for byte).
// POST /v1/forecast-jobs the same (issue 32): the thread answers the plan to store as JSON bytes, which are
// written as they are (store/job-payloads.ts); test/jobs.large-threads.test.ts compares the jobs' results.
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { HorizonError } from '../errors.ts';
import { RequestValidationError } from '../forecasting/normalize.ts';
import { checkWeights, serverTiming } from '../forecasting/forecast.ts';
import { checkSyncBudget } from '../forecasting/cost.ts';
import type { AnswerThreads } from '../forecasting/answer-threads.ts';
import { syncBudgetMs, type Config } from '../config.ts';
import { currentRequest, noteLogFields } from './request-context.ts';
import { renamePrivateModels } from './private-models-hook.ts';
import { chargeRequest, withRefundOn5xx } from './charge.ts';
import { checkSyncSize } from './sync-limits.ts';
import { ownerOf } from './auth.ts';
import type { App, AppContext } from './app-types.ts';
import type { RequestContext, RequestReply } from './forecast-thread.ts';
import { inlineBodyOf } from '../forecasting/stored-payload.ts';
import { LargeBody } from './large-body.ts';

export { LargeBody };

/** The routes whose large bodies go to a thread (their handlers call planInThread; the Nixtla SDK's forecasts
 * nixtla/large-bodies.ts, whose plugin installs this parser for itself). */
export type ThreadedRoute = '/v1/forecast' | '/v1/forecast-jobs';
const THREADED_ROUTES = new Set<string>(['/v1/forecast', '/v1/forecast-jobs', '/nixtla/v2/forecast', '/nixtla/v2/forecast/async']);

/** Replaces the JSON parser: a body of at least `minBytes` for a threaded route stays bytes; every other one
 * is parsed as Fastify's own parser does (the same function, so the same errors). */
export function installJsonParser(app: App, threads: AnswerThreads | undefined, minBytes: number): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (threads && minBytes > 0 && bytes.length >= minBytes && THREADED_ROUTES.has(request.routeOptions.url ?? '')) {
      done(null, new LargeBody(bytes));
      return;
    }
    json(request, bytes.toString('utf8'), done);
  });
}

type Planned = Extract<RequestReply, { kind: 'planned' }>;
type PlannedJob = Extract<RequestReply, { kind: 'planned-job' }>;
type Parsed = { kind: 'parsed'; body: unknown };
type ThreadConfig = Pick<Config, 'cpuWorkers'> & Partial<Pick<Config, 'inferFloat32'>>;

/** The thread's reading of a large body: a plain model call planned and encoded (a job: its plan as JSON), or
 * the parsed body for the loop's own path (auto, prism, a backtest; its schema already checked), or the error
 * the loop would give. */
export async function planInThread(deps: AppContext, body: LargeBody, config: ThreadConfig, route: '/v1/forecast-jobs'): Promise<PlannedJob | Parsed>;
export async function planInThread(deps: AppContext, body: LargeBody, config: ThreadConfig, route?: '/v1/forecast'): Promise<Planned | Parsed>;
export async function planInThread(
  deps: AppContext, body: LargeBody, config: ThreadConfig, route: ThreadedRoute = '/v1/forecast',
): Promise<Planned | PlannedJob | Parsed> {
  const { registry } = deps;
  const context: RequestContext = {
    catalog: registry.catalog, defaultModel: registry.defaultModel,
    defaultSizes: Object.fromEntries(registry.catalog.models.map((m) => [m.id, registry.defaultSize(m)])),
    float32: config.inferFloat32 ?? true, cpuWorkers: config.cpuWorkers,
    // more series than a fair chunk: encoded as chunks, each queued in the account's turn (runtime/inference.ts)
    chunkSeries: deps.inference.chunkSeries, cpuChunkSeries: deps.inference.cpuChunkSeries,
    privateModelIds: Object.fromEntries(ownModels().filter((m) => m.name !== m.id).map((m) => [m.name, m.id])),
  };
  const job = route === '/v1/forecast-jobs';
  const input = body.stored ? { stored: body.stored } : { bytes: body.bytes };
  const reply = await deps.answerThreads!.run({ kind: 'request', ...input, context, job }) as RequestReply;
  switch (reply.kind) {
    // more series than one fair chunk: the loop's path, whose model call is cut into chunks queued fairly
    // between accounts (runtime/inference.ts FairGate); one encoded body would hold the worker for all of it
    case 'planned': return reply;
    case 'planned-job': return reply;
    case 'fallback': {
      const parsed = (body.stored ? inlineBodyOf(body.stored, false) : JSON.parse(body.bytes.toString('utf8'))) as { series: { target: unknown[] }[] };
      renamePrivateModels(parsed, ownModels()); // what the preHandler did to every other body
      // the caps the preHandler could not count on bytes (sync-limits.ts); a job has none
      if (!job) checkSyncSize(deps.config, '/v1/forecast-jobs', parsed.series.length, parsed.series.reduce((n, s) => n + s.target.length, 0));
      return { kind: 'parsed', body: parsed };
    }
    case 'bad_json': throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
    case 'invalid': throw new RequestValidationError(reply.errors);
    case 'failed': throw reply.code ? new HorizonError(reply.code as never, reply.message) : new Error(reply.message);
  }
}

/** The caller's private models (private-models-hook.ts put them in the request's context). */
function ownModels(): { id: string; name: string }[] {
  return (currentRequest()?.privateModels ?? []) as { id: string; name: string }[];
}

/** What planForecast checks against the registry for a job planned in a thread: its group is served, its
 * weights are here (or, with auto-pull, being pulled). */
export function checkPlannedJob(deps: AppContext, planned: PlannedJob): void {
  noteLogFields({ model: planned.model, size: planned.size, series: planned.seriesCount, request: 'thread' });
  deps.registry.groupFor(planned.model);
  checkWeights(deps.registry, deps.pulls, planned.model, planned.size, 'job');
}

/** The rest of a planned large forecast on the loop: what planForecast checks against the registry, the
 * budget, the charge, then bytes in and out. */
export async function runPlanned(
  deps: AppContext & { config: Pick<Config, 'syncBudgetMs' | 'inferenceTimeoutMs'> & Partial<Pick<Config, 'syncMaxSeries' | 'syncMaxPoints'>> },
  planned: Extract<RequestReply, { kind: 'planned' }>, request: FastifyRequest, reply: FastifyReply,
): Promise<Buffer> {
  const { registry } = deps;
  noteLogFields({ model: planned.model, size: planned.size, series: planned.seriesCount, request: 'thread', answer: 'thread' });
  const group = registry.groupFor(planned.model);
  checkWeights(registry, deps.pulls, planned.model, planned.size, 'sync');
  checkSyncSize(deps.config, '/v1/forecast-jobs', planned.seriesCount, planned.points);
  checkSyncBudget(planned.estimateMs, syncBudgetMs(deps.config), '/v1/forecast-jobs', planned.seriesCount);
  const charge = await chargeRequest(deps.database.db, ownerOf(request).accountId, reply);
  return withRefundOn5xx(charge, async () => {
    const send = (body: string) => deps.inference.inferEncodedText(group, body);
    const threads = deps.answerThreads!;
    // a call in chunks: each chunk's answer goes to the shaping thread as it arrives (AnswerThreads.shapeChunks)
    const shaped = planned.inferBodies
      ? await threads.shapeChunks(planned.inferBodies, send, planned.shape, planned.chunkSeries)
      : await threads.shape(await send(planned.inferBody), planned.shape, planned.chunkSeries);
    const timing = serverTiming(shaped.timing);
    if (timing) reply.header('server-timing', timing);
    reply.type('application/json; charset=utf-8');
    return shaped.body;
  });
}
