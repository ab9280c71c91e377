// What the model test files share: tiny fixture checkpoints, the reference scripts that call the
// official libraries directly, and the checks that hold a forecast from the API to the reference.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monthlyDates, type TestServer } from './helpers.ts';

export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** One series' prediction as the reference scripts print it. */
export interface Prediction { mean: number[]; quantiles: Record<string, number[]> }

/** A runtime group's python; fails (never skips) when the group's venv is not set up. */
export function venvPython(group = 'core'): string {
  const python = join(REPO, 'runtime', `.venv-${group}`, 'bin', 'python');
  assert.ok(existsSync(python), `runtime/.venv-${group} is missing: run bash runtime/setup.sh ${group}`);
  return python;
}

/** Tiny random-weight checkpoints of `models` (runtime/tests/fixtures: `python -m tests.fixtures` in runtime/) in a new temp
 * dir, or in `out`. The recipes are seeded (the same command writes the same weights), so each model's checkpoints are
 * written once per checkout into node_modules/.cache/horizon-fixtures/<key>/<model>/ and copied from there: ~20 test
 * files ask for them, most for the same few models, and each `python -m tests.fixtures` imports torch and the model's
 * library. The key is a digest of what the files depend on (fixtureKey), so a changed recipe or library writes anew. */
export function writeFixtures(models: string[], group = 'core', out = mkdtempSync(join(tmpdir(), 'horizon-weights-'))): string {
  const root = join(REPO, 'node_modules', '.cache', 'horizon-fixtures');
  const cache = join(root, fixtureKey(group));
  const missing = models.filter((m) => !existsSync(join(cache, m)));
  if (missing.length) {
    mkdirSync(cache, { recursive: true });
    // written beside the cache and renamed into it: a test file running at the same time never sees half a model
    const fresh = mkdtempSync(join(root, 'writing-'));
    try {
      execFileSync(venvPython(group), ['-m', 'tests.fixtures', '--models', missing.join(','), '--out', fresh], {
        cwd: join(REPO, 'runtime'), stdio: ['ignore', 'ignore', 'inherit'],
      });
      for (const model of missing) {
        if (!existsSync(join(fresh, model))) continue; // its library is not in this group's venv: skipped, as the command says
        try { renameSync(join(fresh, model), join(cache, model)); } catch (error) {
          // another test file wrote the same model first: the same files
          if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
        }
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  for (const model of models) if (existsSync(join(cache, model))) cpSync(join(cache, model), join(out, model), { recursive: true });
  return out;
}

/** What a group's fixture files depend on: its venv (the stamp runtime/setup.sh writes: Python and the pins), the recipes,
 * the runtime package they import and the catalog (the sizes written). */
function fixtureKey(group: string): string {
  const hash = createHash('sha256').update(group);
  const add = (path: string) => { if (existsSync(path)) hash.update(path).update(readFileSync(path)); };
  add(join(REPO, 'runtime', `.venv-${group}`, '.horizon-requirements'));
  add(join(REPO, 'catalog', 'models.json'));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && entry.name !== '__pycache__') walk(join(dir, entry.name));
      else if (entry.name.endsWith('.py')) add(join(dir, entry.name));
    }
  };
  walk(join(REPO, 'runtime', 'tests', 'fixtures'));
  walk(join(REPO, 'runtime', 'horizon_runtime'));
  return hash.digest('hex').slice(0, 16);
}

/** runtime/tests/<script> on `cases` (JSON on stdin): the official library's predictions, per case and series. */
export function reference(script: string, cases: unknown, group = 'core'): Prediction[][] {
  const out = execFileSync(venvPython(group), [join(REPO, 'runtime', 'tests', script)], {
    cwd: REPO, input: JSON.stringify(cases), maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'], // stderr in the error on failure; libraries are chatty
  });
  return JSON.parse(out.toString()) as Prediction[][];
}

/** |actual − wanted| ≤ rel · (|wanted| + floor) at every step (the floor keeps values near 0 from demanding more);
 * rel 0: bitwise equal. */
export interface Tolerance { rel: number; floor: number }

/** Per model id: how far Horizon may differ from the library called plainly (parity) and alone from inside a batch,
 * and why (runtime/tests/parity-tolerances.json, shown in docs/models.md). */
export const TOLERANCES = (JSON.parse(readFileSync(join(REPO, 'runtime', 'tests', 'parity-tolerances.json'), 'utf8')) as {
  models: Record<string, { parity: Tolerance; batch: Tolerance; differs: string }>;
}).models;

/** The measured parity tolerance of `model` (fails for a model without a row); `inBatch`: for a series that shared its
 * request with others, both measured differences together. */
export function parityTolerance(model: string, inBatch = false): Tolerance {
  const row = TOLERANCES[model];
  assert.ok(row, `${model} has no row in runtime/tests/parity-tolerances.json`);
  return inBatch ? { rel: row.parity.rel + row.batch.rel, floor: Math.max(row.parity.floor, row.batch.floor) } : row.parity;
}

/** The seeds a sampling model (chronos, house-tsfm) draws `targets` with: Horizon's derivation from the values, given
 * to the reference, which seeds the library with it (the seed is an input of the library, not part of its forecast).
 * Decimal strings: 63-bit integers do not fit a JavaScript number. */
export function seriesSeeds(model: 'chronos' | 'house-tsfm', targets: (number | null)[][]): string[] {
  const module = model === 'chronos' ? 'chronos_t5' : 'yug';
  const code = `import json, sys, numpy as np; from horizon_runtime.adapters.${module} import series_seed; `
    + 'print(json.dumps([str(series_seed(np.array([np.nan if v is None else v for v in t], dtype=float))) for t in json.load(sys.stdin)]))';
  const out = execFileSync(venvPython(), ['-c', code], { cwd: join(REPO, 'runtime'), input: JSON.stringify(targets) });
  return JSON.parse(out.toString()) as string[];
}

export function assertClose(actual: number[], wanted: number[], what: string, tol: Tolerance): void {
  assert.equal(actual.length, wanted.length, what);
  actual.forEach((v, t) => assert.ok(Math.abs(v - wanted[t]) <= tol.rel * (Math.abs(wanted[t]) + tol.floor), `${what}[${t}]: ${v} vs ${wanted[t]}`));
}

/** Quantiles never decrease with the level at any step. */
export function assertMonotone(prediction: Record<string, number[]>, levels: number[], what: string): void {
  for (let l = 1; l < levels.length; l++) {
    const [low, high] = [prediction[String(levels[l - 1])], prediction[String(levels[l])]];
    high.forEach((v, t) => assert.ok(v >= low[t], `${what}: quantile ${levels[l]} below ${levels[l - 1]} at step ${t}`));
  }
}

/** One forecast entry of the API against the reference: dates, keys, finite values of the horizon's
 * length, monotone quantiles, and every value equal within `tol`. */
export function assertForecast(
  entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction,
  expect: { index: string[]; quantiles: number[]; tol: Tolerance }, what: string,
): void {
  assert.deepEqual(entry.index, expect.index, what);
  assert.deepEqual(Object.keys(entry.prediction).sort(), [...expect.quantiles.map(String), 'mean'].sort(), what);
  for (const values of Object.values(entry.prediction)) {
    assert.ok(values.length === expect.index.length && values.every(Number.isFinite), `${what}: ${expect.index.length} finite values`);
  }
  assertMonotone(entry.prediction, expect.quantiles, what);
  assertClose(entry.prediction.mean, wanted.mean, `${what} mean`, expect.tol);
  for (const q of expect.quantiles) assertClose(entry.prediction[String(q)], wanted.quantiles[String(q)], `${what} ${q}`, expect.tol);
}

// The monthly case every model test sends: 60 months from 2019-01 (the first and the 31st value
// missing), a 12-month horizon from 2024-01, levels 0.1 / 0.5 / 0.9, and covariate values over the
// history and the horizon (price: smooth; promo: every fourth month).
export const N = 60;
export const HORIZON = 12;
export const QUANTILES = [0.1, 0.5, 0.9];
const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** A yearly-seasonal wave with a trend, rounded to 3 decimals; `phase` shifts the season. */
export const wave = (n: number, phase = 0): number[] => Array.from({ length: n }, (_, i) => round3(100 + 10 * Math.sin((2 * Math.PI * i) / 12 + phase) + 0.5 * i));
export const target: (number | null)[] = wave(N);
target[0] = null;
target[30] = null;
export const index = monthlyDates('2019-01', N);
export const forecastIndex = monthlyDates('2024-01', HORIZON);
export const price = Array.from({ length: N + HORIZON }, (_, i) => round3(10 + Math.cos(i / 2)));
export const promo: number[] = Array.from({ length: N + HORIZON }, (_, i) => (i % 4 === 0 ? 1 : 0));

/** POST /v1/forecast with the monthly defaults (freq MS, HORIZON, QUANTILES) under `body`; must answer 200. */
export async function forecastOk(server: TestServer, body: Record<string, unknown>): Promise<any> {
  const res = await server.request('POST', '/v1/forecast', { body: { freq: 'MS', horizon: HORIZON, quantiles: QUANTILES, ...body } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
