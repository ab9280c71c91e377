// /nixtla: a drop-in for Nixtla's Python SDK (nixtla==0.9.0), NixtlaClient(base_url=".../nixtla",
// api_key=<a Horizon key>). A thin translation onto Horizon's own operations: each call is the /v1 call
// it maps to (same key, quota unit, validation, models, jobs, log line), its payload and answer reshaped.
// docs/nixtla.md has the mapping. Tagged `nixtla` in the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, AppContext } from '../app-types.ts';
import type { Config } from '../../config.ts';
import { HorizonError, toProblem } from '../../errors.ts';
import { findModel } from '../../runtime/catalog.ts';
import { AUTO_ID } from '../../forecasting/auto.ts';
import { MethodsByPath } from '../allowed-methods.ts';
import { decodeBody } from './zstd.ts';
import { installJsonParser } from '../large-forecast.ts';
import type { NixtlaContext } from './common.ts';
import { forecastRoute } from './forecast.ts';
import { crossValidationRoute } from './cross-validation.ts';
import { anomalyDetectionRoute } from './anomaly-detection.ts';
import { onlineAnomalyDetectionRoute } from './online-anomaly-detection.ts';
import { anomalyJobRoutes } from './anomaly-jobs.ts';
import { jobRoutes } from './jobs.ts';
import { modelRoutes } from './models.ts';
import { accountRoutes } from './account.ts';
import { finetuneRoutes } from './finetune.ts';
import { notBuiltRoutes } from './not-built.ts';
import { simulateRoutes } from './simulate.ts';

/** The plugin, registered by buildApp under the prefix /nixtla. HORIZON_NIXTLA_DEFAULT_MODEL must name a
 * catalog model or "auto" (checked here, so a typo stops the start rather than failing every call). */
export function nixtlaApi(context: AppContext & { config: Partial<Pick<Config, 'nixtlaDefaultModel'>> }) {
  const nixtlaDefaultModel = context.config.nixtlaDefaultModel ?? AUTO_ID;
  if (nixtlaDefaultModel !== AUTO_ID && !findModel(context.registry.catalog, nixtlaDefaultModel)) {
    throw new Error(`HORIZON_NIXTLA_DEFAULT_MODEL "${nixtlaDefaultModel}" is neither "auto" nor a model id of the catalog ` +
      `(${context.registry.catalog.models.map((m) => m.id).join(', ')})`);
  }
  const ctx: NixtlaContext = { ...context, nixtlaDefaultModel };
  return async function nixtla(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
    // the SDK sends `content-type: application/json` on every call, also on its body-less POST (a job's
    // cancel) and DELETE (delete_finetuned_model, no content-length at all): no body is then no body, not a
    // 400 for empty JSON
    app.addHook('onRequest', async (request) => {
      const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
      if (length === '0' || (length === undefined && chunked === undefined)) delete request.headers['content-type'];
    });
    // zstd bodies (the SDK compresses bodies over 1 MiB), decompressed under the same body limit
    app.addHook('preParsing', async (request, _reply, payload) => decodeBody(request, payload, context.config.bodyLimitBytes));
    // large forecast payloads stay bytes for a forecast thread (large-bodies.ts): this plugin's parsers were copied
    // from the app's before app.ts installed that parser there
    installJsonParser(app, context.answerThreads, context.config.requestThreadMinBytes ?? 0);

    // 404 and 405 under /nixtla name this surface (the root's 404 would point at /v1)
    const allowed = new MethodsByPath();
    app.addHook('onRoute', (route) => { allowed.add(route.url, route.method); });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const methods = allowed.methodsFor(path);
      const error = methods.length > 0
        ? new HorizonError('method_not_allowed', `${path} does not take ${request.method}; it ` +
          `takes ${methods.join(', ')}`, { headers: { allow: methods.join(', ') } })
        : new HorizonError('not_found', `no route ${request.method} ${path}: /nixtla serves the Nixtla SDK's calls (docs/nixtla.md)`);
      request.logFields.code = error.code;
      void reply.code(error.status).headers(error.headers ?? {}).type('application/problem+json').send(toProblem(error, request.id));
    });

    forecastRoute(app, ctx);
    crossValidationRoute(app, ctx);
    anomalyDetectionRoute(app, ctx);
    onlineAnomalyDetectionRoute(app, ctx);
    anomalyJobRoutes(app, ctx);
    jobRoutes(app, ctx);
    modelRoutes(app, ctx);
    accountRoutes(app, ctx);
    finetuneRoutes(app, ctx);
    simulateRoutes(app, ctx);
    notBuiltRoutes(app);
  };
}
