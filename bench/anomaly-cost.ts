// What anomaly detection costs per series: POST /v1/anomalies (one window per scored timestep, all in
// one model call) against, in the same run, one plain POST /v1/forecast of the same series (horizon
// 1: the forecast of the next step only) and a sample of windows sent one POST /v1/forecast each (what
// a client without the endpoint would do), extrapolated to every window.
//
//   node bench/anomaly-cost.ts      # --series 100 --length 200 --models seasonal-naive,chronos-bolt/tiny --rounds 3 --per-step 50
//
// Monthly series (bench/series.ts values, season 12), the endpoint's defaults: level 99, step 1,
// min_history 24 (176 windows per series of 200), context 128. chronos-bolt tiny is a random-weight
// fixture written for the run (runtime/tests/fixtures), on CPU: its cost is the real model
// code's at the tiny size. Model calls are the worker's own count of /infer requests (GET /metrics).
// Medians over the rounds after one warm-up round. Measures and reports; never asserts.
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { seriesValues } from './series.ts';

const { values: args } = parseArgs({ options: {
  series: { type: 'string', default: '100' }, length: { type: 'string', default: '200' },
  models: { type: 'string', default: 'seasonal-naive,chronos-bolt/tiny' }, rounds: { type: 'string', default: '3' },
  'per-step': { type: 'string', default: '50' },
} });
const [S, L, ROUNDS, PER_STEP] = [args.series, args.length, args.rounds, args['per-step']].map(Number);
const models = args.models.split(',').map((m) => { const [model, size] = m.split('/'); return { model, model_size: size }; });
const index = Array.from({ length: L }, (_, t) => `${2000 + Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`);
const series = Array.from({ length: S }, (_, i) => ({ index, target: seriesValues(i, L) }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

// the sized (foundation) models get random-weight fixtures, as in the tests (runtime/.venv-core)
const foundation = [...new Set(models.filter((m) => m.model_size).map((m) => m.model))];
const weights = foundation.length ? mkdtempSync(join(tmpdir(), 'horizon-anomaly-bench-')) : undefined;
if (weights) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(join(repo, 'runtime', '.venv-core', 'bin', 'python'), ['-m', 'tests.fixtures', '--models', foundation.join(','), '--out', weights], { cwd: join(repo, 'runtime'), stdio: ['ignore', 'ignore', 'inherit'] });
}
if (weights) process.env.HORIZON_MODEL_DIR = weights;
const loadBefore = loadavg()[0];
const service = await startService({ inferenceTimeoutMs: 600_000 });
try {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  async function post(path: string, body: unknown): Promise<{ ms: number; json: any }> {
    const payload = JSON.stringify(body);
    const t = performance.now();
    const res = await request(`${service.url}${path}`, { method: 'POST', headers, body: payload });
    const text = await res.body.text();
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`POST ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return { ms, json: JSON.parse(text) };
  }
  async function inferCalls(model: string): Promise<number> {
    const text = await (await request(`${service.url}/metrics`)).body.text();
    const line = text.split('\n').find((l) => l.startsWith('horizon_runtime_infer_requests_total{') && l.includes(`model="${model}"`) && l.includes('outcome="ok"'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  console.log(`POST /v1/anomalies vs POST /v1/forecast (horizon 1) — ${S} series × ${L} MS points; medians of ${ROUNDS} rounds after one warm-up`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run`);
  for (const { model, model_size } of models) {
    const name = model_size ? `${model} ${model_size}` : model;
    const rows: { forecast: number; anomalies: number; calls: number; windows: number }[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const forecast = (await post('/v1/forecast', { series, freq: 'MS', horizon: 1, model, model_size })).ms;
      const before = await inferCalls(model);
      // mode windows, what this bench measures (a statistical model at step 1 defaults to in-sample: bench/anomalies-throughput.ts)
      const answer = await post('/v1/anomalies', { series, freq: 'MS', model, model_size, mode: 'windows' });
      const calls = await inferCalls(model) - before;
      if (round > 0) rows.push({ forecast: forecast, anomalies: answer.ms, calls, windows: answer.json.n_windows });
    }
    // the same windows one request each (a sample of PER_STEP, spread over the series), extrapolated
    const first = 24; // the first scored position at the defaults for MS: min_history 24, step 1
    const sample = Array.from({ length: PER_STEP }, (_, k) => {
      const s = Math.floor((k * S) / PER_STEP), t = first + (k * 37) % (L - first);
      return { target: series[s].target.slice(Math.max(0, t - 128), t), index: index.slice(Math.max(0, t - 128), t) };
    });
    const t0 = performance.now();
    for (const one of sample) await post('/v1/forecast', { series: [one], freq: 'MS', horizon: 1, model, model_size, quantiles: [0.005, 0.5, 0.995] });
    const perWindow = (performance.now() - t0) / PER_STEP;
    const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
    const windows = m('windows');
    console.log(`${name}: anomalies ${m('anomalies').toFixed(0)} ms for ${windows} windows in ${m('calls')} model call(s) = ${(m('anomalies') / S).toFixed(1)} ms per series, ${(1000 * m('anomalies') / windows).toFixed(0)} µs per window`);
    console.log(`${name}: forecast (horizon 1, same series) ${m('forecast').toFixed(0)} ms in 1 model call = ${(m('forecast') / S).toFixed(2)} ms per series; anomalies ÷ forecast ${(m('anomalies') / m('forecast')).toFixed(1)} (${(m('anomalies') / m('forecast') / (windows / S)).toFixed(2)} per window of a series)`);
    console.log(`${name}: one POST /v1/forecast per window (${PER_STEP} sampled) ${perWindow.toFixed(1)} ms each → ${((perWindow * windows) / 1000).toFixed(0)} s for all ${windows}; that ÷ anomalies ${((perWindow * windows) / m('anomalies')).toFixed(1)}`);
  }
} finally {
  await service.close();
  if (weights) rmSync(weights, { recursive: true, force: true });
}
