// TiRex-2 (`tirex-2`) end to end: POST /v1/forecast through the real control plane and the real worker on its tiny
// random-weight checkpoint (runtime/tests/fixtures/tirex_2.py), compared with the official tirex-2 library called
// plainly on the same checkpoint and values (runtime/tests/tirex_2_reference.py), within its measured tolerance
// (docs/models.md): plain series, hist-only and known-future variables, and a joint (multivariate) request.
// TiRex-2 is gated (its mlstm_kernels dependency is under the NXAI Community License; the weights' terms are
// unverified): the server serves it with HORIZON_ACCEPT_LICENSES=tirex-2, and without that lists it unavailable
// and answers 403.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price, promo, target,
} from './parity.ts';

const MODEL = 'tirex-2';

// a shorter second series ending in the same month, so both forecasts share the dates
const short = Array.from({ length: 40 }, (_, i) => Math.round((50 + 5 * Math.cos(i / 2) + 0.2 * i) * 1000) / 1000);
const shortIndex = monthlyDates('2020-09', 40);
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

/** What the control plane sends the worker for these requests, through the official library called plainly. */
function referenceCases() {
  const base = { weights: join(weights, MODEL, 'default'), model: MODEL, horizon: HORIZON, quantiles: QUANTILES };
  const covariates = { past_covariates: { price: price.slice(0, N), weather, promo: promo.slice(0, N) }, future_covariates: { price: price.slice(N), promo: promo.slice(N) } };
  return [
    { ...base, series: [{ target }, { target: short }] },
    { ...base, series: [{ target, ...covariates }] },
    { ...base, joint: true, series: [{ target }, { target: short }] },
  ];
}

before(async () => {
  weights = writeFixtures([MODEL]);
  expected = reference('tirex_2_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: MODEL });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>, on: TestServer = server) => forecastOk(on, { model: MODEL, ...body });

/** Within the measured parity tolerance (runtime/tests/parity-tolerances.json); `inBatch`: the series shared its request. */
function assertForecast(entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string, inBatch = false): void {
  assertParity(entry, wanted, { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(MODEL, inBatch) }, what);
}

describe('TiRex-2 through POST /v1/forecast', () => {
  it('GET /v1/models lists it with its caps, covariates and licence', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const row = res.body.models.find((m: { model_id: string }) => m.model_id === MODEL);
    assert.ok(row, res.body.models.map((m: { model_id: string }) => m.model_id).join(', '));
    assert.deepEqual([row.sizes, row.default_size, row.max_context, row.max_horizon, row.available], [['default'], 'default', 2048, 320, true]);
    assert.deepEqual(row.covariates, { past: true, future: true, static: false });
    assert.equal(row.supports_covariates, true);
    assert.deepEqual(
      [row.license.id, row.license.commercial, row.license.requires_opt_in, row.license.accepted], ['NXAI-Community', false, true, true],
    );
    assert.match(row.license.name, /mlstm_kernels/);
  });

  it('two series of different lengths: dated forecasts equal to the official library\'s (each alone)', async () => {
    const body = await forecast({ series: [{ target, index }, { target: short, index: shortIndex }] });
    assert.deepEqual([body.model, body.model_size, body.warnings], [MODEL, 'default', []]);
    assertForecast(body.series[0][0], expected[0][0], 'series 0', true);
    assertForecast(body.series[1][0], expected[0][1], 'series 1', true);
  });

  it('hist-only and known-future variables equal the library with them; a future value changes the forecast', async () => {
    const body = await forecast({ series: [covariateSeries()] });
    assert.deepEqual(body.warnings, []);
    assertForecast(body.series[0][0], expected[1][0], 'with covariates');
    const changed = await forecast({ series: [covariateSeries(promo.slice(N).map((v) => 5 - 3 * v))] });
    const diff = Math.max(...changed.series[0][0].prediction.mean.map((v: number, t: number) => Math.abs(v - body.series[0][0].prediction.mean[t])));
    assert.ok(diff > 1e-3, `largest change ${diff}`);
  });

  it('static variables are ignored with a warning', async () => {
    const base = await forecast({ series: [covariateSeries()] });
    const withStatic = await forecast({ series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    assert.match(JSON.stringify(withStatic.warnings), /static_variables.*store/);
    assert.deepEqual(withStatic.series[0][0].prediction, base.series[0][0].prediction);
  });

  it('multivariate: true forecasts the series as the library\'s multivariate target', async () => {
    const body = await forecast({ multivariate: true, series: [{ target, index }, { target: short, index: shortIndex }] });
    assertForecast(body.series[0][0], expected[2][0], 'joint series 0');
    assertForecast(body.series[1][0], expected[2][1], 'joint series 1');
  });

  it('a horizon over 320 is 422 naming the cap', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { model: MODEL, freq: 'MS', horizon: 321, series: [{ target, index }] } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.errors[0].field, 'horizon');
    assert.match(res.body.errors[0].reason, /max_horizon 320\b/);
  });
});

describe('tirex-2 without the licence opt-in', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer({ HORIZON_MODEL_DIR: weights }); });
  after(async () => { await plain?.close(); });

  it('is listed unavailable and answers 403 license_not_accepted naming HORIZON_ACCEPT_LICENSES=tirex-2', async () => {
    const models = await plain.request('GET', '/v1/models');
    const row = models.body.models.find((m: { model_id: string }) => m.model_id === MODEL);
    assert.deepEqual([row.license.accepted, row.available, row.unavailable_reason?.code], [false, false, 'license_not_accepted']);
    const res = await plain.request('POST', '/v1/forecast', { body: { model: MODEL, freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'license_not_accepted');
    assert.match(res.body.detail, /HORIZON_ACCEPT_LICENSES=tirex-2/);
  });
});
