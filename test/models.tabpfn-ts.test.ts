// TabPFN-TS end to end: POST /v1/forecast through the real control plane and the real worker on a tiny
// random-weight TabPFN v3.5 checkpoint (runtime/tests/fixtures --models tabpfn-ts), compared
// with the official TabPFNTSPipeline called plainly on the same checkpoint and values
// (runtime/tests/tabpfn_ts_reference.py), within its measured tolerance (docs/models.md). TabPFN-3 weights are non-commercial: the server accepts the
// licence with HORIZON_ACCEPT_LICENSES=tabpfn-ts; a server without it answers 403.
// Slow: every series is a TabPFN fit on the CPU, so few short series and one thread per process.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import { mase, smape } from '../src/forecasting/metrics.ts';
import {
  assertForecast as assertParity, forecastOk, parityTolerance, reference, writeFixtures, type Prediction,
  HORIZON, N, QUANTILES, forecastIndex, index, price as allPrices, promo, target,
} from './parity.ts';

process.env.OMP_NUM_THREADS = '1'; // the worker and the reference inherit it (shared 2-core machine)

const CHECKPOINT = 'tabpfn-v3.5-20260909.safetensors';

const short = target.slice(20).map((v) => (v === null ? null : v * 2));
const shortIndex = index.slice(20);
// the same values five months later: other months, other year boundary
const laterIndex = monthlyDates('2019-06', N);
const laterForecastIndex = monthlyDates('2024-06', HORIZON);
const price = allPrices.slice(0, N);

/** A past-only variable (price, dropped by the control plane) and a known-future one (promo). */
function covariateSeries(futurePromo = promo.slice(N)) {
  return { target, index, hist_variables: { price, promo: promo.slice(0, N) }, future_variables: { promo: futurePromo }, future_variables_index: forecastIndex };
}

let server: TestServer;
let weights: string;
let expected: Prediction[][];

/** The values the control plane sends to the worker for these requests, through the official pipeline. */
function referenceCases() {
  const file = join(weights, 'tabpfn-ts', 'default', CHECKPOINT);
  const base = { weights: file, horizon: HORIZON, quantiles: QUANTILES };
  // the dates the control plane sends with each series (catalog: uses_dates), as the API has them
  const dated = { index, forecast_index: forecastIndex };
  return [
    { ...base, series: [{ target, ...dated }, { target: short, index: shortIndex, forecast_index: forecastIndex }] },
    { ...base, series: [{ target, ...dated, past_covariates: { promo: promo.slice(0, N) }, future_covariates: { promo: promo.slice(N) } }] },
    { ...base, series: [{ target, index: laterIndex, forecast_index: laterForecastIndex }] },
  ];
}

before(async () => {
  weights = writeFixtures(['tabpfn-ts']);
  expected = reference('tabpfn_ts_reference.py', referenceCases());
  server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_ACCEPT_LICENSES: 'tabpfn-ts', HORIZON_INFERENCE_TIMEOUT_MS: '600000' });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

const forecast = (body: Record<string, unknown>, on: TestServer = server) => forecastOk(on, { model: 'tabpfn-ts', ...body });

/** Within tabpfn-ts's measured parity tolerance (runtime/tests/parity-tolerances.json), as if in a batch (two series
 * share a request). */
function assertForecast(entry: { prediction: Record<string, number[]>; index: string[] }, wanted: Prediction, what: string, dates = forecastIndex): void {
  assertParity(entry, wanted, { index: dates, quantiles: QUANTILES, tol: parityTolerance('tabpfn-ts', true) }, what);
}

const warningText = (body: { warnings: unknown[] }) => JSON.stringify(body.warnings);

describe('TabPFN-TS through POST /v1/forecast', () => {
  it('GET /v1/models lists tabpfn-ts once its weights are present, with its covariates and licence', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const model = res.body.models.find((m: { model_id: string }) => m.model_id === 'tabpfn-ts');
    assert.ok(model, 'tabpfn-ts listed');
    assert.deepEqual(model.covariates, { past: false, future: true, static: false });
    assert.equal(model.license.requires_opt_in, true);
    assert.equal(model.license.accepted, true);
  });

  it('two series of different lengths: dated forecasts equal to the official pipeline (each alone)', async () => {
    const body = await forecast({ series: [{ target, index }, { target: short, index: shortIndex }] });
    assert.equal(body.model, 'tabpfn-ts');
    assert.equal(body.model_size, 'default');
    assertForecast(body.series[0][0], expected[0][0], 'series 0');
    assertForecast(body.series[1][0], expected[0][1], 'series 1');
    assert.deepEqual(body.series[0][0].prediction.mean, body.series[0][0].prediction['0.5'], 'mean is the median');
  });

  it('the dates of a series reach the calendar features of TabPFN: the same values five months later forecast differently, equal to the pipeline on those dates', async () => {
    const [first, later] = await Promise.all([forecast({ series: [{ target, index }] }), forecast({ series: [{ target, index: laterIndex }] })]);
    assertForecast(later.series[0][0], expected[2][0], 'later dates', laterForecastIndex);
    assert.notDeepEqual(later.series[0][0].prediction.mean, first.series[0][0].prediction.mean, 'other dates, other forecast');
  });

  it('a backtest forecasts the held-out tail on its own dates: metrics equal those of the truncated series forecast directly', async () => {
    const holdout = 6;
    const backtest = await forecast({ series: [{ target, index }], evaluation: { holdout } });
    const direct = await forecast({ series: [{ target: target.slice(0, -holdout), index: index.slice(0, -holdout) }], horizon: holdout });
    const actual = target.slice(-holdout) as number[];
    const train = target.slice(0, -holdout).filter((v): v is number => v !== null);
    const { mean: predicted } = direct.series[0][0].prediction as { mean: number[] };
    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
    close(backtest.metrics.series[0].smape, smape(actual, predicted), 'sMAPE');
    close(backtest.metrics.series[0].mase, mase(actual, predicted, train, 12), 'MASE');
  });

  it('a known-future variable reaches TabPFN (equal to the pipeline with it); a past-only one is dropped with a warning', async () => {
    const body = await forecast({ series: [covariateSeries()] });
    assertForecast(body.series[0][0], expected[1][0], 'with covariates');
    const text = warningText(body);
    assert.match(text, /price/);
    assert.doesNotMatch(text, /promo/);
    const changed = await forecast({ series: [covariateSeries(promo.slice(N).map(() => 5))] });
    assert.notDeepEqual(changed.series[0][0].prediction.mean, body.series[0][0].prediction.mean, 'a different future value changes the forecast');
  });
});

describe('licence opt-in', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer({ HORIZON_MODEL_DIR: weights }); });
  after(async () => { await plain?.close(); });

  it('tabpfn-ts without HORIZON_ACCEPT_LICENSES is 403 license_not_accepted', async () => {
    const res = await plain.request('POST', '/v1/forecast', { body: { model: 'tabpfn-ts', freq: 'MS', horizon: HORIZON, series: [{ target, index }] } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'license_not_accepted');
    assert.match(res.body.detail, /HORIZON_ACCEPT_LICENSES=tabpfn-ts/);
  });
});
