// prism, the ensemble, served over statistical members (no weights needed): shape, determinism,
// blend within the members' envelope, weights learned from the held-out tail, warm-up, backtests.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import { blendWeights } from '../src/prism.ts';

let server: TestServer;
before(async () => { server = await startTestServer({ HORIZON_PRISM_MEMBERS: 'auto-ets,auto-theta,seasonal-naive,naive' }); });
after(async () => server.close());

const target = Array.from({ length: 72 }, (_, i) => 200 + 40 * Math.sin((2 * Math.PI * i) / 12) + 1.5 * i + ((i * 17) % 9));
const request = (model: string, extra: Record<string, unknown> = {}) => ({
  model, freq: 'MS', horizon: 12, quantiles: [0.1, 0.5, 0.9],
  series: [{ target, index: monthlyDates('2015-01', 72) }, { target: target.slice(0, 30).map((v) => v / 3), index: monthlyDates('2018-01', 30) }],
  ...extra,
});

describe('prism', () => {
  it('is listed in GET /v1/models and served over the configured members', async () => {
    const models = await server.request('GET', '/v1/models');
    const prism = models.body.models.find((m: { model_id: string }) => m.model_id === 'prism');
    assert.ok(prism);
    assert.deepEqual(prism.sizes, ['default']);
  });

  it('forecasts in the contract shape, deterministically, within the members\' envelope', async () => {
    const first = await server.request('POST', '/v1/forecast', { body: request('prism') });
    assert.equal(first.status, 200, first.text);
    const again = await server.request('POST', '/v1/forecast', { body: request('prism') });
    assert.deepEqual(again.body.series, first.body.series, 'deterministic');
    const members = await Promise.all(['auto-ets', 'auto-theta', 'seasonal-naive', 'naive'].map((m) => server.request('POST', '/v1/forecast', { body: request(m) })));
    for (let i = 0; i < 2; i++) {
      const p = first.body.series[i][0].prediction;
      assert.equal(p.mean.length, 12);
      for (const key of ['mean', '0.1', '0.5', '0.9']) {
        p[key].forEach((v: number, t: number) => {
          const values = members.map((m) => m.body.series[i][0].prediction[key][t]);
          assert.ok(v >= Math.min(...values) - 1e-9 && v <= Math.max(...values) + 1e-9, `${key}[${t}] outside the members`);
        });
      }
      p['0.1'].forEach((v: number, t: number) => assert.ok(v <= p['0.5'][t] && p['0.5'][t] <= p['0.9'][t]));
      // not just one member: the blend differs from each of them
      for (const m of members) assert.notDeepEqual(p.mean, m.body.series[i][0].prediction.mean);
    }
  });

  it('warm-up warms the members; backtest metrics work for prism', async () => {
    const warm = await server.request('GET', '/v1/warmup?model=prism');
    assert.equal(warm.status, 200, warm.text);
    assert.equal(warm.body.device, 'cpu');
    const res = await server.request('POST', '/v1/forecast', { body: request('prism', { evaluation: { holdout: 6 } }) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.metrics.series.length, 2);
    assert.ok(res.body.metrics.aggregate.mase > 0);
  });

  it('weights: inverse squared loss mixed with equal weights; equal when nothing was learned', () => {
    const w = blendWeights([1, 2, 4]);
    assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(w[0] > w[1] && w[1] > w[2]);
    assert.ok(Math.min(...w) >= 0.3 / 3 - 1e-12, 'every member keeps its share of the equal weights');
    assert.deepEqual(blendWeights([1, Number.NaN]), [0.5, 0.5]);
    const perfect = blendWeights([0, 1]);
    assert.ok(perfect[0] > 0.84 && perfect[1] >= 0.15 - 1e-9);
  });
});
