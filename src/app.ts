// buildApp(deps) returns an un-listened Fastify instance; the server entry and the tests give it
// real dependencies (store, inference client, registry, queue).
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyBaseLogger, type RawServerDefault, type RawRequestDefaultExpression, type RawReplyDefaultExpression } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './store/database.ts';
import type { InferenceClient } from './runtime/inference.ts';
import type { PullManager } from './model-pull.ts';
import type { ModelRegistry } from './models.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { WorkerStatus } from './runtime/supervisor.ts';
import { HorizonError, toProblem, validationError, type FieldError } from './errors.ts';
import { RequestValidationError } from './normalize.ts';
import { authHook } from './auth.ts';
import { SHARED_SCHEMAS } from './schemas.ts';
import { routes } from './routes/index.ts';
import { KeyCache } from './key-cache.ts';
import { adminHook, type AdminTokens } from './admin.ts';

export interface AppDeps {
  config: Pick<Config, 'bodyLimitBytes' | 'jobResultTtlSeconds' | 'logLevel'>;
  database: Database;
  registry: ModelRegistry;
  inference: InferenceClient;
  queue: JobQueue;
  /** auto-pull of missing weights (HORIZON_AUTO_PULL=1); absent: nothing is downloaded at request time */
  pulls?: PullManager;
  workers: () => WorkerStatus[];
  /** tokens of the /v1/admin operations; none: they answer 404 */
  admin?: AdminTokens;
  version: string;
  logger?: boolean | object;
}

/** What routes get: the deps plus what buildApp derives from them. */
export interface AppContext extends AppDeps {
  keyCache?: KeyCache;
  /** onRequest hook of the admin routes (admin.ts) */
  adminAuth: ReturnType<typeof adminHook>;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // strict JSON-schema validation: unknown fields are errors, nothing is coerced or defaulted
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Horizon forecasting API', version: deps.version, description: 'Self-hosted time-series foundation models behind one HTTP/JSON contract.' },
      components: { securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key: hzn_…' },
        adminBearer: { type: 'http', scheme: 'bearer', description: 'operator token: HORIZON_ADMIN_TOKEN (the /v1/admin operations only)' },
      } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { persistAuthorization: true } });

  app.addHook('onRequest', async (request, reply) => { reply.header('x-request-id', request.id); });
  const context: AppContext = { ...deps, keyCache: deps.database.kind === 'pglite' ? new KeyCache() : undefined, adminAuth: adminHook(deps.admin ?? {}) };
  app.addHook('onRequest', authHook(deps.database.db, context.keyCache));

  app.setErrorHandler((error: FastifyError | HorizonError, request, reply) => {
    const horizonError = toHorizonError(error);
    // a 503 is an expected, retryable state (worker restarting): one line, no stack
    if (horizonError.status === 503) request.log.warn({ code: horizonError.code, cause: (horizonError.cause as Error | undefined)?.message }, horizonError.message);
    else if (horizonError.status >= 500) request.log.error({ err: error }, horizonError.message);
    void reply.code(horizonError.status)
      .headers(horizonError.headers ?? {})
      .type('application/problem+json')
      .send(toProblem(horizonError, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const error = path.startsWith('/v1/') || path === '/v1'
      ? new HorizonError('not_found', `no route ${request.method} ${path}; see /v1/openapi.json`)
      : new HorizonError('unversioned_path', `Horizon serves its API under /v1; did you mean /v1${path === '/' ? '/status' : path}?`);
    void reply.code(404).type('application/problem+json').send(toProblem(error, request.id));
  });

  for (const route of routes) route(app, context);
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  return app;
}

function toHorizonError(error: FastifyError | HorizonError): HorizonError {
  if (error instanceof HorizonError) return error;
  if (error instanceof RequestValidationError) return validationError(error.errors);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    // a union (freq) fails once per branch: keep one error per field and reason
    const unique = new Map(fastifyError.validation.map((v) => ajvToFieldError(v, fastifyError.validationContext)).map((e) => [`${e.field}\u0000${e.reason}`, e]));
    return validationError([...unique.values()]);
  }
  switch (fastifyError.statusCode) {
    case 400: return new HorizonError('bad_json', `the body is not valid JSON (${fastifyError.message}); NaN and Infinity are not JSON`);
    case 413: return new HorizonError('payload_too_large', `the body is larger than the limit of ${fastifyError.message.match(/\d+/)?.[0] ?? 'the configured'} bytes`);
    case 415: return new HorizonError('unsupported_media_type', 'send the body as Content-Type: application/json');
    case 404: return new HorizonError('not_found', fastifyError.message);
  }
  return new HorizonError('internal_error', `unexpected error: ${fastifyError.message}`, { cause: error });
}

interface AjvError { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }

/** `/series/2/target/5` → series 2, field `series[2].target[5]`. */
function ajvToFieldError(v: AjvError, context?: string): FieldError {
  const parts = v.instancePath.split('/').filter(Boolean);
  let field = parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
  const series = parts[0] === 'series' && /^\d+$/.test(parts[1] ?? '') ? Number(parts[1]) : undefined;
  let reason = v.message ?? v.keyword;
  if (v.keyword === 'additionalProperties') {
    field = field ? `${field}.${String(v.params.additionalProperty)}` : String(v.params.additionalProperty);
    reason = 'unknown field (not part of the API; check the spelling)';
  } else if (v.keyword === 'required') {
    field = field ? `${field}.${String(v.params.missingProperty)}` : String(v.params.missingProperty);
    reason = 'is required';
  } else if (field === 'freq') {
    reason = 'must be one of MS, D, W, H, Q, Y';
  }
  if (!field) field = context ?? 'body';
  return series === undefined ? { field, reason } : { series, field, reason };
}
