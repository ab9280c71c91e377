// model "auto" (issue 13 item 2): the pick agrees with POST /v1/cross-validation on the same candidates
// (per series and per request), the forecast equals a plain forecast with the picked model, short
// series fall back with a warning, jobs, charging (one unit) and 422s naming the field.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startTestServer, monthlyDates, waitForJob, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';
import { AUTO_SWITCH_RATIO, AUTO_DEFAULT_METRIC, AUTO_DEFAULT_REFIT } from '../src/forecasting/auto.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const n = 48;
const index = monthlyDates('2018-01', n);
// a strongly seasonal series (seasonal-naive wins), a trend (naive wins over seasonal-naive), a noisy level
const seasonal = Array.from({ length: n }, (_, i) => 100 + 30 * Math.sin((2 * Math.PI * i) / 12) + ((i * 7) % 3));
const trend = Array.from({ length: n }, (_, i) => 10 + 2 * i + ((i * 5) % 4) * 0.3);
const level = Array.from({ length: n }, (_, i) => 50 + ((i * 13) % 7) - 3);
const series = [seasonal, trend, level].map((target) => ({ target, index }));
const candidates = ['naive', 'seasonal-naive', 'auto-theta'];
const horizon = 6;
const quantiles = [0.1, 0.5, 0.9];

async function crossValidate(nWindows: number, metric: string, body: Record<string, unknown> = {}) {
  // auto cross-validates as POST /v1/cross-validation with its default refit ("form": one fit per series, its form refitted at each window)
  const res = await server.request('POST', '/v1/cross-validation', { body: { series, freq: 'MS', horizon, quantiles, models: candidates, n_windows: nWindows, metric, refit: AUTO_DEFAULT_REFIT, ...body } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function plain(model: string, input: typeof series) {
  const res = await server.request('POST', '/v1/forecast', { body: { series: input, freq: 'MS', horizon, quantiles, model } });
  assert.equal(res.status, 200, res.text);
  return res.body.series;
}

describe('model "auto" on POST /v1/forecast', () => {
  it('series scope: each series gets what the cross-validation ranks first for it, and that model\'s forecast', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: candidates, auto_scope: 'series' } });
    assert.equal(res.status, 200, res.text);
    const { auto } = res.body;
    assert.equal(res.body.model, 'auto');
    assert.equal(auto.scope, 'series');
    assert.equal(auto.metric, AUTO_DEFAULT_METRIC);
    assert.equal(auto.step, horizon);
    assert.deepEqual(auto.candidates.map((c: any) => c.model), candidates);
    const cv = await crossValidate(auto.n_windows, auto.metric);
    assert.deepEqual(auto.leaderboard, cv.leaderboard);
    const metric = auto.metric as 'mase';
    const winner = cv.leaderboard[0].model;
    const w = cv.models.findIndex((m: any) => m.model === winner);
    for (let i = 0; i < series.length; i++) {
      const scores = cv.models.map((m: any) => m.series[i].scores);
      // the CV's order on this series: the metric, ties by MASE
      const own = scores.map((_: unknown, k: number) => k).sort((a: number, b: number) => scores[a][metric] - scores[b][metric] || scores[a].mase - scores[b].mase || a - b)[0];
      const switches = own === w || scores[own][metric] < AUTO_SWITCH_RATIO * scores[w][metric];
      const expected = switches ? own : w;
      assert.equal(auto.series[i].model, cv.models[expected].model, `series ${i}: ${JSON.stringify(scores.map((s: any) => s[metric]))}`);
      assert.equal(auto.series[i].picked_by, switches ? 'series' : 'request');
      assert.equal(auto.series[i].score, scores[expected][metric]);
      assert.equal(auto.series[i].windows, auto.n_windows);
      // the forecast is the picked model's, as a plain forecast of that series
      const single = await plain(auto.series[i].model, [series[i]]);
      assert.deepEqual(res.body.series[i], single[0]);
    }
    // the data make the series disagree, so this is a per-series pick
    assert.ok(new Set(auto.series.map((s: any) => s.model)).size >= 2, JSON.stringify(auto.series));
  });

  it('request scope: one model, the leaderboard\'s first on the pooled score; auto_metric ranks', async () => {
    for (const metric of ['wql', 'mase']) {
      const res = await server.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: candidates, auto_scope: 'request', auto_metric: metric } });
      assert.equal(res.status, 200, res.text);
      const { auto } = res.body;
      assert.equal(auto.scope, 'request');
      assert.equal(auto.metric, metric);
      const cv = await crossValidate(auto.n_windows, metric);
      const winner = cv.leaderboard[0].model;
      const m = cv.models.find((x: any) => x.model === winner);
      assert.deepEqual(auto.series.map((s: any) => s.model), series.map(() => winner));
      assert.deepEqual(auto.series.map((s: any) => s.picked_by), series.map(() => 'request'));
      assert.deepEqual(auto.series.map((s: any) => s.score), m.series.map((s: any) => s.scores[metric]));
      assert.deepEqual(res.body.series, await plain(winner, series));
    }
  });

  it('a series too short for any window gets the request\'s winner, with a warning; none fits → the first candidate', async () => {
    const short = { target: [5, 6, 7, 8], index: monthlyDates('2021-01', 4) };
    const res = await server.request('POST', '/v1/forecast', { body: { series: [...series, short], freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: candidates } });
    assert.equal(res.status, 200, res.text);
    const { auto } = res.body;
    assert.ok(auto.leaderboard.length === candidates.length);
    assert.deepEqual(auto.series[3], { model: auto.leaderboard[0].model, model_size: auto.leaderboard[0].model_size, score: null, windows: 0, picked_by: 'fallback' });
    assert.ok(res.body.warnings.some((w: any) => w.series === 3 && w.field === 'series[3].target' && /no cross-validation window fits/.test(w.message)), JSON.stringify(res.body.warnings));
    assert.deepEqual(res.body.series[3], (await plain(auto.leaderboard[0].model, [short]))[0]);

    const alone = await server.request('POST', '/v1/forecast', { body: { series: [short], freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: ['auto-theta', 'naive'] } });
    assert.equal(alone.status, 200, alone.text);
    assert.deepEqual(alone.body.auto.leaderboard, []);
    assert.equal(alone.body.auto.series[0].model, 'auto-theta');
    assert.equal(alone.body.auto.series[0].picked_by, 'fallback');
    assert.deepEqual(alone.body.series, await plain('auto-theta', [short]));
  });

  it('default candidates: the served statistical models (no foundation weights here)', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { series: series.slice(0, 1), freq: 'MS', horizon, model: 'auto' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.auto.scope, 'request');
    assert.equal(res.body.auto.metric, 'mase');
    assert.deepEqual(res.body.auto.candidates, [
      { model: 'auto-ets', model_size: 'default' }, { model: 'auto-theta', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' },
    ]);
    assert.deepEqual(res.body.auto.pool, { source: 'default' });
  });

  it('default candidates on hourly data: mstl joins the three (several seasons) and is cross-validated', async () => {
    // two weeks and a half of hours with a daily and a weekly cycle: what the three cannot model together
    const hours = 24 * 7 * 2 + 96;
    const target = Array.from({ length: hours }, (_, t) => 100 + 20 * Math.sin((2 * Math.PI * t) / 24) + (Math.floor(t / 24) % 7 >= 5 ? -30 : 0) + (t % 5));
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target, index: target.map((_, t) => new Date(Date.UTC(2024, 0, 1, t)).toISOString().slice(0, 19)) }], freq: 'H', horizon: 24, model: 'auto' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.auto.candidates.map((c: any) => c.model), ['auto-ets', 'auto-theta', 'seasonal-naive', 'mstl']);
    assert.deepEqual(res.body.auto.pool, { source: 'default' });
    assert.deepEqual(res.body.auto.leaderboard.map((row: any) => row.model).sort(), ['auto-ets', 'auto-theta', 'mstl', 'seasonal-naive']);
    // the same request at a single-season frequency keeps the three
    const monthly = await server.request('POST', '/v1/forecast', { body: { series: series.slice(0, 1), freq: 'MS', horizon, model: 'auto' } });
    assert.ok(!monthly.body.auto.candidates.some((c: any) => c.model === 'mstl'), monthly.text);
  });

  it('default candidates on weekly data: mstl joins the three (a season of 52, longer than AutoETS models)', async () => {
    const weeks = 52 * 2 + 20;
    const target = Array.from({ length: weeks }, (_, t) => 500 + 80 * Math.sin((2 * Math.PI * t) / 52) + t + (t % 3));
    const index = target.map((_, t) => new Date(Date.UTC(2020, 0, 6 + 7 * t)).toISOString().slice(0, 10));
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target, index }], freq: 'W', horizon: 8, model: 'auto' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.auto.candidates.map((c: any) => c.model), ['auto-ets', 'auto-theta', 'seasonal-naive', 'mstl']);
    assert.deepEqual(res.body.auto.leaderboard.map((row: any) => row.model).sort(), ['auto-ets', 'auto-theta', 'mstl', 'seasonal-naive']);
  });

  it('as a job: the same answer as the sync call, with the auto object', async () => {
    const body = { series, freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: candidates };
    const sync = await server.request('POST', '/v1/forecast', { body });
    assert.equal(sync.status, 200, sync.text);
    const accepted = await server.request('POST', '/v1/forecast-jobs', { body });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.body.model, 'auto');
    const job = await waitForJob(server, accepted.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.deepEqual(job.auto, sync.body.auto);
    assert.deepEqual(job.series, sync.body.series);
    assert.equal(job.model_size, 'auto');
    const bad = await server.request('POST', '/v1/forecast-jobs', { body: { ...body, auto_candidates: ['naive', 'nope'] } });
    assert.equal(bad.status, 422, bad.text);
    assert.ok(bad.body.errors.some((e: any) => e.field === 'auto_candidates[1].model'), bad.text);
  });

  it('charged one unit', async () => {
    const { key } = await server.newAccount({ daily: 1, weekly: 100 });
    const body = { series, freq: 'MS', horizon, model: 'auto', auto_candidates: candidates };
    const first = await server.request('POST', '/v1/forecast', { key, body });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '0');
    const second = await server.request('POST', '/v1/forecast', { key, body });
    assert.equal(second.status, 429, second.text);
  });

  it('422s name the field', async () => {
    const base = { series: series.slice(0, 1), freq: 'MS', horizon, model: 'auto', auto_candidates: ['naive'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ auto_scope: 'global' }, 'auto_scope'], [{ auto_metric: 'rmse' }, 'auto_metric'],
      [{ auto_candidates: [] }, 'auto_candidates'], [{ auto_candidates: ['naive', 'no-such-model'] }, 'auto_candidates[1].model'],
      [{ auto_candidates: [{ model: 'naive', model_size: 'huge' }] }, 'auto_candidates[0].model_size'],
      [{ auto_candidates: ['auto'] }, 'auto_candidates[0].model'], [{ auto_candidates: ['naive', 'naive'] }, 'auto_candidates[1]'],
      [{ model: 'naive', auto_scope: 'series' }, 'auto_scope'], [{ model: 'naive' }, 'auto_candidates'],
      [{ evaluation: { holdout: 2 } }, 'evaluation'], [{ model_size: 'default' }, 'model_size'],
      [{ series: [{ target: [1, 2, 3], index: ['2020-01-01', '2020-02-01', '2020-03-15'] }] }, 'series[0].index[2]'],
      // the same with the default candidates: still the series' 422, not "no candidate"
      [{ auto_candidates: undefined, series: [{ target: [1, 2, 3], index: ['2020-01-01', '2020-02-01', '2020-03-15'] }] }, 'series[0].index[2]'],
    ];
    for (const [extra, field] of cases) {
      const res = await server.request('POST', '/v1/forecast', { body: { ...base, ...extra } });
      assert.equal(res.status, 422, `${JSON.stringify(extra)}: ${res.text}`);
      assert.ok(res.body.errors.some((e: any) => e.field === field), `${JSON.stringify(extra)} → ${JSON.stringify(res.body.errors)}`);
    }
  });
});

// Covariates are used or refused, never dropped (issue 34): auto forecasts only with candidates that use every covariate
// the request sends, prism (whose blend drops them) refuses them; where no model uses them, a 422 naming series and field.
describe('covariates with model "auto" and prism: used or refused', () => {
  const withCovariates = series.map((s, i) => ({ ...s, hist_variables: { promo: s.target.map((_, t) => (t + i) % 3) } }));

  it('auto with no served model that uses them: a 422 naming the series\' field, the names and the pull; prism the same', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { series: withCovariates, freq: 'MS', horizon, model: 'auto' } });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.errors.map((e: any) => [e.series, e.field]), [[0, 'series[0].hist_variables']]);
    assert.match(res.body.errors[0].reason, /^promo \(and this field of 2 more series\): model "auto" forecasts only with models that use the request's/);
    assert.match(res.body.errors[0].reason, /chronos-2 \(`\.\/horizon models pull chronos-2 --size \w+`\)/);
    // the client's own candidates: each that would drop them is named
    const auto = { series: withCovariates, freq: 'MS', horizon, model: 'auto' };
    const named = await server.request('POST', '/v1/forecast', { body: { ...auto, auto_candidates: ['naive', 'auto-theta'] } });
    assert.equal(named.status, 422, named.text);
    assert.deepEqual(named.body.errors.map((e: any) => e.field), ['auto_candidates[0].model', 'auto_candidates[1].model']);
    assert.match(named.body.errors[0].reason, /naive does not use the request's historical covariates, which auto never drops/);
    // a job is refused the same way, before it is stored
    const job = await server.request('POST', '/v1/forecast-jobs', { body: auto });
    assert.equal(job.status, 422, job.text);
    for (const body of [{ model: 'prism' }, { model: 'prism', prism_members: ['naive', 'auto-theta'] }]) {
      const withStatic = [series[0], { ...series[1], static_variables: { store: 3 } }];
      const prism = await server.request('POST', '/v1/forecast', { body: { series: withStatic, freq: 'MS', horizon, ...body } });
      assert.equal(prism.status, 422, prism.text);
      assert.deepEqual(prism.body.errors.map((e: any) => e.field), ['series[1].static_variables']);
      assert.match(prism.body.errors[0].reason, /^store: prism blends forecasts made without covariates and would drop the request's static covariates/);
    }
    // without covariates nothing changes
    assert.equal((await server.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, model: 'prism' } })).status, 200);
  });

  describe('with chronos-2 served (its tiny checkpoint) and HORIZON_AUTO_CANDIDATES=auto-ets,chronos-2', () => {
    let served: TestServer;
    let weights: string;
    before(async () => {
      weights = writeFixtures(['chronos-2']);
      served = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_AUTO_CANDIDATES: 'auto-ets,chronos-2' });
    });
    after(async () => { await served?.close(); rmSync(weights, { recursive: true, force: true }); });

    it('auto cross-validates only the candidates that use them: the forecast is chronos-2\'s with the covariates', async () => {
      const res = await served.request('POST', '/v1/forecast', { body: { series: withCovariates, freq: 'MS', horizon, quantiles, model: 'auto' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.auto.candidates.map((c: any) => c.model), ['chronos-2']);
      const leftOut = /left out, they do not use the request's historical covariates: auto-ets/;
      assert.ok(res.body.warnings.some((w: any) => w.field === 'model' && leftOut.test(w.message)), JSON.stringify(res.body.warnings));
      assert.ok(!res.body.warnings.some((w: any) => /ignored/.test(w.message)), 'nothing dropped');
      const plain = await served.request('POST', '/v1/forecast', { body: { series: withCovariates, freq: 'MS', horizon, quantiles, model: 'chronos-2' } });
      assert.equal(plain.status, 200, plain.text);
      assert.deepEqual(res.body.series, plain.body.series);
      // without the covariates, auto's pool is the operator's whole list
      const without = await served.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, quantiles, model: 'auto' } });
      assert.deepEqual(without.body.auto.candidates.map((c: any) => c.model), ['auto-ets', 'chronos-2']);
      // a candidate the client names that would drop them is a 422 naming it and the served ones that use them
      const candidates = ['chronos-2', 'auto-ets'];
      const auto = { series: withCovariates, freq: 'MS', horizon, model: 'auto' };
      const named = await served.request('POST', '/v1/forecast', { body: { ...auto, auto_candidates: candidates } });
      assert.equal(named.status, 422, named.text);
      assert.deepEqual(named.body.errors.map((e: any) => e.field), ['auto_candidates[1].model']);
      assert.match(named.body.errors[0].reason, /served: chronos-2/);
    });
  });
});

describe('model "auto" configured by the operator', () => {
  it('HORIZON_AUTO_CANDIDATES and HORIZON_AUTO_WINDOWS; a configured candidate not served is left out with a warning', async () => {
    const operator = await startTestServer({ HORIZON_AUTO_CANDIDATES: 'chronos-bolt,naive,seasonal-naive:default', HORIZON_AUTO_WINDOWS: '1' });
    try {
      const res = await operator.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, quantiles, model: 'auto' } });
      assert.equal(res.status, 200, res.text);
      const { auto } = res.body;
      assert.deepEqual(auto.candidates, [{ model: 'naive', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' }]);
      assert.equal(auto.n_windows, 1);
      assert.ok(auto.series.every((s: any) => s.windows === 1));
      assert.ok(res.body.warnings.some((w: any) => w.field === 'model' && /left out.*chronos-bolt/.test(w.message)), JSON.stringify(res.body.warnings));
      // the request's own candidates replace the operator's
      const own = await operator.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, model: 'auto', auto_candidates: ['auto-theta'] } });
      assert.equal(own.status, 200, own.text);
      assert.deepEqual(own.body.auto.candidates.map((c: any) => c.model), ['auto-theta']);
      // a candidate the client names that is not served is a 422 on it
      const bad = await operator.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, model: 'auto', auto_candidates: ['naive', 'chronos-bolt'] } });
      assert.equal(bad.status, 422, bad.text);
      assert.ok(bad.body.errors.some((e: any) => e.field === 'auto_candidates[1].model'), bad.text);
    } finally {
      await operator.close();
    }
  });
});

for (const [setting, refit] of [['0', false], ['1', true]] as const) {
  describe(`model "auto" with HORIZON_AUTO_REFIT=${setting}: candidates cross-validated ${refit ? 'with a fit per window' : 'from one fit per series'}`, () => {
    let other: TestServer;
    before(async () => { other = await startTestServer({ HORIZON_AUTO_REFIT: setting }); });
    after(async () => other?.close());

    it(`ranks as cross-validation with refit ${refit} does, and answers the picked model's plain forecast`, async () => {
      const res = await other.request('POST', '/v1/forecast', { body: { series, freq: 'MS', horizon, quantiles, model: 'auto', auto_candidates: candidates, auto_scope: 'series' } });
      assert.equal(res.status, 200, res.text);
      const cv = await other.request('POST', '/v1/cross-validation', { body: { series, freq: 'MS', horizon, quantiles, models: candidates, n_windows: res.body.auto.n_windows, metric: res.body.auto.metric, refit } });
      assert.equal(cv.status, 200, cv.text);
      assert.deepEqual(res.body.auto.leaderboard, cv.body.leaderboard);
      for (let i = 0; i < series.length; i++) {
        const picked = res.body.auto.series[i].model;
        const single = await other.request('POST', '/v1/forecast', { body: { series: [series[i]], freq: 'MS', horizon, quantiles, model: picked } });
        assert.equal(single.status, 200, single.text);
        assert.deepEqual(res.body.series[i], single.body.series[0], `series ${i} (${picked})`);
      }
    });
  });
}

