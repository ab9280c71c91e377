// TypeBox schemas of KServe's time-series protocol (kserve==0.21.0, kserve/protocol/rest/timeseries/types.py):
// the same fields and enums; extra fields allowed where KServe's pydantic models allow them ("extra": "allow").
import { Type } from '@fastify/type-provider-typebox';

/** KServe's Frequency enum: the long and the short spelling of each. */
export const KSERVE_FREQUENCIES = ['second', 'S', 'minute', 'T', 'hour', 'H', 'day', 'D', 'week', 'W', 'month', 'M', 'quarter', 'Q', 'year', 'Y'] as const;

const Frequency = Type.Union(KSERVE_FREQUENCIES.map((f) => Type.Literal(f)), { description: 'KServe\'s Frequency: second/S and minute/T are a 422 ' +
  '(Horizon forecasts hourly and longer grids); month/M is Horizon\'s MS grid on the start_timestamp\'s day of the month' });
const TimeSeriesType = Type.Union([Type.Literal('univariate_time_series'), Type.Literal('multivariate_time_series')]);
const Univariate = Type.Array(Type.Number(), { description: 'univariate: one value per step' });
const Multivariate = Type.Array(Type.Array(Type.Number()), { description: 'multivariate: one list per step, one value per variate' });

const TimeSeriesInput = Type.Object({
  type: TimeSeriesType,
  name: Type.String({ description: 'the series\' name, echoed in its forecast' }),
  series: Type.Union([Univariate, Multivariate]),
  frequency: Frequency,
  start_timestamp: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'ISO 8601 time of the first value; absent: the series is ' +
    'dated from 2000-01-01T00:00:00Z on its frequency\'s grid (the answer\'s start_timestamp is then on that synthetic calendar)' })),
}, { additionalProperties: true });

export const KServeForecastRequest = Type.Object({
  model: Type.String({ description: 'a Horizon model id (GET /v1/timeseries/models) or "auto"' }),
  inputs: Type.Array(TimeSeriesInput, { minItems: 1 }),
  options: Type.Object({
    horizon: Type.Integer({ minimum: 1, description: 'steps to forecast' }),
    quantiles: Type.Optional(Type.Union([Type.Array(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }), { maxItems: 99 }), Type.Null()])),
  }, { additionalProperties: true }),
  metadata: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
}, { additionalProperties: true });

const Series = Type.Union([Univariate, Multivariate]);

const KServeErrorDetail = Type.Object({
  code: Type.Union([Type.String(), Type.Null()], { description: 'the HTTP status, as a string (KServe\'s create_error_response)' }),
  message: Type.String(),
  param: Type.Union([Type.String(), Type.Null()], { description: 'the first field at fault, in KServe\'s terms (inputs[0].series, options.horizon …)' }),
  type: Type.String({ description: 'Horizon\'s error code (validation_failed, unauthorized, rate_limited …)' }),
});

export const KServeForecastResponse = Type.Object({
  id: Type.String({ description: 'the request id (X-Request-Id)' }),
  created_at: Type.Integer({ description: 'Unix seconds' }),
  status: Type.Union([Type.Literal('completed'), Type.Literal('error'), Type.Literal('pending'), Type.Literal('partial')]),
  error: Type.Optional(Type.Union([KServeErrorDetail, Type.Null()])),
  model: Type.String(),
  outputs: Type.Array(Type.Object({
    type: Type.String({ description: '"time_series_forecast"' }),
    id: Type.String(),
    status: Type.String(),
    content: Type.Array(Type.Object({
      type: TimeSeriesType,
      name: Type.String(),
      mean_forecast: Series,
      frequency: Frequency,
      start_timestamp: Type.String({ description: 'the first forecast step, YYYY-MM-DDTHH:MM:SSZ' }),
      quantiles: Type.Optional(Type.Union([Type.Record(Type.String(), Series), Type.Null()])),
    })),
    error: Type.Optional(Type.Union([KServeErrorDetail, Type.Null()])),
  })),
  usage: Type.Optional(Type.Union([Type.Object({
    prompt_tokens: Type.Integer({ description: 'observed values sent' }),
    completion_tokens: Type.Integer({ description: 'mean values forecast' }),
    total_tokens: Type.Integer(),
  }), Type.Null()])),
}, { additionalProperties: true });

/** An error on /v1/timeseries: KServe's ErrorResponse ({error}) and a ForecastResponse with status "error" at once. */
export const KServeError = Type.Object({
  id: Type.String(), created_at: Type.Integer(), status: Type.Literal('error'), model: Type.String(), outputs: Type.Array(Type.Unknown(), { maxItems: 0 }),
  error: KServeErrorDetail,
  request_id: Type.String({ description: 'the X-Request-Id' }),
  errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }), { description: '422: every field at fault' })),
}, { $id: 'KServeError', additionalProperties: true });

export const KServeModels = Type.Array(Type.String(), { description: 'the model ids this deployment serves, and "auto"' });
