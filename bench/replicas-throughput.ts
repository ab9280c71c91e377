// Requests/s of POST /v1/forecast (model `naive`) through 1, 2 and 3 `horizon serve` replicas on one
// PostgreSQL, each with its own `core` worker, the load spread round-robin; the scaling ratio is
// printed against the 1-replica run of the same invocation. Also the per-request cost of asking
// PostgreSQL for the key (what replicas pay instead of the embedded store's in-process key cache).
//
//   HORIZON_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/replicas-throughput.ts [--replicas 1,2,3] [--concurrency 24] [--duration 5]
//
// A fresh database is created for the run and dropped after. The load generator runs in this process
// on the same machine as the replicas, so on a small machine it competes with them for the CPU: the
// ratio then says more about the machine than about the replicas. Measures and reports; never asserts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/free-port.ts';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createPostgresDatabase } from '../test/helpers.ts';
import { openDatabase } from '../src/store/database.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey, authenticateKey } from '../src/store/api-keys.ts';
import { dailyIndex } from './series.ts';

const { values: args } = parseArgs({
  options: {
    replicas: { type: 'string', default: '1,2,3' },
    concurrency: { type: 'string', default: '24' },
    duration: { type: 'string', default: '5' },
  },
});
const COUNTS = args.replicas!.split(',').map(Number);
const CONCURRENCY = Number(args.concurrency);
const DURATION_S = Number(args.duration);

const target = Array.from({ length: 100 }, (_, i) => Math.round((100 + 10 * Math.sin((2 * Math.PI * i) / 7) + 0.1 * i) * 100) / 100);
const body = JSON.stringify({ model: 'naive', freq: 'D', horizon: 12, quantiles: [0.1, 0.5, 0.9], series: [{ target, index: dailyIndex(100, '2024-01-01') }] });


async function startReplica(databaseUrl: string, dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', HORIZON_DATABASE_URL: databaseUrl,
      HORIZON_DATA_DIR: join(dataDir, String(port)), HORIZON_MODEL_DIR: join(dataDir, 'models'),
      HORIZON_RUNTIME_GROUPS: 'core', HORIZON_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  while (!out.includes('horizon: listening on')) {
    if (child.exitCode !== null) throw new Error(`replica exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Closed-loop load: CONCURRENCY callers, caller i always on replica i % n. */
async function load(bases: string[], key: string, seconds: number): Promise<{ ok: number; errors: number; rps: number }> {
  let ok = 0;
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async (_, i) => {
    const base = bases[i % bases.length];
    while (performance.now() < end) {
      const res = await fetch(`${base}/v1/forecast`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      if (res.status === 200) ok++; else errors++;
    }
  }));
  return { ok, errors, rps: ok / ((performance.now() - started) / 1000) };
}

const pgdb = await createPostgresDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'horizon-bench-replicas-'));
const database = await openDatabase({ databaseUrl: pgdb.url, dataDir });
const running: ChildProcess[] = [];
try {
  const account = await createAccount(database.db, { name: 'bench', dailyQuota: 100_000_000, weeklyQuota: 100_000_000 });
  const { key } = await createApiKey(database.db, account.id, 'bench');

  // the key lookup every request makes on PostgreSQL (no per-process cache across replicas)
  for (let i = 0; i < 200; i++) await authenticateKey(database.db, key);
  const lookups: number[] = [];
  for (let i = 0; i < 2000; i++) { const t = performance.now(); await authenticateKey(database.db, key); lookups.push(performance.now() - t); }
  lookups.sort((a, b) => a - b);
  console.log(`key lookup on PostgreSQL (sequential, this process): median ${lookups[1000].toFixed(3)} ms, p99 ${lookups[1980].toFixed(3)} ms`);

  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; concurrency ${CONCURRENCY}, ${DURATION_S} s per point, model naive (1 series × 100 points)`);
  const replicas: { child: ChildProcess; base: string }[] = [];
  // the first count measured is the baseline of the ratios, whatever --replicas starts at
  let baseline: { n: number; rps: number } | undefined;
  for (const n of COUNTS) {
    while (replicas.length < n) { const r = await startReplica(pgdb.url, dataDir); replicas.push(r); running.push(r.child); }
    const bases = replicas.slice(0, n).map((r) => r.base);
    await load(bases, key, 1); // warm-up: pools, JIT, worker
    const result = await load(bases, key, DURATION_S);
    baseline ??= { n, rps: result.rps };
    const vs = `${baseline.n} replica${baseline.n > 1 ? 's' : ''}`;
    console.log(`${n} replica${n > 1 ? 's' : ' '}: ${result.rps.toFixed(1)} req/s (${result.ok} ok, ${result.errors} errors), ×${(result.rps / baseline.rps).toFixed(2)} vs ${vs}`);
  }
} finally {
  for (const child of running) { child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r)); }
  await database.close();
  await pgdb.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
