// Rolling-origin cross-validation (issue 13 item 1): window origins, scores against src/forecasting/metrics.ts and
// against separate /v1/forecast calls on the truncated histories, warnings, charging, 422s, 401.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, monthlyDates, dailyDates, type TestServer } from './helpers.ts';
import { mase, smape, wql, mean, coverage } from '../src/forecasting/metrics.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const stepDates = (startMs: number, ms: number, n: number) => Array.from({ length: n }, (_, i) => new Date(startMs + i * ms).toISOString());
const monthsEvery = (k: number, n: number) => monthlyDates('2000-01', n * k).filter((_, i) => i % k === 0);
const DATES: Record<string, (n: number) => string[]> = {
  MS: (n) => monthlyDates('2010-01', n),
  D: (n) => dailyDates('2024-01-01', n),
  W: (n) => stepDates(Date.parse('2024-01-07T00:00:00Z'), 7 * 86_400_000, n).map((d) => d.slice(0, 10)),
  H: (n) => stepDates(Date.parse('2024-03-01T00:00:00Z'), 3_600_000, n),
  Q: (n) => monthsEvery(3, n),
  Y: (n) => monthsEvery(12, n),
};
const SEASON: Record<string, number> = { H: 24, D: 7, W: 52, MS: 12, Q: 4, Y: 1 };
const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);
const levels = [0.1, 0.5, 0.9];

describe('POST /v1/cross-validation', () => {
  for (const freq of Object.keys(DATES)) {
    it(`${freq}: windows at len - horizon - w*step, scores equal src/forecasting/metrics.ts and separate /v1/forecast calls`, async () => {
      const n = 30, horizon = 3, step = 2, nWindows = 3;
      const target = Array.from({ length: n }, (_, i) => 10 + i + ((i * 7) % 5));
      const index = DATES[freq](n);
      const res = await server.request('POST', '/v1/cross-validation', {
        body: { series: [{ target, index }], freq, horizon, quantiles: levels, n_windows: nWindows, step, models: ['naive', { model: 'seasonal-naive' }] },
      });
      assert.equal(res.status, 200, res.text);
      const cv = res.body;
      assert.equal(cv.n_windows, nWindows);
      assert.equal(cv.step, step);
      assert.equal(cv.season_length, SEASON[freq]);
      assert.equal(cv.models.length, 2);
      // by hand: n 30, horizon 3, step 2 → cutoffs 27, 25, 23
      const cutoffs = [27, 25, 23];
      for (const model of cv.models) {
        const windows = model.series[0].windows;
        assert.deepEqual(windows.map((w: any) => w.window), [0, 1, 2]);
        assert.deepEqual(windows.map((w: any) => w.cutoff), cutoffs);
        const items = [];
        for (const [j, w] of windows.entries()) {
          const cutoff = cutoffs[j];
          assert.deepEqual(w.actual, target.slice(cutoff, cutoff + horizon));
          assert.deepEqual(w.index.map((d: string) => Date.parse(d)), index.slice(cutoff, cutoff + horizon).map((d) => Date.parse(d)), 'forecast dates are the actuals\' dates');
          // the same forecast as /v1/forecast on the history before the cutoff
          const single = await server.request('POST', '/v1/forecast', {
            body: { series: [{ target: target.slice(0, cutoff), index: index.slice(0, cutoff) }], freq, horizon, quantiles: levels, model: model.model },
          });
          assert.equal(single.status, 200, single.text);
          assert.deepEqual(w.prediction, single.body.series[0][0].prediction);
          const train = target.slice(0, cutoff);
          const m = train.length > SEASON[freq] ? SEASON[freq] : 1;
          const p = w.prediction;
          const item = { actual: w.actual, quantiles: new Map(levels.map((q) => [q, p[String(q)]])) };
          items.push({ item, train, m, mean: p.mean });
          close(w.scores.mase, mase(w.actual, p.mean, train, m), 'mase');
          close(w.scores.smape, smape(w.actual, p.mean), 'smape');
          close(w.scores.wql, wql([item], levels), 'wql');
          close(w.scores.coverage['80'], coverage(w.actual, p['0.1'], p['0.9']), 'coverage');
        }
        const agg = model.series[0].scores;
        close(agg.mase, mean(items.map((x) => mase(x.item.actual, x.mean, x.train, x.m))), 'series mase');
        close(agg.smape, mean(items.map((x) => smape(x.item.actual, x.mean))), 'series smape');
        close(agg.wql, wql(items.map((x) => x.item), levels), 'series wql');
        close(model.scores.wql, agg.wql, 'model wql (one series)');
      }
      // leaderboard by WQL
      const ranked = [...cv.models].sort((a: any, b: any) => a.scores.wql - b.scores.wql || a.scores.mase - b.scores.mase);
      assert.deepEqual(cv.leaderboard.map((r: any) => r.model), ranked.map((m: any) => m.model));
      assert.deepEqual(cv.leaderboard.map((r: any) => r.rank), [1, 2]);
    });
  }

  it('sends all windows of all series of a model in ONE inference call', async () => {
    // the worker's own counter of /infer requests (GET /metrics merges the workers' expositions)
    const inferCalls = async (model: string) => {
      const text = (await server.request('GET', '/metrics', { key: null })).text;
      const line = text.split('\n').find((l) => l.startsWith('horizon_runtime_infer_requests_total{') && l.includes(`model="${model}"`) && l.includes('outcome="ok"'));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const series = [0, 1, 2].map((k) => ({ target: Array.from({ length: 30 }, (_, i) => 20 + k + (i % 6)), index: monthlyDates('2015-01', 30) }));
    const before = await inferCalls('auto-theta');
    const res = await server.request('POST', '/v1/cross-validation', { body: { series, freq: 'MS', horizon: 2, n_windows: 4, models: ['auto-theta'] } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.models[0].series.flatMap((s: any) => s.windows).length, 12, '3 series × 4 windows');
    assert.equal(await inferCalls('auto-theta') - before, 1, 'one /infer request for 12 windows');
  });

  it('refit false: the same windows, from one fit per series (statsforecast forward()); parameter-free models unchanged', async () => {
    const series = [0, 1].map((k) => ({ target: Array.from({ length: 48 }, (_, i) => 50 + k * 5 + 0.8 * i + 8 * Math.sin((2 * Math.PI * i) / 12) + ((i * 7) % 3)), index: monthlyDates('2015-01', 48) }));
    const body = { series, freq: 'MS', horizon: 3, step: 2, n_windows: 3, quantiles: levels, models: ['auto-ets', 'seasonal-naive'] };
    const [refit, once] = await Promise.all([true, false].map((r) => server.request('POST', '/v1/cross-validation', { body: { ...body, refit: r } })));
    assert.equal(refit.status, 200, refit.text);
    assert.equal(once.status, 200, once.text);
    assert.equal(refit.body.refit, true);
    assert.equal(once.body.refit, false);
    const windows = (res: any, m: number) => res.body.models[m].series.flatMap((s: any) => s.windows);
    // the same cutoffs and actuals either way
    assert.deepEqual(windows(once, 0).map((w: any) => [w.cutoff, w.actual]), windows(refit, 0).map((w: any) => [w.cutoff, w.actual]));
    // seasonal naive has no parameters: applying its "fit" to a shorter history is forecasting that history
    assert.deepEqual(windows(once, 1), windows(refit, 1));
    // auto-ets: the model chosen and fitted on the whole series gives other numbers on the earlier windows
    assert.notDeepEqual(windows(once, 0).map((w: any) => w.prediction.mean), windows(refit, 0).map((w: any) => w.prediction.mean));
    const bad = await server.request('POST', '/v1/cross-validation', { body: { ...body, refit: 'no' } });
    assert.equal(bad.status, 422, bad.text);
    assert.ok(bad.body.errors.some((e: any) => e.field === 'refit'), bad.text);

    // refit "form" (model auto's default): one whole-history fit, each window fitted again in that fit's
    // form (runtime/tests/test_parity.py checks the numbers): parameters refitted, so not forward()'s windows
    const form = await server.request('POST', '/v1/cross-validation', { body: { ...body, refit: 'form' } });
    assert.equal(form.status, 200, form.text);
    assert.equal(form.body.refit, 'form');
    assert.deepEqual(windows(form, 0).map((w: any) => [w.cutoff, w.actual]), windows(refit, 0).map((w: any) => [w.cutoff, w.actual]));
    assert.deepEqual(windows(form, 1), windows(refit, 1));
    assert.notDeepEqual(windows(form, 0).map((w: any) => w.prediction.mean), windows(once, 0).map((w: any) => w.prediction.mean));
  });

  it('ranks by the chosen metric; step defaults to the horizon, n_windows to 1', async () => {
    const target = Array.from({ length: 40 }, (_, i) => 50 + 10 * Math.sin(i / 2) + i);
    const res = await server.request('POST', '/v1/cross-validation', {
      body: { series: [{ target, index: monthlyDates('2015-01', 40) }], freq: 'MS', horizon: 4, models: ['naive', 'seasonal-naive'], metric: 'smape' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.step, 4);
    assert.equal(res.body.n_windows, 1);
    assert.equal(res.body.metric, 'smape');
    assert.deepEqual(res.body.models[0].series[0].windows.map((w: any) => w.cutoff), [36]);
    const best = [...res.body.models].sort((a: any, b: any) => a.scores.smape - b.scores.smape)[0];
    assert.equal(res.body.leaderboard[0].model, best.model);
    assert.equal(res.body.leaderboard[0].score, best.scores.smape);
  });

  it('windows that do not fit are named in warnings, not dropped silently', async () => {
    const long = Array.from({ length: 20 }, (_, i) => 5 + (i % 4));
    const short = [1, 2, 3, 4, 5, 6, 7];
    const withGap = Array.from({ length: 20 }, (_, i) => (i === 18 ? null : 3 + (i % 3)));
    const res = await server.request('POST', '/v1/cross-validation', {
      body: {
        series: [{ target: long, index: monthlyDates('2015-01', 20) }, { target: short, index: monthlyDates('2015-01', 7) }, { target: withGap, index: monthlyDates('2015-01', 20) }],
        freq: 'MS', horizon: 3, n_windows: 3, models: ['naive'],
      },
    });
    assert.equal(res.status, 200, res.text);
    const s = res.body.models[0].series;
    assert.deepEqual(s[0].windows.map((w: any) => w.cutoff), [17, 14, 11]);
    // short: cutoffs 4, 1, -2 → window 2 left out
    assert.deepEqual(s[1].windows.map((w: any) => w.cutoff), [4, 1]);
    // withGap: window 0 (17..19) holds the missing value
    assert.deepEqual(s[2].windows.map((w: any) => w.cutoff), [14, 11]);
    const messages = res.body.warnings.map((w: any) => `${w.series} ${w.message}`);
    assert.ok(messages.some((m: string) => m.startsWith('1 window 2 left out')), messages.join('\n'));
    assert.ok(messages.some((m: string) => m.startsWith('2 window 0 left out') && m.includes('missing')), messages.join('\n'));
    // history not longer than the season: MASE falls back to m = 1, and says so
    assert.ok(messages.some((m: string) => m.startsWith('1 window 0') && m.includes('m = 1')), messages.join('\n'));
  });

  it('a window the model refuses (its context holds no observation) is left out with the reason', async () => {
    const target = Array.from({ length: 20 }, (_, i) => (i === 15 || i === 16 ? null : 10 + (i % 5)));
    const res = await server.request('POST', '/v1/cross-validation', {
      body: { series: [{ target, index: monthlyDates('2015-01', 20) }], freq: 'MS', horizon: 3, n_windows: 3, context: 2, models: ['naive'] },
    });
    assert.equal(res.status, 200, res.text);
    // cutoffs 17 (context 15..16 all missing: refused), 14 (actuals 14..16 hold a missing value), 11
    assert.deepEqual(res.body.models[0].series[0].windows.map((w: any) => w.cutoff), [11]);
    const messages = res.body.warnings.map((w: any) => w.message);
    assert.ok(messages.some((m: string) => m.startsWith('window 0 left out for model naive') && m.includes('context')), messages.join('\n'));
    assert.ok(messages.some((m: string) => m.startsWith('window 1 left out') && m.includes('missing')), messages.join('\n'));
  });

  it('charges one unit per model, all or nothing: a refused request gives back what it took', async () => {
    const { key } = await server.newAccount({ daily: 3, weekly: 100 });
    const body = (models: string[]) => ({ series: [{ target: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], index: monthlyDates('2015-01', 10) }], freq: 'MS', horizon: 2, models });
    const two = await server.request('POST', '/v1/cross-validation', { key, body: body(['naive', 'seasonal-naive']) });
    assert.equal(two.status, 200, two.text);
    assert.equal(two.headers.get('x-ratelimit-remaining'), '1');
    const refused = await server.request('POST', '/v1/cross-validation', { key, body: body(['naive', 'seasonal-naive']) });
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.code, 'quota_exceeded');
    // the unit the refused request took first was given back: one model still fits
    const one = await server.request('POST', '/v1/cross-validation', { key, body: body(['naive']) });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.headers.get('x-ratelimit-remaining'), '0');
  });

  it('422s name the field; 401 without a key', async () => {
    const base = { series: [{ target: [1, 2, 3, 4, 5, 6, 7, 8], index: monthlyDates('2015-01', 8) }], freq: 'MS', horizon: 2, models: ['naive'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ n_windows: 0 }, 'n_windows'], [{ n_windows: 21 }, 'n_windows'], [{ step: 0 }, 'step'],
      [{ models: [] }, 'models'], [{ models: ['naive', 'no-such-model'] }, 'models[1].model'],
      [{ models: [{ model: 'naive', model_size: 'huge' }] }, 'models[0].model_size'], [{ metric: 'rmse' }, 'metric'],
      [{ horizon: 8 }, 'n_windows'],
      // bad input is a 422 on the series as sent, not windows left out
      [{ series: [{ target: [1, 2, 3, 4, 5, 6, 7, 8], index: monthlyDates('2015-01', 8).map((d, i) => (i === 5 ? '2015-06-15' : d)) }] }, 'series[0].index'],
    ];
    for (const [extra, field] of cases) {
      const res = await server.request('POST', '/v1/cross-validation', { body: { ...base, ...extra } });
      assert.equal(res.status, 422, `${JSON.stringify(extra)}: ${res.text}`);
      assert.ok(res.body.errors.some((e: any) => e.field === field || e.field.startsWith(field)), `${JSON.stringify(extra)} → ${JSON.stringify(res.body.errors)}`);
    }
    const anonymous = await server.request('POST', '/v1/cross-validation', { key: null, body: base });
    assert.equal(anonymous.status, 401);
  });
});
