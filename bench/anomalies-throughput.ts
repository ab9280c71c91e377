// Anomaly detection at the cost of one fit per series (issue 33): POST /v1/anomalies with auto-ets at level 99
// (mode in-sample, its default for a statistical model at step 1) against statsforecast's own in-sample-interval
// approach called directly on the same data:
//   api         POST /v1/anomalies {model: "auto-ets", level: 99, freq: "H"} of `--series` M4 Hourly series (the
//               last `--length` training values each), on a service whose worker fits on every core (CPU pool)
//   direct      StatsForecast(models=[AutoETS(season_length=24)], freq="h", n_jobs=cores).forecast(df, h=1,
//               level=[99], fitted=True) + forecast_fitted_values() + the flags (bench/statsforecast_anomalies.py)
//   windows     the same request in mode windows (a refit per timestep): answered 413 use_job_api at once
// ratio: api series/s ÷ direct series/s (goal ≥ 0.9); and the api's wall time (goal ≤ 15 s for 28 × 336).
//
//   node bench/anomalies-throughput.ts                    # --series 28 --length 336 --rounds 3
//
// One service for every round (its first request, on 2 series, loads the model and warms the pool); the
// direct baseline is a fresh Python process per round, only its statsforecast calls timed. Medians over the
// rounds. Measures and reports; never asserts.
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
  options: { series: { type: 'string', default: '28' }, length: { type: 'string', default: '336' }, rounds: { type: 'string', default: '3' } },
});
const [N, LENGTH, ROUNDS] = [args.series, args.length, args.rounds].map(Number);
const LEVEL = 99;
const MIN_HISTORY = 48; // the default of H: two seasons
const cores = availableParallelism();
const repo = fileURLToPath(new URL('..', import.meta.url));
const python = join(repo, 'runtime', '.venv-core', 'bin', 'python');

const targets = DATASETS.find((d) => d.key === 'm4-hourly')!.load(DEFAULT_DATA_DIR).slice(0, N).map((s) => s.train.slice(-LENGTH));
const index = indexDates('H', new Date(Date.UTC(2024, 0, 1)), LENGTH);
const body = (series: number[][], mode?: string) =>
  ({ model: 'auto-ets', freq: 'H', level: LEVEL, ...(mode && { mode }), series: series.map((target) => ({ target, index })) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

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

const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
const service = await startService();
try {
  const post = async (payload: unknown) => {
    const started = performance.now();
    const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
    const res = await request(`${service.url}/v1/anomalies`, { method: 'POST', headers, body: JSON.stringify(payload), headersTimeout: 0, bodyTimeout: 0 });
    const json = await res.body.json() as any;
    return { seconds: (performance.now() - started) / 1000, status: res.statusCode, json };
  };
  const warm = await post(body(targets.slice(0, 2)));
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${JSON.stringify(warm.json).slice(0, 300)}`);
  const times: Record<string, number[]> = { api: [], [`direct n_jobs=${cores}`]: [], 'direct n_jobs=1': [] };
  const found = { api: 0, direct: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? ['direct', 'api'] : ['api', 'direct']) {
      if (mode === 'api') {
        const answer = await post(body(targets));
        if (answer.status !== 200 || answer.json.mode !== 'in-sample') {
          throw new Error(`POST /v1/anomalies answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`);
        }
        times.api.push(answer.seconds);
        found.api = answer.json.n_anomalies;
      } else {
        const run = direct(cores);
        times[`direct n_jobs=${cores}`].push(run.seconds);
        times['direct n_jobs=1'].push(direct(1).seconds);
        found.direct = run.anomalies;
      }
    }
  }
  const windows = await post(body(targets, 'windows'));
  const points = targets.reduce((sum, t) => sum + t.length, 0);
  const loadAfter = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`anomalies, auto-ets level ${LEVEL}: ${N} M4 Hourly series × ${LENGTH} points (${points} observations), min_history ${MIN_HISTORY}; `
    + `${cores} cores; load before ${loadBefore}, after ${loadAfter}; medians of ${ROUNDS} rounds`);
  const rate = (key: string) => N / median(times[key]);
  for (const key of Object.keys(times)) {
    const each = times[key].map((t) => t.toFixed(2)).join(', ');
    console.log(`  ${key.padEnd(18)} ${median(times[key]).toFixed(2)} s  ${rate(key).toFixed(1)} series/s  (${each})`);
  }
  console.log(`  anomalies flagged from position ${MIN_HISTORY} on: api ${found.api}, direct ${found.direct}`);
  const ratio = (key: string) => (rate('api') / rate(key)).toFixed(2);
  console.log(`  ratio api ÷ direct n_jobs=${cores}: ${ratio(`direct n_jobs=${cores}`)} (goal ≥ 0.9); api ÷ direct n_jobs=1: ${ratio('direct n_jobs=1')}`);
  console.log(`  sync answer of ${N} × ${LENGTH}: ${median(times.api).toFixed(2)} s (goal ≤ 15 s)`);
  const refusal = String(windows.json.detail ?? '').slice(0, 160);
  console.log(`  mode windows on the same body: ${windows.status} ${windows.json.code ?? ''} in ${(1000 * windows.seconds).toFixed(0)} ms: ${refusal}`);
} finally {
  await service.close();
}
