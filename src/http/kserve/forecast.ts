import type { App, AppContext } from '../app-types.ts';
import { ERRORS, HorizonError, validationError, type ErrorCode, type Problem } from '../../errors.ts';
import { jsonResponse } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { KServeForecastRequest, KServeForecastResponse } from './schemas.ts';
import { forecastBody, forecastResponse, kserveField, type KServeRequest, type SeriesOrigin } from './translate.ts';
import { kserveErrorResponses } from './errors.ts';

const PASSED_ON = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'server-timing', 'x-horizon-model'];

/** POST /v1/timeseries/forecast — KServe's time-series forecast: POST /v1/forecast called in-process with the caller's
 * key (the same auth, validation, quota unit, refund on 5xx and log line), its answer reshaped. */
export function kserveForecastRoute(app: App, _ctx: AppContext): void {
  app.post('/v1/timeseries/forecast', {
    schema: {
      summary: 'KServe time-series protocol: forecast (POST /v1/forecast)', tags: ['kserve'], body: KServeForecastRequest,
      response: { 200: jsonResponse(KServeForecastResponse, 'KServe\'s ForecastResponse: one output per input, in the order sent'),
        ...kserveErrorResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const body = request.body as KServeRequest;
    const { horizon, origins, errors } = forecastBody(body);
    if (errors.length) throw validationError(errors);
    const res = await app.inject({
      method: 'POST', url: '/v1/forecast', payload: JSON.stringify(horizon),
      headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json' },
    });
    for (const name of PASSED_ON) if (res.headers[name] !== undefined) void reply.header(name, String(res.headers[name]));
    Object.assign(request.logFields, { v1_request_id: res.headers['x-request-id'], model: body.model });
    const answer = res.body ? JSON.parse(res.body) : undefined;
    if (res.statusCode >= 400) throw horizonErrorOf(res.statusCode, answer as Problem | undefined, origins);
    return forecastResponse(body, answer, origins, request.id);
  });
}

/** /v1/forecast's problem as this request's error, its fields named as KServe names them. */
function horizonErrorOf(status: number, problem: Problem | undefined, origins: SeriesOrigin[]): HorizonError {
  const code: ErrorCode = problem && problem.code in ERRORS ? problem.code : 'internal_error';
  const errors = problem?.errors?.map((e) => ({ field: kserveField(e.field, origins), reason: e.reason }));
  let detail = errors?.length ? errors.slice(0, 5).map((e) => `${e.field}: ${e.reason}`).join('; ') : problem?.detail ?? `Horizon answered ${status}`;
  // the /v1 body carries a date per value: a KServe body under the limit can become one over it
  if (code === 'payload_too_large') detail = `the POST /v1/forecast body this request becomes (one date per value) is over HORIZON_BODY_LIMIT_BYTES: ` +
    `send fewer inputs per request; ${detail}`;
  return new HorizonError(code, detail, { errors, unavailable: problem?.unavailable_reason });
}
