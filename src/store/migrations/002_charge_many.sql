-- Charges up to p_n units in one call: concurrent requests of one account are charged together
-- (group commit), still exact: the account row lock serialises callers and at most the room left
-- in both windows is admitted.
DROP FUNCTION horizon_charge(uuid, date, date);

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
  SELECT a.daily_quota, a.weekly_quota INTO v_daily, v_weekly FROM accounts a WHERE a.id = p_account FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown account %', p_account;
  END IF;
  SELECT coalesce(sum(q.used) FILTER (WHERE q.day = p_day), 0), coalesce(sum(q.used), 0)
    INTO v_day_used, v_week_used
    FROM quota_usage q
   WHERE q.account_id = p_account AND q.day >= p_week_start AND q.day < p_week_start + 7;
  v_admit := greatest(0, least(p_n, v_daily - v_day_used, v_weekly - v_week_used));
  IF v_admit > 0 THEN
    INSERT INTO quota_usage AS q (account_id, day, used) VALUES (p_account, p_day, v_admit)
      ON CONFLICT (account_id, day) DO UPDATE SET used = q.used + v_admit;
  END IF;
  RETURN QUERY SELECT v_admit, v_day_used, v_week_used, v_daily, v_weekly;
END;
$$;
