// IBM's granite-tsfm models, FlowState (`flowstate`) and PatchTST-FM (`patchtst-fm`, sizes r1 and r2), runtime group
// granite, end to end: POST /v1/forecast through the real control plane and the real granite worker on tiny
// random-weight checkpoints (runtime/tests/fixtures/granite.py, run with the group's own python), compared with
// granite-tsfm 0.3.11 called plainly on the same checkpoint and values (runtime/tests/granite_reference.py), within
// each model's measured tolerance (docs/models.md); GET /v1/models rows with their Apache-2.0 licence; `models pull`
// through the real huggingface_hub client from a Hub stand-in (FlowState's catalog revision is the branch r1.1). The
// granite venv must exist (scripts/setup-test.sh builds every group): without it every test here fails, naming the
// command that builds it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubStandIn } from './hub-standin.ts';
import { startTestServer, monthlyDates, dailyDates, type TestServer } from './helpers.ts';
import { assertClose, assertForecast, parityTolerance, reference, REPO, venvPython, writeFixtures, TOLERANCES, type Prediction } from './parity.ts';

const GROUP = 'granite';
const RUNS = [['flowstate', 'r1.1'], ['patchtst-fm', 'r1'], ['patchtst-fm', 'r2']] as const;
const QUANTILES = [0.1, 0.5, 0.9];
const round = (v: number) => Math.round(v * 1000) / 1000;

/** monthly, two missing values (one leading); daily, longer than FlowState's monthly window; yearly, short */
const monthly: (number | null)[] = Array.from({ length: 60 }, (_, i) => round(100 + 10 * Math.sin((2 * Math.PI * i) / 12) + 0.5 * i));
monthly[0] = null;
monthly[30] = null;
const daily = Array.from({ length: 600 }, (_, i) => round(50 + 5 * Math.sin((2 * Math.PI * i) / 7) + 3 * Math.cos(i / 40) + (i % 5)));
const yearly = Array.from({ length: 20 }, (_, i) => round(1000 * 1.03 ** i + 20 * Math.sin(i)));

interface Case { freq: string; horizon: number; target: (number | null)[]; index: string[]; forecastIndex: string[] }
// monthly 12 (FlowState: one decoder patch of 12 at scale 2), monthly 40 (FlowState decodes masked patches; PatchTST-FM
// still its minimum 128-step forecast window), daily 200 (PatchTST-FM: a forecast window longer than 128), yearly 6
const CASES: Record<string, Case> = {
  monthly: { freq: 'MS', horizon: 12, target: monthly, index: monthlyDates('2019-01', 60), forecastIndex: monthlyDates('2024-01', 12) },
  'monthly-long': { freq: 'MS', horizon: 40, target: monthly, index: monthlyDates('2019-01', 60), forecastIndex: monthlyDates('2024-01', 40) },
  daily: { freq: 'D', horizon: 200, target: daily, index: dailyDates('2020-01-01', 600), forecastIndex: dailyDates('2021-08-23', 200) },
  yearly: { freq: 'Y', horizon: 6, target: yearly, index: Array.from({ length: 20 }, (_, i) => `${2000 + i}-01-01`),
    forecastIndex: Array.from({ length: 6 }, (_, i) => `${2020 + i}-01-01`) },
};

let server: TestServer;
let weights: string;
/** `${model}/${size}/${case}` -> the library's forecast */
const expected = new Map<string, Prediction>();

before(async () => {
  venvPython(GROUP);
  weights = writeFixtures(['flowstate', 'patchtst-fm'], GROUP);
  const keys = RUNS.flatMap(([model, size]) => Object.keys(CASES).map((name) => ({ model, size, name })));
  const cases = keys.map(({ model, size, name }) => ({
    weights: join(weights, model, size), model, freq: CASES[name].freq, horizon: CASES[name].horizon, quantiles: QUANTILES, series: [{ target: CASES[name].target }],
  }));
  const results = reference('granite_reference.py', cases, GROUP);
  keys.forEach(({ model, size, name }, i) => expected.set(`${model}/${size}/${name}`, results[i][0]));
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_RUNTIME_GROUPS: GROUP });
});
after(async () => {
  await server?.close();
  if (weights) rmSync(weights, { recursive: true, force: true });
});

async function forecast(s: TestServer, body: Record<string, unknown>) {
  const res = await s.request('POST', '/v1/forecast', { body: { quantiles: QUANTILES, ...body } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('granite-tsfm models through POST /v1/forecast', () => {
  it('GET /v1/models lists flowstate and patchtst-fm with their caps, no covariates and the Apache-2.0 licence (no opt-in)', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const row = (id: string) => res.body.models.find((m: { model_id: string }) => m.model_id === id);
    const flow = row('flowstate');
    assert.deepEqual([flow.available, flow.sizes, flow.supports_covariates], [true, ['r1.1'], false], res.text);
    assert.deepEqual(flow.size_limits, { 'r1.1': { max_context: 16384, max_horizon: 256 } });
    const patch = row('patchtst-fm');
    assert.deepEqual([patch.available, patch.sizes, patch.supports_covariates], [true, ['r1', 'r2'], false], res.text);
    assert.deepEqual(patch.size_limits, { r1: { max_context: 8064, max_horizon: 1024 }, r2: { max_context: 8064, max_horizon: 1024 } });
    for (const m of [flow, patch]) {
      assert.equal(m.license.id, 'Apache-2.0');
      assert.deepEqual([m.license.commercial, m.license.requires_opt_in, m.license.accepted], [true, false, true]);
    }
  });

  for (const [model, size] of RUNS) {
    for (const [name, c] of Object.entries(CASES)) {
      it(`${model} ${size}, ${name} (${c.freq}, horizon ${c.horizon}): equal to granite-tsfm called plainly`, async () => {
        const body = await forecast(server, { model, model_size: size, freq: c.freq, horizon: c.horizon, series: [{ target: c.target, index: c.index }] });
        assert.deepEqual([body.model, body.model_size], [model, size]);
        assertForecast(body.series[0][0], expected.get(`${model}/${size}/${name}`)!,
          { index: c.forecastIndex, quantiles: QUANTILES, tol: parityTolerance(model) }, `${model}/${size} ${name}`);
      });
    }
  }

  it('the frequency reaches FlowState (its time scale): the same values as MS and as D forecast differently', async () => {
    const asMonthly = await forecast(server, { model: 'flowstate', freq: 'MS', horizon: 12, series: [{ target: monthly, index: CASES.monthly.index }] });
    const asDaily = await forecast(server, { model: 'flowstate', freq: 'D', horizon: 12, series: [{ target: monthly, index: dailyDates('2019-01-01', 60) }] });
    assert.notDeepEqual(asDaily.series[0][0].prediction.mean, asMonthly.series[0][0].prediction.mean);
  });

  for (const [model, size] of RUNS) {
    it(`${model} ${size}: a series alone equals the same series inside a batch (other and equal lengths) and among concurrent requests`, async () => {
      const c = CASES.monthly;
      const others = [
        { target: monthly.map((v, i) => (v === null ? null : round(v * 1.5 + (i % 3)))), index: c.index }, // same length: the same library call
        { target: Array.from({ length: 700 }, (_, i) => round(i % 13)), index: monthlyDates('1960-01', 700) },
        { target: Array.from({ length: 33 }, (_, i) => round(5 * Math.cos(i))), index: monthlyDates('2021-04', 33) },
      ];
      const request = (series: unknown[]) => forecast(server, { model, model_size: size, freq: 'MS', horizon: 12, series });
      const alone = (await request([{ target: monthly, index: c.index }])).series[0][0].prediction;
      const batched = await request([others[0], others[1], { target: monthly, index: c.index }, others[2]]);
      const concurrent = await Promise.all([request([others[1], others[0]]), request([{ target: monthly, index: c.index }]), request([others[2]])]);
      for (const [what, prediction] of [['batch', batched.series[2][0].prediction], ['concurrent', concurrent[1].series[0][0].prediction]] as const) {
        for (const key of ['mean', ...QUANTILES.map(String)]) assertClose(prediction[key], alone[key], `${model}/${size} ${what} ${key}`, TOLERANCES[model].batch);
      }
    });
  }

  it('levels: PatchTST-FM answers any level on its 0.01 grid as predicted; FlowState gives levels outside 0.1-0.9 the nearest with a warning', async () => {
    const levels = [0.05, 0.1, 0.25, 0.5, 0.95];
    const series = [{ target: monthly, index: CASES.monthly.index }];
    const patch = await forecast(server, { model: 'patchtst-fm', freq: 'MS', horizon: 12, quantiles: levels, series });
    assert.deepEqual(patch.warnings, []);
    assert.notDeepEqual(patch.series[0][0].prediction['0.05'], patch.series[0][0].prediction['0.1']);
    const flow = await forecast(server, { model: 'flowstate', freq: 'MS', horizon: 12, quantiles: levels, series });
    const prediction = flow.series[0][0].prediction;
    assert.deepEqual(prediction['0.05'], prediction['0.1']);
    assert.match(JSON.stringify(flow.warnings), /0\.05, 0\.95 lie outside 0\.1-0\.9/);
    for (const body of [patch, flow]) {
      const p = body.series[0][0].prediction;
      for (let l = 1; l < levels.length; l++) p[String(levels[l])].forEach((v: number, t: number) => assert.ok(v >= p[String(levels[l - 1])][t]));
    }
  });

  it('covariates are dropped with a warning; the forecast is the one without them', async () => {
    const body = await forecast(server, {
      model: 'patchtst-fm', model_size: 'r1', freq: 'MS', horizon: 12,
      series: [{ target: monthly, index: CASES.monthly.index, hist_variables: { price: monthly.map((_, i) => i % 3) }, static_variables: { store: 7 } }],
    });
    assert.match(JSON.stringify(body.warnings), /price/);
    assertClose(body.series[0][0].prediction.mean, expected.get('patchtst-fm/r1/monthly')!.mean, 'mean', parityTolerance('patchtst-fm'));
  });
});

describe('granite-tsfm models without weights, and `models pull` from a Hub stand-in', () => {
  let scratch: string;
  let hub: HubStandIn;
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'horizon-granite-pull-'));
    hub = new HubStandIn({
      repos: {
        'ibm-granite/granite-timeseries-flowstate-r1': { dir: join(weights, 'flowstate', 'r1.1'), branches: ['r1.1'], extra: { 'README.md': '# FlowState\n' } },
        'ibm-granite/granite-timeseries-patchtst-fm-r2': { dir: join(weights, 'patchtst-fm', 'r2'), extra: { 'README.md': '# PatchTST-FM\n' } },
      },
    });
    await hub.start();
  });
  after(async () => {
    await hub?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('with no weights both are listed unavailable (weights_missing, the pull command of the default size)', async () => {
    const empty = await startTestServer({ HORIZON_MODEL_DIR: join(scratch, 'empty'), HORIZON_RUNTIME_GROUPS: GROUP });
    try {
      const res = await empty.request('GET', '/v1/models');
      for (const [id, size] of [['flowstate', 'r1.1'], ['patchtst-fm', 'r2']]) {
        const listed = res.body.models.find((m: { model_id: string }) => m.model_id === id);
        assert.equal(listed?.available, false, res.text);
        assert.deepEqual([listed.unavailable_reason.code, listed.unavailable_reason.command], ['weights_missing', `./horizon models pull ${id} --size ${size}`]);
      }
    } finally { await empty.close(); }
  });

  it('models pull fetches the catalog revision (FlowState: branch r1.1) with the real client; the pulled checkpoints forecast as the library does', async () => {
    const modelDir = join(scratch, 'pulled');
    const pull = (id: string) => new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, ['src/cli/main.ts', 'models', 'pull', id], {
        cwd: REPO, env: { ...process.env, HF_ENDPOINT: hub.url, HF_HOME: join(scratch, 'hf-home'), HF_TOKEN: '', HORIZON_MODEL_DIR: modelDir },
      }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }));
    });
    const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    for (const [id, size, repo, revision] of [
      ['flowstate', 'r1.1', 'ibm-granite/granite-timeseries-flowstate-r1', 'r1.1'], ['patchtst-fm', 'r2', 'ibm-granite/granite-timeseries-patchtst-fm-r2', 'main'],
    ]) {
      const result = await pull(id);
      assert.equal(result.code, 0, result.out);
      const record = JSON.parse(readFileSync(join(modelDir, id, size, '.horizon-pull.json'), 'utf8'));
      assert.deepEqual([record.repo, record.revision, record.commit], [repo, revision, hub.commit(repo)]);
      for (const file of ['config.json', 'model.safetensors']) assert.equal(sha256(join(modelDir, id, size, file)), sha256(join(weights, id, size, file)), `${id}/${file}`);
    }
    const pulled = await startTestServer({ HORIZON_MODEL_DIR: modelDir, HORIZON_RUNTIME_GROUPS: GROUP });
    try {
      const c = CASES.monthly;
      for (const [id, size] of [['flowstate', 'r1.1'], ['patchtst-fm', 'r2']]) {
        const body = await forecast(pulled, { model: id, freq: c.freq, horizon: c.horizon, series: [{ target: c.target, index: c.index }] });
        assertForecast(body.series[0][0], expected.get(`${id}/${size}/monthly`)!, { index: c.forecastIndex, quantiles: QUANTILES, tol: parityTolerance(id) }, `${id} pulled`);
      }
    } finally { await pulled.close(); }
  });
});
