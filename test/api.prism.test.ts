// prism, the ensemble, served over statistical members (no weights needed): shape, determinism, mean and
// 0.5 level within the members' envelope, the spread calibrated on the windows, weights learned from
// rolling origins and pooled across the request, warm-up, backtests; the combiner (median prior + inverse-loss weights), the validation
// windows, the pooling, the monotone levels and the default statistical members. A request's own
// `prism_members` (sync, jobs, chunked jobs, the sync budget's estimate) and its 422s.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  blendSettings, blendWeights, combine, monotoneFromCentre, pooledLosses, prismMembers, spreadFactor, validationWindows,
  LARGE_POOL_SHARE, MEDIAN_SHARE, ORIGINS, POOL_SHARE, SEASONS_UNMODELLED, SPREAD_FACTORS, STATISTICAL_MEMBERS, WEIGHT_POWER,
} from '../src/forecasting/prism.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';

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

  it('forecasts in the contract shape, deterministically, its mean and 0.5 level within the members\' envelope', async () => {
    const first = await server.request('POST', '/v1/forecast', { body: request('prism') });
    assert.equal(first.status, 200, first.text);
    const again = await server.request('POST', '/v1/forecast', { body: request('prism') });
    assert.deepEqual(again.body.series, first.body.series, 'deterministic');
    const members = await Promise.all(['auto-ets', 'auto-theta', 'seasonal-naive', 'naive'].map((m) => server.request('POST', '/v1/forecast', { body: request(m) })));
    for (let i = 0; i < 2; i++) {
      const p = first.body.series[i][0].prediction;
      assert.equal(p.mean.length, 12);
      // (the other levels' distance from the 0.5 level is calibrated on the validation windows: it may be wider than any member's)
      for (const key of ['mean', '0.5']) {
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

  it('the spread is calibrated around the 0.5 level whether or not the request asks for it', async () => {
    const all = await server.request('POST', '/v1/forecast', { body: request('prism') });
    const tails = await server.request('POST', '/v1/forecast', { body: request('prism', { quantiles: [0.9, 0.1] }) });
    assert.equal(tails.status, 200, tails.text);
    for (let i = 0; i < 2; i++) {
      const [p, q] = [all.body.series[i][0].prediction, tails.body.series[i][0].prediction];
      assert.deepEqual(Object.keys(q).sort(), ['0.1', '0.9', 'mean']);
      for (const key of ['mean', '0.1', '0.9']) assert.deepEqual(q[key], p[key], key);
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

  it('prism_members: combines exactly the members the request names (ids or {model, model_size}), also ones outside HORIZON_PRISM_MEMBERS', async () => {
    // a series without a validation window: equal weights, so the answer is ½ median + ½ mean of exactly these members
    const short = { target: [...Array(8).fill(null), 120, 80, 130, 95], index: monthlyDates('2020-01', 12) };
    const body = (model: string, extra: Record<string, unknown> = {}) => ({ model, freq: 'MS', horizon: 6, quantiles: [0.1, 0.5, 0.9], series: [short], ...extra });
    const named = ['auto-theta', { model: 'naive' }, 'auto-ets:default'];
    const res = await server.request('POST', '/v1/forecast', { body: body('prism', { prism_members: named }) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.model, 'prism');
    const members = await Promise.all(['auto-theta', 'naive', 'auto-ets'].map((m) => server.request('POST', '/v1/forecast', { body: body(m) })));
    const equal = members.map(() => 1 / members.length);
    const expected = monotoneFromCentre([0.1, 0.5, 0.9], ['0.1', '0.5', '0.9'].map((q) => combine(members.map((m) => m.body.series[0][0].prediction[q]), equal)));
    const got = res.body.series[0][0].prediction;
    ['0.1', '0.5', '0.9'].forEach((q, j) => got[q].forEach((v: number, t: number) => assert.ok(Math.abs(v - expected[j][t]) < 1e-6, `${q}[${t}] ${v} vs ${expected[j][t]}`)));
    // the deployment's four members give another blend, in the same answer shape
    const byDefault = await server.request('POST', '/v1/forecast', { body: body('prism') });
    assert.deepEqual(Object.keys(res.body).sort(), Object.keys(byDefault.body).sort());
    assert.notDeepEqual(byDefault.body.series, res.body.series);
    // a member the operator did not configure (damped-ets): within the envelope of the two named members
    const own = await server.request('POST', '/v1/forecast', { body: request('prism', { prism_members: ['damped-ets', 'seasonal-naive'] }) });
    assert.equal(own.status, 200, own.text);
    const pair = await Promise.all(['damped-ets', 'seasonal-naive'].map((m) => server.request('POST', '/v1/forecast', { body: request(m) })));
    for (let i = 0; i < 2; i++) {
      own.body.series[i][0].prediction.mean.forEach((v: number, t: number) => {
        const values = pair.map((m) => m.body.series[i][0].prediction.mean[t]);
        assert.ok(v >= Math.min(...values) - 1e-9 && v <= Math.max(...values) + 1e-9, `mean[${t}] of series ${i} outside damped-ets and seasonal-naive`);
      });
    }
    // a backtest of prism uses the same members
    const evaluated = await server.request('POST', '/v1/forecast', { body: request('prism', { prism_members: ['damped-ets', 'seasonal-naive'], evaluation: { holdout: 6 } }) });
    assert.equal(evaluated.status, 200, evaluated.text);
    assert.deepEqual(evaluated.body.series, own.body.series);
  });

  it('prism_members 422s: with another model (auto too), an unknown id (did you mean), an unknown size, one member, seven, prism or auto as a member, a member twice', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [request('auto-ets', { prism_members: ['naive', 'seasonal-naive'] }), 'prism_members', /applies only to model "prism" \(this request's model is "auto-ets"\)/],
      [request('auto', { prism_members: ['naive', 'seasonal-naive'] }), 'prism_members', /applies only to model "prism" \(this request's model is "auto"\)/],
      [request('prism', { prism_members: ['auto-etz', 'naive'] }), 'prism_members[0].model', /"auto-etz" is not a known model id; did you mean "auto-ets"\?/],
      [request('prism', { prism_members: ['naive', { model: 'seasonal-naive', model_size: 'large' }] }), 'prism_members[1].model_size', /not a size of model seasonal-naive/],
      [request('prism', { prism_members: ['naive'] }), 'prism_members', /fewer than 2 items/],
      [request('prism', { prism_members: ['naive', 'seasonal-naive', 'auto-ets', 'auto-theta', 'damped-ets', 'ces', 'mstl'] }), 'prism_members', /more than 6 items/],
      [request('prism', { prism_members: ['naive', 'prism'] }), 'prism_members[1].model', /prism cannot be its own member/],
      [request('prism', { prism_members: ['auto', 'naive'] }), 'prism_members[0].model', /"auto" cannot be a prism member/],
      [request('prism', { prism_members: ['naive', 'naive:default'] }), 'prism_members[1]', /already a member/],
    ];
    for (const [body, field, reason] of cases) {
      for (const path of ['/v1/forecast', '/v1/forecast-jobs']) {
        const res = await server.request('POST', path, { body });
        assert.equal(res.status, 422, `${path} ${JSON.stringify(body.prism_members)}: ${res.text}`);
        const error = res.body.errors.find((e: { field: string }) => e.field === field);
        assert.ok(error, `${path}: no error on ${field}: ${res.text}`);
        assert.match(error.reason, reason);
      }
    }
  });

  it('prism_members in forecast jobs, chunked jobs and the synchronous budget\'s estimate', async () => {
    const body = request('prism', { prism_members: ['damped-ets', 'seasonal-naive'] });
    const sync = await server.request('POST', '/v1/forecast', { body });
    assert.equal(sync.status, 200, sync.text);
    const waitJob = async (on: TestServer, id: string) => {
      for (;;) {
        const job = (await on.request('GET', `/v1/forecast-jobs/${id}`)).body;
        if (['completed', 'failed'].includes(job.status)) return job;
        await sleep(100);
      }
    };
    const queued = await server.request('POST', '/v1/forecast-jobs', { body });
    assert.equal(queued.status, 202, queued.text);
    const job = await waitJob(server, queued.body.job_id);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.deepEqual(job.series, sync.body.series);
    // a deployment with tiny budgets: the estimate is of the named members (a dear pair is estimated dearer), the job is chunked
    const tight = await startTestServer({ HORIZON_PRISM_MEMBERS: 'naive,seasonal-naive', HORIZON_SYNC_BUDGET_MS: '1', HORIZON_JOB_CHUNK_BUDGET_MS: '1' });
    try {
      const estimate = async (members: string[]) => {
        const res = await tight.request('POST', '/v1/forecast', { body: request('prism', { prism_members: members }) });
        assert.equal(res.status, 413, res.text);
        assert.equal(res.body.code, 'use_job_api');
        return Number(/estimated at (\d+) ms/.exec(res.body.detail)![1]);
      };
      const cheap = await estimate(['naive', 'seasonal-naive']);
      const dear = await estimate(['auto-ets', 'auto-theta', 'damped-ets']);
      assert.ok(dear > cheap, `members auto-ets, auto-theta, damped-ets estimated ${dear} ms, naive and seasonal-naive ${cheap} ms`);
      const chunked = await tight.request('POST', '/v1/forecast-jobs', { body });
      assert.equal(chunked.status, 202, chunked.text);
      const done = await waitJob(tight, chunked.body.job_id);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.ok(done.progress?.chunks_total > 1, JSON.stringify(done.progress));
      assert.deepEqual(done.series, sync.body.series, 'a chunked job answers what the sync call does');
    } finally {
      await tight.close();
    }
  });

  it('weights: inverse loss to a power, summing to 1; equal when nothing was learned', () => {
    const v2 = blendWeights([1, 2, 4], 1);
    assert.ok(Math.abs(v2[0] / v2[1] - 2) < 1e-12 && Math.abs(v2[1] / v2[2] - 2) < 1e-12, 'power 1: ∝ 1/loss');
    const w = blendWeights([1, 1.1, 2]);
    assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.equal(WEIGHT_POWER, 8);
    assert.ok(Math.abs(w[0] / w[1] - 1.1 ** 8) < 1e-9 && Math.abs(w[0] / w[2] - 2 ** 8) < 1e-9, '∝ (min loss / loss)^8');
    assert.deepEqual(blendWeights([1, Number.NaN]), [0.5, 0.5]);
    const perfect = blendWeights([0, 1]);
    assert.ok(perfect[0] > 0.99 && perfect[1] > 0, 'a zero loss is floored, not infinite');
  });

  it('combine: half the members\' median, half the weighted mean; one wild member cannot drag the median part', () => {
    assert.equal(MEDIAN_SHARE, 0.5);
    const equal = [1 / 3, 1 / 3, 1 / 3];
    assert.deepEqual(combine([[1, 10], [2, 20], [9, 30]], equal), [0.5 * 2 + 0.5 * 4, 0.5 * 20 + 0.5 * 20]);
    // a member 1000× off with equal weights moves the result far less than the mean would
    const wild = combine([[100], [102], [100_000]], equal)[0];
    const mean = (100 + 102 + 100_000) / 3;
    assert.ok(Math.abs(wild - 101) < Math.abs(mean - 101) * 0.51);
    // learned weights that all but exclude the wild member bring the blend back next to the others
    const learned = combine([[100], [102], [100_000]], blendWeights([1, 1, 1000]))[0];
    assert.ok(Math.abs(learned - 101) < 0.01 * 100_000 / 2 + 1);
    // two members: the median is their mean
    assert.deepEqual(combine([[2], [4]], [0.5, 0.5]), [3]);
  });

  it('blend settings: statistical members at H, D and W (seasons most cannot model) drop the median and weigh by the windows alone', () => {
    const catalog = loadCatalog();
    const member = (model: string) => ({ model, size: 'default', group: 'core', backtest: 'forward' as const });
    const six = ['auto-ets', 'auto-theta', 'seasonal-naive', 'damped-ets', 'dyn-opt-theta', 'mstl'].map(member);
    assert.deepEqual(SEASONS_UNMODELLED, { poolShare: 0.5, power: 4, medianShare: 0 });
    for (const freq of ['H', 'D', 'W']) assert.deepEqual(blendSettings(catalog, six, freq), SEASONS_UNMODELLED, freq);
    const large = { poolShare: LARGE_POOL_SHARE, power: WEIGHT_POWER, medianShare: MEDIAN_SHARE };
    for (const freq of ['MS', 'Q', 'Y', undefined]) assert.deepEqual(blendSettings(catalog, six, freq), large, String(freq));
    assert.deepEqual(blendSettings(catalog, six.slice(0, 3), 'MS'), { ...large, poolShare: POOL_SHARE });
    // a foundation member models the seasons itself: the median prior stays
    assert.deepEqual(blendSettings(catalog, [...six.slice(0, 3), member('chronos-bolt')], 'H'), large);
    // no median share: the weighted mean alone
    assert.deepEqual(combine([[1, 10], [2, 20], [9, 30]], [0.5, 0.25, 0.25], 0), [0.5 + 0.5 + 2.25, 5 + 5 + 7.5]);
  });

  it('spread factor: one for every level\'s distance from the 0.5 level, the one that minimises the request\'s validation pinball loss', () => {
    assert.equal(SPREAD_FACTORS.length, 47);
    assert.ok(Math.abs(SPREAD_FACTORS[0] - 1 / 3) < 1e-12 && Math.abs(SPREAD_FACTORS[46] - 3) < 1e-12);
    assert.equal(SPREAD_FACTORS[23], 1);
    // the blend's columns: the 0.9 level one above the centre 0 (the 0.1 level one below); the actual values 0.2, 0.4, …, 2.2
    const actual = Array.from({ length: 11 }, (_, t) => 0.2 * (t + 1));
    const columns = [actual.map(() => -1), actual.map(() => 0), actual.map(() => 1)];
    const upper = { windows: [{ actual, columns: columns.slice(1) }], scale: 1 };
    // the 0.9 level alone: its loss is least at the 10th of the 11 deviations, 2.0, so at the grid's factor just above
    // it (the slope is −0.9 below 2 and +0.1 above)
    assert.ok(SPREAD_FACTORS[37] < 2 && SPREAD_FACTORS[38] > 2);
    assert.equal(spreadFactor([0.5, 0.9], 0, [upper]), SPREAD_FACTORS[38]);
    // both tails: every actual value is above the centre, so the lower tail's loss grows with the factor (slope 1.1) and
    // the sum is least at 1.8 (slopes −0.8 below, +0.2 above): the grid's 1.861 (loss 4.572 against 4.581 at 1.774)
    assert.ok(SPREAD_FACTORS[35] < 1.8 && SPREAD_FACTORS[36] > 1.8);
    assert.equal(spreadFactor([0.1, 0.5, 0.9], 1, [{ windows: [{ actual, columns }], scale: 1 }]), SPREAD_FACTORS[36]);
    // the request's series pooled, each by its loss ÷ its scale: a series 100× further out wants the widest factor, and
    // gets it at the same scale, but not when its scale is 1000× the other's
    const far = (scale: number) => ({ windows: [{ actual: actual.map((y) => y * 100), columns: columns.slice(1) }], scale });
    assert.equal(spreadFactor([0.5, 0.9], 0, [upper, far(1)]), SPREAD_FACTORS[46]);
    assert.equal(spreadFactor([0.5, 0.9], 0, [upper, far(1000)]), SPREAD_FACTORS[38]);
    // a loss that no factor changes (no spread on the windows), or nothing learned: no change
    assert.equal(spreadFactor([0.1, 0.5, 0.9], 1, [{ windows: [{ actual, columns: [columns[1], columns[1], columns[1]] }], scale: 1 }]), 1);
    assert.equal(spreadFactor([0.1, 0.5, 0.9], 1, []), 1);
  });

  it('validation windows: w = min(horizon, ⌊n/3⌋), up to ORIGINS origins that leave max(3, w) points and are fully observed', () => {
    assert.equal(ORIGINS, 2);
    const ones = (n: number) => Array.from({ length: n }, () => 1);
    assert.deepEqual(validationWindows(ones(72), 12), { window: 12, origins: 2 });
    assert.deepEqual(validationWindows(ones(30), 12), { window: 10, origins: 2 }); // 30 − 2·10 = 10 ≥ 10
    assert.deepEqual(validationWindows(ones(14), 6), { window: 4, origins: 2 }); // 14 − 8 = 6 ≥ 4
    assert.deepEqual(validationWindows(ones(11), 4), { window: 3, origins: 2 }); // 11 − 6 = 5 ≥ 3
    assert.deepEqual(validationWindows(ones(5), 4), { window: 1, origins: 2 }); // 5 − 2 = 3 ≥ 3
    assert.deepEqual(validationWindows(ones(4), 4), { window: 1, origins: 1 }); // 4 − 2 = 2 < 3: one origin
    assert.deepEqual(validationWindows(ones(3), 4), { window: 0, origins: 0 });
    assert.deepEqual(validationWindows(ones(72), 12, 5), { window: 12, origins: 5 });
    // a gap in the second window stops at one origin; one in the last window leaves none
    const gap = ones(72) as (number | null)[];
    gap[72 - 15] = null;
    assert.deepEqual(validationWindows(gap, 12), { window: 12, origins: 1 });
    gap[71] = null;
    assert.deepEqual(validationWindows(gap, 12), { window: 0, origins: 0 });
  });

  it('pooling: each series\' losses mixed half and half with the request\'s mean; a series without a window takes the pooled ones', () => {
    assert.equal(POOL_SHARE, 0.5);
    const mixed = pooledLosses([[1, 3], [3, 1], undefined]);
    assert.deepEqual(mixed, [[1.5, 2.5], [2.5, 1.5], [2, 2]]);
    assert.deepEqual(pooledLosses([undefined, undefined]), [undefined, undefined]);
    assert.deepEqual(pooledLosses([[1, 2]], 1), [[1, 2]]);
  });

  it('monotone levels: the level nearest 0.5 stays, the others are pushed outwards from it', () => {
    const levels = [0.1, 0.5, 0.9];
    assert.deepEqual(monotoneFromCentre(levels, [[5, 1], [4, 2], [3, 6]]), [[4, 1], [4, 2], [4, 6]]);
    // a sort would have moved the median (4 → 3 at step 0); here it is kept
    assert.deepEqual(monotoneFromCentre([0.2, 0.4, 0.8], [[1], [0], [2]]), [[0], [0], [2]]);
  });

  it('default members: served foundation models, else auto-ets, auto-theta and seasonal-naive (naive, auto-arima left out)', () => {
    const catalog = loadCatalog();
    const statistical = new Set(['naive', 'seasonal-naive', 'auto-ets', 'auto-arima', 'auto-theta']);
    // only the statistical models are served: the fallback
    const fallback = prismMembers(catalog, [], (m) => statistical.has(m.id));
    assert.deepEqual(fallback.map((m) => m.model), STATISTICAL_MEMBERS);
    assert.deepEqual(STATISTICAL_MEMBERS, ['auto-ets', 'auto-theta', 'seasonal-naive']);
    // every model without weights is statistical, the issue-26 ones included: never taken for foundation models
    const noWeights = new Set(catalog.models.filter((m) => !m.weights && m.id !== 'prism').map((m) => m.id));
    for (const id of ['damped-ets', 'dyn-opt-theta', 'ces', 'mstl']) assert.ok(noWeights.has(id), id);
    assert.deepEqual(prismMembers(catalog, [], (m) => noWeights.has(m.id)).map((m) => m.model), STATISTICAL_MEMBERS);
    assert.deepEqual(prismMembers(catalog, [], (m) => noWeights.has(m.id)).map((m) => m.backtest), ['forward', 'forward', 'forward']);
    assert.deepEqual(prismMembers(catalog, [], (m) => noWeights.has(m.id), 'refit').map((m) => m.backtest), ['refit', 'refit', 'refit']);
    // configured members win, in their order, as long as they are served
    assert.deepEqual(prismMembers(catalog, ['auto-arima', 'naive', 'chronos'], (m) => statistical.has(m.id)).map((m) => m.model), ['auto-arima', 'naive']);
    // two served foundation models: they are the members, no statistical one
    const foundation = catalog.models.filter((m) => !statistical.has(m.id) && m.id !== 'prism').slice(0, 2).map((m) => m.id);
    const served = new Set([...statistical, ...foundation]);
    assert.deepEqual(prismMembers(catalog, [], (m) => served.has(m.id)).map((m) => m.model), foundation);
  });

  it('pools the evidence of the request: a series too short to validate alone gets its batch-mates\' weights', async () => {
    // four observed values after eight missing ones: no window (nothing observed before the last four),
    // but auto-theta fits them (the other members fall back to naive), so weights change the blend
    const short = { target: [...Array(8).fill(null), 120, 80, 130, 95], index: monthlyDates('2020-01', 12) };
    const body = (model: string, series: unknown[]) => ({ model, freq: 'MS', horizon: 6, quantiles: [0.1, 0.5, 0.9], series });
    const alone = await server.request('POST', '/v1/forecast', { body: body('prism', [short]) });
    assert.equal(alone.status, 200, alone.text);
    // alone: no window, equal weights, so exactly ½ median + ½ mean of the members (then monotone levels)
    const members = await Promise.all(['auto-ets', 'auto-theta', 'seasonal-naive', 'naive'].map((m) => server.request('POST', '/v1/forecast', { body: body(m, [short]) })));
    const equal = members.map(() => 1 / members.length);
    const expected = monotoneFromCentre([0.1, 0.5, 0.9], ['0.1', '0.5', '0.9'].map((q) => combine(members.map((m) => m.body.series[0][0].prediction[q]), equal)));
    const got = alone.body.series[0][0].prediction;
    ['0.1', '0.5', '0.9'].forEach((q, j) => got[q].forEach((v: number, t: number) => assert.ok(Math.abs(v - expected[j][t]) < 1e-6, `${q}[${t}] ${v} vs ${expected[j][t]}`)));
    // beside a long series with windows, its blend uses the pooled losses: a different forecast
    const pooled = await server.request('POST', '/v1/forecast', { body: body('prism', [{ target, index: monthlyDates('2015-01', 72) }, short]) });
    assert.equal(pooled.status, 200, pooled.text);
    const moved = pooled.body.series[1][0].prediction['0.5'].some((v: number, t: number) => Math.abs(v - got['0.5'][t]) > 1e-6);
    assert.ok(moved, 'the pooled weights did not change the blend of the series without a window');
  });

  it('hourly data: no median part; a series without a window gets the members\' plain mean (end to end)', async () => {
    // six observed values after eight missing ones: no window (two observed before the last four); auto-theta fits
    // them, the other members fall back to naive, so the mean (¼ theta) and ½ median + ½ mean (⅛ theta) differ
    const values = [...Array(8).fill(null), 120, 80, 130, 95, 140, 90];
    const index = Array.from({ length: values.length }, (_, i) => new Date(Date.UTC(2024, 0, 1, i)).toISOString());
    const body = (model: string) => ({ model, freq: 'H', horizon: 6, quantiles: [0.1, 0.5, 0.9], series: [{ target: values, index }] });
    const answer = await server.request('POST', '/v1/forecast', { body: body('prism') });
    assert.equal(answer.status, 200, answer.text);
    const members = await Promise.all(['auto-ets', 'auto-theta', 'seasonal-naive', 'naive'].map((m) => server.request('POST', '/v1/forecast', { body: body(m) })));
    const equal = members.map(() => 1 / members.length);
    const got = answer.body.series[0][0].prediction;
    const blend = (share: number) => monotoneFromCentre([0.1, 0.5, 0.9], ['0.1', '0.5', '0.9'].map((q) => combine(members.map((m) => m.body.series[0][0].prediction[q]), equal, share)));
    const close = (a: number[][]) => ['0.1', '0.5', '0.9'].every((q, j) => got[q].every((v: number, t: number) => Math.abs(v - a[j][t]) < 1e-6));
    assert.ok(close(blend(0)), `not the members' mean: ${JSON.stringify(got)}`);
    assert.ok(!close(blend(MEDIAN_SHARE)), 'the members\' median and mean agree here: the test cannot tell the settings apart');
  });

  it('on a purely seasonal series the blend follows the seasonal members, not naive (end to end)', async () => {
    // a pure seasonal pattern: seasonal-naive is exact on the tail window, naive is far off
    const pattern = Array.from({ length: 60 }, (_, i) => 100 + [0, 30, 60, 90, 60, 30, 0, -30, -60, -90, -60, -30][i % 12]);
    const body = (model: string) => ({ model, freq: 'MS', horizon: 12, quantiles: [0.1, 0.5, 0.9], series: [{ target: pattern, index: monthlyDates('2015-01', 60) }] });
    const [prism, sn, naive] = await Promise.all(['prism', 'seasonal-naive', 'naive'].map((m) => server.request('POST', '/v1/forecast', { body: body(m) })));
    assert.equal(prism.status, 200, prism.text);
    const p = prism.body.series[0][0].prediction['0.5'];
    const s = sn.body.series[0][0].prediction['0.5'];
    const n = naive.body.series[0][0].prediction['0.5'];
    const err = (f: number[]) => f.reduce((sum, v, t) => sum + Math.abs(v - s[t]), 0);
    assert.ok(err(p) < err(n) / 2, `prism ${err(p)} is not close to the seasonal pattern (naive ${err(n)})`);
  });
});
