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
// The service runs in this process: the event loop's longest block is the service's, reported per phase two
// ways: wall time (perf_hooks monitorEventLoopDelay: what a request waits, but on a busy machine also time the
// process was not given a core) and CPU time (the most the loop's thread used between two ticks of a 2 ms timer:
// work that ran without yielding, whatever the machine's load). Reports; never asserts.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService, type Service } from '../eval/service.ts';
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

const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const small = JSON.stringify({ series: [{ target: Array.from({ length: 48 }, (_, i) => 100 + 10 * Math.sin(i / 2) + i), index: monthly(48) }], horizon: 6, freq: 'MS', model: 'naive' });
// A: 100,000 daily series of --big-points points (the probes: one point, 4.4 MB; two, 6.8 MB as a job)
const days = Array.from({ length: Number(args['big-points']) }, (_, d) => `2024-01-${String(d + 1).padStart(2, '0')}`);
const bigSeries = Array.from({ length: BIG }, (_, i) => ({ target: days.map((_, d) => (i + d) % 97), index: days }));
const big = JSON.stringify({ series: bigSeries, horizon: 1, freq: 'D', model: 'naive' });
// the same series as the Nixtla SDK sends them: one flat y, sizes, each series' first date
const nixtlaSeries = { y: bigSeries.flatMap((s) => s.target), sizes: bigSeries.map((s) => s.target.length), start_datetime: bigSeries.map(() => days[0]) };
const bigNixtla = JSON.stringify({ series: nixtlaSeries, h: 1, freq: 'D', model: 'naive' });

/** `head`: the answer's first 300 bytes as text (the bench runs on the service's event loop: a large
 * answer is neither decoded nor parsed here, or the bench's own work would show as the service's stall) */
interface Answer { status: number; ms: number; head: string; bytes: number }
async function call(service: Service, key: string, method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
  const t0 = performance.now();
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const res = await request(`${service.url}${path}`, { method, headers, body, headersTimeout: 0, bodyTimeout: 0 });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, ms: performance.now() - t0, head: bytes.subarray(0, 300).toString(), bytes: bytes.length };
}
const post = (service: Service, key: string, body: string) => call(service, key, 'POST', '/v1/forecast', body);

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

/** A's job: submitted, polled until it completes; the last poll carries the result. Returns what each step took. */
async function bigJob(service: Service, key: string, nixtla: boolean): Promise<string> {
  const t0 = performance.now();
  const accepted = await (nixtla ? call(service, key, 'POST', '/nixtla/v2/forecast/async', bigNixtla) : call(service, key, 'POST', '/v1/forecast-jobs', big));
  if (accepted.status !== 202) throw new Error(`A's job got ${accepted.status}: ${accepted.head}`);
  const { job_id: id } = JSON.parse(accepted.head) as { job_id: string };
  for (;;) {
    await new Promise((r) => setTimeout(r, Number(args['poll-ms'])));
    const polled = await call(service, key, 'GET', nixtla ? `/nixtla/v2/forecast/jobs/${id}` : `/v1/forecast-jobs/${id}`);
    const status = polled.status === 200 ? /"status":"(\w+)"/.exec(polled.head)?.[1] : `HTTP ${polled.status}`;
    if (status === 'queued' || status === 'running' || status === 'pending') continue;
    if (status !== 'completed' && status !== 'succeeded') throw new Error(`A's job ended ${status}: ${polled.head}`);
    const done = (performance.now() - t0) / 1000;
    const read = `result GET ${polled.ms.toFixed(0)} ms, ${(polled.bytes / 1e6).toFixed(1)} MB`;
    return `202 in ${accepted.ms.toFixed(0)} ms, completed and read in ${done.toFixed(1)} s (${read})`;
  }
}

async function bigSync(service: Service, key: string): Promise<string> {
  const r = await post(service, key, big);
  if (r.status !== 200) throw new Error(`A got ${r.status}`);
  return `${(r.ms / 1000).toFixed(1)} s`;
}

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
    for (let i = 0; i < 20; i++) await post(service, b.key, small); // warm
    // B is an open loop: one request every INTERVAL ms whether or not the last has answered, so a stall
    // shows in every request that arrives during it (a closed loop would count it once: coordinated omission)
    const openLoop = async (while_: () => boolean, into: number[]) => {
      const calls: Promise<void>[] = [];
      while (while_()) {
        calls.push(post(service, b.key, small).then((r) => { if (r.status !== 200) throw new Error(`B got ${r.status}`); into.push(r.ms); }));
        await new Promise((r) => setTimeout(r, INTERVAL));
      }
      await Promise.all(calls);
    };
    const blocks = monitorEventLoopDelay({ resolution: 10 });
    const cpu = new CpuBlocks();
    const quiet: number[] = [];
    const quietUntil = Date.now() + Number(args['quiet-seconds']) * 1000;
    blocks.enable();
    cpu.start();
    await openLoop(() => Date.now() < quietUntil, quiet);
    blocks.disable();
    const quietBlock = `${(blocks.max / 1e6).toFixed(0)} ms (CPU ${cpu.stop().toFixed(0)} ms)`;
    blocks.reset();
    const loaded: number[] = [];
    const bigTimes: string[] = [];
    blocks.enable();
    cpu.start();
    for (let round = 0; round < ROUNDS; round++) {
      let inFlight = true;
      const aCall = args.load === 'sync' ? bigSync(service, a.key) : bigJob(service, a.key, args.load === 'nixtla-job');
      const bigCall = aCall.then((t) => { bigTimes.push(t); }).finally(() => { inFlight = false; });
      await openLoop(() => inFlight, loaded);
      await bigCall;
    }
    blocks.disable();
    const loadedBlock = `${(blocks.max / 1e6).toFixed(0)} ms (CPU ${cpu.stop().toFixed(0)} ms)`;
    const q99 = p(quiet, 0.99);
    const l99 = p(loaded, 0.99);
    console.log(`${mode.padEnd(8)} chunk ${process.env.HORIZON_FAIR_CHUNK_SERIES_CPU ?? 'default (50)'}: B quiet p50 ${p(quiet, 0.5).toFixed(1)} p99 ${q99.toFixed(1)} ms (n ${quiet.length}); `
      + `B under A p50 ${p(loaded, 0.5).toFixed(1)} p99 ${l99.toFixed(1)} max ${Math.max(...loaded).toFixed(1)} ms (n ${loaded.length}); `
      + `ratio p99 ${(l99 / q99).toFixed(2)}; event loop's longest block quiet ${quietBlock}, loaded ${loadedBlock}`);
    const bytes = (args.load === 'nixtla-job' ? bigNixtla : big).length;
    console.log(`  A's ${BIG}-series ${args.load === 'sync' ? 'request' : args.load} (${(bytes / 1e6).toFixed(1)} MB): ${bigTimes.join('; ')}`);
  } finally {
    await service.close();
  }
}

console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const mode of args.modes.split(',')) await run(mode);
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
