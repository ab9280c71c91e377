-- Operator controls: an account can be disabled (its keys then get 403 account_disabled), and a quota
-- of 0 means unlimited (the operator's own hardware needs no cap). Before this, 0 admitted nothing;
-- an account that relied on that is disabled here, so nothing it could not do before becomes possible.
ALTER TABLE accounts ADD COLUMN disabled_at timestamptz;
UPDATE accounts SET disabled_at = now() WHERE daily_quota = 0 OR weekly_quota = 0;

DROP FUNCTION horizon_charge(uuid, date, date, integer);

CREATE FUNCTION horizon_charge(p_account uuid, p_day date, p_week_start date, p_n integer)
RETURNS TABLE (admitted integer, day_used_before integer, week_used_before integer, daily_quota integer, weekly_quota integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_daily integer;
  v_weekly integer;
  v_day_used integer;
  v_week_used integer;
  v_admit integer;
BEGIN
  -- the quotas are read here, under the row lock, on every charge: a change applies to the next request
  SELECT a.daily_quota, a.weekly_quota INTO v_daily, v_weekly FROM accounts a WHERE a.id = p_account FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown account %', p_account;
  END IF;
  SELECT coalesce(sum(q.used) FILTER (WHERE q.day = p_day), 0), coalesce(sum(q.used), 0)
    INTO v_day_used, v_week_used
    FROM quota_usage q
   WHERE q.account_id = p_account AND q.day >= p_week_start AND q.day < p_week_start + 7;
  v_admit := greatest(0, least(p_n,
    CASE WHEN v_daily = 0 THEN p_n ELSE v_daily - v_day_used END,
    CASE WHEN v_weekly = 0 THEN p_n ELSE v_weekly - v_week_used END));
  IF v_admit > 0 THEN
    INSERT INTO quota_usage AS q (account_id, day, used) VALUES (p_account, p_day, v_admit)
      ON CONFLICT (account_id, day) DO UPDATE SET used = q.used + v_admit;
  END IF;
  RETURN QUERY SELECT v_admit, v_day_used, v_week_used, v_daily, v_weekly;
END;
$$;
