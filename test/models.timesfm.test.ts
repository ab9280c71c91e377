// TimesFM 2.5 (timesfm-2) and TimesFM 3.0 (timesfm-3) end to end: POST /v1/forecast through the real
// control plane and the real worker on tiny random-weight checkpoints (runtime/tests/fixtures),
// compared with the official timesfm APIs called plainly on the same checkpoint and values
// (runtime/tests/timesfm_reference.py), within each model's measured tolerance (docs/models.md). timesfm-3's weights are non-commercial: served only with
// HORIZON_ACCEPT_LICENSES naming it, 403 otherwise.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price, promo, target,
} from './parity.ts';

const SIZES: Record<string, string> = { 'timesfm-2': '200m', 'timesfm-3': '330m' };

const weather: (number | null)[] = price.slice(0, N).map((v, i) => (i === 20 ? null : Math.round(-v * 7) / 10));

/** A hist-only variable (weather, one value missing) and two known-future ones (price, promo). */
function covariateSeries(futurePromo = promo.slice(N)) {
  return {
    target, index,
    hist_variables: { price: price.slice(0, N), weather, promo: promo.slice(0, N) },
    future_variables: { price: price.slice(N), promo: futurePromo },
    future_variables_index: forecastIndex,
  };
}

let server: TestServer;
let weights: string;
let expected: Prediction[][];

/** What the control plane sends the worker for these requests, through the official APIs. */
function referenceCases() {
  const plain = Object.entries(SIZES).map(([model, size]) => ({ weights: join(weights, model, size), model, horizon: HORIZON, quantiles: QUANTILES, series: [{ target }] }));
  const covariates = { past_covariates: { price: price.slice(0, N), weather, promo: promo.slice(0, N) }, future_covariates: { price: price.slice(N), promo: promo.slice(N) } };
  return [...plain, { weights: join(weights, 'timesfm-3', '330m'), model: 'timesfm-3', horizon: HORIZON, quantiles: QUANTILES, series: [{ target, ...covariates }] }];
}

before(async () => {
  weights = writeFixtures(['timesfm-2', 'timesfm-3']);
  expected = reference('timesfm_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: 'timesfm-3' });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>, on: TestServer = server) => forecastOk(on, body);

/** Within the model's measured parity tolerance (runtime/tests/parity-tolerances.json). */
function assertForecast(model: string, entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string): void {
  assertParity(entry, wanted, { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(model) }, what);
  assert.deepEqual(entry.prediction.mean, entry.prediction['0.5'], `${what}: mean is the median output`);
}

describe('TimesFM models through POST /v1/forecast', () => {
  it('GET /v1/models lists both with their caps, covariates and licences', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const byId = Object.fromEntries(res.body.models.map((m: { model_id: string }) => [m.model_id, m]));
    const two = byId['timesfm-2'];
    const three = byId['timesfm-3'];
    assert.ok(two && three, Object.keys(byId).join(', '));
    assert.deepEqual([two.sizes, two.max_context, two.max_horizon], [['200m'], 15360, 1024]);
    assert.deepEqual(two.covariates, { past: false, future: false, static: false });
    assert.deepEqual([two.license.id, two.license.requires_opt_in, two.available], ['Apache-2.0', false, true]);
    assert.deepEqual([three.sizes, three.max_context, three.max_horizon], [['330m'], 15360, 1024]);
    assert.deepEqual(three.covariates, { past: true, future: true, static: false });
    assert.deepEqual([three.license.commercial, three.license.requires_opt_in, three.license.accepted, three.available], [false, true, true, true]);
  });

  for (const [i, model] of Object.keys(SIZES).entries()) {
    it(`${model}: dated forecast equal to the official API's`, async () => {
      const body = await forecast({ model, series: [{ target, index }] });
      assert.equal(body.model, model);
      assert.equal(body.model_size, SIZES[model]);
      assertForecast(model, body.series[0][0], expected[i][0], model);
    });
  }

  it('timesfm-3: hist-only and known-future covariates through the API equal the official API with them', async () => {
    const body = await forecast({ model: 'timesfm-3', series: [covariateSeries()] });
    assert.deepEqual(body.warnings, []);
    assertForecast('timesfm-3', body.series[0][0], expected[2][0], 'timesfm-3 with covariates');
  });

  it('timesfm-3: a different known-future value changes the forecast; static variables are ignored with a warning', async () => {
    const base = await forecast({ model: 'timesfm-3', series: [covariateSeries()] });
    const changed = await forecast({ model: 'timesfm-3', series: [covariateSeries(promo.slice(N).map((v) => 5 - 3 * v))] });
    const diff = Math.max(...changed.series[0][0].prediction.mean.map((v: number, t: number) => Math.abs(v - base.series[0][0].prediction.mean[t])));
    assert.ok(diff > 1e-3, `largest change ${diff}`);
    const withStatic = await forecast({ model: 'timesfm-3', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    assert.match(JSON.stringify(withStatic.warnings), /static_variables.*store/);
    assert.deepEqual(withStatic.series[0][0].prediction, base.series[0][0].prediction);
  });

  it('timesfm-2: covariates are ignored with a warning, the forecast is the one without them', async () => {
    const bare = await forecast({ model: 'timesfm-2', series: [{ target, index }] });
    const body = await forecast({ model: 'timesfm-2', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    const text = JSON.stringify(body.warnings);
    for (const name of ['price', 'promo', 'weather', 'store']) assert.match(text, new RegExp(name));
    assert.deepEqual(body.series[0][0].prediction, bare.series[0][0].prediction);
  });
});

describe('timesfm-3 without the licence opt-in', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer({ HORIZON_MODEL_DIR: weights }); });
  after(async () => { await plain?.close(); });

  it('is listed as unavailable and answers 403 license_not_accepted; timesfm-2 (Apache-2.0) serves', async () => {
    const models = await plain.request('GET', '/v1/models');
    const three = models.body.models.find((m: { model_id: string }) => m.model_id === 'timesfm-3');
    assert.deepEqual([three.license.accepted, three.available], [false, false]);
    const res = await plain.request('POST', '/v1/forecast', { body: { model: 'timesfm-3', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'license_not_accepted');
    assert.match(res.body.detail, /HORIZON_ACCEPT_LICENSES=timesfm-3/);
    await forecast({ model: 'timesfm-2', series: [{ target, index }] }, plain);
  });
});
