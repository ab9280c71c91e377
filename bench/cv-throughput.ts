// Cross-validation through the service against calling the model once per window, in the same run:
// POST /v1/cross-validation of `--windows` rolling origins for `--series` series (one model call with
// every window of every series, plus the scoring) beside the same forecasts made by hand —
//   seq-forecast  `--windows` POST /v1/forecast one after the other, window w on the histories cut at
//                 n - horizon - w*step (what a user without the endpoint would do),
//   par-forecast  the same calls sent all at once,
//   seq-infer     `--windows` POST /infer straight to the Python worker (no control plane at all),
//   cv-job        POST /v1/cross-validation-jobs, then GET polls every 10 ms until completed.
// ratio = time of the baseline ÷ time of POST /v1/cross-validation (≥ 1.0: the service's one call is
// at least as fast as the calls it replaces, although it also scores every window).
//
//   node bench/cv-throughput.ts                      # --models naive --series 100 --windows 8 --length 200 --horizon 14 --rounds 3
//   node bench/cv-throughput.ts --models auto-ets --series 20 --rounds 1   # a model whose fits dominate (minutes per round here)
//   node bench/cv-throughput.ts --models chronos-bolt:tiny                  # `id:size`; random-weight fixture unless HORIZON_MODEL_DIR
//
// Daily series (bench/series.ts), levels 0.1/0.5/0.9, step = horizon. Each round runs every mode once,
// in a rotating order; the first round is a warm-up; medians over the others. The service runs in this
// process on the embedded store, the model worker (runtime group core) in its own. Checks once per model
// that each CV window's forecast equals the /v1/forecast answer on the cut history. Measures and reports;
// never asserts. Results also go to bench/results/ (git-ignored).
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { encodeInferRequest } from '../src/runtime/wire.ts';
import { dailyIndex, seriesValues } from './series.ts';

const { values: args } = parseArgs({ options: {
  models: { type: 'string', default: 'naive' }, series: { type: 'string', default: '100' }, windows: { type: 'string', default: '8' },
  length: { type: 'string', default: '200' }, horizon: { type: 'string', default: '14' }, rounds: { type: 'string', default: '3' },
} });
// `id` or `id:size`; a foundation model without HORIZON_MODEL_DIR runs on its random-weight test fixture
// (runtime/tests/fixtures: the model's code and architecture at a toy width, not its real cost)
const MODELS = args.models!.split(',').map((m) => { const [model, size] = m.split(':'); return { model, size: size ?? 'default' }; });
const STATISTICAL = new Set(['naive', 'seasonal-naive', 'auto-ets', 'auto-theta', 'auto-arima', 'historic-average', 'window-average', 'croston', 'prism']);
let fixtureDir: string | undefined;
const foundation = [...new Set(MODELS.filter((m) => !STATISTICAL.has(m.model)).map((m) => m.model))];
if (foundation.length && !process.env.HORIZON_MODEL_DIR) {
  fixtureDir = mkdtempSync(join(tmpdir(), 'horizon-cv-bench-weights-'));
  const repo = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(join(repo, 'runtime', '.venv-core', 'bin', 'python'), ['-m', 'tests.fixtures', '--models', foundation.join(','), '--out', fixtureDir], { cwd: join(repo, 'runtime'), stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.HORIZON_MODEL_DIR = fixtureDir;
  console.log(`${foundation.join(', ')}: random-weight fixtures in ${fixtureDir} (HORIZON_MODEL_DIR)`);
}
const [S, W, L, H, ROUNDS] = [args.series, args.windows, args.length, args.horizon, args.rounds].map(Number);
const QUANTILES = [0.1, 0.5, 0.9];
const index = dailyIndex(L);
const targets = Array.from({ length: S }, (_, i) => seriesValues(i, L));
/** the median: the middle value, or the mean of the two middle ones */
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const cutoff = (w: number) => L - H - w * H;

const MODES = ['cv', 'seq-forecast', 'par-forecast', 'seq-infer', 'cv-job'] as const;
type Mode = (typeof MODES)[number];

const loadBefore = loadavg()[0];
// a statistical model fitting every window of 100 series can take minutes on a busy machine
const service = await startService({ inferenceTimeoutMs: 900_000 });
try {
  const server = service.server!;
  const workerUrl = server.supervisor.endpoint('core')!;
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  async function call(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<any> {
    const res = await request(url, { method, headers, body, headersTimeout: 900_000, bodyTimeout: 900_000 });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  }

  const results: Record<string, Record<Mode, number>> = {};
  const rows: string[] = [];
  for (const { model, size } of MODELS) {
    const label = size === 'default' ? model : `${model} ${size}`;
    const sized = size === 'default' ? {} : { model_size: size };
    const cvBody = JSON.stringify({ models: [{ model, ...sized }], freq: 'D', horizon: H, n_windows: W, step: H, quantiles: QUANTILES, series: targets.map((target) => ({ target, index })) });
    const forecastBodies = Array.from({ length: W }, (_, w) => JSON.stringify({
      model, ...sized, freq: 'D', horizon: H, quantiles: QUANTILES, series: targets.map((target) => ({ target: target.slice(0, cutoff(w)), index: index.slice(0, cutoff(w)) })),
    }));
    // what the control plane sends the worker for forecastBodies[w] (docs/runtime-protocol.md; src/runtime/wire.ts)
    const inferBodies = Array.from({ length: W }, (_, w) => JSON.stringify(encodeInferRequest({
      model, size, freq: 'D', horizon: H, quantiles: QUANTILES,
      series: targets.map((target) => ({ target: target.slice(0, cutoff(w)), past_covariates: {}, future_covariates: {}, static_covariates: {} })),
    })));

    const run: Record<Mode, () => Promise<unknown>> = {
      'cv': () => call(`${service.url}/v1/cross-validation`, 'POST', auth, cvBody),
      'seq-forecast': async () => { const out = []; for (const b of forecastBodies) out.push(await call(`${service.url}/v1/forecast`, 'POST', auth, b)); return out; },
      'par-forecast': () => Promise.all(forecastBodies.map((b) => call(`${service.url}/v1/forecast`, 'POST', auth, b))),
      'seq-infer': async () => { for (const b of inferBodies) await call(`${workerUrl}/infer`, 'POST', { 'content-type': 'application/json' }, b); },
      'cv-job': async () => {
        const { job_id } = await call(`${service.url}/v1/cross-validation-jobs`, 'POST', auth, cvBody);
        for (;;) {
          const job = await call(`${service.url}/v1/cross-validation-jobs/${job_id}`, 'GET', { authorization: auth.authorization });
          if (job.status === 'completed') return job;
          if (job.status !== 'queued' && job.status !== 'running') throw new Error(`cross-validation job ${job_id} ended ${job.status}: ${JSON.stringify(job.error)}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      },
    };

    // once: every CV window's forecast is the /v1/forecast answer on the cut history (else the ratio means nothing)
    const [cv, forecasts] = [await run.cv() as any, await run['seq-forecast']() as any[]];
    let worst = 0;
    for (const [i, s] of cv.models[0].series.entries()) {
      for (const win of s.windows) {
        const single = forecasts[win.window].series[i][0].prediction;
        for (const key of Object.keys(single)) single[key].forEach((v: number, t: number) => { worst = Math.max(worst, Math.abs(v - win.prediction[key][t]) / Math.max(1, Math.abs(v))); });
      }
    }
    const windowsScored = cv.models[0].series.reduce((n: number, s: any) => n + s.windows.length, 0);
    // a float32 network's output moves in the last bits with the batch it runs in (800 windows vs 100 series)
    const verdict = worst === 0 ? 'agree exactly' : worst <= 1e-5 ? 'agree to float32 rounding' : 'DISAGREE';
    console.log(`${label}: ${windowsScored} windows scored; max relative |CV window − /v1/forecast on the cut history| = ${worst.toExponential(1)} → ${verdict}`);
    if (verdict === 'DISAGREE') {
      // the ratios compare equal work only when the answers agree: none is printed otherwise
      rows.push(`| ${label} | DISAGREE (max relative difference ${worst.toExponential(1)}): not timed | | | | | | | |`);
      process.exitCode = 1;
      continue;
    }

    const times: Record<Mode, number[]> = Object.fromEntries(MODES.map((m) => [m, []])) as never;
    for (let round = 0; round <= ROUNDS; round++) {
      for (let k = 0; k < MODES.length; k++) {
        const mode = MODES[(k + round) % MODES.length];
        const t = performance.now();
        await run[mode]();
        if (round > 0) times[mode].push(performance.now() - t);
      }
    }
    const r = results[label] = Object.fromEntries(MODES.map((m) => [m, median(times[m])])) as Record<Mode, number>;
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    rows.push(`| ${label} | ${ms(r.cv)} | ${ms(r['cv-job'])} | ${ms(r['seq-forecast'])} | ${ms(r['par-forecast'])} | ${ms(r['seq-infer'])} | **${(r['seq-forecast'] / r.cv).toFixed(2)}** | ${(r['par-forecast'] / r.cv).toFixed(2)} | ${(r['seq-infer'] / r.cv).toFixed(2)} |`);
    console.log(`${label} done (load average now ${loadavg()[0].toFixed(2)}): ${rows.at(-1)}`);
  }

  console.log(`\ncross-validation of ${W} windows (step = horizon ${H}) × ${S} daily series of ${L} points, levels ${QUANTILES.join('/')}; median of ${ROUNDS} rounds after one warm-up`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run, ${loadavg()[0].toFixed(2)} after; store PGlite (embedded)`);
  console.log(`| model | POST /v1/cross-validation | cv job (202 → completed) | ${W} × /v1/forecast, sequential | ${W} × /v1/forecast, concurrent | ${W} × worker /infer, sequential | ratio seq-forecast ÷ cv | ratio par-forecast ÷ cv | ratio seq-infer ÷ cv |`);
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);

  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/cv-throughput-${Date.now()}.json`, import.meta.url), JSON.stringify({ args, loadBefore, results }, null, 2));
} finally {
  await service.close();
  if (fixtureDir) rmSync(fixtureDir, { recursive: true, force: true });
}
