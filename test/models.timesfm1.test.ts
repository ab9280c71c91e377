// TimesFM 1.0 (`timesfm`, runtime group timesfm1) end to end: POST /v1/forecast through the real
// control plane and the real timesfm1 worker on a tiny random-weight checkpoint (python -m
// runtime/tests/fixtures, run with the group's own python), compared with the official
// `timesfm.TimesFm` (timesfm 1.3.0) called plainly on the same checkpoint and values
// (runtime/tests/timesfm1_reference.py), within its measured tolerance (docs/models.md). The timesfm1 venv must exist (scripts/setup-test.sh builds every
// group): without it every test here fails, naming the command that builds it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, monthlyDates, dailyDates, type TestServer } from './helpers.ts';
import { assertClose as assertWithin, assertMonotone, parityTolerance, reference, venvPython, writeFixtures, TOLERANCES, type Prediction } from './parity.ts';

const MODEL = 'timesfm';
const SIZE = '200m';
// The fixture's architecture (runtime/tests/fixtures/timesfm_1.py TINY), given to the
// reference explicitly: the adapter reads it off the checkpoint's shapes, which parity thereby checks.
const ARCHITECTURE = { num_layers: 2, num_heads: 16, model_dims: 64 };
const QUANTILES = [0.1, 0.5, 0.9];

/** The timesfm1 venv, or a failure naming the command that builds it (scripts/setup-test.sh builds every group). */
const requireVenv = () => venvPython('timesfm1');

const round = (v: number) => Math.round(v * 1000) / 1000;
/** monthly: seasonal with a trend, two missing values (one leading: the library drops leading NaNs) */
const N = 60;
const monthly: (number | null)[] = Array.from({ length: N }, (_, i) => round(100 + 10 * Math.sin((2 * Math.PI * i) / 12) + 0.5 * i));
monthly[0] = null;
monthly[30] = null;
const monthlyIndex = monthlyDates('2019-01', N);
const monthlyForecastIndex = monthlyDates('2024-01', 12);
/** daily, longer than the 512-value context: the control plane sends the last 512 */
const D = 600;
const daily = Array.from({ length: D }, (_, i) => round(50 + 5 * Math.sin((2 * Math.PI * i) / 7) + 3 * Math.cos(i / 40) + (i % 5)));
const dailyIndex = dailyDates('2020-01-01', D);
/** yearly, short (frequency category 2) */
const yearly = Array.from({ length: 20 }, (_, i) => round(1000 * 1.03 ** i + 20 * Math.sin(i)));
const yearlyIndex = Array.from({ length: 20 }, (_, i) => `${2000 + i}-01-01`);

interface Case { freq: string; horizon: number; target: (number | null)[]; index: string[]; forecastIndex?: string[] }

// Monthly with horizon 12 (one output patch); daily with horizon 200 (two patches, autoregressive)
// and a context cut to 512; yearly with horizon 6.
const CASES: Record<string, Case> = {
  monthly: { freq: 'MS', horizon: 12, target: monthly, index: monthlyIndex, forecastIndex: monthlyForecastIndex },
  daily: { freq: 'D', horizon: 200, target: daily, index: dailyIndex, forecastIndex: dailyDates('2021-08-23', 200) },
  yearly: { freq: 'Y', horizon: 6, target: yearly, index: yearlyIndex, forecastIndex: Array.from({ length: 6 }, (_, i) => `${2020 + i}-01-01`) },
};

let server: TestServer;
let weights: string;
let expected: Record<string, Prediction>;

before(async () => {
  requireVenv();
  weights = writeFixtures([MODEL], 'timesfm1');
  const checkpoint = join(weights, MODEL, SIZE);
  // the raw series: the library keeps the last 512 (context_len) values itself, as the control plane does
  const cases = Object.values(CASES).map((c) => ({
    weights: checkpoint, architecture: ARCHITECTURE, freq: c.freq, horizon: c.horizon, quantiles: QUANTILES, series: [{ target: c.target }],
  }));
  const results = reference('timesfm1_reference.py', cases, 'timesfm1');
  expected = Object.fromEntries(Object.keys(CASES).map((name, i) => [name, results[i][0]]));
  server = await startTestServer({ HORIZON_MODEL_DIR: weights });
});
after(async () => {
  await server?.close();
  if (weights) rmSync(weights, { recursive: true, force: true });
});

async function forecast(body: Record<string, unknown>) {
  const res = await server.request('POST', '/v1/forecast', { body: { model: MODEL, quantiles: QUANTILES, ...body } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** float32 model: the worker and the reference run the same code, equal up to the last bits. */
const assertClose = (actual: number[], wanted: number[], what: string) => assertWithin(actual, wanted, what, { rel: 1e-5, floor: 1 });
/** Against the library called plainly, and alone against inside a batch: the measured tolerances (docs/models.md). */
const assertParityClose = (actual: number[], wanted: number[], what: string) => assertWithin(actual, wanted, what, parityTolerance(MODEL));
const assertBatchClose = (actual: number[], wanted: number[], what: string) => assertWithin(actual, wanted, what, TOLERANCES[MODEL].batch);

describe('TimesFM 1.0 through POST /v1/forecast', () => {
  it('GET /v1/models lists timesfm (200m, context 512, horizon 512, no covariates) once its weights are present', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const model = res.body.models.find((m: { model_id: string }) => m.model_id === MODEL);
    assert.ok(model, `timesfm in ${res.text}`);
    assert.deepEqual(model.sizes, [SIZE]);
    assert.deepEqual(model.size_limits, { [SIZE]: { max_context: 512, max_horizon: 512 } });
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`${name} (${c.freq}, horizon ${c.horizon}): dated forecast equal to the official TimesFm's`, async () => {
      const body = await forecast({ freq: c.freq, horizon: c.horizon, series: [{ target: c.target, index: c.index }] });
      assert.equal(body.model, MODEL);
      assert.equal(body.model_size, SIZE);
      const entry = body.series[0][0];
      assert.deepEqual(entry.index, c.forecastIndex, name);
      assert.deepEqual(Object.keys(entry.prediction).sort(), ['0.1', '0.5', '0.9', 'mean'], name);
      for (const values of Object.values(entry.prediction) as number[][]) {
        assert.equal(values.length, c.horizon, name);
        assert.ok(values.every(Number.isFinite), name);
      }
      assertMonotone(entry.prediction, QUANTILES, name);
      assertParityClose(entry.prediction.mean, expected[name].mean, `${name} mean`);
      for (const q of QUANTILES) assertParityClose(entry.prediction[String(q)], expected[name].quantiles[String(q)], `${name} ${q}`);
    });
  }

  it('the frequency reaches the model (MS is category 1, D category 0)', async () => {
    const monthlyBody = await forecast({ freq: 'MS', horizon: 12, series: [{ target: monthly, index: monthlyIndex }] });
    const asDaily = await forecast({ freq: 'D', horizon: 12, series: [{ target: monthly, index: dailyDates('2019-01-01', N) }] });
    assert.notDeepEqual(asDaily.series[0][0].prediction.mean, monthlyBody.series[0][0].prediction.mean);
  });

  it('a horizon\'s first steps do not depend on the horizon asked (12 vs 200 vs 512)', async () => {
    const short = await forecast({ freq: 'D', horizon: 12, series: [{ target: daily, index: dailyIndex }] });
    for (const horizon of [200, 512]) {
      const long = await forecast({ freq: 'D', horizon, series: [{ target: daily, index: dailyIndex }] });
      for (const key of ['mean', ...QUANTILES.map(String)]) {
        assertClose(long.series[0][0].prediction[key].slice(0, 12), short.series[0][0].prediction[key], `horizon ${horizon} ${key}`);
      }
    }
  });

  it('a series forecast alone equals the same series inside a batch of series of other lengths, and concurrent requests', async () => {
    const others = [
      { target: monthly.slice(40), index: monthlyIndex.slice(40) },
      { target: Array.from({ length: 700 }, (_, i) => round(i % 13)), index: monthlyDates('1960-01', 700) },
      { target: Array.from({ length: 33 }, (_, i) => round(5 * Math.cos(i))), index: monthlyDates('2010-01', 33) },
      { target: Array.from({ length: 200 }, (_, i) => round(1e6 + 1e4 * Math.sin(i / 3))), index: monthlyDates('2000-01', 200) },
    ];
    const alone = (await forecast({ freq: 'MS', horizon: 12, series: [{ target: monthly, index: monthlyIndex }] })).series[0][0].prediction;
    const batched = await forecast({ freq: 'MS', horizon: 12, series: [others[0], others[1], { target: monthly, index: monthlyIndex }, others[2], others[3]] });
    const concurrent = await Promise.all([
      forecast({ freq: 'MS', horizon: 12, series: [others[1], others[3]] }),
      forecast({ freq: 'MS', horizon: 12, series: [{ target: monthly, index: monthlyIndex }] }),
      forecast({ freq: 'MS', horizon: 12, series: [others[0], others[2]] }),
    ]);
    for (const [what, prediction] of [['batch', batched.series[2][0].prediction], ['concurrent', concurrent[1].series[0][0].prediction]] as const) {
      for (const key of ['mean', ...QUANTILES.map(String)]) assertBatchClose(prediction[key], alone[key], `${what} ${key}`);
    }
    assertParityClose(alone.mean, expected.monthly.mean, 'alone vs reference');
  });

  it('levels between the trained ones are interpolated; outside 0.1-0.9 they get the nearest with a warning', async () => {
    const levels = [0.05, 0.1, 0.25, 0.5, 0.95];
    const body = await forecast({ freq: 'MS', horizon: 12, quantiles: levels, series: [{ target: monthly, index: monthlyIndex }] });
    const prediction = body.series[0][0].prediction;
    assertMonotone(prediction, levels, 'levels');
    assert.deepEqual(prediction['0.05'], prediction['0.1']);
    assert.match(JSON.stringify(body.warnings), /0\.05, 0\.95 lie outside 0\.1-0\.9/);
    assertClose(prediction['0.1'], expected.monthly.quantiles['0.1'], '0.1');
  });

  it('covariates are ignored with a warning; the forecast is the one without them', async () => {
    const body = await forecast({
      freq: 'MS', horizon: 12,
      series: [{
        target: monthly, index: monthlyIndex, static_variables: { store: 7 },
        hist_variables: { price: monthly.map((_, i) => i % 3), promo: monthly.map((_, i) => i % 2) },
        future_variables: { promo: Array.from({ length: 12 }, (_, i) => i % 2) },
        future_variables_index: monthlyForecastIndex,
      }],
    });
    const text = JSON.stringify(body.warnings);
    for (const name of ['price', 'promo', 'store']) assert.match(text, new RegExp(name));
    const prediction = body.series[0][0].prediction;
    assertClose(prediction.mean, expected.monthly.mean, 'mean');
    for (const q of QUANTILES) assertClose(prediction[String(q)], expected.monthly.quantiles[String(q)], String(q));
  });
});

describe('TimesFM 1.0 without weights', () => {
  let empty: TestServer;
  let emptyDir: string;
  before(async () => {
    requireVenv();
    emptyDir = mkdtempSync(join(tmpdir(), 'horizon-timesfm1-none-'));
    empty = await startTestServer({ HORIZON_MODEL_DIR: emptyDir });
  });
  after(async () => { await empty?.close(); if (emptyDir) rmSync(emptyDir, { recursive: true, force: true }); });

  it('is listed unavailable (weights_missing, with the pull command), and a forecast is 422 naming the served models', async () => {
    const models = await empty.request('GET', '/v1/models');
    const listed = models.body.models.find((m: { model_id: string }) => m.model_id === MODEL);
    assert.equal(listed?.available, false, models.text);
    assert.equal(listed.unavailable_reason.code, 'weights_missing');
    assert.equal(listed.unavailable_reason.command, `./horizon models pull ${MODEL} --size ${SIZE}`);
    const res = await empty.request('POST', '/v1/forecast', { body: { model: MODEL, freq: 'MS', horizon: 6, series: [{ target: monthly, index: monthlyIndex }] } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.errors[0].field, 'model');
    assert.match(res.body.errors[0].reason, /not served/);
    assert.deepEqual(res.body.unavailable_reason, listed.unavailable_reason, 'the same reason as GET /v1/models');
  });

  it('weights removed after start: 503 weights_missing from the worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'horizon-timesfm1-gone-'));
    cpSync(join(weights, MODEL, SIZE), join(dir, MODEL, SIZE), { recursive: true });
    const gone = await startTestServer({ HORIZON_MODEL_DIR: dir });
    try {
      const listed = await gone.request('GET', '/v1/models');
      assert.equal(listed.body.models.find((m: { model_id: string }) => m.model_id === MODEL)?.available, true, listed.text);
      rmSync(join(dir, MODEL), { recursive: true, force: true });
      const res = await gone.request('POST', '/v1/forecast', { body: { model: MODEL, freq: 'MS', horizon: 6, series: [{ target: monthly, index: monthlyIndex }] } });
      if (res.status === 422) {
        // the registry's rescan of the model directory saw the removal first (a loaded machine): the model is then not
        // served, and the 422 says why with the same code and the command that installs it
        assert.equal(res.body.unavailable_reason?.code, 'weights_missing', res.text);
        assert.match(res.body.detail, /models pull timesfm/);
        return;
      }
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'weights_missing');
      assert.match(res.body.detail, /HORIZON_MODEL_DIR/);
    } finally {
      await gone.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
