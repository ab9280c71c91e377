// The embedded store's quota ledger (src/store/quota-ledger.ts): decisions in memory, units written
// in batches, and a unit always stored before its request may answer. The conformance suite
// (store.conformance.test.ts) holds it to the same exactness as horizon_charge; these check what is
// particular to it: the write is really deferred and batched, it survives a reopen, refunds and
// quota changes apply at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount, setQuotas, accountOverview } from '../src/store/accounts.ts';
import { chargeQuota, chargeQuotaDeferred, refundQuota } from '../src/store/quota.ts';
import { quotaLedger } from '../src/store/quota-ledger.ts';
import { createPostgresDatabase } from './helpers.ts';

const stored = async (database: Database, accountId: string) =>
  Number((await sql<{ used: number }>`SELECT coalesce(sum(used), 0) AS used FROM quota_usage WHERE account_id = ${accountId}::uuid`.execute(database.db)).rows[0].used);

describe('quota ledger (embedded store)', () => {
  it('is used by PGlite only: PostgreSQL is shared by several API processes and keeps horizon_charge', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try { assert.ok(quotaLedger(database.db)); } finally { await database.close(); }
    const pgdb = await createPostgresDatabase();
    const postgres = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused' });
    try { assert.equal(quotaLedger(postgres.db), undefined); } finally { await postgres.close(); await pgdb.drop(); }
  });

  it('decides at once, writes the units of one turn in ONE statement, and persisted() means written', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const account = await createAccount(database.db, { name: 'a', dailyQuota: 100 });
      const statements: string[] = [];
      const pglite = database.pglite!;
      const query = pglite.query.bind(pglite);
      pglite.query = ((text: string, ...rest: unknown[]) => { statements.push(text); return query(text, ...(rest as [])); }) as typeof pglite.query;
      const charges = await Promise.all(Array.from({ length: 20 }, () => chargeQuotaDeferred(database.db, account.id)));
      assert.ok(charges.every((c) => c.decision.admitted));
      assert.deepEqual(charges.map((c) => c.decision.remaining), Array.from({ length: 20 }, (_, i) => 99 - i), 'exact, in arrival order');
      const writesBefore = statements.filter((s) => s.includes('INSERT INTO quota_usage')).length;
      await Promise.all(charges.map((c) => c.persisted()));
      const writes = statements.filter((s) => s.includes('INSERT INTO quota_usage')).length - writesBefore;
      assert.equal(writes, 1, 'twenty units, one write');
      pglite.query = query;
      assert.equal(await stored(database, account.id), 20);
    } finally { await database.close(); }
  });

  it('units answered for survive closing and reopening the store; a refund before the write is never written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'horizon-ledger-'));
    try {
      let database = await openDatabase({ dataDir: dir });
      const account = await createAccount(database.db, { name: 'b', dailyQuota: 5 });
      const decisions = await Promise.all(Array.from({ length: 8 }, () => chargeQuota(database.db, account.id)));
      assert.equal(decisions.filter((d) => d.admitted).length, 5);
      const now = new Date();
      await refundQuota(database.db, account.id, now);
      await database.close();
      database = await openDatabase({ dataDir: dir });
      assert.equal(await stored(database, account.id), 4);
      assert.equal((await accountOverview(database.db, 'b'))?.used_today, 4);
      assert.ok((await chargeQuota(database.db, account.id)).admitted, 'the refunded unit is usable after the reopen');
      assert.equal((await chargeQuota(database.db, account.id)).admitted, false);
      await database.close();
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('a quota change applies to the next charge; the overview counts units still being written', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const account = await createAccount(database.db, { name: 'c', dailyQuota: 2 });
      assert.ok((await chargeQuota(database.db, account.id)).admitted);
      assert.ok((await chargeQuota(database.db, account.id)).admitted);
      assert.equal((await chargeQuota(database.db, account.id)).admitted, false);
      await setQuotas(database.db, account.id, { daily: 3 });
      const pending = await chargeQuotaDeferred(database.db, account.id);
      assert.ok(pending.decision.admitted);
      assert.equal((await accountOverview(database.db, 'c'))?.used_today, 3, 'the overview writes what is pending first');
      await pending.persisted();
      assert.equal((await chargeQuota(database.db, account.id)).admitted, false);
    } finally { await database.close(); }
  });

  /** In a child process: opens the store in `dir`, charges `before` units, writes them (flush), charges
   * `after` more, prints "charged" once every charge has answered, and waits to be killed. */
  async function chargeThenCrash(dir: string, accountId: string, before: number, after: number, rotateBytes?: number): Promise<void> {
    const src = (f: string) => pathToFileURL(join(import.meta.dirname, '..', 'src', 'store', f)).href;
    const script = join(dir, 'charge-then-crash.ts');
    writeFileSync(script, `
      import { openDatabase } from '${src('database.ts')}';
      import { chargeQuota } from '${src('quota.ts')}';
      import { quotaLedger } from '${src('quota-ledger.ts')}';
      const database = await openDatabase({ dataDir: ${JSON.stringify(dir)}, quotaJournal: { flushMs: 3_600_000${rotateBytes ? `, rotateBytes: ${rotateBytes}` : ''} } });
      for (let i = 0; i < ${before}; i++) if (!(await chargeQuota(database.db, '${accountId}')).admitted) throw new Error('refused');
      await quotaLedger(database.db)!.flush();
      for (let i = 0; i < ${after}; i++) if (!(await chargeQuota(database.db, '${accountId}')).admitted) throw new Error('refused');
      console.log('charged');
      setInterval(() => {}, 1000);
    `);
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('charged')) resolve(); });
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before charging`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }

  for (const [label, rotateBytes] of [['', undefined], [', the journal rewritten after each write', 1]] as const) {
    it(`on disk, units answered for survive kill -9 before their batch write, each counted once${label}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'horizon-journal-'));
      let database: Database | undefined;
      try {
        database = await openDatabase({ dataDir: dir });
        const account = await createAccount(database.db, { name: 'j', dailyQuota: 10 });
        await database.close();
        database = undefined;
        // 3 units written to quota_usage, 4 only in the journal when the process dies
        await chargeThenCrash(dir, account.id, 3, 4, rotateBytes);
        const journal = readFileSync(join(dir, 'quota-journal'), 'utf8').trim().split('\n');
        // each charge is a line tagged c and its settlement (chargeQuota settles at once) a line s<seq>;
        // a rewrite keeps only what is not yet written
        const charges = journal.filter((line) => line.endsWith(' c'));
        assert.equal(charges.length, rotateBytes ? 4 : 7, journal.join('|'));
        assert.deepEqual(journal.filter((line) => / s\d+$/.test(line)).map((line) => Number(line.split(' s')[1])), charges.map((line) => Number(line.split(' ')[0])), 'every charge settled');
        const replayed = database = await openDatabase({ dataDir: dir });
        assert.equal(await stored(replayed, account.id), 7, 'replayed: the 4 unwritten units, not the 3 written again');
        assert.equal(readFileSync(join(dir, 'quota-journal'), 'utf8'), '', 'the journal is empty once replayed');
        const decisions = await Promise.all(Array.from({ length: 5 }, () => chargeQuota(replayed.db, account.id)));
        assert.deepEqual(decisions.map((d) => d.admitted), [true, true, true, false, false], 'exactly 3 of 10 left');
        await replayed.close();
        database = undefined;
        const reopened = database = await openDatabase({ dataDir: dir });
        assert.equal(await stored(reopened, account.id), 10, 'a clean close writes everything');
      } finally {
        await database?.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('a charge never settled nor refunded (its answer was never sent) is refunded when the store opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'horizon-journal-'));
    try {
      let database = await openDatabase({ dataDir: dir });
      const account = await createAccount(database.db, { name: 'p', dailyQuota: 10 });
      await database.close();
      // 1 answered (settled), 3 answered by a refund (a 5xx), 4 and 5 in flight when the process died
      const a = `${account.id} 2026-11-25`;
      writeFileSync(join(dir, 'quota-journal'), `1 ${a} 1 c\n2 ${a} 0 s1\n3 ${a} 1 c\n4 ${a} -1 r3\n5 ${a} 1 c\n6 ${a} 1 c\n`);
      database = await openDatabase({ dataDir: dir });
      try {
        assert.equal(await stored(database, account.id), 1, 'only the settled unit stays');
        assert.equal(quotaLedger(database.db)!.recoveredRefunds, 2);
      } finally { await database.close(); }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('a journal line cut short by a crash (its request never answered) is not replayed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'horizon-journal-'));
    try {
      let database = await openDatabase({ dataDir: dir });
      const account = await createAccount(database.db, { name: 't', dailyQuota: 10 });
      await database.close();
      // two whole units, then a refund cut after its sign and a charge cut before its units
      writeFileSync(join(dir, 'quota-journal'), `1 ${account.id} 2026-11-25 1\n2 ${account.id} 2026-11-25 1\n3 ${account.id} 2026-11-25 -\n4 ${account.id} 2026-11`);
      database = await openDatabase({ dataDir: dir });
      try { assert.equal(await stored(database, account.id), 2); } finally { await database.close(); }
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
});
