// Many API replicas on one PostgreSQL: three real `horizon serve` processes (the CLI entry, own
// ports, own local `core` worker) share a fresh database. Quotas stay exact across them, a key
// revoked through one is refused by the others on the next request, and jobs accepted by a replica
// that is killed with -9 are finished by the others, each once.
// Needs HORIZON_TEST_POSTGRES_URL (skipped without it).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { sql } from 'kysely';
import { createPostgresDatabase, simpleRequest, slowRequest } from './helpers.ts';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';

const POSTGRES = process.env.HORIZON_TEST_POSTGRES_URL;


interface Replica { child: ChildProcess; base: string; output: () => string }

/** `horizon serve` as its own process on the shared database; resolves once it listens. */
async function startReplica(databaseUrl: string, dataDir: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', HORIZON_DATABASE_URL: databaseUrl,
      HORIZON_DATA_DIR: join(dataDir, String(port)), HORIZON_MODEL_DIR: join(dataDir, 'models'),
      // statistical models only: three worker processes fit this 2-core test machine
      HORIZON_RUNTIME_GROUPS: 'core', HORIZON_JOB_CONCURRENCY: '5', HORIZON_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const deadline = Date.now() + 180_000;
  while (!out.includes('horizon: listening on')) {
    if (child.exitCode !== null) throw new Error(`replica exited (${child.exitCode}): ${out}`);
    if (Date.now() > deadline) throw new Error(`replica did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base: `http://127.0.0.1:${port}`, output: () => out };
}

async function call(replica: Replica, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${replica.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** An hourly auto-arima job: seconds of work, long enough to be caught running. */
const slowJob = () => slowRequest();

describe('API replicas on one PostgreSQL', { skip: POSTGRES ? false : 'HORIZON_TEST_POSTGRES_URL is not set' }, () => {
  let pgdb: { url: string; drop(): Promise<void> };
  let database: Database;
  let replicas: Replica[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-replicas-'));

  before(async () => {
    pgdb = await createPostgresDatabase();
    // started together on the empty database: migrations, pg-boss's schema and the first account race
    replicas = await Promise.all([0, 1, 2].map(() => startReplica(pgdb.url, dataDir)));
    assert.equal(replicas.filter((r) => /hzn_\S+/.test(r.output())).length, 1, 'exactly one replica created the first account and printed its key');
    database = await openDatabase({ databaseUrl: pgdb.url, dataDir });
  });

  after(async () => {
    for (const r of replicas) {
      if (r.child.exitCode !== null || r.child.signalCode !== null) continue;
      r.child.kill('SIGCONT');
      r.child.kill('SIGTERM');
      await new Promise((resolve) => r.child.once('exit', resolve));
    }
    await database?.close();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function account(daily: number): Promise<{ accountId: string; key: string }> {
    const created = await createAccount(database.db, { name: `acct-${Math.random().toString(36).slice(2)}`, dailyQuota: daily, weeklyQuota: 10_000 });
    return { accountId: created.id, key: (await createApiKey(database.db, created.id, 'first')).key };
  }

  it('quotas are exact across replicas: 60 concurrent charged requests with 20 left admit exactly 20', async () => {
    const { accountId, key } = await account(30);
    for (let i = 0; i < 10; i++) {
      const res = await call(replicas[i % 3], 'POST', '/v1/forecast', key, simpleRequest());
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => call(replicas[i % 3], 'POST', '/v1/forecast', key, simpleRequest())));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 20, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 429).length, 40, `statuses: ${statuses.join(',')}`);
    for (const r of results.filter((x) => x.status === 429)) {
      assert.equal(r.body.code, 'quota_exceeded');
      assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    }
    const { rows } = await sql<{ used: number }>`SELECT used FROM quota_usage WHERE account_id = ${accountId}::uuid`.execute(database.db);
    assert.deepEqual(rows.map((r) => r.used), [30]);
    // every replica took part in the race
    for (let k = 0; k < 3; k++) assert.ok(results.some((r, i) => i % 3 === k && (r.status === 200 || r.status === 429)));
  });

  it('a key revoked through one replica is 401 on every other replica on the next request', async () => {
    const { accountId, key } = await account(1000);
    const second = await createApiKey(database.db, accountId, 'second');
    // the key has been seen by every replica (any per-process cache would hold it now)
    for (const r of replicas) assert.equal((await call(r, 'GET', '/v1/forecast-jobs?limit=1', second.key)).status, 200);
    const revoked = await call(replicas[0], 'DELETE', `/v1/api-keys/${second.id}`, key);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    for (const r of [replicas[1], replicas[2], replicas[0]]) {
      const res = await call(r, 'GET', '/v1/forecast-jobs?limit=1', second.key);
      assert.equal(res.status, 401, `${r.base}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'unauthorized');
    }
    // the other key of the account is untouched
    for (const r of replicas) assert.equal((await call(r, 'GET', '/v1/forecast-jobs?limit=1', key)).status, 200);
  });

  it('kill -9 of the replica running 5 jobs: the other replicas finish all 5, each once, with a result', async () => {
    const { key } = await account(1000);
    const [victim, ...survivors] = replicas;
    // the survivors are paused while the jobs are handed out, so that the victim claims all five
    for (const r of survivors) r.child.kill('SIGSTOP');
    let ids: string[] = [];
    try {
      ids = await Promise.all(Array.from({ length: 5 }, async () => {
        const res = await call(victim, 'POST', '/v1/forecast-jobs', key, slowJob());
        assert.equal(res.status, 202, JSON.stringify(res.body));
        return res.body.job_id as string;
      }));
      const deadline = Date.now() + 60_000;
      let states: string[] = [];
      while (Date.now() < deadline) {
        states = await Promise.all(ids.map(async (id) => (await call(victim, 'GET', `/v1/forecast-jobs/${id}`, key)).body.status as string));
        if (states.every((s) => s === 'running')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(states, ids.map(() => 'running'), 'all five run on the victim when it is killed');
      victim.child.kill('SIGKILL');
      await new Promise((r) => victim.child.once('exit', r));
    } finally {
      for (const r of survivors) r.child.kill('SIGCONT');
    }

    const until = Date.now() + 240_000;
    let jobs: any[] = [];
    while (Date.now() < until) {
      jobs = await Promise.all(ids.map(async (id, i) => (await call(survivors[i % 2], 'GET', `/v1/forecast-jobs/${id}`, key)).body));
      if (jobs.every((j) => j.status !== 'queued' && j.status !== 'running')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(jobs.map((j) => j.status), ids.map(() => 'completed'), JSON.stringify(jobs.map((j) => ({ status: j.status, attempts: j.attempts, error: j.error }))));
    for (const job of jobs) {
      // one delivery on the victim, exactly one more on a survivor
      assert.equal(job.attempts, 2, JSON.stringify({ id: job.job_id, attempts: job.attempts }));
      assert.equal(job.series.length, 1);
      for (const s of job.series) assert.equal(s[0].prediction.mean.length, 48);
    }
  });
});
