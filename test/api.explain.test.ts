// POST /v1/forecast explain: true (issue 34 part 4): each covariate's Shapley contribution per step, computed by the
// worker with shap over every coalition of the series' covariates, on chronos-2's tiny checkpoint. base + Σ = mean;
// the base is the forecast without covariates; the forecast itself is the plain call's; the 422s and the 413.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';
import { EXPLAIN_SYNC_EVALUATIONS } from '../src/forecasting/cost.ts';

const n = 60;
const horizon = 6;
const index = monthlyDates('2018-01', n);
const futureIndex = monthlyDates('2023-01', horizon);
const target = Array.from({ length: n }, (_, i) => 100 + 20 * Math.sin((2 * Math.PI * i) / 12) + (i % 5));
const price = Array.from({ length: n + horizon }, (_, i) => 10 + Math.cos(i / 3));
const promo = Array.from({ length: n + horizon }, (_, i) => (i % 4 === 0 ? 1 : 0));
const withCovariates = {
  target, index,
  hist_variables: { price: price.slice(0, n), promo: promo.slice(0, n), weather: Array.from({ length: n }, (_, i) => i % 3) },
  future_variables: { price: price.slice(n), promo: promo.slice(n) },
  future_variables_index: futureIndex,
};
const body = { series: [withCovariates, { target: target.slice(10), index: index.slice(10) }], freq: 'MS', horizon, quantiles: [0.1, 0.9], model: 'chronos-2' };

describe('POST /v1/forecast explain', () => {
  let server: TestServer;
  let weights: string;
  before(async () => {
    weights = writeFixtures(['chronos-2']);
    server = await startTestServer({ HORIZON_MODEL_DIR: weights });
  });
  after(async () => { await server?.close(); rmSync(weights, { recursive: true, force: true }); });

  it('answers each covariate\'s contribution per step: base + Σ = the mean, the forecast the plain call\'s', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { ...body, series: [withCovariates], explain: true } });
    assert.equal(res.status, 200, res.text);
    const [{ prediction, contributions }] = res.body.series[0];
    assert.deepEqual(Object.keys(contributions.features), ['price', 'promo', 'weather']);
    for (let t = 0; t < horizon; t++) {
      const sum = contributions.base[t] + Object.values(contributions.features as Record<string, number[]>).reduce((s, v) => s + v[t], 0);
      assert.ok(Math.abs(sum - prediction.mean[t]) <= 1e-9 * (1 + Math.abs(prediction.mean[t])), `step ${t}: ${sum} vs ${prediction.mean[t]}`);
    }
    const plain = await server.request('POST', '/v1/forecast', { body: { ...body, series: [withCovariates] } });
    assert.equal(plain.status, 200, plain.text);
    // the same series in a batch of its 8 coalitions: chronos-2's batch tolerance (parity-tolerances.json: 1e-6 relative)
    plain.body.series[0][0].prediction.mean.forEach((v: number, t: number) => assert.ok(Math.abs(v - prediction.mean[t]) <= 1e-6 * (Math.abs(v) + 1)));
    assert.equal(plain.body.series[0][0].contributions, undefined);
    const bare = await server.request('POST', '/v1/forecast', { body: { ...body, series: [{ target, index }] } });
    bare.body.series[0][0].prediction.mean.forEach((v: number, t: number) => assert.ok(Math.abs(v - contributions.base[t]) <= 1e-6 * (Math.abs(v) + 1)));
  });

  it('a series without covariates gets its forecast as the base and no feature', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { ...body, explain: true } });
    assert.equal(res.status, 200, res.text);
    const second = res.body.series[1][0];
    assert.deepEqual(second.contributions.features, {});
    assert.deepEqual(second.contributions.base, second.prediction.mean);
  });

  it('422s naming explain: a model without covariates, auto, prism, no covariates at all, finetune_steps, a job', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ model: 'auto-ets' }, 'explain', /model auto-ets uses no covariates.*models that use covariates: chronos-2/],
      [{ model: 'auto' }, 'explain', /model "auto" picks a model per forecast/],
      [{ series: [{ target, index }] }, 'explain', /no series carries covariates that chronos-2 uses/],
      [{ finetune_steps: 5 }, 'explain', /with finetune_steps 5/],
    ];
    for (const [change, field, reason] of cases) {
      const res = await server.request('POST', '/v1/forecast', { body: { ...body, explain: true, ...change } });
      assert.equal(res.status, 422, `${JSON.stringify(change)}: ${res.text}`);
      assert.equal(res.body.errors[0].field, field);
      assert.match(res.body.errors[0].reason, reason);
    }
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, k) => [`v${k}`, Array.from({ length: n }, (_, i) => (i * (k + 1)) % 7)]));
    const res = await server.request('POST', '/v1/forecast', { body: { ...body, series: [{ target, index, hist_variables: many }], explain: true } });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual([res.body.errors[0].field, res.body.errors[0].series], ['series[0]', 0]);
    assert.match(res.body.errors[0].reason, /has 11 covariates.*at most 10/);
    const job = await server.request('POST', '/v1/forecast-jobs', { body: { ...body, explain: true } });
    assert.equal(job.status, 422, job.text);
    assert.match(job.body.errors[0].reason, /synchronously only/);
  });

  it('over the synchronous bound of forecasts: 413 use_job_api before anything is charged', async () => {
    const perSeries = 2 ** 3;
    const series = Array.from({ length: Math.floor(EXPLAIN_SYNC_EVALUATIONS / perSeries) + 1 }, () => withCovariates);
    const res = await server.request('POST', '/v1/forecast', { body: { ...body, series, explain: true } });
    assert.equal(res.status, 413, res.text);
    assert.equal(res.body.code, 'use_job_api');
    assert.match(res.body.detail, new RegExp(`takes ${series.length * perSeries} forecasts .*send fewer series per call`));
  });
});
