// Backtest metrics (contract B.5): the `evaluation` field holds out each series' tail, forecasts it
// with the same model, and fills `metrics` with the same numbers the evaluation harness computes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, monthlyDates, waitForJob, type TestServer } from './helpers.ts';
import { mase, smape, wql, mean } from '../src/forecasting/metrics.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const seriesA = Array.from({ length: 60 }, (_, i) => 100 + 20 * Math.sin((2 * Math.PI * i) / 12) + i * 0.8 + ((i * 37) % 7));
const seriesB = Array.from({ length: 40 }, (_, i) => 50 + ((i * 13) % 11) + (i % 12 === 0 ? 15 : 0));
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'auto-ets', freq: 'MS', horizon: 6, quantiles: [0.1, 0.5, 0.9],
  series: [{ target: seriesA, index: monthlyDates('2015-01', 60) }, { target: seriesB, index: monthlyDates('2017-03', 40) }],
  ...extra,
});

describe('backtest metrics', () => {
  it('equal what the harness computes for the same holdout, per series and in aggregate; charged once', async () => {
    const holdout = 8;
    const res = await server.request('POST', '/v1/forecast', { body: body({ evaluation: { holdout } }) });
    assert.equal(res.status, 200, res.text);
    const { metrics } = res.body;
    assert.equal(metrics.holdout, holdout);
    assert.equal(metrics.season_length, 12);
    assert.deepEqual(metrics.quantiles, [0.1, 0.5, 0.9]);
    assert.equal(metrics.series.length, 2);

    // the harness: forecast the truncated series, score with src/forecasting/metrics.ts
    const trains = [seriesA.slice(0, -holdout), seriesB.slice(0, -holdout)];
    const actuals = [seriesA.slice(-holdout), seriesB.slice(-holdout)];
    const reference = await server.request('POST', '/v1/forecast', {
      body: { model: 'auto-ets', freq: 'MS', horizon: holdout, quantiles: [0.1, 0.5, 0.9], series: [
        { target: trains[0], index: monthlyDates('2015-01', trains[0].length) },
        { target: trains[1], index: monthlyDates('2017-03', trains[1].length) },
      ] },
    });
    const items = actuals.map((actual, i) => {
      const p = reference.body.series[i][0].prediction;
      return { actual, mean: p.mean as number[], quantiles: new Map([[0.1, p['0.1']], [0.5, p['0.5']], [0.9, p['0.9']]]) };
    });
    const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
    items.forEach((item, i) => {
      close(metrics.series[i].mase, mase(item.actual, item.mean, trains[i], 12));
      close(metrics.series[i].smape, smape(item.actual, item.mean));
      close(metrics.series[i].wql, wql([item], [0.1, 0.5, 0.9]));
    });
    close(metrics.aggregate.mase, mean(items.map((item, i) => mase(item.actual, item.mean, trains[i], 12))));
    close(metrics.aggregate.smape, mean(items.map((item) => smape(item.actual, item.mean))));
    close(metrics.aggregate.wql, wql(items, [0.1, 0.5, 0.9]));
    assert.ok(metrics.aggregate.mase > 0);

    const before = Number(reference.headers.get('x-ratelimit-remaining'));
    const next = await server.request('POST', '/v1/forecast', { body: body({ evaluation: {} }) });
    assert.equal(Number(next.headers.get('x-ratelimit-remaining')), before - 1, 'a backtest is charged as one request');
    assert.equal(next.body.metrics.holdout, 6, 'holdout defaults to the horizon');
  });

  it('season_length is configurable; without evaluation metrics stay null', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: body({ evaluation: { holdout: 4, season_length: 1 } }) });
    assert.equal(res.body.metrics.season_length, 1);
    const plain = await server.request('POST', '/v1/forecast', { body: body() });
    assert.equal(plain.body.metrics, null);
  });

  it('jobs carry the metrics too', async () => {
    const res = await server.request('POST', '/v1/forecast-jobs', { body: body({ evaluation: { holdout: 6 } }) });
    const job = await waitForJob(server, res.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    assert.equal(job.status, 'completed');
    assert.equal(job.metrics.series.length, 2);
  });

  it('422s name the series and field', async () => {
    const cases: [Record<string, unknown>, RegExp, number?][] = [
      [body({ evaluation: { holdout: 40 } }), /^series\[1\]\.target$/, 1],
      [body({ evaluation: { holdout: 2001 } }), /^evaluation\.holdout$/],
      [body({ evaluation: { holdout: 0 } }), /^evaluation\.holdout$/],
      [body({ evaluation: { holdot: 3 } }), /^evaluation\.holdot$/],
    ];
    const withNull = body({ evaluation: { holdout: 3 } }) as { series: { target: (number | null)[] }[] };
    withNull.series[0].target = [...seriesA.slice(0, -1), null];
    cases.push([withNull, /^series\[0\]\.target\[59\]$/, 0]);
    for (const [request, field, series] of cases) {
      const res = await server.request('POST', '/v1/forecast', { body: request });
      assert.equal(res.status, 422, res.text);
      const match = res.body.errors.find((e: { field: string }) => field.test(e.field));
      assert.ok(match, JSON.stringify(res.body.errors));
      if (series !== undefined) assert.equal(match.series, series);
    }
  });
});
