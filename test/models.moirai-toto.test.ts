// Moirai-2, Toto-2 and Toto-2-FT end to end: POST /v1/forecast through the real control plane and the
// real worker on tiny random-weight checkpoints (runtime/tests/fixtures), compared with the
// official uni2ts / toto2 libraries called plainly on the same checkpoint and values, one series at a
// time (runtime/tests/moirai_toto_reference.py), within each model's measured tolerance (docs/models.md). moirai-2 is CC-BY-NC-4.0: served only with
// HORIZON_ACCEPT_LICENSES=moirai-2.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price, promo, target, wave,
} from './parity.ts';

const MODELS: Record<string, string> = { 'moirai-2': 'small', 'toto-2': '2.5b', 'toto-2-ft': '2.5b' };
const IDS = Object.keys(MODELS);

// series of other lengths for the batch check: shorter than a Toto patch (32), between patches, longer
const OTHER_LENGTHS = [20, 45, 130];
const endingDec2023 = (n: number) => { const m = 2024 * 12 - n; return monthlyDates(`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`, n); };
const others = OTHER_LENGTHS.map((n, k) => ({ target: wave(n, k + 1), index: endingDec2023(n) }));

/** Two historical variables, one of them with known future values. */
function covariateSeries(histPromo = promo.slice(0, N), futurePromo = promo.slice(N)) {
  return {
    target, index,
    hist_variables: { price: price.slice(0, N), promo: histPromo },
    future_variables: { promo: futurePromo },
    future_variables_index: forecastIndex,
  };
}

let server: TestServer;
let weights: string;
let expected: Prediction[][];

/** What the control plane sends to the worker for these requests, through the official libraries. */
function referenceCases() {
  const plain = IDS.map((model) => ({ weights: join(weights, model, MODELS[model]), model, horizon: HORIZON, quantiles: QUANTILES, series: [{ target }, ...others.map((o) => ({ target: o.target }))] }));
  // moirai-2 uses historical variables only: both histories go in as past covariates, promo's future values are dropped
  const covariates = { target, past_covariates: { price: price.slice(0, N), promo: promo.slice(0, N) } };
  return [...plain, { weights: join(weights, 'moirai-2', 'small'), model: 'moirai-2', horizon: HORIZON, quantiles: QUANTILES, series: [covariates] }];
}

before(async () => {
  weights = writeFixtures(IDS);
  expected = reference('moirai_toto_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: 'moirai-2' });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>) => forecastOk(server, body);

/** Within the model's measured parity tolerance (runtime/tests/parity-tolerances.json); `inBatch`: the series shared its request. */
function assertForecast(
  model: string, entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string, inBatch = false,
): void {
  assertParity(entry, wanted, { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(model, inBatch) }, what);
  assert.deepEqual(entry.prediction.mean, entry.prediction['0.5'], `${what}: mean is the median`);
}

describe('Moirai-2 and Toto-2 through POST /v1/forecast', () => {
  it('GET /v1/models lists the three ids with their caps, covariate flags and licences', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.models.map((m: { model_id: string }) => [m.model_id, m]));
    for (const id of IDS) assert.ok(byId.has(id), `${id} listed`);
    const moirai = byId.get('moirai-2') as Record<string, any>;
    assert.deepEqual([moirai.max_context, moirai.max_horizon], [1680, 512]);
    assert.deepEqual(moirai.covariates, { past: true, future: false, static: false });
    assert.equal(moirai.license.requires_opt_in, true);
    assert.equal(moirai.license.accepted, true);
    for (const id of ['toto-2', 'toto-2-ft']) {
      const toto = byId.get(id) as Record<string, any>;
      assert.deepEqual([toto.max_context, toto.max_horizon, toto.supports_covariates], [4096, 1024, false]);
    }
  });

  for (const [i, model] of IDS.entries()) {
    it(`${model}: dated forecasts equal the library's, each series as if alone in a request of four lengths`, async () => {
      const body = await forecast({ model, series: [{ target, index }, ...others] });
      assert.equal(body.model, model);
      assert.equal(body.model_size, MODELS[model]);
      assertForecast(model, body.series[0][0], expected[i][0], model, true);
      others.forEach((_, k) => assertForecast(model, body.series[k + 1][0], expected[i][k + 1], `${model} length ${OTHER_LENGTHS[k]}`, true));
    });
  }

  it('moirai-2: historical variables equal the library with them; future values are ignored with a warning', async () => {
    const body = await forecast({ model: 'moirai-2', series: [covariateSeries()] });
    assertForecast('moirai-2', body.series[0][0], expected[IDS.length][0], 'moirai-2 with covariates');
    assert.equal(body.warnings.length, 1, JSON.stringify(body.warnings));
    assert.match(body.warnings[0].message, /does not use future covariates.*promo/);
    const histOnly = await forecast({ model: 'moirai-2', series: [{ target, index, hist_variables: covariateSeries().hist_variables }] });
    assert.deepEqual(histOnly.series[0][0].prediction, body.series[0][0].prediction);
  });

  it('moirai-2: a different history of a variable changes the forecast; its future values do not', async () => {
    const base = await forecast({ model: 'moirai-2', series: [covariateSeries()] });
    const bare = await forecast({ model: 'moirai-2', series: [{ target, index }] });
    assert.notDeepEqual(bare.series[0][0].prediction.mean, base.series[0][0].prediction.mean);
    const history = await forecast({ model: 'moirai-2', series: [covariateSeries(promo.slice(0, N).map((v) => 5 * v + 1))] });
    assert.notDeepEqual(history.series[0][0].prediction.mean, base.series[0][0].prediction.mean);
    const future = await forecast({ model: 'moirai-2', series: [covariateSeries(undefined, promo.slice(N).map(() => 5))] });
    assert.deepEqual(future.series[0][0].prediction, base.series[0][0].prediction);
  });

  for (const model of ['toto-2', 'toto-2-ft']) {
    it(`${model}: covariates are ignored with a warning, the forecast is the one without them`, async () => {
      const bare = await forecast({ model, series: [{ target, index }] });
      const body = await forecast({ model, series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
      const text = JSON.stringify(body.warnings);
      for (const name of ['price', 'promo', 'store']) assert.match(text, new RegExp(name));
      assert.deepEqual(body.series[0][0].prediction, bare.series[0][0].prediction);
    });
  }
});

describe('moirai-2 without the licence opt-in', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer({ HORIZON_MODEL_DIR: weights }); });
  after(async () => { await plain?.close(); });

  it('is listed as not available and answers 403; toto-2 (Apache-2.0) stays available', async () => {
    const models = await plain.request('GET', '/v1/models');
    const find = (id: string) => models.body.models.find((m: { model_id: string }) => m.model_id === id);
    assert.equal(find('moirai-2')?.available, false, JSON.stringify(find('moirai-2')));
    assert.equal(find('toto-2')?.available, true, JSON.stringify(find('toto-2')));
    const res = await plain.request('POST', '/v1/forecast', { body: { model: 'moirai-2', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
    assert.equal(res.status, 403, res.text);
    assert.match(res.text, /HORIZON_ACCEPT_LICENSES=moirai-2/);
  });
});
