// One conformance suite that every store backend must pass: embedded PGlite and PostgreSQL.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount, findAccountByName, setQuotas, updateAccount, listAccounts, accountOverview, AccountExistsError } from '../src/store/accounts.ts';
import { createApiKey, authenticateKey, revokeApiKey, listApiKeys, DuplicateKeyNameError } from '../src/store/api-keys.ts';
import { chargeQuota, refundQuota, quotaWindows } from '../src/store/quota.ts';
import { insertJob, getAccountJob, listAccountJobs, cancelAccountJob, markRunning, finishJob, deleteExpiredJobs } from '../src/store/jobs.ts';
import { JobQueue } from '../src/jobs/queue.ts';
import { HorizonError } from '../src/errors.ts';
import { storeDatabases } from './helpers.ts';


for (const backend of storeDatabases) {
  describe(`store conformance: ${backend.name}`, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    before(async () => ({ database, cleanup } = await backend.open()));
    after(async () => cleanup());

    it('migrations are idempotent (re-opening runs nothing twice)', async () => {
      const { migrate } = await import('../src/store/database.ts');
      await migrate(database);
      const rows = await sql<{ name: string }>`SELECT name FROM horizon_migrations`.execute(database.db);
      // every file of src/store/migrations, once each, in name order (concurrent work adds files)
      const files = readdirSync(new URL('../src/store/migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort().map((f) => f.replace(/\.sql$/, ''));
      assert.ok(files.includes('008_pending_charges'));
      assert.deepEqual(rows.rows.map((r) => r.name), files);
    });

    it('accounts: unique names, default quotas 200/1000', async () => {
      const account = await createAccount(database.db, { name: 'acme' });
      assert.equal(account.daily_quota, 200);
      assert.equal(account.weekly_quota, 1000);
      await assert.rejects(createAccount(database.db, { name: 'acme' }), AccountExistsError);
      assert.equal((await findAccountByName(database.db, 'acme'))?.id, account.id);
    });

    it('API keys: only a hash is stored; authenticate, revoke, name reuse after revoke', async () => {
      const account = await createAccount(database.db, { name: 'keys' });
      const key = await createApiKey(database.db, account.id, 'ci');
      assert.match(key.key, /^hzn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
      const stored = await sql<{ key_hash: Uint8Array; prefix: string }>`SELECT key_hash, prefix FROM api_keys WHERE id = ${key.id}`.execute(database.db);
      assert.ok(!Buffer.from(stored.rows[0].key_hash).toString('latin1').includes(key.key.slice(18)), 'the secret is not stored');
      assert.equal(Buffer.from(stored.rows[0].key_hash).length, 32);
      assert.deepEqual(await authenticateKey(database.db, key.key), { keyId: key.id, accountId: account.id });
      assert.equal(await authenticateKey(database.db, key.key.slice(0, -1) + (key.key.endsWith('A') ? 'B' : 'A')), undefined, 'one wrong character');
      assert.equal(await authenticateKey(database.db, 'hzn_short'), undefined);
      await assert.rejects(createApiKey(database.db, account.id, 'ci'), DuplicateKeyNameError);
      assert.ok(await revokeApiKey(database.db, account.id, key.id));
      assert.equal(await authenticateKey(database.db, key.key), undefined, 'revoked');
      assert.equal(await revokeApiKey(database.db, account.id, key.id), undefined, 'already revoked');
      const again = await createApiKey(database.db, account.id, 'ci');
      assert.ok(await authenticateKey(database.db, again.key));
      const listed = await listApiKeys(database.db, account.id);
      assert.equal(listed.length, 2);
      assert.ok(listed.every((k) => !('key' in k) && !('key_hash' in k)));
    });

    it('quota: 50 concurrent charges with 10 left admit exactly 10', async () => {
      const account = await createAccount(database.db, { name: 'burst', dailyQuota: 10 });
      const decisions = await Promise.all(Array.from({ length: 50 }, () => chargeQuota(database.db, account.id)));
      assert.equal(decisions.filter((d) => d.admitted).length, 10);
      assert.equal(decisions.filter((d) => !d.admitted).length, 40);
      assert.ok(decisions.filter((d) => !d.admitted).every((d) => d.exhausted === 'daily' && d.remaining === 0));
    });

    it('quota: exact across separate connection pools too (as with several API processes)', async (t) => {
      if (database.kind !== 'postgres') return t.skip('PGlite is a single process\'s store');
      const account = await createAccount(database.db, { name: 'pools', dailyQuota: 10 });
      const others = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: database.connectionString, dataDir: 'unused' })));
      try {
        const dbs = [database, ...others];
        const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => chargeQuota(dbs[i % dbs.length].db, account.id)));
        assert.equal(decisions.filter((d) => d.admitted).length, 10);
      } finally { await Promise.all(others.map((o) => o.close())); }
    });

    it('quota: the weekly window sums the days of the ISO week; refund gives a unit back', async () => {
      const account = await createAccount(database.db, { name: 'weekly', dailyQuota: 5, weeklyQuota: 7 });
      const wednesday = new Date('2026-11-18T12:00:00Z');
      const w = quotaWindows(wednesday);
      assert.equal(w.weekStart, '2026-11-16');
      assert.equal(w.day, '2026-11-18');
      assert.equal(w.dayResetsAt, Date.parse('2026-11-19T00:00:00Z') / 1000);
      assert.equal(w.weekResetsAt, Date.parse('2026-11-23T00:00:00Z') / 1000);
      // Monday: the daily window binds first
      const monday = new Date('2026-11-16T08:00:00Z');
      for (let i = 0; i < 5; i++) assert.ok((await chargeQuota(database.db, account.id, monday)).admitted);
      const refusedMonday = await chargeQuota(database.db, account.id, monday);
      assert.equal(refusedMonday.exhausted, 'daily');
      assert.equal(refusedMonday.retryAfterSeconds, 16 * 3600);
      // Wednesday: 2 more fit the week, then the weekly window is exhausted
      assert.ok((await chargeQuota(database.db, account.id, wednesday)).admitted);
      const last = await chargeQuota(database.db, account.id, wednesday);
      assert.ok(last.admitted);
      assert.equal(last.remaining, 0);
      assert.equal(last.limit, 7, 'the binding window is the week');
      assert.equal(last.reset, w.weekResetsAt);
      const refused = await chargeQuota(database.db, account.id, wednesday);
      assert.equal(refused.admitted, false);
      assert.equal(refused.exhausted, 'weekly');
      assert.equal(refused.reset, w.weekResetsAt);
      await refundQuota(database.db, account.id, wednesday);
      assert.ok((await chargeQuota(database.db, account.id, wednesday)).admitted, 'the refunded unit is usable again');
      // the next ISO week starts from zero
      assert.ok((await chargeQuota(database.db, account.id, new Date('2026-11-23T00:00:01Z'))).admitted);
      // 0 = unlimited (migration 004): the daily window no longer binds, the weekly one does
      await setQuotas(database.db, account.id, { daily: 0 });
      const unlimitedDay = await chargeQuota(database.db, account.id, new Date('2026-11-24T00:00:01Z'));
      assert.ok(unlimitedDay.admitted);
      assert.equal(unlimitedDay.limit, 7, 'the weekly window binds');
    });

    it('accounts: update quotas and state by name, list with the usage of the current windows, disabled keys flagged', async () => {
      const account = await createAccount(database.db, { name: 'controlled', dailyQuota: 1, weeklyQuota: 3 });
      const key = await createApiKey(database.db, account.id, 'k');
      const now = new Date('2026-11-18T12:00:00Z');
      assert.ok((await chargeQuota(database.db, account.id, new Date('2026-11-17T12:00:00Z'))).admitted);
      assert.ok((await chargeQuota(database.db, account.id, now)).admitted);
      assert.equal((await chargeQuota(database.db, account.id, now)).admitted, false);
      const overview = (await listAccounts(database.db, now)).find((a) => a.name === 'controlled')!;
      assert.deepEqual([overview.used_today, overview.used_this_week, overview.disabled_at], [1, 2, null]);
      assert.equal((await accountOverview(database.db, 'controlled', new Date('2026-11-23T12:00:00Z')))?.used_this_week, 0, 'a new ISO week');

      const raised = await updateAccount(database.db, 'controlled', { dailyQuota: 2 });
      assert.deepEqual([raised?.daily_quota, raised?.weekly_quota], [2, 3], 'only the given field changes');
      assert.ok((await chargeQuota(database.db, account.id, now)).admitted, 'the raised quota applies to the next charge');
      await updateAccount(database.db, 'controlled', { dailyQuota: 0, weeklyQuota: 0 });
      const unlimited = await Promise.all(Array.from({ length: 20 }, () => chargeQuota(database.db, account.id, now)));
      assert.ok(unlimited.every((d) => d.admitted && d.limit === Infinity));
      assert.equal(await updateAccount(database.db, 'nobody', { dailyQuota: 1 }), undefined);

      const disabled = await updateAccount(database.db, 'controlled', { disabled: true });
      assert.ok(disabled?.disabled_at instanceof Date);
      assert.deepEqual(await authenticateKey(database.db, key.key), { keyId: key.id, accountId: account.id, disabled: true });
      const again = await updateAccount(database.db, 'controlled', { disabled: true });
      assert.equal(again?.disabled_at?.getTime(), disabled?.disabled_at?.getTime(), 'disabling twice keeps the first date');
      assert.equal((await updateAccount(database.db, 'controlled', { disabled: false }))?.disabled_at, null);
      assert.deepEqual(await authenticateKey(database.db, key.key), { keyId: key.id, accountId: account.id });
    });

    it('jobs: scoped to the account, newest first with a cursor, cancel only while unfinished', async () => {
      const a = await createAccount(database.db, { name: 'jobs-a' });
      const b = await createAccount(database.db, { name: 'jobs-b' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await insertJob(database.db, { id: randomUUID(), accountId: a.id, model: 'naive', request: { i } })).id);
        await new Promise((r) => setTimeout(r, 2));
      }
      assert.equal(await getAccountJob(database.db, b.id, ids[0]), undefined, 'another account cannot see it');
      const first = await listAccountJobs(database.db, a.id, { limit: 2 });
      assert.deepEqual(first.jobs.map((j) => j.id), [ids[4], ids[3]]);
      const second = await listAccountJobs(database.db, a.id, { limit: 2, after: first.next });
      assert.deepEqual(second.jobs.map((j) => j.id), [ids[2], ids[1]]);
      const third = await listAccountJobs(database.db, a.id, { limit: 2, after: second.next });
      assert.deepEqual(third.jobs.map((j) => j.id), [ids[0]]);
      assert.equal(third.next, undefined);
      assert.ok(await markRunning(database.db, ids[0]));
      assert.ok(await finishJob(database.db, ids[0], { status: 'completed', result: { ok: 1 } }, 60));
      assert.equal((await cancelAccountJob(database.db, a.id, ids[0], 60)).cancelled, false, 'finished jobs stay finished');
      assert.equal((await cancelAccountJob(database.db, b.id, ids[1], 60)).job, undefined, 'not the account\'s job');
      assert.equal((await cancelAccountJob(database.db, a.id, ids[1], 60)).cancelled, true);
      assert.equal(await finishJob(database.db, ids[1], { status: 'completed', result: {} }, 60), false, 'a cancelled job is not overwritten');
      assert.equal(await markRunning(database.db, ids[1]), false);
      assert.deepEqual((await getAccountJob(database.db, a.id, ids[0]))?.result, { ok: 1 });
      for (const id of ids.slice(2)) await cancelAccountJob(database.db, a.id, id, 60); // leave no unfinished rows behind
    });

    it('jobs: finished jobs are kept for their TTL, then swept; unfinished ones never', async () => {
      const account = await createAccount(database.db, { name: 'ttl' });
      const done = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: {} });
      const open = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: {} });
      await finishJob(database.db, done.id, { status: 'completed', result: {} }, 60);
      await deleteExpiredJobs(database.db, new Date(Date.now() + 30_000));
      assert.ok(await getAccountJob(database.db, account.id, done.id), 'kept within the TTL');
      assert.ok((await deleteExpiredJobs(database.db, new Date(Date.now() + 61_000))) >= 1);
      assert.equal(await getAccountJob(database.db, account.id, done.id), undefined, 'swept after the TTL');
      assert.ok(await getAccountJob(database.db, account.id, open.id), 'a queued job is never swept');
      await cancelAccountJob(database.db, account.id, open.id, 60);
    });

    it('jobs: each kind\'s reads see only that kind (forecast by default); a cross-validation job keeps its models', async () => {
      const account = await createAccount(database.db, { name: 'kinds' });
      const models = [{ model: 'naive', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' }];
      const forecast = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: {} });
      const cv = await insertJob(database.db, { id: randomUUID(), accountId: account.id, kind: 'cross-validation', model: 'naive,seasonal-naive', models, request: {} });
      assert.equal(forecast.kind, 'forecast');
      assert.equal(forecast.models, null);
      assert.deepEqual(cv.models, models);
      assert.equal(await getAccountJob(database.db, account.id, cv.id), undefined, 'not a forecast job');
      assert.equal((await getAccountJob(database.db, account.id, cv.id, 'cross-validation'))?.kind, 'cross-validation');
      assert.equal(await getAccountJob(database.db, account.id, forecast.id, 'cross-validation'), undefined);
      assert.deepEqual((await listAccountJobs(database.db, account.id, { limit: 10 })).jobs.map((j) => j.id), [forecast.id]);
      assert.deepEqual((await listAccountJobs(database.db, account.id, { limit: 10, kind: 'cross-validation' })).jobs.map((j) => j.id), [cv.id]);
      assert.equal((await cancelAccountJob(database.db, account.id, cv.id, 60)).job, undefined, 'the forecast route cannot cancel it');
      assert.equal((await cancelAccountJob(database.db, account.id, cv.id, 60, 'cross-validation')).cancelled, true);
      await cancelAccountJob(database.db, account.id, forecast.id, 60);
    });

    it('queue: delivers stored jobs, retries transient failures, fails after the limit, reconciles lost ones', async () => {
      const account = await createAccount(database.db, { name: 'queue' });
      const queue = new JobQueue(database, { retryLimit: 1, concurrency: 2, resultTtlSeconds: 60, superviseIntervalSeconds: 1 });
      await queue.start();
      const ok = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: { kind: 'ok' } });
      const flaky = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: { kind: 'flaky' } });
      const dead = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: { kind: 'dead' } });
      const broken = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: { kind: 'broken' } });
      // `lost` is stored but never enqueued, as after a crash between insert and enqueue
      const lost = await insertJob(database.db, { id: randomUUID(), accountId: account.id, model: 'naive', request: { kind: 'ok' } });
      const calls = new Map<string, number>();
      await queue.consume(async (request) => {
        const kind = (request as { kind: string }).kind;
        calls.set(kind, (calls.get(kind) ?? 0) + 1);
        if (kind === 'flaky' && calls.get(kind) === 1) throw new HorizonError('no_worker', 'worker gone');
        if (kind === 'dead') throw new HorizonError('no_worker', 'worker gone');
        if (kind === 'broken') throw new HorizonError('inference_failed', 'the model failed: singular matrix');
        return { kind };
      });
      for (const job of [ok, flaky, dead, broken]) await queue.enqueue(job.id);
      await queue.enqueue(ok.id); // idempotent
      assert.deepEqual(await queue.reconcile(), { enqueued: 1, failed: 0 });
      const deadline = Date.now() + 30_000;
      const state = async (id: string) => (await getAccountJob(database.db, account.id, id))!;
      while (Date.now() < deadline) {
        const states = await Promise.all([ok, flaky, dead, broken, lost].map((j) => state(j.id)));
        if (states.every((s) => s.status === 'completed' || s.status === 'failed')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await queue.stop();
      assert.equal((await state(ok.id)).status, 'completed');
      assert.equal((await state(lost.id)).status, 'completed');
      assert.deepEqual((await state(flaky.id)).result, { kind: 'flaky' });
      assert.equal((await state(flaky.id)).attempts, 2);
      const deadRow = await state(dead.id);
      assert.equal(deadRow.status, 'failed');
      assert.match((deadRow.error as { detail: string }).detail, /gave up after 2 attempts/);
      const brokenRow = await state(broken.id);
      assert.equal(brokenRow.status, 'failed');
      assert.equal(calls.get('broken'), 1, 'a model failure is not retried');
      assert.deepEqual(brokenRow.error, { code: 'inference_failed', detail: 'the model failed: singular matrix' });
      assert.equal(calls.get('ok'), 2, 'the duplicate enqueue delivered once; the lost job once');
    });
  });
}
