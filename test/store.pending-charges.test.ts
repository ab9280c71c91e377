// Pending charges on PostgreSQL (migration 008, src/store/pending-charges.ts): what recovery refunds and
// what it keeps, a settlement after recovery (its answer was given: charged again), a settlement the
// database refuses (retried at the next renewal, once), a refund after a settlement whose answer was not sent,
// and a shutdown refund that fails (its rows stay for recovery).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount } from '../src/store/accounts.ts';
import { chargeQuotaDeferred, quotaWindows } from '../src/store/quota.ts';
import { pendingCharges, recoverCharges } from '../src/store/pending-charges.ts';
import { createPostgresDatabase, pollUntil } from './helpers.ts';

describe('pending charges (PostgreSQL)', () => {
  let pgdb: { url: string; drop(): Promise<void> };
  let a: Database;
  let b: Database;
  before(async () => {
    pgdb = await createPostgresDatabase();
    // two API processes on one database: a and b
    a = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused', instanceLeaseSeconds: 1 });
    b = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused', instanceLeaseSeconds: 1 });
  });
  after(async () => { await a.close(); await b.close(); await pgdb.drop(); });

  const used = async (db: Database, accountId: string) => Number((await sql<{ n: string }>`SELECT coalesce(sum(used), 0) AS n FROM quota_usage WHERE account_id = ${accountId}::uuid AND day = ${quotaWindows(new Date()).day}::date`.execute(db.db)).rows[0].n);

  it('recovery refunds a dead process\'s unsettled units, keeps its settled ones; a settlement after recovery charges again', async () => {
    const account = await createAccount(a.db, { name: 'dead-replica' });
    const charges = await Promise.all(Array.from({ length: 4 }, () => chargeQuotaDeferred(a.db, account.id)));
    await charges[0].unit!.settle();
    await charges[1].unit!.settle();
    assert.equal(await used(a, account.id), 4);
    // a stops renewing (as if killed): its lease lapses and b's recovery takes over
    const registryA = pendingCharges(a.db)!;
    clearInterval((registryA as unknown as { timer: NodeJS.Timeout }).timer);
    await sql`UPDATE api_instances SET heartbeat_at = now() - interval '1 minute' WHERE id = ${registryA.instanceId}::uuid`.execute(b.db);
    // b's own renewals recover too: whichever runs first, the units are back once this returns
    await recoverCharges(b.db, 1);
    assert.equal(await used(b, account.id), 2, 'the two answered units stay');
    // a was alive after all (a stalled loop, a partition): its answer went out, so its unit counts again
    const again = registryA.chargedAgain;
    await charges[2].unit!.settle();
    assert.equal(registryA.chargedAgain, again + 1);
    assert.equal(await used(b, account.id), 3, 'the answer given after recovery is charged again');
    await charges[3].unit!.refund();
    assert.equal(await used(b, account.id), 3, 'refunding a unit recovery already refunded gives nothing back twice');
    await registryA.start(); // a comes back (new lease row)
  });

  it('a refund after a settlement whose answer was not sent gives the unit back; twice is once', async () => {
    const account = await createAccount(a.db, { name: 'unsent' });
    const { unit } = await chargeQuotaDeferred(a.db, account.id);
    // the settlement committed, but (say) its result was lost with the connection: the answer is not sent
    await sql`UPDATE pending_charges SET settled = true WHERE account_id = ${account.id}::uuid`.execute(a.db);
    await unit!.refund();
    await unit!.refund();
    assert.equal(await used(a, account.id), 0);
  });

  it('a settlement the database refuses is retried at the next renewal, and counted once', async () => {
    const account = await createAccount(a.db, { name: 'settle-retry' });
    const { unit } = await chargeQuotaDeferred(a.db, account.id);
    const registry = pendingCharges(a.db)!;
    // the database refuses the settlement (as when it is down): the answer is out, so it is owed
    await sql`CREATE FUNCTION pg_temp_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'down'; END $$`.execute(b.db);
    await sql`CREATE TRIGGER refuse BEFORE UPDATE ON pending_charges FOR EACH ROW EXECUTE FUNCTION pg_temp_refuse()`.execute(b.db);
    try {
      await unit!.settle(); // never rejects: the answer was given
      const row = await sql<{ settled: boolean }>`SELECT settled FROM pending_charges WHERE account_id = ${account.id}::uuid`.execute(b.db);
      assert.deepEqual(row.rows.map((r) => r.settled), [false], 'not settled yet');
    } finally {
      await sql`DROP TRIGGER refuse ON pending_charges`.execute(b.db);
      await sql`DROP FUNCTION pg_temp_refuse()`.execute(b.db);
    }
    await registry.renew();
    await registry.renew();
    const row = await sql<{ settled: boolean }>`SELECT settled FROM pending_charges WHERE account_id = ${account.id}::uuid`.execute(b.db);
    assert.deepEqual(row.rows.map((r) => r.settled), [true], 'the renewal settled it');
    assert.equal(await used(a, account.id), 1, 'one unit, not refunded, not charged again');
  });

  it('a graceful stop keeps the units whose answers were sent just before it (their settlements still in flight)', async () => {
    const c = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused', instanceLeaseSeconds: 1 });
    const account = await createAccount(c.db, { name: 'stopping' });
    const charges = await Promise.all(Array.from({ length: 5 }, () => chargeQuotaDeferred(c.db, account.id)));
    // their rows are locked (a slow database): the settlements wait, and so would a refund of them
    const locker = new pg.Client({ connectionString: pgdb.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM pending_charges WHERE account_id = $1 FOR UPDATE', [account.id]);
    for (const { unit } of charges.slice(0, 3)) void unit!.settle(); // three answers went out; two never will
    await new Promise((r) => setTimeout(r, 100));
    const closing = c.close(); // stop(): refunds what is pending, once the settlements are done
    await new Promise((r) => setTimeout(r, 200));
    await locker.query('COMMIT');
    await locker.end();
    await closing;
    assert.equal(await used(a, account.id), 3);
  });

  // cancelled: the statement fails and the connection stays, so the next statement of stop() runs (the old code deleted
  // the rows there); killed: the pool hands the dead connection on, so that statement fails too
  for (const [how, stopper] of [['cancelled', 'pg_cancel_backend'], ['killed', 'pg_terminate_backend']] as const) {
    it(`a shutdown refund that fails (${how}) leaves its rows, and recovery refunds the units`, async () => {
      const c = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused', instanceLeaseSeconds: 1 });
      const account = await createAccount(c.db, { name: `refund-${how}` });
      const charges = await Promise.all(Array.from({ length: 3 }, () => chargeQuotaDeferred(c.db, account.id)));
      await charges[0].unit!.settle(); // one answer went out; two never will
      // the rows are locked, so the shutdown refund waits on them, and is stopped there
      const locker = new pg.Client({ connectionString: pgdb.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM pending_charges WHERE account_id = $1 FOR UPDATE', [account.id]);
      const closing = c.close();
      // seen from another session: the locker's transaction keeps one snapshot of pg_stat_activity
      const refund = await pollUntil('the shutdown refund waiting on the locked rows', async () => (await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
        WHERE query LIKE 'SELECT horizon_refund_pending%' AND wait_event_type = 'Lock'`.execute(a.db)).rows, (rows) => rows.length === 1);
      await locker.query(`SELECT ${stopper}($1)`, [refund[0].pid]);
      await new Promise((r) => setTimeout(r, 200)); // what stop() runs next reaches the locked rows too
      await locker.query('COMMIT');
      await locker.end();
      await closing;
      // c's lease row is gone (or lapses): recovery, by a's and b's renewals or this call, refunds the unsettled units
      await recoverCharges(a.db, 1);
      await pollUntil('recovery refunding the two unanswered units', () => used(a, account.id), (n) => n === 1, 10_000);
    });
  }
});
