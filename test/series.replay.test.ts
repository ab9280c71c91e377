// Replay of a real dataset (issue 25): M4 Hourly series (the shared datasets' official test split)
// appended one observation at a time to stored series, forecast by reference with store: true every
// 6 steps; the stored rolling accuracy must equal an offline computation with the backtest scorer —
// POST /v1/forecast with `evaluation` (held-out tail = the same window) for MASE and WQL, and
// metrics.ts on inline forecasts for coverage and the per-step MASE.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { DATASETS, DEFAULT_DATA_DIR, datasetAvailable, indexDates } from '../eval/datasets.ts';
import { coverage, seasonalScale } from '../src/forecasting/metrics.ts';

const spec = DATASETS.find((d) => d.key === 'm4-hourly')!;
const SERIES = 3;
const HISTORY = 240;
const HORIZON = 6;
const EVERY = 6;
const LEVELS = [0.1, 0.5, 0.9];
const MODEL = 'seasonal-naive';

const close = (actual: number | null, expected: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: stored ${actual}, offline ${expected}`);
};

describe('replay of M4 Hourly through stored series', { skip: !datasetAvailable(spec, DEFAULT_DATA_DIR) && 'M4 Hourly not in the shared datasets' }, () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_SERIES_SWEEP_MS: '300' }); });
  after(async () => { await server.close(); });

  it('appended step by step, forecast every 6 steps: rolling accuracy = the backtest scorer offline', async () => {
    const all = spec.load(DEFAULT_DATA_DIR).slice(0, SERIES);
    const start = new Date(Date.UTC(2020, 0, 1));
    const ids = all.map((s) => `m4-${s.id}`);
    // the stored history: the last HISTORY training values; then the official test window, one value at a time
    const history = all.map((s) => s.train.slice(-HISTORY));
    const dates = indexDates('H', start, HISTORY + spec.horizon);
    for (const [i, s] of all.entries()) {
      const put = await server.request('PUT', `/v1/series/${ids[i]}`, { body: { freq: 'H', index: dates.slice(0, HISTORY), target: history[i] } });
      assert.equal(put.status, 201, put.text);
    }
    const origins: number[] = [];
    for (let t = 0; t < spec.horizon; t++) {
      if (t % EVERY === 0 && t + HORIZON <= spec.horizon) {
        const res = await server.request('POST', '/v1/forecast', { body: { series_ids: ids, horizon: HORIZON, model: MODEL, quantiles: LEVELS, store: true } });
        assert.equal(res.status, 200, res.text);
        origins.push(t);
      }
      for (const [i, s] of all.entries()) {
        const res = await server.request('POST', `/v1/series/${ids[i]}/observations`, { body: { index: [dates[HISTORY + t]], target: [s.test[t]] } });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.appended, 1);
      }
    }
    const expected = SERIES * origins.length;
    const deadline = Date.now() + 60_000;
    let byModel;
    for (;;) {
      byModel = (await server.request('GET', `/v1/accuracy?model=${MODEL}`)).body;
      if (byModel.overall.forecasts === expected || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(byModel.overall.forecasts, expected);

    // offline: at each origin, the backtest scorer on history + actuals with the window held out
    const perSeries = all.map(() => ({ mase: [] as number[], loss: 0, absSum: 0, inside: 0, steps: 0, stepErrors: [] as number[][] }));
    for (const t of origins) {
      const seen = all.map((s, i) => [...history[i], ...s.test.slice(0, t)]);
      const windows = all.map((s) => s.test.slice(t, t + HORIZON));
      const backtest = await server.request('POST', '/v1/forecast', { body: {
        series: seen.map((v, i) => ({ index: dates.slice(0, v.length + HORIZON), target: [...v, ...windows[i]] })),
        horizon: HORIZON, freq: 'H', model: MODEL, quantiles: LEVELS, evaluation: { holdout: HORIZON },
      } });
      assert.equal(backtest.status, 200, backtest.text);
      const forecast = await server.request('POST', '/v1/forecast', { body: {
        series: seen.map((v) => ({ index: dates.slice(0, v.length), target: v })), horizon: HORIZON, freq: 'H', model: MODEL, quantiles: LEVELS,
      } });
      assert.equal(forecast.status, 200, forecast.text);
      for (const [i, acc] of perSeries.entries()) {
        const scores = backtest.body.metrics.series[i];
        const absSum = windows[i].reduce((a, y) => a + Math.abs(y), 0);
        acc.mase.push(scores.mase);
        acc.loss += scores.wql * absSum;
        acc.absSum += absSum;
        const p = forecast.body.series[i][0].prediction;
        acc.inside += coverage(windows[i], p['0.1'], p['0.9']) * HORIZON;
        acc.steps += HORIZON;
        const scale = seasonalScale(seen[i], 24);
        acc.stepErrors.push(windows[i].map((y, k) => Math.abs(y - p.mean[k]) / scale));
      }
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    for (const [i, acc] of perSeries.entries()) {
      const stored = (await server.request('GET', `/v1/series/${ids[i]}/accuracy`)).body;
      assert.equal(stored.overall.forecasts, origins.length);
      close(stored.overall.mase, mean(acc.mase), `${ids[i]} MASE`);
      close(stored.overall.wql, acc.loss / acc.absSum, `${ids[i]} WQL`);
      close(stored.overall.coverage['80'], acc.inside / acc.steps, `${ids[i]} coverage 80`);
      for (let k = 0; k < HORIZON; k++) close(stored.overall.by_step[k].mase, mean(acc.stepErrors.map((e) => e[k])), `${ids[i]} MASE at step ${k + 1}`);
      const row = byModel.series.find((s: { series_id: string }) => s.series_id === ids[i]);
      close(row.mase, mean(acc.mase), `${ids[i]} MASE in /v1/accuracy`);
    }
    const pooled = perSeries.reduce((a, s) => ({ loss: a.loss + s.loss, abs: a.abs + s.absSum }), { loss: 0, abs: 0 });
    close(byModel.overall.wql, pooled.loss / pooled.abs, 'model WQL over every series and origin');
    close(byModel.overall.mase, mean(perSeries.flatMap((s) => s.mase)), 'model MASE');
  });
});
