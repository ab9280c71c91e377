// Fairness under load (issue 24): the p99 latency of a small forecast from account B while account A
// sends a 100,000-series request, ÷ B's p99 with no other load — with fair queueing (the default:
// model calls cut into chunks — for naive, a CPU model, HORIZON_FAIR_CHUNK_SERIES_CPU series — a freed worker
// slot to the next account) and, in the same run, with it off (both chunk variables 0: what the issue measured).
//
//   node bench/fairness.ts                       # --big-series 100000 --rounds 3 --quiet-seconds 15 --interval-ms 50 --modes fair:1000,fair,off
//
// B sends a small request (naive, one 48-point monthly series) every --interval-ms, open loop (a stall
// delays every request that arrives during it); quiet: for --quiet-seconds with nothing else running;
// loaded: while A's request is in flight, A sending it --rounds times in a row.
// Reports; never asserts.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService, type Service } from '../eval/service.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';

const { values: args } = parseArgs({ options: {
  'big-series': { type: 'string', default: '100000' }, rounds: { type: 'string', default: '3' }, 'quiet-seconds': { type: 'string', default: '15' }, 'interval-ms': { type: 'string', default: '50' },
  modes: { type: 'string', default: 'fair:1000,fair,off' },
} });
const BIG = Number(args['big-series']);
const ROUNDS = Number(args.rounds);
const INTERVAL = Number(args['interval-ms']);

const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const small = JSON.stringify({ series: [{ target: Array.from({ length: 48 }, (_, i) => 100 + 10 * Math.sin(i / 2) + i), index: monthly(48) }], horizon: 6, freq: 'MS', model: 'naive' });
// A: 100,000 one-point daily series (the probe: 4.4 MB)
const big = JSON.stringify({ series: Array.from({ length: BIG }, (_, i) => ({ target: [i % 97], index: ['2024-01-01'] })), horizon: 1, freq: 'D', model: 'naive' });

async function post(service: Service, key: string, body: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await request(`${service.url}/v1/forecast`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body, headersTimeout: 0, bodyTimeout: 0 });
  await res.body.arrayBuffer();
  return { status: res.statusCode, ms: performance.now() - t0 };
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
    const quiet: number[] = [];
    const quietUntil = Date.now() + Number(args['quiet-seconds']) * 1000;
    await openLoop(() => Date.now() < quietUntil, quiet);
    const loaded: number[] = [];
    const bigTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let inFlight = true;
      const bigCall = post(service, a.key, big).then((r) => { inFlight = false; if (r.status !== 200) throw new Error(`A got ${r.status}`); bigTimes.push(r.ms); });
      await openLoop(() => inFlight, loaded);
      await bigCall;
    }
    const q99 = p(quiet, 0.99);
    const l99 = p(loaded, 0.99);
    console.log(`${mode.padEnd(8)} chunk ${process.env.HORIZON_FAIR_CHUNK_SERIES_CPU ?? 'default (50)'}: B quiet p50 ${p(quiet, 0.5).toFixed(1)} p99 ${q99.toFixed(1)} ms (n ${quiet.length}); `
      + `B under A p50 ${p(loaded, 0.5).toFixed(1)} p99 ${l99.toFixed(1)} max ${Math.max(...loaded).toFixed(1)} ms (n ${loaded.length}); `
      + `ratio p99 ${(l99 / q99).toFixed(2)}; A's ${BIG}-series request ${bigTimes.map((t) => (t / 1000).toFixed(1)).join(', ')} s`);
  } finally {
    await service.close();
  }
}

console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const mode of args.modes.split(',')) await run(mode);
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
