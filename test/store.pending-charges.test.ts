// Pending charges on PostgreSQL (migration 008, src/store/pending-charges.ts): what recovery refunds and
// what it keeps, a settlement after recovery, and a refund after a settlement whose answer was not sent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount } from '../src/store/accounts.ts';
import { chargeQuotaDeferred, quotaWindows } from '../src/store/quota.ts';
import { ChargeLostError, pendingCharges, recoverCharges } from '../src/store/pending-charges.ts';
import { createPostgresDatabase } from './helpers.ts';

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

  it('recovery refunds a dead process\'s unsettled units, keeps its settled ones; a settlement after recovery fails', async () => {
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
    await assert.rejects(charges[2].unit!.settle(), ChargeLostError, 'its unit is gone: the answer must not be sent');
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
});
