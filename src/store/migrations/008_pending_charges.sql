-- Crash-exact quotas on PostgreSQL (issue 24): a charged unit stays *pending* until its answer is sent
-- (or its job is stored); a process that dies with pending units has them refunded by any other API
-- process, or by itself at its next start, once its lease (api_instances.heartbeat_at) has lapsed.
-- So usage equals the answers actually given, also after a kill -9. The embedded store does the same
-- in its quota journal (src/store/quota-ledger.ts) and uses none of this.
CREATE TABLE api_instances (
  id            uuid PRIMARY KEY,
  started_at    timestamptz NOT NULL DEFAULT now(),
  heartbeat_at  timestamptz NOT NULL DEFAULT now()
);

-- one row per charged unit of a live process; settling marks it (its answer is going out), a refund
-- deletes it and gives the unit back in one statement. A settled row stays a while: if the settlement's
-- outcome was lost with the connection, the answer is not sent and the refund still finds the row.
-- Recovery refunds a dead process's unsettled rows and drops its settled ones.
CREATE TABLE pending_charges (
  id           bigserial PRIMARY KEY,
  instance_id  uuid NOT NULL,
  account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  day          date NOT NULL,
  settled      boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_charges_instance ON pending_charges (instance_id);

-- horizon_charge (migration 004) plus one pending row per admitted unit, in the same transaction: a
-- crash can never leave a unit charged without its pending row
CREATE FUNCTION horizon_charge_pending(p_account uuid, p_day date, p_week_start date, p_n integer, p_instance uuid)
RETURNS TABLE (admitted integer, day_used_before integer, week_used_before integer, daily_quota integer, weekly_quota integer, charge_ids bigint[])
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_ids bigint[];
BEGIN
  SELECT * INTO r FROM horizon_charge(p_account, p_day, p_week_start, p_n);
  IF r.admitted > 0 THEN
    WITH made AS (
      INSERT INTO pending_charges (instance_id, account_id, day)
        SELECT p_instance, p_account, p_day FROM generate_series(1, r.admitted)
        RETURNING id)
    SELECT array_agg(id ORDER BY id) INTO v_ids FROM made;
  END IF;
  RETURN QUERY SELECT r.admitted, r.day_used_before, r.week_used_before, r.daily_quota, r.weekly_quota, coalesce(v_ids, '{}'::bigint[]);
END;
$$;

-- gives back the units of the charges `p_ids` that still have a row (settled or not: a settlement whose
-- answer was not sent is undone too); returns how many
CREATE FUNCTION horizon_refund_pending(p_ids bigint[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_n integer;
BEGIN
  WITH gone AS (DELETE FROM pending_charges WHERE id = ANY(p_ids) RETURNING account_id, day),
       per_day AS (SELECT account_id, day, count(*)::integer AS n FROM gone GROUP BY account_id, day),
       given_back AS (UPDATE quota_usage q SET used = greatest(0, q.used - p.n) FROM per_day p
                       WHERE q.account_id = p.account_id AND q.day = p.day RETURNING p.n)
  SELECT coalesce(sum(n), 0)::integer INTO v_n FROM given_back;
  RETURN v_n;
END;
$$;

-- recovery: instances whose lease lapsed are gone, and every unsettled charge of an instance that is
-- gone is refunded; returns the number of units given back
CREATE FUNCTION horizon_recover_charges(p_lease interval)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
BEGIN
  DELETE FROM api_instances WHERE heartbeat_at < now() - p_lease;
  -- their answers went out: the units stay
  DELETE FROM pending_charges p WHERE p.settled AND NOT EXISTS (SELECT 1 FROM api_instances i WHERE i.id = p.instance_id);
  SELECT array_agg(p.id) INTO v_ids FROM pending_charges p
   WHERE NOT p.settled AND NOT EXISTS (SELECT 1 FROM api_instances i WHERE i.id = p.instance_id);
  IF v_ids IS NULL THEN
    RETURN 0;
  END IF;
  RETURN horizon_refund_pending(v_ids);
END;
$$;
