// Chronos, Chronos-Bolt and Chronos-2 end to end: POST /v1/forecast through the real control plane and
// the real worker on tiny random-weight checkpoints (runtime/tests/fixtures), compared with
// the official chronos pipelines called plainly on the same checkpoint and values
// (runtime/tests/chronos_reference.py), within each model's measured tolerance (docs/models.md).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './helpers.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, seriesSeeds, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price, promo, target,
} from './parity.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CATALOG = JSON.parse(readFileSync(join(REPO, 'catalog', 'models.json'), 'utf8')) as { models: { id: string; sizes: Record<string, unknown> }[] };
const CHRONOS = ['chronos', 'chronos-bolt', 'chronos-2'];
const SIZES = CATALOG.models.filter((m) => CHRONOS.includes(m.id)).flatMap((m) => Object.keys(m.sizes).map((size) => [m.id, size] as const));


/** chronos-2 with a hist-only variable, two known-future ones and a static one. */
function covariateSeries(futurePromo = promo.slice(N)) {
  return {
    target, index,
    hist_variables: { price: price.slice(0, N), promo: promo.slice(0, N), weather: price.slice(0, N).map((v) => -v) },
    future_variables: { price: price.slice(N), promo: futurePromo },
    future_variables_index: forecastIndex,
  };
}

let server: TestServer;
let weights: string;
let expected: Prediction[][];

/** The requests' series through the official pipelines called plainly (Chronos-T5 seeded as the worker draws it). */
function referenceCases() {
  const [seed] = seriesSeeds('chronos', [target]);
  const plain = SIZES.map(([model, size]) => ({
    weights: join(weights, model, size), model, horizon: HORIZON, quantiles: QUANTILES, series: [model === 'chronos' ? { target, seed } : { target }],
  }));
  const covariates = { past_covariates: { price: price.slice(0, N), promo: promo.slice(0, N), weather: price.slice(0, N).map((v) => -v) }, future_covariates: { price: price.slice(N), promo: promo.slice(N) } };
  return [...plain, { weights: join(weights, 'chronos-2', 'base'), model: 'chronos-2', horizon: HORIZON, quantiles: QUANTILES, series: [{ target, ...covariates }] }];
}

before(async () => {
  weights = writeFixtures(CHRONOS);
  expected = reference('chronos_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>) => forecastOk(server, body);

/** Within the model's measured parity tolerance (runtime/tests/parity-tolerances.json). */
function assertForecast(model: string, entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string): void {
  assertParity(entry, wanted, { index: forecastIndex, quantiles: QUANTILES, tol: parityTolerance(model) }, what);
}

describe('Chronos models through POST /v1/forecast', () => {
  it('GET /v1/models lists the Chronos ids once their weights are present', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const ids = res.body.models.filter((m: { available: boolean }) => m.available).map((m: { model_id: string }) => m.model_id);
    for (const id of CHRONOS) assert.ok(ids.includes(id), `${id} available in ${ids}`);
  });

  for (const [i, [model, size]] of SIZES.entries()) {
    it(`${model} ${size}: dated forecast equal to the official pipeline's`, async () => {
      const body = await forecast({ model, model_size: size, series: [{ target, index }] });
      assert.equal(body.model, model);
      assertForecast(model, body.series[0][0], expected[i][0], `${model}/${size}`);
    });
  }

  it('chronos-2: covariates through the API equal the official pipeline with them', async () => {
    const body = await forecast({ model: 'chronos-2', model_size: 'base', series: [covariateSeries()] });
    assert.deepEqual(body.warnings, []);
    assertForecast('chronos-2', body.series[0][0], expected[SIZES.length][0], 'chronos-2 with covariates');
  });

  it('chronos-2: a different known-future value changes the forecast; static variables reach it with a warning', async () => {
    const base = await forecast({ model: 'chronos-2', model_size: 'small', series: [covariateSeries()] });
    const changed = await forecast({ model: 'chronos-2', model_size: 'small', series: [covariateSeries(promo.slice(N).map(() => 5))] });
    assert.notDeepEqual(changed.series[0][0].prediction.mean, base.series[0][0].prediction.mean);
    const withStatic = await forecast({ model: 'chronos-2', model_size: 'small', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
    assert.notDeepEqual(withStatic.series[0][0].prediction.mean, base.series[0][0].prediction.mean);
    assert.match(JSON.stringify(withStatic.warnings), /constant covariates/);
  });

  for (const model of ['chronos', 'chronos-bolt']) {
    it(`${model}: covariates are ignored with a warning, the forecast is the one without them`, async () => {
      const bare = await forecast({ model, model_size: 'tiny', series: [{ target, index }] });
      const body = await forecast({ model, model_size: 'tiny', series: [{ ...covariateSeries(), static_variables: { store: 7 } }] });
      const text = JSON.stringify(body.warnings);
      for (const name of ['price', 'promo', 'weather', 'store']) assert.match(text, new RegExp(name));
      assert.deepEqual(body.series[0][0].prediction, bare.series[0][0].prediction);
    });
  }
});

describe('warm-up', () => {
  it('GET /v1/warmup loads the model; the next forecast does no loading (Server-Timing load;dur=0)', async () => {
    const warm = await server.request('GET', '/v1/warmup?model=chronos-2&model_size=small');
    assert.equal(warm.status, 200, warm.text);
    assert.equal(warm.body.device, 'cpu');
    const res = await server.request('POST', '/v1/forecast', { body: { model: 'chronos-2', model_size: 'small', freq: 'MS', horizon: 6, series: [{ target, index }] } });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('server-timing') ?? '', /^load;dur=0, queue;dur=[\d.]+, infer;dur=[\d.]+$/);
  });
});

describe('sizes without weights', () => {
  let partial: TestServer;
  let dir: string;
  before(async () => {
    // only chronos-bolt/tiny is installed on this deployment
    dir = mkdtempSync(join(tmpdir(), 'horizon-chronos-partial-'));
    cpSync(join(weights, 'chronos-bolt', 'tiny'), join(dir, 'chronos-bolt', 'tiny'), { recursive: true });
    partial = await startTestServer({ HORIZON_MODEL_DIR: dir });
  });
  after(async () => { await partial?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('GET /v1/models lists only installed sizes; the default size falls back to an installed one', async () => {
    const res = await partial.request('GET', '/v1/models');
    const bolt = res.body.models.find((m: { model_id: string }) => m.model_id === 'chronos-bolt');
    assert.deepEqual(bolt.sizes, ['tiny']);
    assert.equal(bolt.default_size, 'tiny');
    assert.deepEqual(Object.keys(bolt.size_limits), ['tiny']);
    const two = res.body.models.find((m: { model_id: string }) => m.model_id === 'chronos-2');
    assert.deepEqual([two.available, two.unavailable_reason.code], [false, 'weights_missing'], 'no weights: listed, not available');
    const omitted = await partial.request('POST', '/v1/forecast', { body: { model: 'chronos-bolt', freq: 'MS', horizon: 6, series: [{ target, index }] } });
    assert.equal(omitted.status, 200, omitted.text);
    assert.equal(omitted.body.model_size, 'tiny');
    // the first use loaded the model, and the response says how long that took
    const load = Number(/load;dur=([\d.]+)/.exec(omitted.headers.get('server-timing') ?? '')?.[1]);
    assert.ok(load > 0, `first use: ${omitted.headers.get('server-timing')}`);
  });

  it('a size without weights is 422 naming the served sizes, for forecasts and warm-up', async () => {
    const res = await partial.request('POST', '/v1/forecast', { body: { model: 'chronos-bolt', model_size: 'base', freq: 'MS', horizon: 6, series: [{ target, index }] } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.errors[0].field, 'model_size');
    assert.match(res.body.errors[0].reason, /served sizes: tiny/);
    const warm = await partial.request('GET', '/v1/warmup?model=chronos-bolt&model_size=small');
    assert.equal(warm.status, 422, warm.text);
    const ok = await partial.request('GET', '/v1/warmup?model=chronos-bolt');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.model_size, 'tiny');
  });
});
