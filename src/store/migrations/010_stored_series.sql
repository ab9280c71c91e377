-- Stored series (issue 25): per-account histories that grow by appends, the forecasts made from them
-- (store: true), and their scores once the actuals arrive. Plain SQL that PostgreSQL 15 and PGlite accept.

CREATE TABLE stored_series (
  account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  series_id       text NOT NULL,
  freq            text NOT NULL,
  -- the calendar grid of the first date (src/forecasting/calendar.ts Grid): step k is a date
  grid            jsonb NOT NULL,
  -- the value at grid step k is the k-th float64 (little-endian; NaN = missing, which JSON values never
  -- are); it only grows at its end. Binary because a forecast by reference reads thousands of histories,
  -- and PGlite parses a double precision[] of 100 values 10× slower than it returns 800 bytes
  target          bytea NOT NULL,
  -- a forecast after each append that adds steps (null = none): {horizon, model?, model_size?, quantiles?, context?}
  schedule        jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, series_id)
);

CREATE TABLE stored_forecasts (
  id              uuid PRIMARY KEY,
  account_id      uuid NOT NULL,
  series_id       text NOT NULL,
  model           text NOT NULL,
  model_size      text NOT NULL,
  -- the grid step of the first forecast value (the history ended at first_step - 1)
  first_step      integer NOT NULL,
  horizon         integer NOT NULL,
  quantiles       jsonb NOT NULL,
  season_length   integer NOT NULL,
  -- how many of the last observations the model saw (the MASE scale is computed on them)
  context         integer NOT NULL,
  request         jsonb NOT NULL,
  -- {mean: [...], "<level>": [...]} and the forecast dates
  prediction      jsonb NOT NULL,
  forecast_index  jsonb NOT NULL,
  issued_at       timestamptz NOT NULL DEFAULT now(),
  -- set once, in the transaction that writes actuals and scores: a forecast is scored exactly once
  scored_at       timestamptz,
  actuals         jsonb,
  scores          jsonb,
  FOREIGN KEY (account_id, series_id) REFERENCES stored_series (account_id, series_id) ON DELETE CASCADE
);
CREATE INDEX stored_forecasts_series ON stored_forecasts (account_id, series_id, issued_at);
CREATE INDEX stored_forecasts_pending ON stored_forecasts (account_id, series_id, first_step) WHERE scored_at IS NULL;
CREATE INDEX stored_forecasts_model_scored ON stored_forecasts (account_id, model, scored_at) WHERE scored_at IS NOT NULL;

-- drift rule and webhook of a series (null = none); the webhook secret signs deliveries (HMAC-SHA256)
ALTER TABLE stored_series ADD COLUMN drift jsonb;
ALTER TABLE stored_series ADD COLUMN webhook jsonb;

-- what happened to a series that its owner should hear about (drift raised or cleared)
CREATE TABLE series_events (
  id              uuid PRIMARY KEY,
  account_id      uuid NOT NULL,
  series_id       text NOT NULL,
  kind            text NOT NULL,
  detail          jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (account_id, series_id) REFERENCES stored_series (account_id, series_id) ON DELETE CASCADE
);
CREATE INDEX series_events_series ON series_events (account_id, series_id, created_at);

-- one row per event and webhook: written with the event (at-least-once), retried with backoff until delivered
CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY,
  event_id        uuid NOT NULL REFERENCES series_events(id) ON DELETE CASCADE,
  account_id      uuid NOT NULL,
  series_id       text NOT NULL,
  url             text NOT NULL,
  status          text NOT NULL DEFAULT 'pending',
  attempts        integer NOT NULL DEFAULT 0,
  last_status     integer,
  last_error      text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
