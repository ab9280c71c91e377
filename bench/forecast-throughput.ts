// Throughput and latency of POST /v1/forecast through the whole service over real HTTP, beside the
// same forecast sent straight to the Python worker's POST /infer: the difference is what the control
// plane (auth, quota charge, validation, normalisation, proxying, response shaping) costs.
//
//   node bench/forecast-throughput.ts [--concurrency 1,32] [--warmup 1] [--duration 5]
//   node bench/forecast-throughput.ts --series 256 --length 512 --horizon 64 --levels 9 --concurrency 1   # a large batch
//
// Model `naive`, by default 1 series × 100 daily points, horizon 12, levels 0.1/0.5/0.9 (--levels 9:
// 0.1 … 0.9). With a large batch the difference is what the control plane costs around a model call of
// a few ms; on a GPU a foundation model's batch-256 call takes about 40 ms (bench/README.md). Loopback only; the service runs in this
// process (main thread), the load generator in a worker thread, the model worker in its own process.
// Measures and reports; never asserts. Results also go to bench/results/ (git-ignored).
import { Worker } from 'node:worker_threads';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startService } from '../eval/service.ts';
import { encodeInferRequest } from '../src/runtime/wire.ts';
import type { LoadMessage, LoadSpec } from './load-worker.ts';
import { dailyIndex } from './series.ts';

const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,32' },
    warmup: { type: 'string', default: '1' },
    duration: { type: 'string', default: '5' },
    series: { type: 'string', default: '1' },
    length: { type: 'string', default: '100' },
    horizon: { type: 'string', default: '12' },
    levels: { type: 'string', default: '3' },
  },
});
const concurrencies = args.concurrency!.split(',').map(Number);

const [SERIES, N, HORIZON] = [args.series, args.length, args.horizon].map(Number);
const QUANTILES = args.levels === '9' ? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] : [0.1, 0.5, 0.9];
const targets = Array.from({ length: SERIES }, (_, s) => Array.from({ length: N }, (_, i) => Math.round((100 + 10 * s + 10 * Math.sin((2 * Math.PI * i) / 7 + s) + 0.1 * i) * 100) / 100));
const index = dailyIndex(N, '2024-01-01');
const publicBody = { model: 'naive', freq: 'D', horizon: HORIZON, quantiles: QUANTILES, series: targets.map((target) => ({ target, index })) };
// what the control plane sends the worker for publicBody (docs/runtime-protocol.md; src/runtime/wire.ts)
const inferBody = encodeInferRequest({
  model: 'naive', size: 'default', freq: 'D', horizon: HORIZON, quantiles: QUANTILES,
  series: targets.map((target) => ({ target, past_covariates: {}, future_covariates: {}, static_covariates: {} })),
});

interface Cell { mode: 'direct' | 'service'; concurrency: number; reqPerS: number; p50: number; p99: number; n: number; errors: Record<string, number>; serviceElu: number; loadElu: number; workerCpu: number }

/** CPU seconds used so far by a process (utime + stime from /proc; Linux only). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

async function runCell(mode: Cell['mode'], concurrency: number, url: string, headers: Record<string, string>, path: string, body: unknown, workerPid: number): Promise<Cell> {
  const origin = new URL(url).origin;
  const spec: LoadSpec = { origin, path, headers, body: JSON.stringify(body), concurrency, warmupMs: Number(args.warmup) * 1000, measureMs: Number(args.duration) * 1000 };
  const load = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData: spec });
  // utilisation of the service's event loop (this thread), of the load generator's (measured in its
  // thread), and the model worker's CPU, over the window: they show which saturates first
  let elu0 = performance.eventLoopUtilization(), cpu0 = 0, t0 = 0;
  const done = await new Promise<Extract<LoadMessage, { type: 'done' }>>((resolve, reject) => {
    load.on('error', reject);
    load.on('message', (m: LoadMessage) => {
      if (m.type === 'measuring') {
        elu0 = performance.eventLoopUtilization();
        cpu0 = processCpuSeconds(workerPid); t0 = performance.now();
      } else resolve(m);
    });
  });
  const serviceElu = performance.eventLoopUtilization(elu0).utilization;
  const loadElu = done.elu;
  const workerCpu = (processCpuSeconds(workerPid) - cpu0) / ((performance.now() - t0) / 1000);
  await load.terminate();
  const sorted = done.latenciesMs.sort();
  return {
    mode, concurrency, n: sorted.length, reqPerS: sorted.length / (done.windowMs / 1000),
    p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: done.errors, serviceElu, loadElu, workerCpu,
  };
}

// other processes on the machine skew every figure; the load average before the run says how busy it was
const loadBefore = loadavg()[0];
const service = await startService();
try {
  const server = service.server!;
  const workerUrl = server.supervisor.endpoint('core')!;
  const workerPid = server.supervisor.status().find((w) => w.group === 'core')!.pid!;
  const json = { 'content-type': 'application/json' };
  // one request each way first: proves both payloads are accepted and loads the model
  let answerText = '';
  for (const [u, h, b] of [[`${workerUrl}/infer`, json, inferBody], [`${service.url}/v1/forecast`, { ...json, authorization: `Bearer ${service.key}` }, publicBody]] as const) {
    const res = await fetch(u, { method: 'POST', headers: h, body: JSON.stringify(b) });
    answerText = await res.text();
    if (res.status !== 200) throw new Error(`${u} answered ${res.status}: ${answerText}`);
  }
  // the floor any JSON service of this contract pays per request on one core: V8's own JSON.parse of
  // the request body and JSON.stringify of the answer (median of 9 after the cells, on this thread)
  const jsonFloor = () => {
    const bodyText = JSON.stringify(publicBody);
    const answer = JSON.parse(answerText);
    const median = (f: () => unknown) => {
      const times = Array.from({ length: 9 }, () => { const t = performance.now(); f(); return performance.now() - t; }).sort((a, b) => a - b);
      return times[4];
    };
    return { parseMs: median(() => JSON.parse(bodyText)), stringifyMs: median(() => JSON.stringify(answer)), requestMB: bodyText.length / 1e6, answerMB: answerText.length / 1e6 };
  };

  const cells: Cell[] = [];
  for (const c of concurrencies) {
    cells.push(await runCell('direct', c, workerUrl, json, '/infer', inferBody, workerPid));
    cells.push(await runCell('service', c, service.url, { ...json, authorization: `Bearer ${service.key}` }, '/v1/forecast', publicBody, workerPid));
  }

  const pct = (x: number) => `${Math.round(x * 100)}%`.padStart(5);
  console.log(`POST /v1/forecast vs worker POST /infer — naive, ${SERIES} series × ${N} D points, h ${HORIZON}, ${QUANTILES.length} levels; ${args.warmup} s warm-up + ${args.duration} s per cell`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run; load generator, service and worker share these cores`);
  console.log('mode     conc    req/s   p50 ms   p99 ms  svc-loop  gen-loop  worker-cpu  errors');
  for (const x of cells) {
    const errors = Object.entries(x.errors).map(([k, v]) => `${k}×${v}`).join(' ') || '-';
    console.log(`${x.mode.padEnd(8)} ${String(x.concurrency).padStart(4)} ${x.reqPerS.toFixed(0).padStart(8)} ${x.p50.toFixed(2).padStart(8)} ${x.p99.toFixed(2).padStart(8)}     ${pct(x.serviceElu)}     ${pct(x.loadElu)}       ${pct(x.workerCpu)}  ${errors}`);
  }
  console.log('\nservice vs direct');
  console.log('conc  req/s ratio  added p50 ms  added p99 ms');
  const summary = concurrencies.map((c) => {
    const d = cells.find((x) => x.mode === 'direct' && x.concurrency === c)!;
    const s = cells.find((x) => x.mode === 'service' && x.concurrency === c)!;
    const row = { concurrency: c, reqPerSRatio: s.reqPerS / d.reqPerS, addedP50Ms: s.p50 - d.p50, addedP99Ms: s.p99 - d.p99 };
    console.log(`${String(c).padStart(4)}  ${row.reqPerSRatio.toFixed(2).padStart(11)}  ${row.addedP50Ms.toFixed(2).padStart(12)}  ${row.addedP99Ms.toFixed(2).padStart(12)}`);
    return row;
  });
  const floor = jsonFloor();
  console.log(`JSON text alone: JSON.parse of the ${floor.requestMB.toFixed(2)} MB request ${floor.parseMs.toFixed(1)} ms + JSON.stringify of the ${floor.answerMB.toFixed(2)} MB answer ${floor.stringifyMs.toFixed(1)} ms`);
  console.log('(goals for context, not asserted: ≥ 3,000 req/s at concurrency 32; ≤ 2 ms added p50)');

  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`forecast-throughput-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), cpus: cpus().map((c) => c.model), node: process.version, loadBefore, args, cells, summary, jsonFloor: floor }, null, 2));
  console.log(`results: ${file.pathname}`);
} finally {
  await service.close();
}
