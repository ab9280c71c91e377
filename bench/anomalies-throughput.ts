// Anomaly detection at the cost of one fit per series (issue 33): POST /v1/anomalies with auto-ets at level 99
// (mode in-sample, its default for a statistical model at step 1) against statsforecast's own in-sample-interval
// approach called directly on the same data. M4 Hourly series, the last `--length` training values each.
//   api         POST /v1/anomalies {model: "auto-ets", level: 99, freq: "H"}, on a service whose worker fits on
//               every core (CPU pool)
//   direct      StatsForecast(models=[AutoETS(season_length=24)], freq="h", n_jobs=k).forecast(df, h=1,
//               level=[99], fitted=True) + forecast_fitted_values() + the flags (bench/statsforecast_anomalies.py),
//               k = the cores and 1
// Two workloads: `--throughput-series` series for the ratio api series/s ÷ direct series/s (goal ≥ 0.9; enough
// series that a run takes seconds, not a fraction), and `--series` (28: four weeks of a sensor set) for the
// time of one sync answer (goal ≤ 15 s); then that body in mode windows (a refit per timestep): 413 use_job_api.
//
//   node bench/anomalies-throughput.ts      # --series 28 --throughput-series 200 --length 336 --rounds 3
//
// One service for everything (its first request, on 2 series, loads the model and warms the pool), its sync
// budget raised to 600 s so that the throughput workload is measured, not refused (the catalog's cost of auto-ets
// on hourly data is ~5 × what it takes here); the direct baseline is a fresh Python process per run, only its
// statsforecast calls timed. api and direct alternate within a round; medians over the rounds. Measures and
// reports; never asserts.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { DATASETS, DEFAULT_DATA_DIR, indexDates } from '../eval/datasets.ts';

const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '28' }, 'throughput-series': { type: 'string', default: '200' },
    length: { type: 'string', default: '336' }, rounds: { type: 'string', default: '3' },
  },
});
const [SYNC_N, N, LENGTH, ROUNDS] = [args.series, args['throughput-series'], args.length, args.rounds].map(Number);
const LEVEL = 99;
const MIN_HISTORY = 48; // the default of H: two seasons
const cores = availableParallelism();
const repo = fileURLToPath(new URL('..', import.meta.url));
const python = join(repo, 'runtime', '.venv-core', 'bin', 'python');

const all = DATASETS.find((d) => d.key === 'm4-hourly')!.load(DEFAULT_DATA_DIR).map((s) => s.train.slice(-LENGTH));
const [targets, syncTargets] = [all.slice(0, N), all.slice(0, SYNC_N)];
const index = indexDates('H', new Date(Date.UTC(2024, 0, 1)), LENGTH);
const body = (series: number[][], mode?: string) =>
  ({ model: 'auto-ets', freq: 'H', level: LEVEL, ...(mode && { mode }), series: series.map((target) => ({ target, index })) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

function direct(jobs: number): { seconds: number; anomalies: number } {
  const dir = mkdtempSync(join(tmpdir(), 'horizon-sf-anomalies-'));
  try {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify({ series: targets, season_length: 24, level: LEVEL, n_jobs: jobs, scored_from: MIN_HISTORY }));
    const out = execFileSync(python, [join(repo, 'bench', 'statsforecast_anomalies.py'), file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(out.trim().split('\n').at(-1)!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadBefore = load();
process.env.HORIZON_SYNC_BUDGET_MS = '600000';
const service = await startService({ inferenceTimeoutMs: 1_200_000 });
try {
  const post = async (payload: unknown) => {
    const started = performance.now();
    const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
    // a connection per request (reset): one kept alive through a minute of direct runs can be closed under the next request
    const options = { method: 'POST' as const, headers, body: JSON.stringify(payload), headersTimeout: 0, bodyTimeout: 0, reset: true };
    const res = await request(`${service.url}/v1/anomalies`, options);
    const json = await res.body.json() as any;
    return { seconds: (performance.now() - started) / 1000, status: res.statusCode, json };
  };
  const ok = async (payload: unknown) => {
    const answer = await post(payload);
    if (answer.status !== 200) throw new Error(`POST /v1/anomalies answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`);
    if (answer.json.mode !== 'in-sample') throw new Error(`answered in mode ${answer.json.mode}`);
    return answer;
  };
  await ok(body(targets.slice(0, 2)));
  const times: Record<string, number[]> = { api: [], [`direct n_jobs=${cores}`]: [], 'direct n_jobs=1': [], [`api, ${SYNC_N} series`]: [] };
  const found = { api: 0, direct: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? ['direct', 'api'] : ['api', 'direct']) {
      if (mode === 'api') {
        const answer = await ok(body(targets));
        times.api.push(answer.seconds);
        found.api = answer.json.n_anomalies;
        times[`api, ${SYNC_N} series`].push((await ok(body(syncTargets))).seconds);
      } else {
        const run = direct(cores);
        times[`direct n_jobs=${cores}`].push(run.seconds);
        times['direct n_jobs=1'].push(direct(1).seconds);
        found.direct = run.anomalies;
      }
    }
  }
  const windows = await post(body(syncTargets, 'windows'));
  console.log(`anomalies, auto-ets level ${LEVEL}: M4 Hourly series × ${LENGTH} points, min_history ${MIN_HISTORY}; ${cores} cores; `
    + `load before ${loadBefore}, after ${load()}; medians of ${ROUNDS} rounds`);
  const rate = (key: string, n = N) => n / median(times[key]);
  for (const key of Object.keys(times)) {
    const each = times[key].map((t) => t.toFixed(2)).join(', ');
    const n = key.startsWith('api, ') ? SYNC_N : N;
    console.log(`  ${key.padEnd(18)} ${String(n).padStart(4)} series  ${median(times[key]).toFixed(2)} s  ${rate(key, n).toFixed(1)} series/s  (${each})`);
  }
  console.log(`  anomalies flagged from position ${MIN_HISTORY} on, ${N} series: api ${found.api}, direct ${found.direct}`);
  const ratio = (key: string) => (rate('api') / rate(key)).toFixed(2);
  console.log(`  ratio api ÷ direct n_jobs=${cores}: ${ratio(`direct n_jobs=${cores}`)} (goal ≥ 0.9); api ÷ direct n_jobs=1: ${ratio('direct n_jobs=1')}`);
  console.log(`  sync answer of ${SYNC_N} × ${LENGTH}: ${median(times[`api, ${SYNC_N} series`]).toFixed(2)} s (goal ≤ 15 s)`);
  const refusal = String(windows.json.detail ?? '').slice(0, 150);
  console.log(`  mode windows, ${SYNC_N} series: ${windows.status} ${windows.json.code ?? ''} in ${(1000 * windows.seconds).toFixed(0)} ms: ${refusal}`);
} finally {
  await service.close();
}
