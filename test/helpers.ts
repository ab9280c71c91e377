// Test fixtures: a real server (real PGlite or PostgreSQL, real Python worker, real HTTP on a free
// port) and small request builders.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { configFromEnv, type Config } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';
import { openDatabase, type Database } from '../src/store/database.ts';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** the bootstrap account's first key */
  key: string;
  /** a fresh account with its own key and quotas */
  newAccount(quotas?: { daily?: number; weekly?: number }): Promise<{ accountId: string; key: string }>;
  request(method: string, path: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<TestResponse>;
}

export interface TestResponse { status: number; headers: Headers; body: any; text: string }

// Every log line of every test server (the control plane's and, relayed, its workers'), and every API
// key this test file saw created: the after-hook below fails the file if any line holds a key's
// secret, so the whole suite checks that keys are never logged (issue 15).
export const capturedLogLines: string[] = [];
export const createdKeys = new Set<string>();
const KEY_SHAPE = /hzn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}/g;
const PINO_LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** The log lines that hold a known key's secret (whole or alone) or anything shaped like a key. */
export function secretsInLogs(lines: readonly string[], keys: Iterable<string>): string[] {
  // hzn_<12-character prefix>_<43-character secret>; the secret may itself hold '_'
  const secrets = [...keys].map((k) => /^hzn_[A-Za-z0-9]{12}_(.+)$/.exec(k)?.[1] ?? k);
  return lines.filter((line) => { KEY_SHAPE.lastIndex = 0; return KEY_SHAPE.test(line) || secrets.some((s) => line.includes(s)); });
}

const openServers = new Set<TestServer>();

after(async () => {
  // servers the file has not closed yet are closed first (their shutdown lines are scanned too, and
  // a failing check must not leave workers running); a second close() is a no-op
  await Promise.all([...openServers].map((s) => s.close()));
  const leaks = secretsInLogs(capturedLogLines, createdKeys);
  assert.deepEqual(leaks, [], `${leaks.length} log line(s) hold an API key secret`);
});

function rememberKeys(value: unknown): void {
  if (typeof value === 'string') for (const m of value.matchAll(KEY_SHAPE)) createdKeys.add(m[0]);
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-test-'));
  if (!env.HORIZON_DATABASE_URL) await seedEmbeddedStore(env.HORIZON_DATA_DIR ?? dataDir);
  // an empty weights directory unless the test gives one (never the checkout's ./models)
  // logs are captured at info (every request line is scanned for secrets); the test's level, warn unless
  // it asks otherwise, decides what is also printed
  const echoLevel = PINO_LEVELS[env.HORIZON_LOG_LEVEL ?? 'warn'] ?? 40;
  const config: Config = { ...configFromEnv({ HORIZON_MODEL_DIR: join(dataDir, 'models'), ...env, HORIZON_LOG_LEVEL: echoLevel < 30 ? env.HORIZON_LOG_LEVEL! : 'info' }), port: 0, host: '127.0.0.1', dataDir: env.HORIZON_DATA_DIR ?? dataDir };
  let printed = '';
  const logStream = {
    write(line: string) {
      capturedLogLines.push(line);
      if (((JSON.parse(line) as { level?: number }).level ?? 30) >= echoLevel) process.stdout.write(line);
    },
  };
  const server = await startServer(config, { print: (line) => { printed += line; }, logStream });
  const key = /hzn_\S+/.exec(printed)?.[0];
  if (!key) throw new Error(`the first start printed no key: ${printed}`);
  createdKeys.add(key);
  const request: TestServer['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.key === undefined ? key : options.key;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) { body = JSON.stringify(options.body); headers['content-type'] ??= 'application/json'; }
    const res = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await res.text();
    rememberKeys(text);
    let parsed: unknown = undefined;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const testServer: TestServer = {
    ...server, dataDir: config.dataDir, key, request,
    async newAccount(quotas = {}) {
      const account = await createAccount(server.database.db, { name: `acct-${randomBytes(6).toString('hex')}`, dailyQuota: quotas.daily, weeklyQuota: quotas.weekly });
      const created = await createApiKey(server.database.db, account.id, 'test');
      createdKeys.add(created.key);
      return { accountId: account.id, key: created.key };
    },
    async close() {
      openServers.delete(testServer);
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  openServers.add(testServer);
  return testServer;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIGRATIONS = join(REPO_ROOT, 'src', 'store', 'migrations');

/** Gives a data dir that has no embedded store yet a new, empty, migrated one, copied from a template made once per
 * checkout (node_modules/.cache/horizon-pglite/<key>/pglite). A new PGlite data dir runs initdb in WebAssembly, ~6 s of
 * CPU against ~1 s to open an existing one, and the suite starts over a hundred servers; the template is made by the
 * production path (openDatabase: initdb, then every migration) and holds no account, so each server's first start
 * (the bootstrap account and key) is still its own. The key is a digest of the migrations and PGlite's version. */
export async function seedEmbeddedStore(dataDir: string): Promise<void> {
  if (dataDir.startsWith('memory://') || existsSync(join(dataDir, 'pglite'))) return;
  const hash = createHash('sha256').update(readFileSync(join(REPO_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  const root = join(REPO_ROOT, 'node_modules', '.cache', 'horizon-pglite');
  const template = join(root, hash.digest('hex').slice(0, 16));
  if (!existsSync(template)) {
    mkdirSync(root, { recursive: true });
    // made beside the cache and renamed into it: a test file starting at the same time never copies half a store
    const fresh = mkdtempSync(join(root, 'making-'));
    try {
      const database = await openDatabase({ dataDir: fresh });
      await database.close();
      rmSync(join(fresh, 'quota-journal'), { recursive: true, force: true });
      try { renameSync(fresh, template); } catch (error) {
        // another test file made it first: the same store
        if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  mkdirSync(dataDir, { recursive: true });
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

/** The two store backends a suite runs against: the embedded PGlite, and a fresh PostgreSQL database. */
export const storeBackends = [
  { name: 'PGlite', async env(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> { return { env: {}, cleanup: async () => {} }; } },
  { name: 'PostgreSQL', async env(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> { const db = await createPostgresDatabase(); return { env: { HORIZON_DATABASE_URL: db.url }, cleanup: () => db.drop() }; } },
];

/** A test server on one of storeBackends, with `env` on top; cleanup drops what the backend made. */
export async function startServerOn(backend: (typeof storeBackends)[number], env: Record<string, string> = {}): Promise<{ server: TestServer; cleanup(): Promise<void> }> {
  const made = await backend.env();
  return { server: await startTestServer({ ...made.env, ...env }), cleanup: made.cleanup };
}

/** The same two stores opened directly, without a server (store and queue suites). */
export const storeDatabases: { name: string; open(): Promise<{ database: Database; cleanup(): Promise<void> }> }[] = [
  { name: 'PGlite', async open() { const database = await openDatabase({ dataDir: 'memory://' }); return { database, cleanup: () => database.close() }; } },
  {
    name: 'PostgreSQL',
    async open() {
      const pgdb = await createPostgresDatabase();
      const database = await openDatabase({ databaseUrl: pgdb.url, dataDir: 'unused' });
      return { database, cleanup: async () => { await database.close(); await pgdb.drop(); } };
    },
  },
];

/** Polls `read` every 100 ms until `done` holds; fails naming `what` and the last value after timeoutMs. */
export async function pollUntil<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 800)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The field errors of a POST /v1/forecast 422 for simpleRequest() changed by `mutate` (a problem+json answer). */
export async function forecastErrors(server: TestServer, mutate: (body: any) => void): Promise<{ series?: number; field: string; reason: string }[]> {
  const body = structuredClone(simpleRequest()) as any;
  mutate(body);
  const res = await server.request('POST', '/v1/forecast', { body });
  assert.equal(res.status, 422, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  return res.body.errors;
}

/** A fresh PostgreSQL database on the local server, dropped by the returned cleanup. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.HORIZON_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `horizon_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      // let connections that are closing finish first: forcing them would make their clients, still
      // in this process, raise 'terminating connection' errors after the test ended
      for (let i = 0; i < 50; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** AirPassengers (monthly, 1949-01 … 1960-12) from the shared datasets. */
export function monthlyDates(start: string, n: number): string[] {
  const [y, m] = start.split('-').map(Number);
  return Array.from({ length: n }, (_, i) => {
    const month = m - 1 + i;
    return `${y + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
  });
}

export function dailyDates(start: string, n: number): string[] {
  const t0 = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(t0 + i * 86_400_000).toISOString().slice(0, 10));
}

export function simpleRequest(overrides: Record<string, unknown> = {}, n = 48): Record<string, unknown> {
  return {
    series: [{ target: Array.from({ length: n }, (_, i) => 100 + 10 * Math.sin((2 * Math.PI * i) / 12) + i), index: monthlyDates('2020-01', n) }],
    horizon: 6, freq: 'MS', model: 'naive',
    ...overrides,
  };
}

/** An hourly series long enough that auto-arima takes a while: keeps the single job slot busy. */
export function slowRequest(n = 120): Record<string, unknown> {
  const index = Array.from({ length: n }, (_, i) => new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 13) + ':00');
  const target = index.map((_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24) + 5 * Math.sin(i / 50) + ((i * 7919) % 13));
  return { series: [{ target, index }], horizon: 48, freq: "H", model: "auto-arima" };
}

export async function waitForJob(server: TestServer, id: string, key: string | undefined, done: (status: string) => boolean, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request('GET', `/v1/forecast-jobs/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    if (done(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}


/** `horizon serve` as its own process on `dataDir` (one job slot); resolves once it listens. For tests
 * that kill the server (kill -9) and start it again on the same store. */
export async function serveProcess(dataDir: string, port: number, env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string }> {
  if (!env.HORIZON_DATABASE_URL) await seedEmbeddedStore(dataDir);
  const child = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', HORIZON_DATA_DIR: dataDir, HORIZON_JOB_CONCURRENCY: '1', HORIZON_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const deadline = Date.now() + 120_000;
  while (!out.includes('horizon: listening on')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // not left behind: its pipes would keep the test process alive
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out };
}
