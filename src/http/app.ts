// buildApp(deps) returns an un-listened Fastify instance; the server entry and the tests give it
// real dependencies (store, inference client, registry, queue).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, {
  LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest,
} from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isStoreUnreachable } from '../store/database.ts';
import { registerAccuracyMetrics } from './accuracy-metrics.ts';
import { HorizonError, toProblem, validationError } from '../errors.ts';
import { RequestValidationError } from '../forecasting/normalize.ts';
import { fieldErrorsFromAjv, type AjvError } from './validation-errors.ts';
import { AJV_OPTIONS } from './ajv-options.ts';
import { lazySchemaCompilers } from './lazy-schema-compilers.ts';
import { installJsonParser } from './large-forecast.ts';
import { authHook } from './auth.ts';
import { installChargeSettlement } from './charge.ts';
import { installSyncLimits } from './sync-limits.ts';
import { SHARED_SCHEMAS } from './schemas.ts';
import { routes } from './routes/index.ts';
import type { App, AppContext, AppDeps } from './app-types.ts';
import { nixtlaApi } from './nixtla/index.ts';
import { kserveApi } from './kserve/index.ts';
import { KeyCache } from './key-cache.ts';
import { drainTooLargeBody } from './too-large-body.ts';
import { Telemetry } from './telemetry.ts';
import { runInContext, type LogFields } from './request-context.ts';
import { clientGoneSignal } from './client-gone.ts';

declare module 'fastify' {
  interface FastifyRequest { logFields: LogFields }
}
import { MethodsByPath } from './allowed-methods.ts';
import { addExamples } from './openapi-examples.ts';

const HORIZON_LOGO = readFileSync(fileURLToPath(new URL('../../web/horizon-logo.svg', import.meta.url)));
import { adminHook } from './admin.ts';
import { privateModelsHook } from './private-models-hook.ts';

// for buildApp's callers (server.ts, the tests); the routes take them from app-types.ts
export type { App, AppDeps } from './app-types.ts';

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // one JSON line per request, written by the onResponse hook below with the fields operators filter on
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    ajv: { customOptions: { ...AJV_OPTIONS } },
    schemaController: { compilersFactory: lazySchemaCompilers },
    // errors Node's HTTP parser raises before Fastify has a request (a 100 kB Authorization header → 431)
    clientErrorHandler: problemClientError,
    // Fastify's default of 100 characters would answer its own 414 to a series id of 101–128 characters (documented,
    // and matching the OpenAPI pattern): every path parameter reaches its route, whose schema or lookup names it
    // (422 on a series id's pattern, 404 for an unknown job id); a URL is bounded by Node's header limit anyway
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // the router's own errors (a malformed percent-encoding, a parameter still over that) as problem+json too
    frameworkErrors: (error, request, reply) => { sendProblem(request, reply, routerError(error)); },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // the API takes JSON only: a text/plain body (fetch's default for a string) is a 415 that names
  // application/json, not a 422 saying the body is a string
  app.removeContentTypeParser('text/plain');
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  // every route's path and methods, for the 405 answer on a known path (registered before any route)
  const allowed = new MethodsByPath();
  app.addHook('onRoute', (route) => { allowed.add(route.url, route.method); });
  // PUT /v1/series/observations would reach PUT /v1/series/:id: a static path answers 405 for methods it lacks
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    if (!request.routeOptions.url?.includes(':')) return;
    const own = allowed.staticMethods(path);
    if (own) throw methodNotAllowed(request.method, path, allowed.methodsFor(path));
  });

  await registerDocs(app, deps.version);

  const telemetry = deps.telemetry ?? new Telemetry({ db: deps.database.db, workers: deps.workers });
  app.decorate('telemetry', telemetry);
  // rolling WQL and coverage of stored forecasts per model (src/http/accuracy-metrics.ts)
  registerAccuracyMetrics(telemetry.registry, deps.database.db, deps.registry.catalog);
  app.decorateRequest('logFields', null as unknown as LogFields);
  app.addHook('onRequest', async (request, reply) => {
    request.logFields = {};
    reply.header('x-request-id', request.id);
  });
  // the handler and everything it awaits see the request (the inference client sends its id to the worker,
  // and drops its model calls once the client has gone: client-gone.ts)
  app.addHook(
    'preHandler', (request, reply, done) => runInContext({ requestId: request.id, fields: request.logFields, signal: clientGoneSignal(request, reply) }, done),
  );
  // the caller's private models join the catalog for its request (private-models-hook.ts)
  if (deps.fineTuning) app.addHook('preHandler', privateModelsHook(deps.fineTuning.privateModels));
  installRequestLog(app, telemetry);
  const context: AppContext = {
    ...deps, telemetry, keyCache: deps.database.kind === 'pglite' ? new KeyCache() : undefined, adminAuth: adminHook(deps.admin ?? {}),
  };
  app.addHook('onRequest', authHook(deps.database.db, context.keyCache));
  // a charged unit is settled as its answer leaves, refunded if that answer is a 5xx (charge.ts)
  installChargeSettlement(app);
  // per-account caps on synchronous requests (in flight, series, observations) and the account's fair turn (sync-limits.ts)
  installSyncLimits(app, deps.config);

  installProblemHandlers(app, allowed, deps.config.bodyLimitBytes);

  for (const route of routes) route(app, context);
  // the Nixtla SDK's calls, translated onto the routes above (src/http/nixtla, docs/nixtla.md)
  await app.register(nixtlaApi(context), { prefix: '/nixtla' });
  // KServe's time-series protocol, translated onto POST /v1/forecast (src/http/kserve, docs/api.md)
  await app.register(kserveApi(context));
  // large POST /v1/forecast bodies stay bytes for a forecast thread (large-forecast.ts)
  installJsonParser(app, deps.answerThreads, deps.config.requestThreadMinBytes ?? 0);
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  return app;
}

/** The OpenAPI document (GET /v1/openapi.json) and its Swagger UI at /v1/docs. */
async function registerDocs(app: App, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Horizon forecasting API', version: version, description: 'Self-hosted time-series foundation models behind one ' +
        'HTTP/JSON contract.' },
      components: { securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key: hzn_…' },
        metrics_token: { type: 'http', scheme: 'bearer', description: 'HORIZON_METRICS_TOKEN (GET /metrics only, when set)' },
        adminBearer: { type: 'http', scheme: 'bearer', description: 'operator token: HORIZON_ADMIN_TOKEN (the /v1/admin operations only)' },
      } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) => addExamples((documentObject as { openapiObject: Parameters<typeof addExamples>[0] }).openapiObject) as never,
  });
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    uiConfig: { persistAuthorization: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    // branded Horizon: our logo and title instead of the Fastify/Swagger defaults
    logo: { type: 'image/svg+xml', content: HORIZON_LOGO, href: '/v1/docs', target: '_self' },
    theme: { title: 'Horizon API docs', favicon: [{ filename: 'horizon-logo.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: HORIZON_LOGO }] },
  });
}

/** One JSON line per request: on its answer, or (499 client_closed_request) when the client left first. */
function installRequestLog(app: App, telemetry: Telemetry): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    telemetry.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1e3);
    // never headers or bodies: they carry API keys and tenant data
    request.log.info({
      account_id: request.owner?.accountId, method: request.method, route, url: request.url.split('?')[0], status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 1e3) / 1e3, ...request.logFields,
    }, 'request completed');
  });
  // a client that left before its answer gets no onResponse (Fastify's onRequestAbort fires only while the body is
  // still being read): its line says 499 client_closed_request; the work it left is dropped (client-gone.ts)
  app.addHook('onRequest', async (request, reply) => {
    let finished = false;
    reply.raw.once('finish', () => { finished = true; });
    reply.raw.once('close', () => {
      if (finished) return;
      request.log.info({
        account_id: request.owner?.accountId, method: request.method, route: request.routeOptions.url ?? 'unmatched',
        url: request.url.split('?')[0], status: 499, duration_ms: Math.round(reply.elapsedTime * 1e3) / 1e3,
        ...request.logFields, code: 'client_closed_request',
      }, 'request aborted by the client');
    });
  });
}

/** Errors, unknown paths and methods a path lacks, answered as problem+json. */
function installProblemHandlers(app: App, allowed: MethodsByPath, bodyLimitBytes: number): void {
  app.setErrorHandler((error: FastifyError | HorizonError, request, reply) => {
    // a method no route has (QUERY, …) can fail in body parsing before the not-found handler runs
    const methods = request.is404 ? allowed.methodsFor(request.url.split('?')[0]) : [];
    const horizonError = methods.length > 0 ? methodNotAllowed(request.method, request.url, methods) : toHorizonError(error, bodyLimitBytes);
    // a 503 is an expected, retryable state (worker restarting): one line, no stack
    if (horizonError.status === 503) request.log.warn(
      { code: horizonError.code, cause: (horizonError.cause as Error | undefined)?.message }, horizonError.message,
    );
    else if (horizonError.status >= 500) request.log.error({ err: error }, horizonError.message);
    // the client still sending gets this answer, not EPIPE (too-large-body.ts)
    if (horizonError.code === 'payload_too_large') drainTooLargeBody(request, reply, bodyLimitBytes);
    sendProblem(request, reply, horizonError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const methods = allowed.methodsFor(path);
    if (methods.length > 0) {
      sendProblem(request, reply, methodNotAllowed(request.method, path, methods));
      return;
    }
    sendProblem(request, reply, path.startsWith('/v1/') || path === '/v1'
      ? new HorizonError('not_found', `no route ${request.method} ${path}; see /v1/openapi.json`)
      : new HorizonError('unversioned_path', `Horizon serves its API under /v1; did you mean /v1${path === '/' ? '/status' : path}?`));
  });
}

/** Longer than any path Node's HTTP parser lets through (its header limit bounds the request line too). */
const MAX_PARAM_LENGTH = Math.max(http.maxHeaderSize, 16_384);

/** Answers `error` as problem+json. A header value Node would refuse (a control character) is dropped first: a
 * route may have set it before failing, and Node would then refuse the problem too, leaving Fastify's own body. */
function sendProblem(request: FastifyRequest, reply: FastifyReply, error: HorizonError): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    try {
      for (const one of Array.isArray(value) ? value : [value ?? '']) http.validateHeaderValue(name, String(one));
    } catch {
      request.log.warn({ header: name }, 'header value dropped: not valid in HTTP');
      reply.removeHeader(name);
    }
  }
  if (request.logFields) request.logFields.code = error.code;
  // the router's errors come before the onRequest hook that sets it
  if (!reply.hasHeader('x-request-id')) void reply.header('x-request-id', request.id);
  void reply.code(error.status).headers(error.headers ?? {}).type('application/problem+json').send(toProblem(error, request.id));
}

/** Errors of Fastify's router, raised before a route is found (Fastify would answer them with its own JSON). */
function routerError(error: FastifyError): HorizonError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new HorizonError('bad_request', 'the URL path holds an invalid percent-encoding (% must be followed by two hex digits of UTF-8)');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HorizonError('uri_too_long', `a path segment is longer than ${MAX_PARAM_LENGTH} characters, far beyond any id (series ids have 1–128)`);
    default: return new HorizonError('internal_error', `unexpected error: ${error.message}`, { cause: error });
  }
}

function methodNotAllowed(method: string, url: string, methods: string[]): HorizonError {
  const path = url.split('?')[0];
  return new HorizonError('method_not_allowed', `${path} does not take ${method}; it takes ${methods.join(', ')}`, { headers: { allow: methods.join(', ') } });
}

function toHorizonError(error: FastifyError | HorizonError, bodyLimitBytes: number): HorizonError {
  if (error instanceof HorizonError) return error;
  if (error instanceof RequestValidationError) return validationError(error.errors);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return validationError(fieldErrorsFromAjv(fastifyError.validation as AjvError[], fastifyError.validationContext));
  }
  switch (fastifyError.statusCode) {
    case 400: return new HorizonError('bad_json', `the body is not valid JSON (${fastifyError.message}); NaN and Infinity are not JSON, and no member may ` +
      `be named "__proto__"`);
    // Fastify's own message has no number ("Request body is too large"): the limit is the app's
    case 413: return new HorizonError('payload_too_large', `the body is larger than the limit of ${bodyLimitBytes} bytes (HORIZON_BODY_LIMIT_BYTES); split ` +
      `the series across several requests`);
    case 415: return new HorizonError('unsupported_media_type', 'send the body as Content-Type: application/json');
    case 404: return new HorizonError('not_found', fastifyError.message);
  }
  // PostgreSQL's text holds no NUL character (22021 character_not_in_repertoire): a client's string did, not a fault here
  if ((error as { code?: unknown }).code === '22021') {
    return new HorizonError('bad_request', 'a text value of the request holds a character the store cannot keep (NUL, \\u0000); remove it');
  }
  if (isStoreUnreachable(error)) {
    return new HorizonError('store_unavailable', `the database cannot be reached (${fastifyError.message}); ` +
      `nothing was done, retry`, { headers: { 'retry-after': '2' }, cause: error });
  }
  return new HorizonError('internal_error', `unexpected error: ${fastifyError.message}`, { cause: error });
}

/** Fastify's clientErrorHandler: the same problem+json as every other error instead of Fastify's own JSON. */
function problemClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  // a reset connection has nobody to answer (Fastify's default does the same)
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const horizonError = error.code === 'HPE_HEADER_OVERFLOW'
    // the request line counts too: a URL over the limit ends here (see MAX_PARAM_LENGTH)
    ? new HorizonError('headers_too_large',
      `the request line and header fields are larger than the limit of ${http.maxHeaderSize} bytes in all; an API key is 61 characters ` +
      `(Authorization: Bearer hzn_…)`)
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new HorizonError('request_timeout', 'the request was not received in time')
      : new HorizonError('bad_request', `the HTTP request could not be parsed (${error.code ?? error.message})`);
  const requestId = randomUUID();
  const body = JSON.stringify(toProblem(horizonError, requestId));
  this.log.debug({ code: horizonError.code }, 'client error');
  if (socket.writable) {
    const head = `HTTP/1.1 ${horizonError.status} ${http.STATUS_CODES[horizonError.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    socket.write(`${head}Content-Type: application/problem+json\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
