import type { Route } from './index.ts';
import { ForecastRequest, ForecastResponse, problemResponses } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { normalizeForecastRequest, type ForecastRequestBody } from '../normalize.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { runForecast } from '../forecast.ts';

/** POST /v1/forecast — synchronous forecast; one quota unit, refunded on a 5xx. */
export const forecastCreate: Route = (app, deps) => {
  app.post('/v1/forecast', {
    schema: {
      summary: 'Forecast now', tags: ['forecast'],
      body: ForecastRequest,
      response: { 200: ForecastResponse, ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 503, 504) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const normalized = normalizeForecastRequest(request.body as ForecastRequestBody, deps.registry.catalog, deps.registry.defaultModel);
    deps.registry.groupFor(normalized.model);
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    return withRefundOn5xx(charge, () => runForecast(deps.inference, deps.registry, normalized));
  });
};
