import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from './index.ts';
import { AnomaliesRequest, AnomaliesResponse, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { planAnomalies, runAnomalies, type AnomaliesBody } from '../../forecasting/anomalies.ts';

/** POST /v1/anomalies — rolling `step`-ahead forecasts over each history, flagging observations outside
 * the band at `level` (src/forecasting/anomalies.ts). Charged one request; a 5xx gives it back. */
export const anomaliesCreate: Route = (app, deps) => {
  app.post('/v1/anomalies', {
    schema: {
      summary: 'Detect anomalies: rolling forecasts with intervals over each history', tags: ['forecast'],
      body: AnomaliesRequest,
      response: { 200: jsonResponse(AnomaliesResponse, 'Per series and scored timestep: the forecast, the band at `level`, the observation, whether it lies outside and a score'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const plan = planAnomalies(request.body as AnomaliesBody, deps.registry, { pulls: deps.pulls, mode: 'sync' });
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    return withRefundOn5xx(charge, () => runAnomalies(plan, deps.inference, deps.registry));
  });
};
