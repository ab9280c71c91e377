// Drift against the model's own backtest (issue 25 item 4): a schedule with `evaluation` keeps each scheduled
// forecast's backtest MASE on the series; a drift rule's max_mase_ratio raises drift when the rolling MASE is
// above that many times it — a relative bar that needs no absolute MASE per series. Both stores.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { monthlyDates, startServerOn, storeBackends, type TestServer, pollUntil } from './helpers.ts';

for (const backend of storeBackends) {
  describe(`drift against the model's backtest on ${backend.name}`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => ({ server, cleanup } = await startServerOn(backend, { HORIZON_SERIES_SWEEP_MS: '300' })));
    after(async () => { await server.close(); await cleanup(); });

    it('a max_mase_ratio rule needs forecasts that carry a backtest: a schedule without evaluation is a 422', async () => {
      const res = await server.request('PUT', '/v1/series/no-baseline', { body: {
        freq: 'MS', index: monthlyDates('2020-01', 24), target: Array.from({ length: 24 }, (_, i) => 10 + (i % 12)),
        forecast_every: 1, schedule: { horizon: 1, model: 'seasonal-naive' }, drift: { max_mase_ratio: 2 },
      } });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.errors[0].field, 'drift.max_mase_ratio');
      assert.match(res.body.errors[0].reason, /schedule needs `evaluation`/);
    });

    it('scheduled forecasts keep the backtest; rolling MASE over ratio × backtest raises drift naming both', async () => {
      const n = 48;
      // a noisy seasonal series: seasonal-naive's backtest MASE on it is near 1 (not 0: the ratio is defined)
      let seed = 3;
      const noise = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
      const value = (i: number) => Math.round((100 + 10 * Math.sin((2 * Math.PI * i) / 12) + 4 * noise()) * 100) / 100;
      const history = Array.from({ length: n }, (_, i) => value(i));
      const put = await server.request('PUT', '/v1/series/relative', { body: {
        freq: 'MS', index: monthlyDates('2020-01', n), target: history,
        forecast_every: 1, schedule: { horizon: 1, model: 'seasonal-naive', evaluation: { holdout: 12 } },
        drift: { window: 3, min_forecasts: 2, max_mase_ratio: 3 },
      } });
      assert.equal(put.status, 201, put.text);
      assert.deepEqual(put.body.schedule.evaluation, { holdout: 12 });
      assert.equal(put.body.drift.max_mase_ratio, 3);
      const dates = monthlyDates('2020-01', 80);
      let points = n;
      const append = async (v: number) => {
        const res = await server.request('POST', '/v1/series/relative/observations', { body: { index: [dates[points]], target: [v] } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.scheduled_forecast, { status: 200, forecasts: 1 });
        points += 1;
      };
      const view = () => server.request('GET', '/v1/series/relative').then((r) => r.body);
      for (let k = 0; k < 3; k++) await append(value(points));
      await pollUntil('two forecasts scored', () => server.request('GET', '/v1/series/relative/accuracy').then((r) => r.body), (b) => b.overall.forecasts === 2);
      assert.deepEqual((await view()).events, [], 'in-line values: the rolling MASE stays near the backtest');
      // what the route answers for the same backtest: the baseline the rule uses
      const direct = await server.request('POST', '/v1/forecast', { body: { series_ids: ['relative'], horizon: 1, model: 'seasonal-naive', evaluation: { holdout: 12 } } });
      assert.equal(direct.status, 200, direct.text);
      assert.ok(direct.body.metrics.series[0].mase > 0);
      // far off the pattern: the rolling MASE jumps far above 3 × the backtest
      await append(400);
      await append(900);
      const raised = await pollUntil('drift raised', view, (v) => v.events.length === 1);
      assert.equal(raised.events[0].kind, 'drift_raised');
      assert.equal(raised.drifting, true);
      assert.match(raised.events[0].detail.reasons[0], /rolling MASE [0-9.]+ is [0-9.]+× the model's own backtest MASE [0-9.]+, above 3×/);
      assert.equal(typeof raised.events[0].detail.backtest_mase, 'number');
      assert.ok(raised.events[0].detail.backtest_mase > 0);
      assert.ok(raised.events[0].detail.mase > 3 * raised.events[0].detail.backtest_mase);
    });
  });
}
