import type { App, AppContext } from '../app-types.ts';
import { jsonResponse } from '../schemas.ts';
import { AUTO_ID } from '../../forecasting/auto.ts';
import { KServeModels } from './schemas.ts';
import { kserveErrorResponses } from './errors.ts';

/** GET /v1/timeseries/models — KServe's model list: a JSON array of names, here the served Horizon model ids and "auto". */
export function kserveModelsRoute(app: App, ctx: AppContext): void {
  app.get('/v1/timeseries/models', {
    schema: {
      summary: 'KServe time-series protocol: the models', tags: ['kserve'],
      response: { 200: jsonResponse(KServeModels, 'the served model ids (GET /v1/models has their details) and "auto"'),
        ...kserveErrorResponses(401, 429, 500) },
    },
  }, async () => [...ctx.registry.availableIds(), AUTO_ID]);
}
