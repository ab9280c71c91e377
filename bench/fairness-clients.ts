// The clients of bench/fairness.ts, in a worker thread of their own: account B's open loop of small forecasts
// and account A's large request or job. Before, they ran on the service's own event loop and heap (the
// 100,000 series as objects, A's 11.5 MB result, B's timers), so the clients' work and GC showed as the
// service's; real clients are other processes. The thread tells its phases to the main thread, which measures
// the service's event loop over each.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

export interface ClientsSpec {
  url: string; aKey: string; bKey: string; load: 'sync' | 'job' | 'nixtla-job';
  bigSeries: number; bigPoints: number; rounds: number; intervalMs: number; quietSeconds: number; pollMs: number;
}
export type ClientsMessage =
  | { type: 'phase'; phase: 'quiet' | 'loaded' }
  | { type: 'done'; quiet: number[]; loaded: number[]; bigTimes: string[]; bigBytes: number };

const spec = workerData as ClientsSpec;
const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const small = JSON.stringify({ series: [{ target: Array.from({ length: 48 }, (_, i) => 100 + 10 * Math.sin(i / 2) + i), index: monthly(48) }], horizon: 6, freq: 'MS', model: 'naive' });
/** A's body: --big-series daily series of --big-points points, as /v1 JSON or as the Nixtla SDK's columns */
function bigBody(): string {
  const days = Array.from({ length: spec.bigPoints }, (_, d) => `2024-01-${String(d + 1).padStart(2, '0')}`);
  const series = Array.from({ length: spec.bigSeries }, (_, i) => ({ target: days.map((_, d) => (i + d) % 97), index: days }));
  if (spec.load !== 'nixtla-job') return JSON.stringify({ series, horizon: 1, freq: 'D', model: 'naive' });
  const columns = { y: series.flatMap((s) => s.target), sizes: series.map((s) => s.target.length), start_datetime: series.map(() => days[0]) };
  return JSON.stringify({ series: columns, h: 1, freq: 'D', model: 'naive' });
}
const big = bigBody();

/** `head`: the answer's first 300 bytes as text (a large answer is neither decoded nor parsed) */
interface Answer { status: number; ms: number; head: string; bytes: number }
async function call(key: string, method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
  const t0 = performance.now();
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const res = await request(`${spec.url}${path}`, { method, headers, body, headersTimeout: 0, bodyTimeout: 0 });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, ms: performance.now() - t0, head: bytes.subarray(0, 300).toString(), bytes: bytes.length };
}

/** A's job: submitted, polled until it completes; the last poll carries the result. Returns what each step took. */
async function bigJob(): Promise<string> {
  const nixtla = spec.load === 'nixtla-job';
  const t0 = performance.now();
  const accepted = await call(spec.aKey, 'POST', nixtla ? '/nixtla/v2/forecast/async' : '/v1/forecast-jobs', big);
  if (accepted.status !== 202) throw new Error(`A's job got ${accepted.status}: ${accepted.head}`);
  const { job_id: id } = JSON.parse(accepted.head) as { job_id: string };
  for (;;) {
    await new Promise((r) => setTimeout(r, spec.pollMs));
    const polled = await call(spec.aKey, 'GET', nixtla ? `/nixtla/v2/forecast/jobs/${id}` : `/v1/forecast-jobs/${id}`);
    const status = polled.status === 200 ? /"status":"(\w+)"/.exec(polled.head)?.[1] : `HTTP ${polled.status}`;
    if (status === 'queued' || status === 'running' || status === 'pending') continue;
    if (status !== 'completed' && status !== 'succeeded') throw new Error(`A's job ended ${status}: ${polled.head}`);
    const done = (performance.now() - t0) / 1000;
    const read = `result GET ${polled.ms.toFixed(0)} ms, ${(polled.bytes / 1e6).toFixed(1)} MB`;
    return `202 in ${accepted.ms.toFixed(0)} ms, completed and read in ${done.toFixed(1)} s (${read})`;
  }
}

async function bigSync(): Promise<string> {
  const r = await call(spec.aKey, 'POST', '/v1/forecast', big);
  if (r.status !== 200) throw new Error(`A got ${r.status}`);
  return `${(r.ms / 1000).toFixed(1)} s`;
}

// B is an open loop: one request every intervalMs whether or not the last has answered, so a stall shows in
// every request that arrives during it (a closed loop would count it once: coordinated omission)
async function openLoop(while_: () => boolean, into: number[]): Promise<void> {
  const calls: Promise<void>[] = [];
  while (while_()) {
    calls.push(call(spec.bKey, 'POST', '/v1/forecast', small).then((r) => { if (r.status !== 200) throw new Error(`B got ${r.status}`); into.push(r.ms); }));
    await new Promise((r) => setTimeout(r, spec.intervalMs));
  }
  await Promise.all(calls);
}

const tell = (message: ClientsMessage) => parentPort!.postMessage(message);
for (let i = 0; i < 20; i++) await call(spec.bKey, 'POST', '/v1/forecast', small); // warm
const quiet: number[] = [];
const quietUntil = Date.now() + spec.quietSeconds * 1000;
tell({ type: 'phase', phase: 'quiet' });
await openLoop(() => Date.now() < quietUntil, quiet);
const loaded: number[] = [];
const bigTimes: string[] = [];
tell({ type: 'phase', phase: 'loaded' });
for (let round = 0; round < spec.rounds; round++) {
  let inFlight = true;
  const bigCall = (spec.load === 'sync' ? bigSync() : bigJob()).then((t) => { bigTimes.push(t); }).finally(() => { inFlight = false; });
  await openLoop(() => inFlight, loaded);
  await bigCall;
}
tell({ type: 'done', quiet, loaded, bigTimes, bigBytes: big.length });
