// Anomaly detection (issue 13 item 3): POST /v1/anomalies on the real server and worker — injected
// spikes found, the false-positive rate on clean series at level 99, windows at the documented origins
// (by hand and against POST /v1/forecast on the truncated history), one model call, missing values,
// charging, 401, 422s, and a tiny random-weight foundation model.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startTestServer, monthlyDates, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';

let server: TestServer;
let weights: string;
before(async () => {
  weights = writeFixtures(['chronos-bolt']);
  server = await startTestServer({ HORIZON_MODEL_DIR: weights });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

/** Seeded standard normals (mulberry32 + Box-Muller): the same series on every run. */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Monthly: level 100, yearly season of amplitude 20, N(0, sigma²) noise. */
function seasonal(n: number, seed: number, sigma = 1): number[] {
  const noise = gaussian(seed);
  return Array.from({ length: n }, (_, i) => 100 + 20 * Math.sin((2 * Math.PI * i) / 12) + sigma * noise());
}

/** The worker's count of successful /infer requests for `model` (GET /metrics). */
async function inferCalls(model: string): Promise<number> {
  const text = (await server.request('GET', '/metrics', { key: null })).text;
  const line = text.split('\n')
    .find((l) => l.startsWith('horizon_runtime_infer_requests_total{') && l.includes(`model="${model}"`) && l.includes('outcome="ok"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const anomalies = (body: Record<string, unknown>, key?: string) => server.request('POST', '/v1/anomalies', { body: { freq: 'MS', ...body }, key });

/** The answer's invariants: columns of one element per scored position, |score| > 1 exactly when flagged. */
function checkShape(s: any, target: (number | null)[], index: string[]): void {
  const n = target.length - s.scored_from;
  for (const key of ['index', 'actual', 'forecast', 'median', 'lo', 'hi', 'anomaly', 'score']) assert.equal(s[key].length, n, key);
  assert.deepEqual(s.index, index.slice(s.scored_from));
  assert.deepEqual(s.actual, target.slice(s.scored_from));
  s.anomaly.forEach((flag: boolean, j: number) => {
    const [y, lo, hi, score] = [s.actual[j], s.lo[j], s.hi[j], s.score[j]];
    if (y === null || lo === null) { assert.equal(flag, false); assert.equal(score, null); return; }
    assert.ok(lo <= s.median[j] && s.median[j] <= hi, 'lo ≤ median ≤ hi');
    assert.equal(flag, y < lo || y > hi, `position ${s.scored_from + j}`);
    if (score !== null) assert.equal(Math.abs(score) > 1, flag, `score ${score} at ${s.scored_from + j}`);
  });
  assert.deepEqual(s.anomalies, s.anomaly.flatMap((f: boolean, j: number) => (f ? [s.scored_from + j] : [])));
}

describe('POST /v1/anomalies', () => {
  it('mode windows flags every injected spike in a seasonal series', async () => {
    const n = 120;
    const spikes = new Map([[40, 15], [67, -12], [90, 18], [111, -15]]);
    const series = [0, 1, 2].map((k) => {
      const target = seasonal(n, 100 + k);
      for (const [t, size] of spikes) target[t] += size + k;
      return { target, index: monthlyDates('2010-01', n) };
    });
    // auto-ets fits one model per window (slow on a shared machine): one series
    for (const model of ['seasonal-naive', 'auto-ets']) {
      const res = await anomalies({ series: model === 'auto-ets' ? series.slice(0, 1) : series, model, mode: 'windows' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.mode, 'windows');
      assert.equal(res.body.level, 99);
      assert.deepEqual(res.body.quantiles, [0.005, 0.5, 0.995]);
      assert.equal(res.body.min_history, 24, 'two seasons of MS');
      res.body.series.forEach((s: any, k: number) => {
        checkShape(s, series[k].target, series[k].index);
        assert.equal(s.scored_from, 24);
        for (const t of spikes.keys()) assert.ok(s.anomalies.includes(t), `${model}, series ${k}: spike at ${t} not in ${s.anomalies}`);
        // nothing before a spike is flagged (after one, seasonal-naive's forecast a season later repeats it)
        const flaggedBefore = s.anomalies.filter((t: number) => t < 40);
        console.log(`# ${model} series ${k}: flagged ${s.anomalies.join(', ')} (spikes ${[...spikes.keys()].join(', ')})`);
        assert.ok(flaggedBefore.length <= 1, `${model} series ${k}: ${flaggedBefore}`);
      });
    }
  });

  it('mode windows, on clean seasonal series with Gaussian noise, level 99 flags about 1% (false-positive rate ≤ 3%)', async () => {
    // 10 series × 200 months, 176 scored each: 1,760 windows. At a calibrated 99% band the false
    // positives are Binomial(1760, 0.01): mean 17.6, sd 4.2, so 3% (52.8) is 8 sd away; the seasonal-naive
    // band estimates its sd from the seasonal differences of the same noise, so it is calibrated.
    const n = 200;
    const series = Array.from({ length: 10 }, (_, k) => ({ target: seasonal(n, 7 + k), index: monthlyDates('2000-01', n) }));
    const rates: Record<string, number> = {};
    for (const model of ['seasonal-naive', 'auto-ets']) {
      const res = await anomalies({ series: model === 'auto-ets' ? series.slice(0, 1) : series, model, mode: 'windows' });
      assert.equal(res.status, 200, res.text);
      rates[model] = res.body.n_anomalies / res.body.n_windows;
      console.log(`# false-positive rate at level 99, ${model}: ${res.body.n_anomalies} of ${res.body.n_windows} windows = ${(100 * rates[model]).toFixed(2)}%`);
      assert.equal(res.body.n_anomalies, res.body.series.reduce((sum: number, s: any) => sum + s.anomalies.length, 0));
    }
    assert.ok(rates['seasonal-naive'] <= 0.03, `seasonal-naive ${rates['seasonal-naive']}`);
    // auto-ets on one series' 176 windows (one fit each: the slow part of this file): its bands leave out
    // parameter uncertainty, so it runs above the nominal 1% (3 of 176, 1.7%, with these seeds; two series
    // gave 8 of 352, 2.3%: the series are fixed, so the counts are too); 3% still bounds it
    assert.ok(rates['auto-ets'] <= 0.03, `auto-ets ${rates['auto-ets']}`);
  });

  it('windows at the documented origins: position t is forecast step ahead from the context values before t - step + 1', async () => {
    const target = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8];
    const index = monthlyDates('2020-01', 12);
    const [step, minHistory, context] = [2, 4, 3];
    const res = await anomalies({ series: [{ target, index }], model: 'naive', step, min_history: minHistory, context, level: 80 });
    assert.equal(res.status, 200, res.text);
    const s = res.body.series[0];
    // by hand: first scored position min_history + step - 1 = 5; positions 5..11 → 7 windows
    assert.equal(s.scored_from, 5);
    assert.equal(res.body.n_windows, 7);
    assert.deepEqual(res.body.quantiles, [0.1, 0.5, 0.9]);
    assert.deepEqual(s.index, index.slice(5));
    // naive, 2 steps ahead: the value at t - 2 (the last one before the cutoff t - 1)
    assert.deepEqual(s.forecast, [1, 5, 9, 2, 6, 5, 3]);
    checkShape(s, target, index);
    // each window equals POST /v1/forecast on the `context` values before its cutoff
    for (let t = 5; t < 12; t++) {
      const cutoff = t - step + 1;
      const single = await server.request('POST', '/v1/forecast', {
        body: { series: [{ target: target.slice(cutoff - context, cutoff), index: index.slice(cutoff - context, cutoff) }], freq: 'MS', horizon: step, model: 'naive', quantiles: [0.1, 0.5, 0.9] },
      });
      assert.equal(single.status, 200, single.text);
      const p = single.body.series[0][0].prediction;
      assert.deepEqual(single.body.series[0][0].index[step - 1], index[t]);
      const j = t - 5;
      assert.deepEqual([s.forecast[j], s.median[j], s.lo[j], s.hi[j]], [p.mean[1], p['0.5'][1], p['0.1'][1], p['0.9'][1]], `position ${t}`);
    }
    // step 1 by default; a series too short to score is named in warnings
    const short = await anomalies({ series: [{ target, index }, { target: [1, 2, 3], index: monthlyDates('2020-01', 3) }], model: 'naive', min_history: 4 });
    assert.equal(short.status, 200, short.text);
    assert.equal(short.body.step, 1);
    assert.equal(short.body.series[0].scored_from, 4);
    assert.deepEqual(short.body.series[0].forecast, target.slice(3, 11));
    assert.equal(short.body.series[1].scored_from, 3);
    assert.deepEqual(short.body.series[1].anomaly, []);
    assert.ok(short.body.warnings.some((w: any) => w.series === 1 && /nothing is scored/.test(w.message)), JSON.stringify(short.body.warnings));
    // covariates: the windows take the known-future values from the history; a model that ignores them says so once per series
    const promo = target.map((_, i) => i % 2);
    const withCovariates = await anomalies({
      series: [{ target, index, hist_variables: { promo }, future_variables: { promo: [1] }, future_variables_index: ['2021-01-01'], static_variables: { store: 3 } }],
      model: 'naive', min_history: 4,
    });
    assert.equal(withCovariates.status, 200, withCovariates.text);
    assert.deepEqual(withCovariates.body.series[0].forecast, target.slice(3, 11));
    assert.equal(withCovariates.body.warnings.filter((w: any) => w.field === 'series[0].hist_variables').length, 1, JSON.stringify(withCovariates.body.warnings));
  });

  it('missing values are never flagged; a window whose context holds no observation is named in warnings', async () => {
    const target: (number | null)[] = seasonal(60, 3);
    target[40] = null; // a missing observation in the scored range
    for (const t of [50, 51, 52]) target[t] = null; // window of 53 (context 3) sees only nulls
    for (const t of [20, 21, 22, 23]) target[t] = null; // windows of 23 and 24 too
    const index = monthlyDates('2015-01', 60);
    const res = await anomalies({ series: [{ target, index }], model: 'seasonal-naive', context: 3, min_history: 12, mode: 'windows' });
    assert.equal(res.status, 200, res.text);
    const s = res.body.series[0];
    checkShape(s, target, index);
    const at = (t: number) => t - s.scored_from;
    for (const t of [40, 50, 51, 52]) {
      assert.equal(s.actual[at(t)], null);
      assert.equal(s.anomaly[at(t)], false);
      assert.equal(s.score[at(t)], null);
    }
    for (const t of [23, 24, 53]) assert.equal(s.forecast[at(t)], null, `no forecast for ${t}`);
    const refused = res.body.warnings.filter((w: any) => w.series === 0 && /not scored/.test(w.message));
    assert.equal(refused.length, 1, JSON.stringify(res.body.warnings));
    assert.match(refused[0].message, /^positions 23–24, 53 not scored: the 3 values before the window's cutoff \(context 3\) hold no observation/);
  });

  it('sends all windows of all series (mode windows), or all series whole (mode in-sample), in ONE inference call', async () => {
    const series = [0, 1, 2].map((k) => ({ target: seasonal(40, 20 + k), index: monthlyDates('2015-01', 40) }));
    for (const mode of ['windows', 'in-sample']) {
      const before = await inferCalls('auto-theta');
      const res = await anomalies({ series, model: 'auto-theta', mode });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.mode, mode);
      assert.equal(res.body.n_windows, 3 * 16, '3 series × (40 - 24) positions');
      assert.equal(await inferCalls('auto-theta') - before, 1, `one /infer request for 48 positions (${mode})`);
    }
  });

  it('works with a tiny foundation model (chronos-bolt tiny): its band is as wide as its trained levels allow, and it says so', async () => {
    const series = [0, 1].map((k) => ({ target: seasonal(48, 40 + k), index: monthlyDates('2015-01', 48) }));
    const res = await anomalies({ series, model: 'chronos-bolt', model_size: 'tiny' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.model, 'chronos-bolt');
    assert.equal(res.body.model_size, 'tiny');
    assert.equal(res.body.n_windows, 2 * 24);
    res.body.series.forEach((s: any, k: number) => {
      checkShape(s, series[k].target, series[k].index);
      assert.ok(s.forecast.every(Number.isFinite));
    });
    assert.ok(res.body.warnings.some((w: any) => w.field === 'model' && /0.005/.test(w.message)), JSON.stringify(res.body.warnings));
    // a window of chronos-bolt equals its POST /v1/forecast on the same context
    const t = 30;
    const single = await server.request('POST', '/v1/forecast', {
      body: { series: [{ target: series[0].target.slice(0, t), index: series[0].index.slice(0, t) }], freq: 'MS', horizon: 1, model: 'chronos-bolt', model_size: 'tiny', quantiles: [0.005, 0.5, 0.995] },
    });
    assert.equal(single.status, 200, single.text);
    const p = single.body.series[0][0].prediction;
    const j = t - res.body.series[0].scored_from;
    const near = (a: number, b: number) => Math.abs(a - b) <= 1e-4 * (Math.abs(b) + 1);
    assert.ok(near(res.body.series[0].lo[j], p['0.005'][0]) && near(res.body.series[0].hi[j], p['0.995'][0]), `${res.body.series[0].lo[j]} ${p['0.005'][0]}`);
  });

  it('charges one request, however many series and windows; 429 when the quota is used up', async () => {
    const { key } = await server.newAccount({ daily: 2, weekly: 100 });
    const body = { series: [0, 1, 2].map((k) => ({ target: seasonal(30, k), index: monthlyDates('2015-01', 30) })), model: 'naive' };
    const first = await anomalies(body, key);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
    const second = await anomalies(body, key);
    assert.equal(second.headers.get('x-ratelimit-remaining'), '0');
    const refused = await anomalies(body, key);
    assert.equal(refused.status, 429, refused.text);
    // a 422 is not charged
    const { key: other } = await server.newAccount({ daily: 1, weekly: 100 });
    assert.equal((await anomalies({ ...body, level: 100 }, other)).status, 422);
    assert.equal((await anomalies(body, other)).status, 200);
  });

  it('422s name the field; 401 without a key', async () => {
    const target = seasonal(40, 9);
    const base = { series: [{ target, index: monthlyDates('2015-01', 40) }], model: 'naive' };
    const many = Array.from({ length: 120 }, (_, k) => ({ target: seasonal(200, k), index: monthlyDates('2000-01', 200) }));
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ level: 0 }, 'level'], [{ level: 100 }, 'level'], [{ level: 99.995 }, 'level'], [{ step: 0 }, 'step'], [{ context: 0 }, 'context'], [{ min_history: 0 }, 'min_history'],
      [{ model: 'no-such-model' }, 'model'], [{ model: 'naive', model_size: 'huge' }, 'model_size'],
      [{ model: 'chronos-bolt', model_size: 'tiny', step: 65 }, 'step', /max_horizon 64/],
      [{ min_history: 40 }, 'min_history', /longest series has 40/],
      [{ horizon: 3 }, 'horizon'],
      [{ series: many, mode: 'windows' }, 'series', /21120 timesteps to score \(one window each, mode windows\) exceed the maximum of 20000/],
      [{ mode: 'in-sample', step: 2 }, 'mode', /not possible here: it scores one-step-ahead fitted values, and step is 2; use mode "windows"/],
      [{ mode: 'in-sample', model: 'chronos-bolt', model_size: 'tiny' }, 'mode', /chronos-bolt is not fitted to each history/],
      [{ mode: 'sometimes' }, 'mode'],
      [{ model: 'auto', mode: 'windows' }, 'mode', /model "auto" picks a model per series/],
      [{ model: 'auto', step: 2 }, 'step', /model "auto" picks a model per series/],
      [{ series: [{ target, index: monthlyDates('2015-01', 40).map((d, i) => (i === 5 ? '2015-06-15' : d)) }] }, 'series[0].index'],
    ];
    for (const [extra, field, reason] of cases) {
      const res = await anomalies({ ...base, ...extra });
      assert.equal(res.status, 422, `${JSON.stringify(extra).slice(0, 80)}: ${res.text}`);
      const error = res.body.errors.find((e: any) => e.field === field || e.field.startsWith(field));
      assert.ok(error, `${JSON.stringify(extra).slice(0, 80)} → ${JSON.stringify(res.body.errors)}`);
      if (reason) assert.match(error.reason, reason);
    }
    const anonymous = await server.request('POST', '/v1/anomalies', { key: null, body: { freq: 'MS', ...base } });
    assert.equal(anonymous.status, 401);
  });
});

describe('POST /v1/anomalies, mode in-sample (one fit per series)', () => {
  const z95 = 1.959963984540054; // the normal quantile 0.975: level 95's half-width in standard errors
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * (Math.abs(b) + 1);

  it('is the default for a statistical model at step 1: naive\'s in-sample band, by hand', async () => {
    const n = 60;
    const target = seasonal(n, 5);
    target[40] += 60;
    const index = monthlyDates('2012-01', n);
    const res = await anomalies({ series: [{ target, index }], model: 'naive', level: 95, min_history: 8 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'in-sample');
    const s = res.body.series[0];
    checkShape(s, target, index);
    assert.equal(s.scored_from, 8);
    assert.equal(res.body.n_windows, n - 8);
    // naive's fitted value at t is y[t-1]; its band ± z·σ, σ² = Σ (y[t] - y[t-1])² / (n - 1) over the whole history
    const sigma = Math.sqrt(target.slice(1).reduce((sum, y, t) => sum + (y - target[t]) ** 2, 0) / (n - 1));
    assert.deepEqual(s.forecast, target.slice(7, n - 1));
    s.lo.forEach((lo: number, j: number) => {
      assert.ok(near(lo, target[7 + j] - z95 * sigma) && near(s.hi[j], target[7 + j] + z95 * sigma), `position ${8 + j}: ${lo} ${s.hi[j]}`);
    });
    assert.ok(s.anomalies.includes(40), `the spike at 40 is flagged: ${s.anomalies}`);
  });

  it('mode windows stays selectable: the same positions, forecast from the values before each (out of sample)', async () => {
    const target = seasonal(60, 6);
    const index = monthlyDates('2012-01', 60);
    const body = { series: [{ target, index }], model: 'naive', min_history: 8 };
    const [inSample, windows] = await Promise.all([anomalies({ ...body, mode: 'in-sample' }), anomalies({ ...body, mode: 'windows' })]);
    assert.equal(inSample.status, 200, inSample.text);
    assert.equal(windows.status, 200, windows.text);
    assert.deepEqual([inSample.body.mode, windows.body.mode], ['in-sample', 'windows']);
    assert.equal(inSample.body.n_windows, windows.body.n_windows);
    // naive forecasts y[t-1] either way; the band differs: the whole history's σ against each window's own
    assert.deepEqual(inSample.body.series[0].forecast, windows.body.series[0].forecast);
    assert.notDeepEqual(inSample.body.series[0].hi, windows.body.series[0].hi);
    assert.equal(windows.body.context, 128);
  });

  it('is not the default where it is impossible: step > 1 and foundation models score in windows, and say so', async () => {
    const series = [{ target: seasonal(40, 7), index: monthlyDates('2015-01', 40) }];
    const stepped = await anomalies({ series, model: 'naive', step: 2 });
    assert.equal(stepped.status, 200, stepped.text);
    assert.equal(stepped.body.mode, 'windows');
    const foundation = await anomalies({ series, model: 'chronos-bolt', model_size: 'tiny' });
    assert.equal(foundation.status, 200, foundation.text);
    assert.equal(foundation.body.mode, 'windows');
  });

  it('positions the fit does not cover are not scored, with a warning; context is for mode windows', async () => {
    const target: (number | null)[] = seasonal(40, 8);
    const late: (number | null)[] = seasonal(40, 9);
    for (let t = 0; t < 6; t++) late[t] = null; // leading missing values: nothing fitted there
    const index = monthlyDates('2015-01', 40);
    const res = await anomalies({ series: [{ target, index }, { target: late, index }], model: 'seasonal-naive', min_history: 4, context: 10 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'in-sample');
    const [s, t] = res.body.series;
    checkShape(s, target, index);
    checkShape(t, late, index);
    // seasonal naive has no fitted value for the first season (12 months): positions 4–11 get no band
    assert.deepEqual(s.forecast.slice(0, 8), Array(8).fill(null));
    assert.ok(s.forecast.slice(8).every(Number.isFinite));
    const warned = (series: number) => res.body.warnings.filter((w: any) => w.series === series && /not scored/.test(w.message)).map((w: any) => w.message);
    assert.deepEqual(warned(0), ['positions 4–11 not scored: model seasonal-naive has no in-sample fitted value there '
      + '(naive has none for the first value, seasonal-naive none for the first season; none before the first observation)']);
    // the second series starts at its first observation (6): its first season is 6–17
    assert.match(warned(1)[0], /^positions 4–17 not scored/);
    assert.equal(res.body.n_windows, (40 - 12) + (40 - 18));
    assert.ok(res.body.warnings.some((w: any) => w.field === 'context' && /applies to mode "windows"/.test(w.message)), JSON.stringify(res.body.warnings));
  });

  it('a gap in the index: each position is scored against its own date (the fit sees the gap as a missing value)', async () => {
    const n = 48;
    const target = seasonal(n, 10);
    const index = monthlyDates('2015-01', n);
    const withNull = target.map((y, t) => (t === 30 ? null : y));
    const gappy = { target: target.filter((_, t) => t !== 30), index: index.filter((_, t) => t !== 30) };
    const res = await anomalies({ series: [{ target: withNull, index }, gappy], model: 'auto-ets', min_history: 12 });
    assert.equal(res.status, 200, res.text);
    const [full, gap] = res.body.series;
    checkShape(gap, gappy.target, gappy.index);
    gap.index.forEach((date: string, j: number) => {
      const k = full.index.indexOf(date);
      assert.deepEqual([gap.lo[j], gap.hi[j], gap.forecast[j]], [full.lo[k], full.hi[k], full.forecast[k]], date);
    });
  });

  it('model "auto" picks per series the candidate whose in-sample fit is closest, and scores with its fit', async () => {
    const index = monthlyDates('2015-01', 48);
    const walk = gaussian(77);
    let level = 100;
    const series = [{ target: seasonal(48, 11), index }, { target: Array.from({ length: 48 }, () => (level += 3 * walk())), index }];
    const res = await anomalies({ series, model: 'auto' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.model, 'auto');
    assert.equal(res.body.mode, 'in-sample');
    assert.deepEqual(res.body.auto.candidates.map((c: any) => c.model), ['auto-ets', 'auto-theta', 'seasonal-naive']);
    for (const [i, pick] of res.body.auto.series.entries()) {
      assert.ok(pick.mae > 0, JSON.stringify(pick));
      const direct = await anomalies({ series: [series[i]], model: pick.model });
      assert.equal(direct.status, 200, direct.text);
      const [mine, theirs] = [res.body.series[i], direct.body.series[0]];
      assert.deepEqual([mine.lo, mine.hi], [theirs.lo, theirs.hi], `series ${i} scored by ${pick.model}`);
    }
    console.log(`# auto picks: ${res.body.auto.series.map((p: any) => `${p.model} (MAE ${p.mae.toFixed(2)})`).join(', ')}`);
  });

  it('a request estimated over the sync budget is 413 use_job_api at once, uncharged; in-sample fits the same series once each', async () => {
    // auto-ets windows: 20 series × 176 windows of 128 values, ~0.2 s of one core each: ~12 minutes, over the
    // default budget (half the 120 s worker-call timeout); in-sample: 20 fits of 200 values
    const series = Array.from({ length: 20 }, (_, k) => ({ target: seasonal(200, 300 + k), index: monthlyDates('2000-01', 200) }));
    const { key } = await server.newAccount({ daily: 1, weekly: 100 });
    const before = await inferCalls('auto-ets');
    const refused = await anomalies({ series, model: 'auto-ets', mode: 'windows' }, key);
    assert.equal(refused.status, 413, refused.text);
    assert.equal(refused.body.code, 'use_job_api');
    assert.match(refused.body.detail, /20 series.*estimated at \d+ ms/);
    assert.match(refused.body.detail, /mode "windows" fits the model once per scored timestep \(3520 windows\); mode "in-sample"/);
    assert.match(refused.body.detail, /send the same body to POST \/v1\/anomaly-jobs/, 'the job route is named');
    assert.equal(await inferCalls('auto-ets'), before, 'no model call');
    const answered = await anomalies({ series, model: 'auto-ets' }, key);
    assert.equal(answered.status, 200, answered.text);
    assert.equal(answered.body.mode, 'in-sample');
    assert.equal(answered.headers.get('x-ratelimit-remaining'), '0', 'the 413 was not charged');
  });
});

describe('POST /v1/anomalies with detection_size (online detection: only the last positions)', () => {
  const tail = (s: any, d: number) => Object.fromEntries(['index', 'actual', 'forecast', 'median', 'lo', 'hi', 'anomaly', 'score'].map((k) => [k, s[k].slice(-d)]));

  it('mode windows forecasts only the last detection_size windows, each as the batch call forecasts it', async () => {
    const index = monthlyDates('2012-01', 60);
    const series = [{ target: seasonal(60, 21), index }, { target: seasonal(48, 22), index: index.slice(0, 48) }];
    series[0].target[57] += 40;
    const body = { series, model: 'seasonal-naive', mode: 'windows', step: 2, context: 30 };
    const before = await inferCalls('seasonal-naive');
    const online = await anomalies({ ...body, detection_size: 5 });
    assert.equal(online.status, 200, online.text);
    assert.equal(await inferCalls('seasonal-naive'), before + 1, 'one model call');
    assert.equal(online.body.detection_size, 5);
    assert.equal(online.body.n_windows, 10);
    const batch = await anomalies(body);
    assert.equal(batch.status, 200, batch.text);
    online.body.series.forEach((s: any, i: number) => {
      checkShape(s, series[i].target, series[i].index);
      assert.equal(s.scored_from, series[i].target.length - 5);
      assert.deepEqual(tail(s, 5), tail(batch.body.series[i], 5), `series ${i}`);
    });
    assert.deepEqual(online.body.series[0].anomalies, [57]);
  });

  it('mode in-sample: the same one fit per series, only the last positions scored; model auto compares its candidates on the whole history', async () => {
    const index = monthlyDates('2012-01', 72);
    const walk = gaussian(31);
    let level = 50;
    const series = [{ target: seasonal(72, 23), index }, { target: Array.from({ length: 72 }, () => (level += 2 * walk())), index }];
    series[1].target[70] += 40;
    for (const model of ['auto-ets', 'auto']) {
      const [online, batch] = await Promise.all([anomalies({ series, model, detection_size: 6 }), anomalies({ series, model })]);
      assert.equal(online.status, 200, online.text);
      assert.equal(batch.status, 200, batch.text);
      assert.equal(online.body.mode, 'in-sample');
      assert.equal(online.body.n_windows, 12);
      online.body.series.forEach((s: any, i: number) => {
        checkShape(s, series[i].target, index);
        assert.equal(s.scored_from, 66);
        assert.deepEqual(tail(s, 6), tail(batch.body.series[i], 6), `${model}, series ${i}`);
      });
      if (model === 'auto') assert.deepEqual(online.body.auto, batch.body.auto);
      assert.ok(online.body.series[1].anomalies.includes(70), JSON.stringify(online.body.series[1].anomalies));
    }
  });

  it('422s: detection_size below 1, or more positions than a series can score after min_history + step - 1 values', async () => {
    const index = monthlyDates('2015-01', 40);
    const series = [{ target: seasonal(40, 24), index }, { target: seasonal(30, 25), index: index.slice(0, 30) }];
    const zero = await anomalies({ series, model: 'naive', detection_size: 0 });
    assert.equal(zero.status, 422, zero.text);
    assert.ok(zero.body.errors.some((e: any) => e.field === 'detection_size'), zero.text);
    const big = await anomalies({ series, model: 'naive', detection_size: 20, min_history: 10, step: 2 });
    assert.equal(big.status, 422, big.text);
    assert.deepEqual(big.body.errors.map((e: any) => [e.series, e.field]), [[1, 'detection_size']]);
    assert.match(big.body.errors[0].reason,
      /^detection_size 20 exceeds what series 1 can score: it has 30 values, the first min_history 10 \+ step 2 - 1 = 11 are history only, so at most 19 can be scored/);
    const fits = await anomalies({ series, model: 'naive', detection_size: 19, min_history: 10, step: 2 });
    assert.equal(fits.status, 200, fits.text);
    assert.deepEqual(fits.body.series.map((s: any) => s.scored_from), [21, 11]);
  });
});
