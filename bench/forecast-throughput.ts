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
//
// The relay: a bare Fastify route in this process (where the service runs) that forwards the worker's
// body to the worker's /infer over an undici pool and returns its answer text — no auth, quota,
// validation or shaping. Its latency over direct is what one HTTP hop costs on this machine, the floor
// under any service in front of the worker; `--no-relay` leaves it out.
//
// The peer: the same public body posted, by the same load generator in the same run, to
// bench/peers/fastapi_statsforecast.py — a FastAPI + statsforecast Naive server, what a user would
// deploy instead (no auth, no quota, no validation beyond pydantic), under uvicorn with
// `--peer-workers` processes (default 1, as a user would start it). Its venv (.tools/venv-peers, from
// bench/peers/requirements.txt) is created with pip on first use; `--no-peer` leaves it out.
import { Worker } from 'node:worker_threads';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { freePort } from '../test/free-port.ts';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'undici';
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
    peer: { type: 'boolean', default: true },
    relay: { type: 'boolean', default: true },
    'peer-workers': { type: 'string', default: '1' },
  },
  allowNegative: true, // --no-peer
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

interface Cell { mode: 'direct' | 'direct-now' | 'relay' | 'service' | 'peer'; concurrency: number; reqPerS: number; p50: number; p99: number; n: number; errors: Record<string, number>; serviceElu: number; loadElu: number; workerCpu: number; serviceCpuUs: number; workerCpuUs: number }

/** CPU seconds used so far by a process and its live descendants (utime + stime from /proc; Linux
 * only): uvicorn with several workers answers from child processes. */
function processCpuSeconds(pid: number): number {
  let total = 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    total = (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean)) total += processCpuSeconds(Number(child));
  } catch { /* the process ended meanwhile */ }
  return total;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const peersDir = fileURLToPath(new URL('./peers/', import.meta.url));

/** The peer's own venv, created (or refreshed when requirements.txt changes) with pip. */
function peerPython(): string {
  const venv = `${repoRoot}.tools/venv-peers`;
  const python = `${venv}/bin/python`;
  const requirements = `${peersDir}requirements.txt`;
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const stamp = `${venv}/.requirements-sha256`;
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return python;
  console.error(`setting up the peer's venv in ${venv} (pip install -r bench/peers/requirements.txt) …`);
  if (!existsSync(python)) execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(python, ['-m', 'pip', 'install', '-q', '-r', requirements], { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(stamp, hash);
  return python;
}


/** Starts the peer under uvicorn and waits until it answers the bench's body. */
async function startPeer(workers: number): Promise<{ url: string; proc: ChildProcess; answer: string }> {
  const python = peerPython();
  const port = await freePort();
  // access log off: the in-process Horizon service runs without a request logger too
  const proc = spawn(python, ['-m', 'uvicorn', 'fastapi_statsforecast:app', '--host', '127.0.0.1', '--port', String(port), '--workers', String(workers), '--log-level', 'warning', '--no-access-log'], { cwd: peersDir, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`peer exited with ${proc.exitCode}`);
    try {
      const res = await fetch(`${url}/forecast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(publicBody) });
      const answer = await res.text();
      if (res.status !== 200) throw new Error(`peer answered ${res.status}: ${answer}`);
      return { url, proc, answer };
    } catch (error) {
      if (Date.now() > deadline || String(error).includes('peer answered')) { proc.kill(); throw error; }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Largest absolute difference between two answers' predictions (mean and every level, every series). */
function maxDifference(a: string, b: string): { mean: number; levels: number } {
  const pa = (JSON.parse(a) as { series: { prediction: Record<string, number[]> }[][] }).series;
  const pb = (JSON.parse(b) as { series: { prediction: Record<string, number[]> }[][] }).series;
  let mean = pa.length === pb.length ? 0 : Infinity, levels = 0;
  pa.forEach((s, i) => {
    for (const [key, values] of Object.entries(s[0].prediction)) {
      const other = pb[i]?.[0]?.prediction[key];
      const d = other?.length === values.length ? Math.max(0, ...values.map((v, j) => Math.abs(v - other[j]))) : Infinity;
      if (key === 'mean') mean = Math.max(mean, d); else levels = Math.max(levels, d);
    }
  });
  return { mean, levels };
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
  // CPU time per request (this thread's, the worker's) holds up better than req/s on a busy machine
  let elu0 = performance.eventLoopUtilization(), cpu0 = 0, t0 = 0, thread0 = process.threadCpuUsage();
  const done = await new Promise<Extract<LoadMessage, { type: 'done' }>>((resolve, reject) => {
    load.on('error', reject);
    load.on('message', (m: LoadMessage) => {
      if (m.type === 'measuring') {
        elu0 = performance.eventLoopUtilization();
        thread0 = process.threadCpuUsage();
        cpu0 = processCpuSeconds(workerPid); t0 = performance.now();
      } else resolve(m);
    });
  });
  const serviceElu = performance.eventLoopUtilization(elu0).utilization;
  const thread = process.threadCpuUsage(thread0);
  const loadElu = done.elu;
  const workerCpuS = processCpuSeconds(workerPid) - cpu0;
  const workerCpu = workerCpuS / ((performance.now() - t0) / 1000);
  await load.terminate();
  const sorted = done.latenciesMs.sort();
  return {
    mode, concurrency, n: sorted.length, reqPerS: sorted.length / (done.windowMs / 1000),
    p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: done.errors, serviceElu, loadElu, workerCpu,
    // the service's thread also idles through direct and peer cells: its CPU per request means something for service cells only
    serviceCpuUs: (thread.user + thread.system) / Math.max(1, sorted.length), workerCpuUs: (workerCpuS * 1e6) / Math.max(1, sorted.length),
  };
}

// other processes on the machine skew every figure; the load average before the run says how busy it was
const loadBefore = loadavg()[0];
const service = await startService();
let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
let relay: FastifyInstance | undefined;
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
  // the peer must give the same forecast, or its req/s mean nothing: compare with Horizon's answer once
  let peerCheck: { mean: number; levels: number; agree: boolean } | undefined;
  if (args.peer) {
    peer = await startPeer(Number(args['peer-workers']));
    const d = maxDifference(answerText, peer.answer);
    peerCheck = { ...d, agree: d.mean <= 1e-9 && d.levels <= 1e-6 };
    console.log(`peer check: max |Horizon − peer| mean ${d.mean.toExponential(1)}, levels ${d.levels.toExponential(1)} → ${peerCheck.agree ? 'agree' : 'DISAGREE'}`);
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

  let relayUrl: string | undefined;
  if (args.relay) {
    const upstream = new Pool(new URL(workerUrl).origin, { connections: 64, keepAliveTimeout: 30_000 });
    const app = Fastify({ bodyLimit: 64 * 1024 * 1024 }); // a batch-256 body is ~2.7 MB, over Fastify's 1 MiB default
    relay = app;
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => done(null, text));
    app.post('/relay', async (request, reply) => {
      const res = await upstream.request({ path: '/infer', method: 'POST', body: request.body as string, headers: json });
      reply.header('content-type', 'application/json');
      return res.body.text();
    });
    app.addHook('onClose', () => upstream.close());
    relayUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }

  const cells: Cell[] = [];
  for (const c of concurrencies) {
    cells.push(await runCell('direct', c, workerUrl, json, '/infer', inferBody, workerPid));
    // the same call marked as a batch already formed, as the service's gate sends it: no batching wait in the worker
    cells.push(await runCell('direct-now', c, workerUrl, { ...json, 'x-horizon-batch': 'formed' }, '/infer', inferBody, workerPid));
    if (relayUrl) cells.push(await runCell('relay', c, relayUrl, json, '/relay', inferBody, workerPid));
    cells.push(await runCell('service', c, service.url, { ...json, authorization: `Bearer ${service.key}` }, '/v1/forecast', publicBody, workerPid));
    if (peer) cells.push(await runCell('peer', c, peer.url, json, '/forecast', publicBody, peer.proc.pid!));
  }

  const pct = (x: number) => `${Math.round(x * 100)}%`.padStart(5);
  console.log(`POST /v1/forecast vs worker POST /infer — naive, ${SERIES} series × ${N} D points, h ${HORIZON}, ${QUANTILES.length} levels; ${args.warmup} s warm-up + ${args.duration} s per cell`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run; load generator, service and worker share these cores`);
  console.log('mode     conc    req/s   p50 ms   p99 ms  svc-loop  gen-loop  worker-cpu  svc µs/req  worker µs/req  errors');
  for (const x of cells) {
    const errors = Object.entries(x.errors).map(([k, v]) => `${k}×${v}`).join(' ') || '-';
    console.log(`${x.mode.padEnd(10)} ${String(x.concurrency).padStart(2)} ${x.reqPerS.toFixed(0).padStart(8)} ${x.p50.toFixed(2).padStart(8)} ${x.p99.toFixed(2).padStart(8)}     ${pct(x.serviceElu)}     ${pct(x.loadElu)}       ${pct(x.workerCpu)}  ${(x.mode === 'service' || x.mode === 'relay' ? x.serviceCpuUs.toFixed(0) : '-').padStart(10)}  ${x.workerCpuUs.toFixed(0).padStart(13)}  ${errors}`);
  }
  // direct: the worker as a client calls it (its batcher waits HORIZON_BATCH_MAX_WAIT_MS for more series);
  // direct-now: without that wait. The stricter baseline is the faster of the two at each concurrency.
  console.log('\nservice vs direct (and vs the faster of direct and direct-now)');
  console.log('conc  req/s ratio  added p50 ms  added p99 ms  ÷ best direct');
  const summary = concurrencies.map((c) => {
    const d = cells.find((x) => x.mode === 'direct' && x.concurrency === c)!;
    const now = cells.find((x) => x.mode === 'direct-now' && x.concurrency === c)!;
    const s = cells.find((x) => x.mode === 'service' && x.concurrency === c)!;
    const row = { concurrency: c, reqPerSRatio: s.reqPerS / d.reqPerS, addedP50Ms: s.p50 - d.p50, addedP99Ms: s.p99 - d.p99, overBestDirect: s.reqPerS / Math.max(d.reqPerS, now.reqPerS) };
    console.log(`${String(c).padStart(4)}  ${row.reqPerSRatio.toFixed(2).padStart(11)}  ${row.addedP50Ms.toFixed(2).padStart(12)}  ${row.addedP99Ms.toFixed(2).padStart(12)}  ${row.overBestDirect.toFixed(2).padStart(13)}`);
    return row;
  });
  let relaySummary: { concurrency: number; relayAddedP50Ms: number; serviceOverRelayP50Ms: number; relayReqPerSRatio: number }[] | undefined;
  if (relayUrl) {
    console.log('\nthe bare relay (one HTTP hop, nothing else) vs direct, and what the service adds beyond it');
    console.log('conc  relay ÷ direct req/s  relay added p50 ms  service − relay p50 ms');
    relaySummary = concurrencies.map((c) => {
      const [d, r, s] = (['direct', 'relay', 'service'] as const).map((m) => cells.find((x) => x.mode === m && x.concurrency === c)!);
      const row = { concurrency: c, relayReqPerSRatio: r.reqPerS / d.reqPerS, relayAddedP50Ms: r.p50 - d.p50, serviceOverRelayP50Ms: s.p50 - r.p50 };
      console.log(`${String(c).padStart(4)}  ${row.relayReqPerSRatio.toFixed(2).padStart(20)}  ${row.relayAddedP50Ms.toFixed(2).padStart(18)}  ${row.serviceOverRelayP50Ms.toFixed(2).padStart(22)}`);
      return row;
    });
  }
  let peerSummary: { concurrency: number; serviceReqPerS: number; serviceP50: number; directReqPerS: number; directP50: number; peerReqPerS: number; peerP50: number; serviceOverPeer: number }[] | undefined;
  if (peer) {
    console.log(`\nservice vs peer (FastAPI + statsforecast Naive, uvicorn ×${args['peer-workers']} worker; worker-cpu above = the peer's processes for its rows)`);
    console.log('conc  service req/s  p50 ms   direct req/s  p50 ms   peer req/s  p50 ms   service ÷ peer');
    peerSummary = concurrencies.map((c) => {
      const [d, s, p] = (['direct', 'service', 'peer'] as const).map((m) => cells.find((x) => x.mode === m && x.concurrency === c)!);
      const row = { concurrency: c, serviceReqPerS: s.reqPerS, serviceP50: s.p50, directReqPerS: d.reqPerS, directP50: d.p50, peerReqPerS: p.reqPerS, peerP50: p.p50, serviceOverPeer: s.reqPerS / p.reqPerS };
      console.log(`${String(c).padStart(4)}  ${s.reqPerS.toFixed(0).padStart(13)} ${s.p50.toFixed(2).padStart(7)}  ${d.reqPerS.toFixed(0).padStart(13)} ${d.p50.toFixed(2).padStart(7)}  ${p.reqPerS.toFixed(0).padStart(11)} ${p.p50.toFixed(2).padStart(7)}  ${row.serviceOverPeer.toFixed(2).padStart(15)}`);
      return row;
    });
    console.log('(goal for context, not asserted: service ≥ 2 × the peer\'s req/s, while doing auth, quota and validation it does not)');
  }
  const floor = jsonFloor();
  console.log(`JSON text alone: JSON.parse of the ${floor.requestMB.toFixed(2)} MB request ${floor.parseMs.toFixed(1)} ms + JSON.stringify of the ${floor.answerMB.toFixed(2)} MB answer ${floor.stringifyMs.toFixed(1)} ms`);
  console.log('(goals for context, not asserted: ≥ 3,000 req/s and ≥ 0.75 of direct at concurrency 32; ≤ 1 ms added p50 at concurrency 1)');

  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`forecast-throughput-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), cpus: cpus().map((c) => c.model), node: process.version, loadBefore, args, cells, summary, relaySummary, peerCheck, peerSummary, jsonFloor: floor }, null, 2));
  console.log(`results: ${file.pathname}`);
} finally {
  peer?.proc.kill();
  await relay?.close();
  await service.close();
}
