// TiRex (`tirex`) and Yug (`house-tsfm`) end to end: POST /v1/forecast through the real control plane
// and the real worker on tiny random-weight checkpoints (runtime/tests/fixtures), compared
// with the official tirex-ts and yug libraries called plainly on the same checkpoint and values
// (runtime/tests/tirex_yug_reference.py), within each model's measured tolerance (docs/models.md). TiRex is
// under the NXAI Community License, so the server accepts it with HORIZON_ACCEPT_LICENSES=tirex; a server
// without that answers 403.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, seriesSeeds, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price, promo, target,
} from './parity.ts';

const MODELS = { tirex: 'default', 'house-tsfm': 'base' } as const;
type Model = keyof typeof MODELS;

// a shorter second series ending in the same month, so both forecasts share the dates
const short = Array.from({ length: 40 }, (_, i) => Math.round((50 + 5 * Math.cos(i / 2) + 0.2 * i) * 1000) / 1000);
const shortIndex = monthlyDates('2020-09', 40);

/** A hist-only variable and two with known-future values; Yug gets the history of all three. */
function covariateSeries(options: { futurePromo?: number[]; lastPrice?: number } = {}) {
  const histPrice = price.slice(0, N);
  if (options.lastPrice !== undefined) histPrice[N - 1] = options.lastPrice;
  return {
    target, index,
    hist_variables: { price: histPrice, promo: promo.slice(0, N), weather: price.slice(0, N).map((v) => -v) },
    future_variables: { price: price.slice(N), promo: options.futurePromo ?? promo.slice(N) },
    future_variables_index: forecastIndex,
  };
}

let server: TestServer;
let weights: string;
let expected: Prediction[][];

/** The requests' series through the official libraries called plainly (Yug seeded as the worker draws each series). */
function referenceCases() {
  const [seed, shortSeed] = seriesSeeds('house-tsfm', [target, short]);
  const plain = (Object.keys(MODELS) as Model[]).map((model) => ({
    weights: join(weights, model, MODELS[model]), model, freq: 'MS', horizon: HORIZON, quantiles: QUANTILES,
    series: [{ target, seed }, { target: short, seed: shortSeed }],
  }));
  const past = { price: price.slice(0, N), promo: promo.slice(0, N), weather: price.slice(0, N).map((v) => -v) };
  const covariates = { weights: join(weights, 'house-tsfm', 'base'), model: 'house-tsfm', freq: 'MS', horizon: HORIZON, quantiles: QUANTILES };
  return [...plain, { ...covariates, series: [{ target, seed, past_covariates: past }] }];
}

before(async () => {
  weights = writeFixtures(['tirex', 'house-tsfm']);
  expected = reference('tirex_yug_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: 'tirex' });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>, on: TestServer = server) => forecastOk(on, body);

/** Within the model's measured parity tolerance (runtime/tests/parity-tolerances.json); `inBatch`: the series shared its request. */
function assertForecast(
  model: string, entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string, inBatch = false,
): void {
  assertParity(entry, wanted, { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(model, inBatch) }, what);
}

function warningText(body: { warnings: unknown[] }): string {
  return JSON.stringify(body.warnings);
}

describe('TiRex and Yug through POST /v1/forecast', () => {
  it('GET /v1/models lists both once their weights are present, with their covariates and licences', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.models.map((m: { model_id: string }) => [m.model_id, m]));
    const tirex = byId.get('tirex') as any;
    const yug = byId.get('house-tsfm') as any;
    assert.ok(tirex && yug, `listed: ${[...byId.keys()]}`);
    assert.deepEqual(tirex.covariates, { past: false, future: false, static: false });
    assert.deepEqual(yug.covariates, { past: true, future: false, static: false });
    assert.equal(tirex.license.accepted, true);
    assert.equal(tirex.license.requires_opt_in, true);
  });

  for (const [i, model] of (Object.keys(MODELS) as Model[]).entries()) {
    it(`${model}: two series of different lengths, dated forecasts equal to the official library's (each alone)`, async () => {
      const body = await forecast({ model, series: [{ target, index }, { target: short, index: shortIndex }] });
      assert.equal(body.model, model);
      assert.equal(body.model_size, MODELS[model]);
      assertForecast(model, body.series[0][0], expected[i][0], `${model} series 0`, true);
      assertForecast(model, body.series[1][0], expected[i][1], `${model} series 1`, true);
    });
  }

  it('house-tsfm: historical variables reach Yug as past covariates, equal to the library with them', async () => {
    const body = await forecast({ model: 'house-tsfm', series: [covariateSeries()] });
    assertForecast('house-tsfm', body.series[0][0], expected[2][0], 'house-tsfm with covariates');
    const changed = await forecast({ model: 'house-tsfm', series: [covariateSeries({ lastPrice: 25 })] });
    assert.notDeepEqual(changed.series[0][0].prediction.mean, body.series[0][0].prediction.mean, 'a different historical value changes the forecast');
  });

  it('house-tsfm: known-future and static variables cannot reach Yug; they are ignored with warnings', async () => {
    const body = await forecast({ model: 'house-tsfm', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    const text = warningText(body);
    assert.match(text, /does not use future covariates; ignored future_variables of series 0: price, promo/);
    assert.match(text, /does not use static covariates; ignored static_variables of series 0: store/);
    const changed = await forecast({ model: 'house-tsfm', series: [{ ...covariateSeries({ futurePromo: promo.slice(N).map(() => 5) }), static_variables: { store: 1 } }] });
    assert.deepEqual(changed.series[0][0].prediction, body.series[0][0].prediction);
  });

  it('tirex: covariates are ignored with a warning, the forecast is the one without them', async () => {
    const bare = await forecast({ model: 'tirex', series: [{ target, index }] });
    const body = await forecast({ model: 'tirex', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    const text = warningText(body);
    for (const name of ['price', 'promo', 'weather', 'store']) assert.match(text, new RegExp(name));
    assert.deepEqual(body.series[0][0].prediction, bare.series[0][0].prediction);
  });
});

describe('licence opt-in', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer({ HORIZON_MODEL_DIR: weights }); });
  after(async () => { await plain?.close(); });

  it('tirex without HORIZON_ACCEPT_LICENSES is 403 license_not_accepted; house-tsfm (Apache-2.0) needs no opt-in', async () => {
    const res = await plain.request('POST', '/v1/forecast', { body: { model: 'tirex', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'license_not_accepted');
    assert.match(res.body.detail, /HORIZON_ACCEPT_LICENSES=tirex/);
    await forecast({ model: 'house-tsfm', series: [{ target, index }] }, plain);
  });
});
