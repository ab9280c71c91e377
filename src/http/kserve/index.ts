// KServe's time-series protocol (kserve==0.21.0, kserve/protocol/rest/timeseries): POST /v1/timeseries/forecast and
// GET /v1/timeseries/models, a thin translation onto POST /v1/forecast (same key, quota unit, models, log line), so a
// KServe client or InferenceService (deploy/kserve) reaches every Horizon model. Tagged `kserve` in the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, AppContext } from '../app-types.ts';
import { KServeError } from './schemas.ts';
import { kserveErrorBody } from './errors.ts';
import { kserveForecastRoute } from './forecast.ts';
import { kserveModelsRoute } from './models.ts';

/** The plugin, registered by buildApp without a prefix (KServe's paths are /v1/timeseries/…). */
export function kserveApi(context: AppContext) {
  return async function kserve(instance: FastifyInstance): Promise<void> {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
    app.addSchema(KServeError);
    // every error these routes answer, whoever raised it (auth hook, schema, quota, the /v1 call), in KServe's shape
    app.addHook('onSend', kserveErrorBody);
    kserveForecastRoute(app, context);
    kserveModelsRoute(app, context);
  };
}
