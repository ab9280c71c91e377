// Issue 12 bench (b) and (c): series/s of a foundation model through Ray Serve vs the local worker on
// the same machine, and 1 vs 2 Serve replicas. Both sides get the very /infer body the control plane
// sends (base64 float64 arrays, bench/series.ts values), so the difference is what Serve costs on top
// of the worker: its HTTP proxy, the hop to the replica, @serve.batch.
//
//   node bench/ray-serve-throughput.ts [--model chronos-bolt] [--size tiny] [--full-size chronos-2]
//       [--batch 256] [--context 512] [--horizon 64] [--rounds 2] [--duration 5] [--concurrency 1,2] [--num-cpus 1]
//
// Weights: by default the tiny random-weight fixture of --model (runtime/tests/fixtures,
// what the tests use: cheap, so the serving overhead shows); --full-size chronos-2|tirex|timesfm-2
// builds a full-size random-weight checkpoint with bench/full_size.py instead (the real compute).
// Steps: a Ray cluster here (head with 0 CPUs + one worker node with all of this machine's CPUs, as in
// test/ray-serve.test.ts), the local worker (python -m horizon_runtime, torch's default threads), and
// the core group deployed with 1 replica of --num-cpus CPUs (Ray sets the replica's OMP_NUM_THREADS
// to it: 1 by default, see bench/README.md for why not 2 on this machine). Then --rounds rounds
// alternate local / Serve cells (same machine state for both); then the app is removed and deployed
// with 2 replicas of --num-cpus each and measured again. A cell: one warm-up call, then
// calls with `c` in flight for --duration s. Prints series/s per cell and the ratios; never asserts.
// `ray stop --force` at the end, always. Results also go to bench/results/ (git-ignored).
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../test/free-port.ts';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { encodeInferRequest } from '../src/runtime/wire.ts';
import { seriesValues } from './series.ts';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'chronos-bolt' },
    size: { type: 'string', default: 'tiny' },
    'full-size': { type: 'string' },
    batch: { type: 'string', default: '256' },
    context: { type: 'string', default: '512' },
    horizon: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '1,2' },
    'num-cpus': { type: 'string', default: '1' },
  },
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNTIME = join(ROOT, 'runtime');
const BIN = join(RUNTIME, '.venv-core', 'bin');
// RAY_worker_niceness=0: Ray starts its workers (the replicas) at nice 15 by default, which on a machine
// shared with other work hands the CPU to everything else; the local worker runs at nice 0
const ENV = { ...process.env, PATH: `${BIN}:${process.env.PATH}`, PYTHONPATH: RUNTIME, RAY_USAGE_STATS_ENABLED: '0', RAY_worker_niceness: '0' };
const CPUS = cpus().length;
const FULL = args['full-size'];
const FULL_SIZES: Record<string, string> = { 'chronos-2': 'base', tirex: 'default', 'timesfm-2': '200m' };
const MODEL = FULL ?? args.model!;
const SIZE = FULL ? FULL_SIZES[FULL] : args.size!;
const BATCH = Number(args.batch);
const CONTEXT = Number(args.context);
const HORIZON = Number(args.horizon);
const DURATION_MS = Number(args.duration) * 1e3;
const CONCURRENCY = args.concurrency!.split(',').map(Number);
const NUM_CPUS = Number(args['num-cpus']);

const body = JSON.stringify(encodeInferRequest({
  model: MODEL, size: SIZE, freq: 'D', horizon: HORIZON, quantiles: [0.1, 0.5, 0.9],
  series: Array.from({ length: BATCH }, (_, i) => ({ target: seriesValues(i, CONTEXT), past_covariates: {}, future_covariates: {}, static_covariates: {} })),
}));


/** series/s of one cell: `inFlight` callers posting `body` back to back for DURATION_MS after a warm-up call. */
async function cell(baseUrl: string, inFlight: number): Promise<number> {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: inFlight });
  const call = async () => {
    const res = await pool.request({ path: `${url.pathname.replace(/\/$/, '')}/infer`, method: 'POST', body, headers: { 'content-type': 'application/json' }, headersTimeout: 600_000, bodyTimeout: 600_000 });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${baseUrl}: ${res.statusCode} ${text.slice(0, 300)}`);
  };
  await call();
  let calls = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (performance.now() - started < DURATION_MS) { await call(); calls += 1; }
  }));
  const seconds = (performance.now() - started) / 1e3;
  await pool.close();
  return (calls * BATCH) / seconds;
}

function ray(argv: string[]): void {
  execFileSync(join(BIN, 'ray'), argv, { cwd: RUNTIME, env: ENV, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
}

function deploy(gcs: string, port: number, replicas: number, numCpus: number, modelDir: string): void {
  // a rolling update would wait forever for CPUs the old replica holds: remove the app first
  execFileSync(join(BIN, 'python'), ['-m', 'horizon_runtime.serve', 'shutdown', '--address', gcs], { cwd: RUNTIME, env: ENV, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  execFileSync(join(BIN, 'python'), ['-m', 'horizon_runtime.serve', 'deploy', '--address', gcs, '--groups', 'core', '--port', String(port),
    '--replicas', String(replicas), '--num-cpus', String(numCpus), '--model-dir', modelDir], { cwd: RUNTIME, env: ENV, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
}

async function startLocalWorker(modelDir: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(join(BIN, 'python'), ['-m', 'horizon_runtime', '--group', 'core', '--port', '0'], { cwd: RUNTIME, env: { ...ENV, HORIZON_MODEL_DIR: modelDir }, stdio: ['pipe', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('READY ')) return { url: `http://127.0.0.1:${(JSON.parse(line.slice(6)) as { port: number }).port}`, stop: () => child.kill('SIGTERM') };
  }
  throw new Error('the local worker exited before READY');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number) => x.toFixed(1);

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'hzrb-'));
  const modelDir = join(tmp, 'models');
  let local: { url: string; stop(): void } | undefined;
  try {
    if (FULL) spawnSync(join(BIN, 'python'), [join(ROOT, 'bench', 'full_size.py'), '--model', FULL, '--out', modelDir], { stdio: ['ignore', 'ignore', 'inherit'] });
    else execFileSync(join(BIN, 'python'), ['-m', 'tests.fixtures', '--models', MODEL, '--out', modelDir], { cwd: RUNTIME, env: ENV, stdio: ['ignore', 'ignore', 'inherit'] });
    const gcs = `127.0.0.1:${await freePort()}`;
    const port = await freePort();
    const serveUrl = `http://127.0.0.1:${port}/core`;
    const small = ['--object-store-memory', '100000000', '--disable-usage-stats'];
    ray(['start', '--head', '--port', gcs.split(':')[1], '--num-cpus', '0', '--include-dashboard=false', '--temp-dir', join(tmp, 'ray'), ...small]);
    ray(['start', '--address', gcs, '--num-cpus', String(CPUS), ...small]);
    deploy(gcs, port, 1, NUM_CPUS, modelDir);
    local = await startLocalWorker(modelDir);
    const weights = FULL ? `full-size random weights (bench/full_size.py ${FULL})` : `tiny random-weight fixture (runtime/tests/fixtures)`;
    console.log(`${MODEL}/${SIZE}, ${weights}; batch ${BATCH}, context ${CONTEXT}, horizon ${HORIZON}; ${CPUS} CPUs, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    const rows: Record<string, number[]> = {};
    const add = (name: string, v: number) => { (rows[name] ??= []).push(v); console.log(`  ${name}: ${fmt(v)} series/s`); };
    for (let r = 0; r < Number(args.rounds); r++) {
      for (const c of CONCURRENCY) {
        // the order alternates each round: neither side always runs on a machine the other warmed
        const order = r % 2 ? ['serve', 'local'] : ['local', 'serve'];
        for (const side of order) add(`${side === 'local' ? 'local worker' : 'Serve 1 replica'} c=${c}`, await cell(side === 'local' ? local.url : serveUrl, c));
      }
    }
    local.stop();
    local = undefined;
    deploy(gcs, port, 2, NUM_CPUS, modelDir);
    for (let r = 0; r < Number(args.rounds); r++) for (const c of CONCURRENCY) add(`Serve 2 replicas c=${c}`, await cell(serveUrl, c));

    console.log('\nmedian series/s');
    for (const [name, values] of Object.entries(rows)) console.log(`  ${name.padEnd(24)} ${fmt(median(values))}`);
    for (const c of CONCURRENCY) {
      const m = (name: string) => median(rows[`${name} c=${c}`]);
      console.log(`c=${c}: Serve 1 replica / local worker = ${(m('Serve 1 replica') / m('local worker')).toFixed(3)}; 2 replicas / 1 replica = ${(m('Serve 2 replicas') / m('Serve 1 replica')).toFixed(3)}`);
    }
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', `ray-serve-throughput-${Date.now()}.json`), JSON.stringify({ model: MODEL, size: SIZE, full: Boolean(FULL), batch: BATCH, context: CONTEXT, horizon: HORIZON, cpus: CPUS, rows }, null, 2));
  } finally {
    local?.stop();
    spawnSync(join(BIN, 'ray'), ['stop', '--force'], { cwd: RUNTIME, env: ENV, stdio: 'ignore', timeout: 60_000 });
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
