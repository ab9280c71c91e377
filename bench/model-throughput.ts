// Model throughput of a full-size, RANDOM-weight foundation model (chronos-2 base, tirex or timesfm-2
// 200m) in series/s at batch 1, 16 and 256: through the whole service (POST /v1/forecast, one request
// carrying `batch` series), straight to the Python worker (POST /infer, the body the control plane
// sends), and the official library in-process (its own batch call on the same series,
// bench/full_size.py). The ratio service / in-process says what serving costs on top of the model
// (goal for context: ≥ 0.95 at 256).
//
//   node bench/model-throughput.ts [--model chronos-2|tirex|timesfm-2] [--batches 1,16,256] [--context 512] [--horizon 64] [--warmup 1] [--duration 3] [--min-calls 2]
//   node bench/model-throughput.ts --model tirex --batches 256 --interleave 2 [--modes service,inprocess]
//
// --interleave R: instead of one block per mode (the library's first, alone, then the service's), the
// library stays loaded in a child (`model_throughput.py serve`) and each batch size gets one warm-up
// call per mode, then R rounds of one call per mode, the order rotating each round. Slow calls (TiRex
// on a CPU: minutes at 256) then compare under the same machine state; also printed: the median of
// the rounds' own service ÷ library ratios.
//
// Steps: builds the checkpoint with bench/full_size.py into a temp HORIZON_MODEL_DIR (0.14–0.93 GB,
// removed at the end), runs the in-process half (a Python child, alone on the machine), then starts the
// service in this process (runtime group core, HORIZON_DEVICE as set, default auto) and measures
// service and direct cells. Each cell: warm-up calls for --warmup s (at least one), then calls back to
// back, one in flight, for --duration s (at least --min-calls). Measures and reports; never asserts.
// Results also go to bench/results/ (git-ignored).
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { encodeInferRequest } from '../src/runtime/wire.ts';
import { dailyIndex, seriesValues } from './series.ts';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'chronos-2' },
    batches: { type: 'string', default: '1,16,256' },
    context: { type: 'string', default: '512' },
    horizon: { type: 'string', default: '64' },
    warmup: { type: 'string', default: '1' },
    duration: { type: 'string', default: '3' },
    'min-calls': { type: 'string', default: '2' },
    interleave: { type: 'string', default: '0' },
    modes: { type: 'string', default: 'service,direct,inprocess' },
    concurrency: { type: 'string', default: '1' },
  },
});
const batches = args.batches!.split(',').map(Number);
// --concurrency C: the service and direct cells keep C calls in flight (C clients, each one call at a
// time); the library's cell stays one call at a time in one process, as a user calls it
const CONCURRENCY = Number(args.concurrency);
const SIZES: Record<string, string> = { 'chronos-2': 'base', tirex: 'default', 'timesfm-2': '200m' };
const MODEL = args.model!;
const SIZE = SIZES[MODEL];
if (!SIZE) throw new Error(`--model must be one of ${Object.keys(SIZES).join(', ')}`);
const CONTEXT = Number(args.context);
const HORIZON = Number(args.horizon);
const QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, 'runtime', '.venv-core', 'bin', 'python');

const index = dailyIndex(CONTEXT);

interface Cell { mode: 'service' | 'direct' | 'inprocess'; batch: number; calls: number; elapsed_s: number; series_per_s: number; p50_ms: number; max_ms: number; warmup_calls: number; worker_cpu?: number; worker_infer_ms_mean?: number; body_bytes?: number; rounds_ms?: number[] }

const ROUNDS = Number(args.interleave);
const MODES = args.modes!.split(',') as Cell['mode'][];
if (MODES.some((m) => !['service', 'direct', 'inprocess'].includes(m)) || (ROUNDS > 0 && !MODES.includes('inprocess'))) throw new Error('--modes: service, direct, inprocess (inprocess among them)');
if (ROUNDS > 0 && CONCURRENCY !== 1) throw new Error('--interleave times one call at a time: leave --concurrency out');

/** The public request and the worker's /infer body (src/runtime/wire.ts: base64 float64) for these series. */
function bodiesFor(series: number[][]): Record<'service' | 'direct', string> {
  return {
    service: JSON.stringify({ model: MODEL, model_size: SIZE, freq: 'D', horizon: HORIZON, quantiles: QUANTILES, series: series.map((target) => ({ target, index })) }),
    direct: JSON.stringify(encodeInferRequest({ model: MODEL, size: SIZE, freq: 'D', horizon: HORIZON, quantiles: QUANTILES, series: series.map((target) => ({ target, past_covariates: {}, future_covariates: {}, static_covariates: {} })) })),
  };
}

/** `model_throughput.py serve`: the official library loaded once in a child, one timed call per request. */
class LibraryChild {
  private readonly child: ReturnType<typeof spawn>;
  private readonly answers: AsyncIterator<string>;
  readonly info: { torch: string; torch_threads: number; dtype: string };
  private constructor(child: ReturnType<typeof spawn>, info: LibraryChild['info'], answers: AsyncIterator<string>) {
    this.child = child; this.info = info; this.answers = answers;
  }
  static async start(argv: string[]): Promise<LibraryChild> {
    const child = spawn(PYTHON, [join(ROOT, 'bench', 'model_throughput.py'), 'serve', ...argv], { stdio: ['pipe', 'pipe', 'inherit'] });
    const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = await answers.next();
    if (first.done) throw new Error('model_throughput.py serve exited before it was ready');
    return new LibraryChild(child, JSON.parse(first.value), answers);
  }
  async call(batch: number): Promise<number> {
    this.child.stdin!.write(`${batch}\n`);
    const answer = await this.answers.next();
    if (answer.done) throw new Error('model_throughput.py serve exited');
    return (JSON.parse(answer.value) as { ms: number }).ms;
  }
  close(): void { this.child.stdin!.end(); }
}

function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function python(script: string, argv: string[]): unknown {
  const r = spawnSync(PYTHON, [join(ROOT, 'bench', script), ...argv], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${script} exited ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

const loadBefore = loadavg()[0];
const modelDir = mkdtempSync(join(tmpdir(), 'horizon-bench-weights-'));
try {
  const built = python('full_size.py', ['--model', MODEL, '--out', modelDir]) as { directory: string; params: number };
  console.error(`checkpoint: ${built.directory} (${(built.params / 1e6).toFixed(1)} M parameters, random weights)`);

  // (b) the official library in-process, on the device the worker would pick (HORIZON_DEVICE, else auto)
  const device = process.env.HORIZON_DEVICE === 'cuda' ? 'cuda' : 'cpu';
  const common = ['--model', MODEL, '--model-dir', built.directory, '--device', device, '--batches', args.batches!, '--context', String(CONTEXT), '--horizon', String(HORIZON)];
  const library = ROUNDS > 0 ? await LibraryChild.start(common) : undefined;
  const inprocess = library ? { cells: [] as Cell[], ...library.info } : python('model_throughput.py', ['inprocess', ...common,
    '--warmup', args.warmup!, '--duration', args.duration!, '--min-calls', args['min-calls']!]) as { cells: Cell[]; torch: string; torch_threads: number; dtype: string };

  // (a) the service, in this process, with the worker reading the checkpoint from HORIZON_MODEL_DIR
  process.env.HORIZON_MODEL_DIR = modelDir;
  // the bench measures whatever licence the weights have (tirex: NXAI Community), as an operator who accepted it
  process.env.HORIZON_ACCEPT_LICENSES = [process.env.HORIZON_ACCEPT_LICENSES, MODEL].filter(Boolean).join(',');
  const { startService } = await import('../eval/service.ts');
  const service = await startService({ inferenceTimeoutMs: 600_000 });
  const cells: Cell[] = inprocess.cells.map((c) => ({ ...c, mode: 'inprocess' as const }));
  try {
    const server = service.server!;
    const workerUrl = server.supervisor.endpoint('core')!;
    const workerPid = server.supervisor.status().find((w) => w.group === 'core')!.pid!;
    const pools = { service: new Pool(service.url, { connections: CONCURRENCY, keepAliveTimeout: 600_000 }), direct: new Pool(workerUrl, { connections: CONCURRENCY, keepAliveTimeout: 600_000 }) };
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
    const json = { 'content-type': 'application/json' };

    async function post(mode: 'service' | 'direct', body: string): Promise<unknown> {
      const res = await pools[mode].request({ path: mode === 'service' ? '/v1/forecast' : '/infer', method: 'POST', headers: mode === 'service' ? auth : json, body, headersTimeout: 600_000, bodyTimeout: 600_000 });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${mode} answered ${res.statusCode}: ${text.slice(0, 500)}`);
      return JSON.parse(text); // parsed, as a client would
    }

    for (const batch of batches) {
      const bodies = bodiesFor(Array.from({ length: batch }, (_, i) => seriesValues(i, CONTEXT)));
      if (library) { // --interleave
        const inferMs: number[] = [];
        const call = async (mode: Cell['mode']): Promise<number> => {
          if (mode === 'inprocess') return library.call(batch);
          const c0 = performance.now();
          const answer = await post(mode, bodies[mode]) as { timing?: { infer_ms: number } };
          const ms = performance.now() - c0;
          if (answer.timing) inferMs.push(answer.timing.infer_ms); // the worker's own time in predict_batch
          return ms;
        };
        const latencies = new Map(MODES.map((m) => [m, [] as number[]]));
        for (const mode of MODES) await call(mode); // warm-up
        inferMs.length = 0;
        for (let round = 0; round < ROUNDS; round++) {
          for (let k = 0; k < MODES.length; k++) {
            const mode = MODES[(round + k) % MODES.length];
            latencies.get(mode)!.push(await call(mode));
          }
          console.error(`batch ${batch} round ${round + 1}: ${MODES.map((m) => `${m} ${latencies.get(m)!.at(-1)!.toFixed(0)} ms`).join(', ')}`);
        }
        for (const mode of MODES) {
          const ms = latencies.get(mode)!;
          const sorted = [...ms].sort((a, b) => a - b);
          const total = ms.reduce((a, b) => a + b, 0) / 1000;
          const direct = mode === 'direct' && inferMs.length ? { worker_infer_ms_mean: inferMs.reduce((a, b) => a + b, 0) / inferMs.length } : {};
          cells.push({ mode, batch, calls: ms.length, elapsed_s: total, series_per_s: (ms.length * batch) / total, p50_ms: sorted[(sorted.length - 1) >> 1], max_ms: sorted.at(-1)!, warmup_calls: 1, rounds_ms: ms, ...direct });
        }
        continue;
      }
      for (const mode of (['service', 'direct'] as const).filter((m) => MODES.includes(m))) {
        const warmupMs = Number(args.warmup) * 1000, durationMs = Number(args.duration) * 1000, minCalls = Number(args['min-calls']);
        let warmupCalls = 0;
        const start = performance.now();
        const warmupClient = async () => { while (warmupCalls < CONCURRENCY || performance.now() - start < warmupMs) { warmupCalls++; await post(mode, bodies[mode]); } };
        await Promise.all(Array.from({ length: CONCURRENCY }, warmupClient));
        const latencies: number[] = [];
        const inferMs: number[] = [];
        const cpu0 = processCpuSeconds(workerPid), t0 = performance.now();
        const client = async () => {
          while (latencies.length < minCalls || performance.now() - t0 < durationMs) {
            const c0 = performance.now();
            const answer = await post(mode, bodies[mode]) as { timing?: { infer_ms: number } };
            latencies.push(performance.now() - c0);
            if (answer.timing) inferMs.push(answer.timing.infer_ms);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, client));
        const elapsed = (performance.now() - t0) / 1000;
        latencies.sort((a, b) => a - b);
        const cell: Cell = {
          mode, batch, calls: latencies.length, elapsed_s: elapsed, series_per_s: (latencies.length * batch) / elapsed,
          p50_ms: latencies[(latencies.length - 1) >> 1], max_ms: latencies.at(-1)!, warmup_calls: warmupCalls,
          worker_cpu: (processCpuSeconds(workerPid) - cpu0) / elapsed, body_bytes: Buffer.byteLength(bodies[mode]),
          ...(inferMs.length ? { worker_infer_ms_mean: inferMs.reduce((a, b) => a + b, 0) / inferMs.length } : {}),
        };
        console.error(`${mode} batch ${batch}: ${cell.series_per_s.toFixed(1)} series/s (${cell.calls} calls)`);
        cells.push(cell);
      }
    }
    await pools.service.close();
    await pools.direct.close();
  } finally {
    library?.close();
    await service.close();
  }

  const get = (mode: Cell['mode'], batch: number): Cell | undefined => cells.find((c) => c.mode === mode && c.batch === batch);
  console.log(`${MODEL} ${SIZE} (${(built.params / 1e6).toFixed(1)} M params, random weights), context ${CONTEXT}, horizon ${HORIZON}, quantiles 0.1…0.9; device ${device} (${inprocess.dtype}), torch ${inprocess.torch} (${inprocess.torch_threads} threads)`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run; ${ROUNDS > 0 ? `interleaved: 1 warm-up call + ${ROUNDS} rounds of one call per mode (${MODES.join(', ')})` : `${args.warmup} s warm-up + ${args.duration} s (≥ ${args['min-calls']} calls) per cell`}, ${CONCURRENCY === 1 ? 'one call in flight' : `service and direct with ${CONCURRENCY} clients (calls in flight), the library one call at a time`}; ${process.env.HORIZON_WORKERS_PER_GROUP ?? 1} worker(s) per group`);
  console.log('batch  service s/s  direct s/s  in-proc s/s  svc/in-proc  direct/in-proc  svc p50 ms  in-proc p50 ms  worker infer_ms');
  const none: Partial<Cell> = { series_per_s: NaN, p50_ms: NaN };
  const summary = batches.map((b) => {
    const [s, d, p] = (['service', 'direct', 'inprocess'] as const).map((m) => get(m, b) ?? none);
    // --interleave: each round's own service ÷ library, taken a few minutes apart at most
    const paired = s.rounds_ms && p.rounds_ms ? s.rounds_ms.map((ms, r) => p.rounds_ms![r] / ms).sort((x, y) => x - y) : [];
    const row = { batch: b, service: s.series_per_s!, direct: d.series_per_s!, inprocess: p.series_per_s!, ratio: s.series_per_s! / p.series_per_s!, directRatio: d.series_per_s! / p.series_per_s!, ...(paired.length ? { pairedRatios: paired } : {}) };
    console.log(`${String(b).padStart(5)}  ${s.series_per_s!.toFixed(1).padStart(11)}  ${d.series_per_s!.toFixed(1).padStart(10)}  ${p.series_per_s!.toFixed(1).padStart(11)}  ${row.ratio.toFixed(2).padStart(11)}  ${row.directRatio.toFixed(2).padStart(14)}  ${s.p50_ms!.toFixed(0).padStart(10)}  ${p.p50_ms!.toFixed(0).padStart(14)}  ${(d.worker_infer_ms_mean ?? NaN).toFixed(0).padStart(15)}`);
    if (paired.length) console.log(`       rounds' own service ÷ library: ${paired.map((x) => x.toFixed(3)).join(', ')} (median ${paired[(paired.length - 1) >> 1].toFixed(3)})`);
    return row;
  });
  console.log('(goal for context, not asserted: service / in-process ≥ 0.95 at batch 256; s/s = series per second)');
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`model-throughput-${MODEL}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(file, JSON.stringify({ model: MODEL, size: SIZE, date: new Date().toISOString(), cpus: cpus().map((c) => c.model), node: process.version, loadBefore, args, device, params: built.params, inprocess: { ...inprocess, cells: undefined }, cells, summary }, null, 2));
  console.log(`results: ${file.pathname}`);
} finally {
  rmSync(modelDir, { recursive: true, force: true });
}
