// Large POST /v1/forecast bodies in a forecast thread (forecast-thread.ts). The JSON content-type parser
// hands such a body over as bytes (LargeBody) instead of parsing it on the event loop; the route's handler
// asks a thread to parse, validate, normalise and encode it, then does on the loop only what needs the
// deployment's state — the registry's checks, the charge — and moves bytes: the encoded request to the
// worker, the worker's answer text to a thread, the contract's JSON bytes to the client. Answers and
// errors are the ones the loop path gives (test/forecast.answer-threads.test.ts compares them byte for byte).
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { HorizonError } from '../errors.ts';
import { RequestValidationError } from '../forecasting/normalize.ts';
import { checkWeights, serverTiming } from '../forecasting/forecast.ts';
import { checkSyncBudget } from '../forecasting/cost.ts';
import type { AnswerThreads } from '../forecasting/answer-threads.ts';
import { syncBudgetMs, type Config } from '../config.ts';
import { noteLogFields } from './request-context.ts';
import { chargeRequest, withRefundOn5xx } from './charge.ts';
import { checkSyncSize } from './sync-limits.ts';
import { ownerOf } from './auth.ts';
import type { App, AppContext } from './app.ts';
import type { RequestContext, RequestReply } from './forecast-thread.ts';
import { inlineBodyOf, type StoredSeriesPayload } from '../forecasting/stored-payload.ts';

/** A request body left as bytes for a forecast thread, or (by reference, series-refs.ts) the stored series as numbers. */
export class LargeBody {
  readonly bytes: Buffer;
  readonly stored?: StoredSeriesPayload;
  constructor(bytes: Buffer, stored?: StoredSeriesPayload) { this.bytes = bytes; this.stored = stored; }
}

/** The routes whose large bodies go to a thread (their handlers call planInThread). */
const THREADED_ROUTES = new Set(['/v1/forecast']);

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

/** The thread's reading of a large body: a plain model call planned and encoded, or the parsed body for the
 * loop's own path (auto, prism, a backtest; its schema already checked), or the error the loop would give. */
export async function planInThread(deps: AppContext, body: LargeBody, config: Pick<Config, 'cpuWorkers'> & Partial<Pick<Config, 'inferFloat32'>>): Promise<Extract<RequestReply, { kind: 'planned' }> | { kind: 'parsed'; body: unknown }> {
  const { registry } = deps;
  const context: RequestContext = {
    catalog: registry.catalog, defaultModel: registry.defaultModel,
    defaultSizes: Object.fromEntries(registry.catalog.models.map((m) => [m.id, registry.defaultSize(m)])),
    float32: config.inferFloat32 ?? true, cpuWorkers: config.cpuWorkers,
    // more series than a fair chunk: encoded as chunks, each queued in the account's turn (runtime/inference.ts)
    chunkSeries: deps.inference.chunkSeries, cpuChunkSeries: deps.inference.cpuChunkSeries,
  };
  const reply = await deps.answerThreads!.run({ kind: 'request', ...(body.stored ? { stored: body.stored } : { bytes: body.bytes }), context }) as RequestReply;
  switch (reply.kind) {
    // more series than one fair chunk: the loop's path, whose model call is cut into chunks queued fairly
    // between accounts (runtime/inference.ts FairGate); one encoded body would hold the worker for all of it
    case 'planned': return reply;
    case 'fallback': {
      // the caps the preHandler could not count on bytes (sync-limits.ts)
      const parsed = (body.stored ? inlineBodyOf(body.stored, false) : JSON.parse(body.bytes.toString('utf8'))) as { series: { target: unknown[] }[] };
      checkSyncSize(deps.config, '/v1/forecast-jobs', parsed.series.length, parsed.series.reduce((n, s) => n + s.target.length, 0));
      return { kind: 'parsed', body: parsed };
    }
    case 'bad_json': throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
    case 'invalid': throw new RequestValidationError(reply.errors);
    case 'failed': throw reply.code ? new HorizonError(reply.code as never, reply.message) : new Error(reply.message);
  }
}

/** The rest of a planned large forecast on the loop: what planForecast checks against the registry, the
 * budget, the charge, then bytes in and out. */
export async function runPlanned(deps: AppContext & { config: Pick<Config, 'syncBudgetMs' | 'inferenceTimeoutMs'> & Partial<Pick<Config, 'syncMaxSeries' | 'syncMaxPoints'>> }, planned: Extract<RequestReply, { kind: 'planned' }>, request: FastifyRequest, reply: FastifyReply): Promise<Buffer> {
  const { registry } = deps;
  noteLogFields({ model: planned.model, size: planned.size, series: planned.seriesCount, request: 'thread', answer: 'thread' });
  const group = registry.groupFor(planned.model);
  checkWeights(registry, deps.pulls, planned.model, planned.size, 'sync');
  checkSyncSize(deps.config, '/v1/forecast-jobs', planned.seriesCount, planned.points);
  checkSyncBudget(planned.estimateMs, syncBudgetMs(deps.config), '/v1/forecast-jobs', planned.seriesCount);
  const charge = await chargeRequest(deps.database.db, ownerOf(request).accountId, reply);
  return withRefundOn5xx(charge, async () => {
    const text = planned.inferBodies
      ? await Promise.all(planned.inferBodies.map((chunk) => deps.inference.inferEncodedText(group, chunk)))
      : await deps.inference.inferEncodedText(group, planned.inferBody);
    const shaped = await deps.answerThreads!.shape(text, planned.shape, planned.chunkSeries);
    const timing = serverTiming(shaped.timing);
    if (timing) reply.header('server-timing', timing);
    reply.type('application/json; charset=utf-8');
    return shaped.body;
  });
}
