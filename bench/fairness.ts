// Fairness under load (issue 24): the p99 latency of a small forecast from account B while account A
// sends a 100,000-series request, ÷ B's p99 with no other load — with fair queueing (the default:
// model calls cut into chunks — for naive, a CPU model, HORIZON_FAIR_CHUNK_SERIES_CPU series — a freed worker
// slot to the next account) and, in the same run, with it off (both chunk variables 0: what the issue measured).
//
//   node bench/fairness.ts                       # --big-series 100000 --rounds 3 --quiet-seconds 15 --interval-ms 50 --modes fair:1000,fair,off
//   node bench/fairness.ts --load job --modes fair --rounds 2 --big-points 2   # A's load as a job (issue 32)
//   node bench/fairness.ts --load nixtla-job --modes fair --rounds 2 --big-points 2   # the same job through /nixtla
//
// B sends a small request (naive, one 48-point monthly series) every --interval-ms, open loop (a stall
// delays every request that arrives during it); quiet: for --quiet-seconds with nothing else running;
// loaded: while A's request is in flight, A sending it --rounds times in a row. With --load job, A's request
// is POST /v1/forecast-jobs instead: submitted, polled every --poll-ms until completed, and the last poll
// reads the result (the whole forecast); loaded lasts from the submission to the result's last byte. With
// --load nixtla-job, the same job in the Nixtla SDK's terms (POST /nixtla/v2/forecast/async, GET its job).
// The service runs in this thread, the clients in a worker thread of their own (bench/fairness-clients.ts: not on
// the service's loop or heap): the event loop's longest block is the service's, reported per phase two
// ways: wall time (perf_hooks monitorEventLoopDelay: what a request waits, but on a busy machine also time the
// process was not given a core) and CPU time (the most the loop's thread used between two ticks of a 2 ms timer:
// work that ran without yielding, whatever the machine's load). Reports; never asserts.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startService } from '../eval/service.ts';
import type { ClientsMessage, ClientsSpec } from './fairness-clients.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';

const { values: args } = parseArgs({ options: {
  'big-series': { type: 'string', default: '100000' }, 'big-points': { type: 'string', default: '1' }, rounds: { type: 'string', default: '3' },
  'quiet-seconds': { type: 'string', default: '15' }, 'interval-ms': { type: 'string', default: '50' },
  modes: { type: 'string', default: 'fair:1000,fair,off' }, load: { type: 'string', default: 'sync' }, 'poll-ms': { type: 'string', default: '500' },
} });
const BIG = Number(args['big-series']);
const ROUNDS = Number(args.rounds);
const INTERVAL = Number(args['interval-ms']);
const LOADS = ['sync', 'job', 'nixtla-job'];
if (!LOADS.includes(args.load)) throw new Error(`--load is one of ${LOADS.join(', ')}, not ${args.load}`);

/** The most CPU time the event loop's thread used between two ticks of a 2 ms timer while started. */
class CpuBlocks {
  maxMs = 0;
  private timer?: NodeJS.Timeout;
  start(): void {
    const cpuMs = () => { const u = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage(); return (u.user + u.system) / 1000; };
    let last = cpuMs();
    this.timer = setInterval(() => { const now = cpuMs(); this.maxMs = Math.max(this.maxMs, now - last); last = now; }, 2);
  }
  stop(): number { clearInterval(this.timer); const max = this.maxMs; this.maxMs = 0; return max; }
}

const p = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]; };

async function run(mode: string): Promise<void> {
  // fair (the defaults: naive is a CPU model, so HORIZON_FAIR_CHUNK_SERIES_CPU's 50 series), fair:N (chunks of
  // N for every model), off (no chunks: the baseline)
  const chunk = mode === 'off' ? '0' : mode.split(':')[1];
  for (const name of ['HORIZON_FAIR_CHUNK_SERIES', 'HORIZON_FAIR_CHUNK_SERIES_CPU']) {
    if (chunk === undefined) delete process.env[name]; else process.env[name] = chunk;
  }
  process.env.HORIZON_SYNC_MAX_SERIES = String(BIG);
  // B's open loop may pile up requests while stalled: measured as latency, not refused
  process.env.HORIZON_ACCOUNT_MAX_INFLIGHT = '0';
  process.env.HORIZON_SYNC_MAX_POINTS = String(BIG * 2);
  const service = await startService();
  try {
    const db = service.server!.database.db;
    const a = await createApiKey(db, (await createAccount(db, { name: 'bench-a', dailyQuota: 0, weeklyQuota: 0 })).id, 'a');
    const b = await createApiKey(db, (await createAccount(db, { name: 'bench-b', dailyQuota: 0, weeklyQuota: 0 })).id, 'b');
    const spec: ClientsSpec = {
      url: service.url, aKey: a.key, bKey: b.key, load: args.load as ClientsSpec['load'], bigSeries: BIG, bigPoints: Number(args['big-points']),
      rounds: ROUNDS, intervalMs: INTERVAL, quietSeconds: Number(args['quiet-seconds']), pollMs: Number(args['poll-ms']),
    };
    // the service's loop measured over each phase the clients' thread announces
    const blocks = monitorEventLoopDelay({ resolution: 10 });
    const cpu = new CpuBlocks();
    let quietBlock = '';
    const measure = () => `${(blocks.max / 1e6).toFixed(0)} ms (CPU ${cpu.stop().toFixed(0)} ms)`;
    const clients = new Worker(new URL('./fairness-clients.ts', import.meta.url), { workerData: spec });
    const done = await new Promise<Extract<ClientsMessage, { type: 'done' }>>((resolve, reject) => {
      clients.on('error', reject);
      clients.on('message', (m: ClientsMessage) => {
        if (m.type === 'phase' && m.phase === 'loaded') { blocks.disable(); quietBlock = measure(); blocks.reset(); }
        if (m.type === 'phase') { blocks.enable(); cpu.start(); }
        if (m.type === 'done') resolve(m);
      });
    });
    blocks.disable();
    const loadedBlock = measure();
    await clients.terminate();
    const { quiet, loaded, bigTimes } = done;
    const q99 = p(quiet, 0.99);
    const l99 = p(loaded, 0.99);
    console.log(`${mode.padEnd(8)} chunk ${process.env.HORIZON_FAIR_CHUNK_SERIES_CPU ?? 'default (50)'}: B quiet p50 ${p(quiet, 0.5).toFixed(1)} p99 ${q99.toFixed(1)} ms (n ${quiet.length}); `
      + `B under A p50 ${p(loaded, 0.5).toFixed(1)} p99 ${l99.toFixed(1)} max ${Math.max(...loaded).toFixed(1)} ms (n ${loaded.length}); `
      + `ratio p99 ${(l99 / q99).toFixed(2)}; event loop's longest block quiet ${quietBlock}, loaded ${loadedBlock}`);
    console.log(`  A's ${BIG}-series ${args.load === 'sync' ? 'request' : args.load} (${(done.bigBytes / 1e6).toFixed(1)} MB): ${bigTimes.join('; ')}`);
  } finally {
    await service.close();
  }
}

console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const mode of args.modes.split(',')) await run(mode);
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
