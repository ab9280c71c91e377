-- Accounts, API keys (hashes only), per-day quota usage, forecast jobs.
-- Plain SQL that PostgreSQL 15 and PGlite both accept.

CREATE TABLE accounts (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL UNIQUE,
  daily_quota   integer NOT NULL DEFAULT 200 CHECK (daily_quota >= 0),
  weekly_quota  integer NOT NULL DEFAULT 1000 CHECK (weekly_quota >= 0),
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        text NOT NULL,
  -- public part of the key, used to find the row; the secret is only ever compared by hash
  prefix      text NOT NULL UNIQUE,
  key_hash    bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
-- a name is unique among an account's active keys; a revoked key frees its name
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (account_id, name) WHERE revoked_at IS NULL;

-- One row per account and UTC day; the ISO-week usage is the sum of that week's days.
CREATE TABLE quota_usage (
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  day         date NOT NULL,
  used        integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day)
);

-- Charges one unit if both windows have room. One statement for the caller, so it is atomic on
-- PGlite (a single connection shared by concurrent requests) and, through the account row lock plus
-- a fresh snapshot per statement inside the function, exact under concurrency on PostgreSQL.
CREATE FUNCTION horizon_charge(p_account uuid, p_day date, p_week_start date)
RETURNS TABLE (admitted boolean, day_used integer, week_used integer, daily_quota integer, weekly_quota integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_daily integer;
  v_weekly integer;
  v_day_used integer;
  v_week_used integer;
BEGIN
  SELECT a.daily_quota, a.weekly_quota INTO v_daily, v_weekly FROM accounts a WHERE a.id = p_account FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown account %', p_account;
  END IF;
  SELECT coalesce(sum(q.used) FILTER (WHERE q.day = p_day), 0), coalesce(sum(q.used), 0)
    INTO v_day_used, v_week_used
    FROM quota_usage q
   WHERE q.account_id = p_account AND q.day >= p_week_start AND q.day < p_week_start + 7;
  IF v_day_used < v_daily AND v_week_used < v_weekly THEN
    INSERT INTO quota_usage AS q (account_id, day, used) VALUES (p_account, p_day, 1)
      ON CONFLICT (account_id, day) DO UPDATE SET used = q.used + 1;
    RETURN QUERY SELECT true, v_day_used + 1, v_week_used + 1, v_daily, v_weekly;
  ELSE
    RETURN QUERY SELECT false, v_day_used, v_week_used, v_daily, v_weekly;
  END IF;
END;
$$;

CREATE TABLE forecast_jobs (
  id           uuid PRIMARY KEY,
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  status       text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  model        text NOT NULL,
  request      jsonb NOT NULL,
  result       jsonb,
  error        jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  expires_at   timestamptz
);
CREATE INDEX forecast_jobs_account_newest ON forecast_jobs (account_id, created_at DESC, id DESC);
CREATE INDEX forecast_jobs_unfinished ON forecast_jobs (status) WHERE status IN ('queued', 'running');
CREATE INDEX forecast_jobs_expiry ON forecast_jobs (expires_at) WHERE expires_at IS NOT NULL;
