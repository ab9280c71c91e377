// Statistical models on every core (issue 26): auto-ets through the API against statsforecast called by
// hand on the same data, in the same run —
//   api c=K      POST /v1/forecast of `--series` M3 monthly series (training parts, horizon 18) with
//                model auto-ets, on a service whose worker has HORIZON_CPU_WORKERS=K (1 and the cores)
//   direct       StatsForecast(models=[AutoETS(season_length=12)], freq="MS", n_jobs=cores).forecast(df, h=18, level=[80])
//                (bench/statsforecast_direct.py; only the forecast call is timed)
// ratios: api(cores) series/s ÷ direct series/s (goal ≥ 0.9) and api(cores) ÷ api(1) (goal ≥ 1.7 on 2 cores).
//
//   node bench/statistical-scaling.ts                       # --series 617 --rounds 2
//   node bench/statistical-scaling.ts --series 200 --rounds 1
//
// Each round runs every mode once (a fresh service per K; its first request, on 4 series, warms the pool).
// Medians over the rounds. Measures and reports; never asserts.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { DEFAULT_DATA_DIR, readTsf } from '../eval/datasets.ts';

const { values: args } = parseArgs({ options: { series: { type: 'string', default: '617' }, rounds: { type: 'string', default: '2' } } });
const N = Number(args.series);
const ROUNDS = Number(args.rounds);
const H = 18;
const cores = availableParallelism();
const repo = fileURLToPath(new URL('..', import.meta.url));
const python = join(repo, 'runtime', '.venv-core', 'bin', 'python');

const tsf = readTsf(join(DEFAULT_DATA_DIR, 'monash', 'm3_monthly_dataset.tsf'));
const targets = tsf.series.slice(0, N).map((s) => s.values.slice(0, -H));
const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const body = (series: number[][]) => ({ model: 'auto-ets', freq: 'MS', horizon: H, quantiles: [0.1, 0.5, 0.9], series: series.map((target) => ({ target, index: monthly(target.length) })) });

async function api(workers: number): Promise<number> {
  process.env.HORIZON_CPU_WORKERS = String(workers);
  process.env.HORIZON_SYNC_BUDGET_MS = String(3_600_000); // measure the model, not the refusal
  const service = await startService({ inferenceTimeoutMs: 3_600_000 });
  try {
    const post = async (payload: unknown) => {
      const res = await request(`${service.url}/v1/forecast`, { method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: JSON.stringify(payload), headersTimeout: 0, bodyTimeout: 0 });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${text.slice(0, 300)}`);
    };
    await post(body(targets.slice(0, 4)));
    const started = performance.now();
    await post(body(targets));
    return (performance.now() - started) / 1000;
  } finally {
    await service.close();
  }
}

function direct(jobs: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'horizon-sf-direct-'));
  try {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify({ series: targets, horizon: H, season_length: 12, levels: [80], n_jobs: jobs }));
    const out = execFileSync(python, [join(repo, 'bench', 'statsforecast_direct.py'), file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(out.trim().split('\n').at(-1)!).seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const times: Record<string, number[]> = { [`api c=${cores}`]: [], 'api c=1': [], [`direct n_jobs=${cores}`]: [] };
console.log(`auto-ets, ${N} M3 monthly series (${targets.reduce((s, t) => s + t.length, 0)} observations), h ${H}; ${cores} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? ['direct', 'api1', 'apiN'] : ['apiN', 'api1', 'direct'];
  for (const mode of order) {
    if (mode === 'apiN') times[`api c=${cores}`].push(await api(cores));
    else if (mode === 'api1') times['api c=1'].push(await api(1));
    else times[`direct n_jobs=${cores}`].push(direct(cores));
  }
  console.log(`round ${round + 1}: ${Object.entries(times).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(2)} s`).join(', ')}`);
}
const rate = (k: string) => N / median(times[k]);
for (const k of Object.keys(times)) console.log(`${k.padEnd(16)} ${median(times[k]).toFixed(2)} s  ${rate(k).toFixed(1)} series/s`);
console.log(`ratio api c=${cores} ÷ direct n_jobs=${cores}: ${(rate(`api c=${cores}`) / rate(`direct n_jobs=${cores}`)).toFixed(3)} (goal ≥ 0.9)`);
console.log(`ratio api c=${cores} ÷ api c=1: ${(rate(`api c=${cores}`) / rate('api c=1')).toFixed(3)} (goal ≥ 1.7 on 2 cores)`);
