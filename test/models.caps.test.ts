// Every foundation model at once: with a tiny checkpoint of every family in one HORIZON_MODEL_DIR
// (runtime/tests/fixtures --models all; timesfm from its own venv), GET /v1/models lists
// each id with the caps of ../shared/research/models.md (tirex: fixed by the contract), its licence
// and covariate support; a horizon over a model's cap is 422 naming the cap; licence-gated models are
// listed as unavailable and refused with 403 until the operator opts in.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const venvPython = (group: string) => join(REPO, 'runtime', `.venv-${group}`, 'bin', 'python');

// id -> size -> [max_context, max_horizon], as models.md states them (source in the comment)
const CAPS: Record<string, Record<string, [number, number]>> = {
  chronos: { tiny: [512, 64], small: [512, 64], base: [512, 64], large: [512, 64] }, // §2: 512 / 64
  'chronos-bolt': { tiny: [2048, 64], mini: [2048, 64], small: [2048, 64], base: [2048, 64] }, // §2: 2048 / 64
  'chronos-2': { small: [8192, 1024], base: [8192, 1024] }, // 8192 / 1024 (64 patches of 16)
  timesfm: { '200m': [512, 512] }, // 512 context; horizon autoregressive (512 chosen)
  'timesfm-2': { '200m': [15360, 1024] }, // context + horizon <= 16384; quantile head <= 1024
  'timesfm-3': { '330m': [15360, 1024] }, // _MAX_CONTEXT_LENGTH 15360; no hard horizon cap (1024 chosen)
  'moirai-2': { small: [1680, 512] }, // example context 1680; horizon recursive (512 chosen)
  'tabpfn-ts': { default: [32768, 1024] }, // max_context_length default 32768 rows; any horizon (1024 chosen)
  tirex: { default: [2016, 512] }, // contract: 2016 / 512
  'tirex-2': { default: [2048, 320] }, // the tirex-2 repo's full-size configuration: context_len 2048, future_len 320
  'house-tsfm': { base: [2048, 512] }, // context 2048 (training window); horizon autoregressive (512 chosen)
  'toto-2': { '2.5b': [4096, 1024] }, // trained for 4096; any horizon (1024 chosen)
  'toto-2-ft': { '2.5b': [4096, 1024] },
};
const GATED = ['timesfm-3', 'moirai-2', 'tabpfn-ts', 'tirex', 'tirex-2'];
const COVARIATES: Record<string, boolean> = {
  chronos: false, 'chronos-bolt': false, 'chronos-2': true, timesfm: false, 'timesfm-2': false, 'timesfm-3': true,
  'moirai-2': true, 'tabpfn-ts': true, tirex: false, 'tirex-2': true, 'house-tsfm': true, 'toto-2': false, 'toto-2-ft': false,
};

interface Listed { model_id: string; sizes: string[]; size_limits: Record<string, { max_context: number; max_horizon: number }>; supports_covariates: boolean; available: boolean; license: { id: string; requires_opt_in: boolean; accepted: boolean } }

let weights: string;
let server: TestServer;
let gated: TestServer;

before(async () => {
  for (const group of ['core', 'timesfm1']) {
    assert.ok(existsSync(venvPython(group)), `runtime/.venv-${group} is missing: run bash runtime/setup.sh ${group}`);
  }
  weights = mkdtempSync(join(tmpdir(), 'horizon-all-weights-'));
  const ids = Object.keys(CAPS).filter((id) => id !== 'timesfm').join(',');
  execFileSync(venvPython('core'), ['-m', 'tests.fixtures', '--models', ids, '--out', weights], { cwd: join(REPO, 'runtime'), stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(venvPython('timesfm1'), ['-m', 'tests.fixtures', '--models', 'timesfm', '--out', weights], { cwd: join(REPO, 'runtime'), stdio: ['ignore', 'ignore', 'inherit'] });
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: '*' });
  gated = await startTestServer({ HORIZON_MODEL_DIR: weights });
});
after(async () => {
  await server?.close();
  await gated?.close();
  rmSync(weights, { recursive: true, force: true });
});

async function listed(s: TestServer): Promise<Map<string, Listed>> {
  const res = await s.request('GET', '/v1/models');
  assert.equal(res.status, 200, res.text);
  return new Map((res.body.models as Listed[]).map((m) => [m.model_id, m]));
}

describe('every foundation model with weights', () => {
  it('GET /v1/models lists each id and size with the caps of models.md, covariate support and licence', async () => {
    const models = await listed(server);
    for (const [id, sizes] of Object.entries(CAPS)) {
      const m = models.get(id);
      assert.ok(m, `${id} listed (got ${[...models.keys()]})`);
      assert.deepEqual(m.sizes, Object.keys(sizes), id);
      for (const [size, [context, horizon]] of Object.entries(sizes)) {
        assert.deepEqual(m.size_limits[size], { max_context: context, max_horizon: horizon }, `${id}/${size}`);
      }
      assert.equal(m.supports_covariates, COVARIATES[id], `${id} covariates`);
      assert.equal(m.license.requires_opt_in, GATED.includes(id), `${id} licence opt-in`);
      assert.equal(m.available, true, `${id} available with HORIZON_ACCEPT_LICENSES=*`);
    }
  });

  it('a horizon over the cap is 422 naming the cap, for every model and size', async () => {
    for (const [id, sizes] of Object.entries(CAPS)) {
      for (const [size, [, horizon]] of Object.entries(sizes)) {
        const res = await server.request('POST', '/v1/forecast', { body: { model: id, model_size: size, freq: 'MS', horizon: horizon + 1, series: [{ target: [1, 2, 3, 4, 5, 6], index: monthlyDates('2020-01', 6) }] } });
        assert.equal(res.status, 422, `${id}/${size}: ${res.text}`);
        assert.equal(res.body.errors[0].field, 'horizon');
        assert.match(res.body.errors[0].reason, new RegExp(`max_horizon ${horizon}\\b`));
      }
    }
  });

  it('without the opt-in, gated models are listed unavailable and refused with 403; the others serve', async () => {
    const models = await listed(gated);
    for (const id of GATED) {
      assert.equal(models.get(id)?.available, false, id);
      const res = await gated.request('POST', '/v1/forecast', { body: { model: id, freq: 'MS', horizon: 3, series: [{ target: [1, 2, 3, 4, 5, 6, 7, 8], index: monthlyDates('2020-01', 8) }] } });
      assert.equal(res.status, 403, `${id}: ${res.text}`);
      assert.equal(res.body.code, 'license_not_accepted');
    }
    assert.equal(models.get('toto-2')?.available, true);
  });
});
