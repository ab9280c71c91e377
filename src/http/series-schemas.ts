// TypeBox schemas of the stored-series operations (issue 25, docs/stored-series.md).
import { Type } from '@fastify/type-provider-typebox';
import { INDEX_DATE_PATTERN, MAX_TARGET_MAGNITUDE } from './schemas.ts';
import { SERIES_ID_PATTERN } from '../forecasting/stored-series.ts';

const Freq = Type.Union([Type.Literal('MS'), Type.Literal('D'), Type.Literal('W'), Type.Literal('H'), Type.Literal('Q'), Type.Literal('Y')]);
const IndexDate = Type.String({ pattern: INDEX_DATE_PATTERN, description: 'YYYY-MM-DD, or a date-time for freq H (as in InputSeries.index)' });
const Value = Type.Union([Type.Number({ minimum: -MAX_TARGET_MAGNITUDE, maximum: MAX_TARGET_MAGNITUDE }), Type.Null()]);
const Nullable = Type.Union([Type.Number(), Type.Null()]);
/** Query integers arrive as strings (nothing is coerced, ajv-options.ts); the routes check their ranges. */
const QueryInt = (description: string, pattern = '^[0-9]{1,6}$') => Type.Optional(Type.String({ pattern, description }));

export const SeriesIdParams = Type.Object({ id: Type.String({ pattern: SERIES_ID_PATTERN, description: 'the series id: 1-128 of letters, digits and _ . : - ' +
  '(first a letter or digit)' }) });

const Schedule = Type.Object({
  horizon: Type.Integer({ minimum: 1, description: 'steps each scheduled forecast predicts' }),
  model: Type.Optional(Type.String()),
  model_size: Type.Optional(Type.String()),
  quantiles: Type.Optional(Type.Array(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }), { maxItems: 99, uniqueItems: true })),
  context: Type.Optional(Type.Integer({ minimum: 1 })),
  evaluation: Type.Optional(Type.Object({
    holdout: Type.Optional(Type.Integer({ minimum: 1 })),
    season_length: Type.Optional(Type.Integer({ minimum: 1 })),
  }, { additionalProperties: false, description: 'as POST /v1/forecast\'s: each scheduled forecast also backtests the model on the series, and keeps its ' +
    'MASE and WQL (the baseline of a drift rule\'s max_mase_ratio)' })),
}, { additionalProperties: false, description: 'what a scheduled forecast asks (as POST /v1/forecast would); stored with store: true' });

const Drift = Type.Object({
  window: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'scored forecasts in the rolling window; default 10' })),
  min_forecasts: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'scored forecasts needed before the rule is checked; default 5' })),
  max_mase: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'drift when the rolling MASE is above this' })),
  max_mase_ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'drift when the rolling MASE is above this many times the model\'s own ' +
    'backtest MASE on the series (the mean over the window\'s forecasts that carry one: forecasts asked with `evaluation`, e.g. schedule.evaluation)' })),
  coverage_tolerance: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'drift when an interval\'s rolling coverage is further than ' +
    'this from its nominal level (0.8 for "80")' })),
}, { additionalProperties: false, description: 'a drift rule: an event (and webhook) when the rolling accuracy crosses it, another when it returns' });

const Webhook = Type.Object({
  url: Type.String({ pattern: '^https?://', maxLength: 2048, description: 'receives each event as a POST (JSON)' }),
  secret: Type.String({ minLength: 16, maxLength: 256, description: 'signs each delivery: X-Horizon-Signature: sha256=<hex HMAC-SHA256 of ' +
    '"<X-Horizon-Timestamp>.<body>">' }),
}, { additionalProperties: false });

export const SeriesPut = Type.Object({
  freq: Freq,
  index: Type.Array(IndexDate, { minItems: 1, description: 'the history\'s dates, strictly ascending on the freq grid (gaps are stored as missing values)' }),
  target: Type.Array(Value, { minItems: 1, description: 'one value per index date; null = missing; at least one number' }),
  forecast_every: Type.Optional(Type.Integer({ minimum: 1, description: 'forecast (and store the forecast) after every `forecast_every` appended steps, as ' +
    '`schedule` says; needs schedule' })),
  schedule: Type.Optional(Schedule),
  drift: Type.Optional(Drift),
  webhook: Type.Optional(Webhook),
}, { additionalProperties: false });

export const ObservationsAppend = Type.Object({
  index: Type.Array(IndexDate, { minItems: 1, description: 'dates strictly ascending; a date already stored must repeat its stored value (a retried append ' +
    'is a no-op); later dates are appended' }),
  target: Type.Array(Value, { minItems: 1, description: 'one value per date; null = missing' }),
}, { additionalProperties: false });

export const ObservationsAppendMany = Type.Object({
  series: Type.Array(Type.Object({
    series_id: Type.String({ pattern: SERIES_ID_PATTERN }),
    index: ObservationsAppend.properties.index,
    target: ObservationsAppend.properties.target,
  }, { additionalProperties: false }), { minItems: 1, maxItems: 100_000, description: 'one append per stored series (each id once), all applied in one ' +
    'transaction: all or nothing' }),
}, { additionalProperties: false });

export const ObservationsAppended = Type.Object({
  series_id: Type.String(),
  appended: Type.Integer({ description: 'dates added' }),
  unchanged: Type.Integer({ description: 'dates already stored with these values (a retry): nothing changed for them' }),
  points: Type.Integer({ description: 'grid steps stored now (gaps included)' }),
  last_date: Type.String(),
  scheduled_forecast: Type.Optional(Type.Object({
    status: Type.Integer({ description: 'the status POST /v1/forecast answered (200: forecast and stored)' }),
    forecasts: Type.Integer(),
    detail: Type.Optional(Type.String({ description: 'why not, when status is not 200 (e.g. quota exceeded)' })),
  }, { description: 'present when this append made the series due for its scheduled forecast (forecast_every)' })),
});

export const ObservationsAppendedMany = Type.Object(
  { series: Type.Array(ObservationsAppended, { description: 'series[i]: what the append of series[i] did' }) },
);

const ForecastView = Type.Object({
  id: Type.String(),
  model: Type.String(),
  model_size: Type.String(),
  issued_at: Type.String(),
  horizon: Type.Integer(),
  index: Type.Array(Type.String(), { description: 'the forecast dates' }),
  prediction: Type.Record(Type.String(), Type.Array(Type.Number())),
  actuals: Type.Union([Type.Array(Nullable), Type.Null()], { description: 'the observed values at those dates, once all are stored (null before)' }),
  scored_at: Type.Union([Type.String(), Type.Null()]),
  scores: Type.Union([Type.Object({
    mase: Nullable, wql: Nullable, smape: Nullable, coverage: Type.Record(Type.String(), Type.Number()), observed: Type.Integer(),
  }, { additionalProperties: true }), Type.Null()]),
});

const EventView = Type.Object({ id: Type.String(), kind: Type.String(), created_at: Type.String(), detail: Type.Unknown() });

export const SeriesView = Type.Object({
  series_id: Type.String(),
  freq: Type.String(),
  points: Type.Integer({ description: 'grid steps stored (gaps included)' }),
  first_date: Type.String(),
  last_date: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  forecast_every: Type.Union([Type.Integer(), Type.Null()]),
  schedule: Type.Union([Schedule, Type.Null()]),
  drift: Type.Union([Drift, Type.Null()]),
  webhook: Type.Union([Type.Object({ url: Type.String() }), Type.Null()], { description: 'the webhook URL (the secret is never shown)' }),
  index: Type.Optional(Type.Array(Type.String(), { description: 'GET only: the last `tail` dates of the history' })),
  target: Type.Optional(Type.Array(Nullable)),
  forecasts: Type.Optional(Type.Array(ForecastView, { description: 'GET only: the latest stored forecasts, newest first, with their actuals and scores' })),
  events: Type.Optional(Type.Array(EventView, { description: 'GET only: the latest events (drift), newest first' })),
  webhook_deliveries: Type.Optional(Type.Array(Type.Object({
    id: Type.String(), event_id: Type.String(), status: Type.String({ description: 'pending, delivered or failed' }), attempts: Type.Integer(),
    last_status: Type.Union([Type.Integer(), Type.Null()]), last_error: Type.Union([Type.String(), Type.Null()]),
    next_attempt_at: Type.String(), delivered_at: Type.Union([Type.String(), Type.Null()]), created_at: Type.String(),
  }), { description: 'GET only: the webhook delivery log, newest first' })),
  drifting: Type.Optional(Type.Boolean({ description: 'GET only: whether the last drift event raised drift (and none cleared it since)' })),
});

export const SeriesGetQuery = Type.Object({
  tail: QueryInt('dates of history returned (the last ones), 0-100000; default 1000', '^0*([0-9]{1,5}|100000)$'),
  forecasts: QueryInt('stored forecasts returned, 0-1000; default 20', '^0*([0-9]{1,3}|1000)$'),
}, { additionalProperties: false });

export const SeriesListQuery = Type.Object({
  limit: QueryInt('page size, 1-1000; default 100', '^0*([1-9][0-9]{0,2}|1000)$'),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
}, { additionalProperties: false });

export const SeriesList = Type.Object({
  series: Type.Array(
    Type.Object({ series_id: Type.String(), freq: Type.String(), points: Type.Integer(), created_at: Type.String(), updated_at: Type.String() }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

const Rolling = Type.Object({
  forecasts: Type.Integer({ description: 'scored forecasts in the window' }),
  mase: Nullable, wql: Nullable, smape: Nullable,
  coverage: Type.Record(Type.String(), Type.Number(), { description: 'per central interval ("80": quantiles 0.1 and 0.9), the fraction of ' +
    'observed actuals inside it' }),
  by_step: Type.Array(
    Type.Object({ step: Type.Integer(), forecasts: Type.Integer(), mase: Nullable, wql: Nullable, coverage: Type.Record(Type.String(), Type.Number()) }),
    { description: 'the same per horizon step (1 = the first forecast step)' },
  ),
});

export const AccuracyQuery = Type.Object({
  window: QueryInt('the latest scored forecasts aggregated, 1-10000; default 100', '^0*([1-9][0-9]{0,3}|10000)$'),
}, { additionalProperties: false });

export const ModelAccuracyQuery = Type.Object({
  model: Type.String({ minLength: 1, description: 'a model id' }),
  window: QueryInt('the latest scored forecasts of the model over the account\'s series, 1-10000; default 1000', '^0*([1-9][0-9]{0,3}|10000)$'),
}, { additionalProperties: false });

export const SeriesAccuracy = Type.Object({
  series_id: Type.String(),
  window: Type.Integer(),
  overall: Rolling,
  models: Type.Array(Type.Intersect([Type.Object({ model: Type.String() }), Rolling]), { description: 'the same per model' }),
});

export const ModelAccuracy = Type.Object({
  model: Type.String(),
  window: Type.Integer(),
  overall: Rolling,
  series: Type.Array(
    Type.Object({ series_id: Type.String(), forecasts: Type.Integer(), mase: Nullable, wql: Nullable, coverage: Type.Record(Type.String(), Type.Number()) }),
    { description: 'per series, over the same window' },
  ),
});
