// Stored series (issue 25) through the real API on both stores: create/replace/get/list/delete, the
// append rule (idempotent retries, precise 422s), limits, isolation (another account gets 404 on every
// route), forecast by reference equal to inline, store: true → scored exactly once when the actuals
// arrive (sync and job), rolling accuracy equal to the backtest scorer's numbers, Prometheus gauges.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { monthlyDates, startServerOn, storeBackends, waitForJob, type TestServer, pollUntil } from './helpers.ts';
import { mase, wql } from '../src/forecasting/metrics.ts';

const history = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => 100 + 10 * Math.sin((2 * Math.PI * (i + offset)) / 12) + (i + offset) + ((i * 7) % 5));

for (const backend of storeBackends) {
  describe(`stored series on ${backend.name}`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => {
      // bodies from 1,500 bytes go to a forecast thread: the two-series forecasts below take that path
      // both inline and by reference (series-refs.ts hands a large by-reference body to the thread too)
      ({ server, cleanup } = await startServerOn(backend, { HORIZON_SERIES_MAX_PER_ACCOUNT: '6', HORIZON_SERIES_MAX_POINTS: '120', HORIZON_SERIES_SWEEP_MS: '500', HORIZON_REQUEST_THREAD_MIN_BYTES: '1500', HORIZON_ANSWER_THREADS: '1' }));
    });
    after(async () => { await server.close(); await cleanup(); });

    it('PUT creates (201) and replaces (200); GET, list with paging, DELETE', async () => {
      const put = await server.request('PUT', '/v1/series/crud-a', { body: { freq: 'MS', index: monthlyDates('2020-01', 24), target: history(24) } });
      assert.equal(put.status, 201, put.text);
      assert.equal(put.body.points, 24);
      assert.equal(put.body.first_date, '2020-01-01');
      assert.equal(put.body.last_date, '2021-12-01');
      const replaced = await server.request('PUT', '/v1/series/crud-a', { body: { freq: 'MS', index: monthlyDates('2019-01', 12), target: history(12) } });
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.body.points, 12);
      // a gap is stored as a missing value
      const gap = await server.request('PUT', '/v1/series/crud-b', { body: { freq: 'MS', index: ['2020-01-01', '2020-03-01'], target: [1, 3] } });
      assert.equal(gap.status, 201, gap.text);
      const got = await server.request('GET', '/v1/series/crud-b');
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.index, ['2020-01-01', '2020-02-01', '2020-03-01']);
      assert.deepEqual(got.body.target, [1, null, 3]);
      await server.request('PUT', '/v1/series/crud-c', { body: { freq: 'D', index: ['2020-01-01'], target: [1] } });
      const page1 = await server.request('GET', '/v1/series?limit=2');
      assert.equal(page1.status, 200);
      assert.deepEqual(page1.body.series.map((s: { series_id: string }) => s.series_id), ['crud-a', 'crud-b']);
      const page2 = await server.request('GET', `/v1/series?limit=2&cursor=${page1.body.next_cursor}`);
      assert.deepEqual(page2.body.series.map((s: { series_id: string }) => s.series_id), ['crud-c']);
      assert.equal(page2.body.next_cursor, null);
      for (const id of ['crud-a', 'crud-b', 'crud-c']) assert.equal((await server.request('DELETE', `/v1/series/${id}`)).status, 200);
      assert.equal((await server.request('GET', '/v1/series/crud-a')).status, 404);
      assert.equal((await server.request('DELETE', '/v1/series/crud-a')).status, 404);
    });

    it('appends: idempotent by timestamp, gaps filled, and precise 422s for bad appends', async () => {
      assert.equal((await server.request('PUT', '/v1/series/app', { body: { freq: 'D', index: ['2024-01-01', '2024-01-02'], target: [1, 2] } })).status, 201);
      const append = (index: string[], target: unknown[]) => server.request('POST', '/v1/series/app/observations', { body: { index, target } });
      const first = await append(['2024-01-03', '2024-01-05'], [3, 5]);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual({ ...first.body, series_id: undefined }, { series_id: undefined, appended: 2, unchanged: 0, points: 5, last_date: '2024-01-05' });
      const retry = await append(['2024-01-03', '2024-01-05'], [3, 5]);
      assert.deepEqual([retry.body.appended, retry.body.unchanged, retry.body.points], [0, 2, 5]);
      const overlap = await append(['2024-01-05', '2024-01-06'], [5, 6]);
      assert.deepEqual([overlap.body.appended, overlap.body.unchanged, overlap.body.points], [1, 1, 6]);
      const stored = await server.request('GET', '/v1/series/app');
      assert.deepEqual(stored.body.target, [1, 2, 3, null, 5, 6]);

      const refused = async (index: string[], target: unknown[], field: string, reason: RegExp) => {
        const res = await append(index, target);
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.errors[0].field, field, res.text);
        assert.match(res.body.errors[0].reason, reason);
      };
      await refused(['2024-01-08', '2024-01-07'], [1, 2], 'index[1]', /comes before the previous date "2024-01-08"/);
      await refused(['2024-01-08', '2024-01-08'], [1, 1], 'index[1]', /repeats the previous date/);
      await refused(['2024-01-06'], [7], 'target[0]', /already stored as 6, not 7/);
      await refused(['2024-01-04'], [4], 'target[0]', /already stored as missing \(null\), not 4/);
      await refused(['2023-12-31'], [4], 'index[0]', /before the series' first date 2024-01-01/);
      await refused(['2024-01-08T12:00:00'], [4], 'index[0]', /time of day/);
      const weekly = await server.request('PUT', '/v1/series/wk', { body: { freq: 'W', index: ['2024-01-01', '2024-01-08'], target: [1, 2] } });
      assert.equal(weekly.status, 201);
      const offGrid = await server.request('POST', '/v1/series/wk/observations', { body: { index: ['2024-01-17'], target: [3] } });
      assert.equal(offGrid.status, 422);
      assert.deepEqual(offGrid.body.errors[0].field, 'index[0]');
      assert.match(offGrid.body.errors[0].reason, /off the series' W grid/);
      const lengths = await append(['2024-01-08', '2024-01-09'], [1]);
      assert.equal(lengths.status, 422);
      assert.equal(lengths.body.errors[0].field, 'target');
      // NaN is not JSON (400); a value beyond ±1e100 is a 422 naming it
      const nan = await server.request('POST', '/v1/series/app/observations', { raw: '{"index":["2024-01-08"],"target":[NaN]}', headers: { 'content-type': 'application/json' } });
      assert.equal(nan.status, 400);
      const huge = await append(['2024-01-08'], [1e101]);
      assert.equal(huge.status, 422);
      assert.match(huge.body.errors[0].field, /^target\/?\[?0/);
      const missing = await server.request('POST', '/v1/series/nope/observations', { body: { index: ['2024-01-08'], target: [1] } });
      assert.equal(missing.status, 404);
      // a 422 changed nothing
      assert.deepEqual((await server.request('GET', '/v1/series/app')).body.target, [1, 2, 3, null, 5, 6]);
      await server.request('DELETE', '/v1/series/wk');
      await server.request('DELETE', '/v1/series/app');
    });

    it('bulk append: many series in one request, all or nothing, errors naming series[i]', async () => {
      const { key } = await server.newAccount();
      for (const id of ['bulk-a', 'bulk-b']) await server.request('PUT', `/v1/series/${id}`, { key, body: { freq: 'D', index: ['2024-01-01'], target: [1] } });
      const bad = await server.request('POST', '/v1/series/observations', { key, body: { series: [
        { series_id: 'bulk-a', index: ['2024-01-02'], target: [2] }, { series_id: 'bulk-b', index: ['2024-01-01'], target: [9] },
      ] } });
      assert.equal(bad.status, 422, bad.text);
      assert.equal(bad.body.errors[0].series, 1);
      assert.equal(bad.body.errors[0].field, 'series[1].target[0]');
      assert.equal((await server.request('GET', '/v1/series/bulk-a', { key })).body.points, 1, 'nothing applied');
      const unknown = await server.request('POST', '/v1/series/observations', { key, body: { series: [{ series_id: 'bulk-zz', index: ['2024-01-02'], target: [2] }] } });
      assert.equal(unknown.status, 404);
      const ok = await server.request('POST', '/v1/series/observations', { key, body: { series: [
        { series_id: 'bulk-a', index: ['2024-01-02'], target: [2] }, { series_id: 'bulk-b', index: ['2024-01-01', '2024-01-03'], target: [1, 3] },
      ] } });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body.series.map((s: { appended: number; unchanged: number; points: number }) => [s.appended, s.unchanged, s.points]), [[1, 0, 2], [1, 1, 3]]);
      assert.deepEqual((await server.request('GET', '/v1/series/bulk-b', { key })).body.target, [1, null, 3]);
    });

    it('bulk append: the same append sent concurrently (a client retrying) applies once, never twice', async () => {
      const { key } = await server.newAccount();
      const ids = ['race-a', 'race-b', 'race-c'];
      for (const id of ids) await server.request('PUT', `/v1/series/${id}`, { key, body: { freq: 'D', index: ['2024-01-01', '2024-01-02'], target: [1, 2] } });
      const body = { series: ids.map((series_id) => ({ series_id, index: ['2024-01-02', '2024-01-03', '2024-01-04'], target: [2, 3, 4] })) };
      const answers = await Promise.all(Array.from({ length: 8 }, () => server.request('POST', '/v1/series/observations', { key, body })));
      for (const a of answers) assert.equal(a.status, 200, a.text);
      // each series: exactly one answer appended its two new dates, every other one found them stored
      for (const [i] of ids.entries()) {
        assert.equal(answers.reduce((n, a) => n + a.body.series[i].appended, 0), 2, JSON.stringify(answers.map((a) => a.body.series[i])));
        assert.ok(answers.every((a) => a.body.series[i].points === 4));
      }
      for (const id of ids) assert.deepEqual((await server.request('GET', `/v1/series/${id}`, { key })).body.target, [1, 2, 3, 4]);
    });

    it('limits: series per account (409) and points per series (422 on PUT, 409 on append)', async () => {
      const { key } = await server.newAccount();
      for (let i = 0; i < 6; i++) assert.equal((await server.request('PUT', `/v1/series/lim-${i}`, { key, body: { freq: 'D', index: ['2024-01-01'], target: [i] } })).status, 201);
      const seventh = await server.request('PUT', '/v1/series/lim-6', { key, body: { freq: 'D', index: ['2024-01-01'], target: [1] } });
      assert.equal(seventh.status, 409, seventh.text);
      assert.equal(seventh.body.code, 'series_limit');
      assert.match(seventh.body.detail, /6 stored series.*HORIZON_SERIES_MAX_PER_ACCOUNT/);
      // replacing an existing one is not a creation
      assert.equal((await server.request('PUT', '/v1/series/lim-0', { key, body: { freq: 'D', index: ['2024-01-01'], target: [9] } })).status, 200);
      const tooLong = await server.request('PUT', '/v1/series/lim-0', { key, body: { freq: 'D', index: ['2024-01-01', '2024-04-30'], target: [1, 2] } });
      assert.equal(tooLong.status, 422, tooLong.text);
      assert.match(tooLong.body.errors[0].reason, /121 grid steps.*at most 120/);
      const full = await server.request('POST', '/v1/series/lim-1/observations', { key, body: { index: ['2024-05-01'], target: [1] } });
      assert.equal(full.status, 409, full.text);
      assert.match(full.body.detail, /HORIZON_SERIES_MAX_POINTS/);
    });

    // Fastify's own limit of 100 characters per path parameter answered 414 with its own body (the whole URL in it)
    it('an id of 128 characters (the documented maximum) round-trips on every series route; 129 is a problem+json 422 on id', async () => {
      const { key } = await server.newAccount();
      const longest = `S${'a1_.:-'.repeat(21)}z`;
      assert.equal(longest.length, 128);
      const put = await server.request('PUT', `/v1/series/${longest}`, { key, body: { freq: 'MS', index: monthlyDates('2020-01', 24), target: history(24) } });
      assert.equal(put.status, 201, put.text);
      assert.equal(put.body.series_id, longest);
      const appended = await server.request('POST', `/v1/series/${longest}/observations`, { key, body: { index: ['2022-01-01'], target: [1] } });
      assert.equal(appended.status, 200, appended.text);
      const got = await server.request('GET', `/v1/series/${longest}`, { key });
      assert.equal(got.status, 200, got.text);
      assert.equal(got.body.series_id, longest);
      assert.equal(got.body.points, 25);
      assert.deepEqual((await server.request('GET', '/v1/series', { key })).body.series.map((s: { series_id: string }) => s.series_id), [longest]);
      assert.equal((await server.request('GET', `/v1/series/${longest}/accuracy`, { key })).status, 200);
      assert.equal((await server.request('DELETE', `/v1/series/${longest}`, { key })).status, 200);
      const tooLong = `${longest}x`;
      const calls = [['PUT', `/v1/series/${tooLong}`, { freq: 'D', index: ['2024-01-01'], target: [1] }], ['GET', `/v1/series/${tooLong}`]] as const;
      for (const [method, path, body] of calls) {
        const res = await server.request(method, path, { key, body });
        assert.equal(res.status, 422, `${method}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(res.body.errors[0].field, 'id');
        assert.match(res.body.errors[0].reason, /must match pattern/);
        assert.equal(res.body.request_id, res.headers.get('x-request-id'));
      }
    });

    it('another account gets 404 on every route; its own series of the same id is separate', async () => {
      const owner = await server.newAccount();
      const other = await server.newAccount();
      await server.request('PUT', '/v1/series/mine', { key: owner.key, body: { freq: 'MS', index: monthlyDates('2020-01', 24), target: history(24) } });
      const calls: [string, string, unknown?][] = [
        ['GET', '/v1/series/mine'], ['DELETE', '/v1/series/mine'], ['GET', '/v1/series/mine/accuracy'],
        ['POST', '/v1/series/mine/observations', { index: ['2022-01-01'], target: [1] }],
        ['POST', '/v1/series/observations', { series: [{ series_id: 'mine', index: ['2022-01-01'], target: [1] }] }],
        ['POST', '/v1/forecast', { series_ids: ['mine'], horizon: 2, model: 'naive' }],
        ['POST', '/v1/forecast-jobs', { series_ids: ['mine'], horizon: 2, model: 'naive' }],
      ];
      for (const [method, path, body] of calls) {
        const res = await server.request(method, path, { key: other.key, body });
        assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      }
      assert.deepEqual((await server.request('GET', '/v1/series', { key: other.key })).body.series, []);
      assert.equal((await server.request('GET', '/v1/accuracy?model=naive', { key: other.key })).body.overall.forecasts, 0);
      assert.equal((await server.request('PUT', '/v1/series/mine', { key: other.key, body: { freq: 'D', index: ['2024-01-01'], target: [5] } })).status, 201);
      const ownerView = await server.request('GET', '/v1/series/mine', { key: owner.key });
      assert.equal(ownerView.body.freq, 'MS');
      assert.equal(ownerView.body.points, 24);
    });

    it('forecast by reference answers exactly what the same series inline get; store: true scores once the actuals arrive', async () => {
      const { key } = await server.newAccount();
      const n = 36;
      const full = history(n + 3);
      await server.request('PUT', '/v1/series/ref-a', { key, body: { freq: 'MS', index: monthlyDates('2020-01', n), target: full.slice(0, n) } });
      await server.request('PUT', '/v1/series/ref-b', { key, body: { freq: 'MS', index: monthlyDates('2020-01', n), target: full.slice(0, n).map((v) => v * 2) } });
      const asked = { horizon: 3, model: 'seasonal-naive', quantiles: [0.1, 0.5, 0.9] };
      const byRef = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a', 'ref-b'], ...asked } });
      assert.equal(byRef.status, 200, byRef.text);
      const inline = await server.request('POST', '/v1/forecast', { key, body: { series: [
        { index: monthlyDates('2020-01', n), target: full.slice(0, n) }, { index: monthlyDates('2020-01', n), target: full.slice(0, n).map((v) => v * 2) },
      ], freq: 'MS', ...asked } });
      assert.deepEqual(byRef.body, inline.body);
      // the same validation: a bad horizon is the inline 422; both series and series_ids is a 422
      const bad = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a'], horizon: 0, model: 'naive' } });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.errors[0].field, 'horizon');
      // the same through the forecast thread (two series are over its 1,500 bytes): checked there, same 422
      const badInThread = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a', 'ref-b'], horizon: 0, model: 'naive' } });
      assert.equal(badInThread.status, 422);
      assert.deepEqual(badInThread.body.errors, (await server.request('POST', '/v1/forecast', { key, body: { series: [
        { index: monthlyDates('2020-01', n), target: full.slice(0, n) }, { index: monthlyDates('2020-01', n), target: full.slice(0, n).map((v) => v * 2) },
      ], freq: 'MS', horizon: 0, model: 'naive' } })).body.errors);
      const both = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a'], series: inline.body.series, horizon: 1, freq: 'MS' } });
      assert.equal(both.status, 422);
      assert.equal(both.body.errors[0].field, 'series_ids');
      const wrongFreq = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a'], horizon: 1, freq: 'D' } });
      assert.equal(wrongFreq.status, 422);
      assert.equal(wrongFreq.body.errors[0].field, 'freq');
      const storeInline = await server.request('POST', '/v1/forecast', { key, body: { series: inline.body.series, horizon: 1, freq: 'MS', store: true } });
      assert.equal(storeInline.status, 422);
      assert.equal(storeInline.body.errors[0].field, 'store');

      const stored = await server.request('POST', '/v1/forecast', { key, body: { series_ids: ['ref-a'], ...asked, store: true } });
      assert.equal(stored.status, 200, stored.text);
      assert.deepEqual(stored.body.series[0], byRef.body.series[0]);
      let view = await server.request('GET', '/v1/series/ref-a', { key });
      assert.equal(view.body.forecasts.length, 1);
      assert.equal(view.body.forecasts[0].scored_at, null);
      assert.deepEqual(view.body.forecasts[0].index, ['2023-01-01', '2023-02-01', '2023-03-01']);
      // two of three actuals: not scored yet; the third: scored once
      await server.request('POST', '/v1/series/ref-a/observations', { key, body: { index: monthlyDates('2023-01', 2), target: full.slice(n, n + 2) } });
      const after2 = await server.request('GET', '/v1/series/ref-a/accuracy', { key });
      assert.equal(after2.body.overall.forecasts, 0);
      await server.request('POST', '/v1/series/ref-a/observations', { key, body: { index: monthlyDates('2023-01', 3), target: full.slice(n, n + 3) } });
      const accuracy = await pollUntil('scoring', async () => (await server.request('GET', '/v1/series/ref-a/accuracy', { key })).body, (b) => b.overall.forecasts === 1);
      // the backtest scorer's numbers, computed here from the forecast and the actuals
      const prediction = stored.body.series[0][0].prediction;
      const actual = full.slice(n, n + 3);
      assert.ok(Math.abs(accuracy.overall.mase - mase(actual, prediction.mean, full.slice(0, n), 12)) < 1e-12);
      const levels = [0.1, 0.5, 0.9];
      assert.ok(Math.abs(accuracy.overall.wql - wql([{ actual, quantiles: new Map(levels.map((q) => [q, prediction[String(q)]])) }], levels)) < 1e-12);
      const inside = actual.filter((y, k) => y >= prediction['0.1'][k] && y <= prediction['0.9'][k]).length / 3;
      assert.equal(accuracy.overall.coverage['80'], inside);
      assert.equal(accuracy.overall.by_step.length, 3);
      assert.equal(accuracy.models[0].model, 'seasonal-naive');
      // more appends and sweeps never count it again
      await server.request('POST', '/v1/series/ref-a/observations', { key, body: { index: monthlyDates('2023-04', 1), target: [150] } });
      await new Promise((r) => setTimeout(r, 1200)); // > two sweeps (HORIZON_SERIES_SWEEP_MS=500): nothing to assert on time, only on counts
      view = await server.request('GET', '/v1/series/ref-a', { key });
      assert.equal(view.body.forecasts.length, 1);
      assert.deepEqual(view.body.forecasts[0].actuals, actual);
      assert.equal((await server.request('GET', '/v1/series/ref-a/accuracy', { key })).body.overall.forecasts, 1);
      const byModel = await server.request('GET', '/v1/accuracy?model=seasonal-naive', { key });
      assert.equal(byModel.status, 200);
      assert.equal(byModel.body.overall.forecasts, 1);
      assert.deepEqual(byModel.body.series.map((s: { series_id: string }) => s.series_id), ['ref-a']);
      const metrics = await server.request('GET', '/metrics', { key: null });
      assert.match(metrics.text, /horizon_forecast_rolling_wql\{model="seasonal-naive"\} \d/);
      assert.match(metrics.text, /horizon_forecast_rolling_coverage\{model="seasonal-naive",interval="80"\} \d/);
    });

    it('a forecast job by reference with store: true keeps its forecasts once, scored when covered', async () => {
      const { key } = await server.newAccount();
      await server.request('PUT', '/v1/series/job-a', { key, body: { freq: 'MS', index: monthlyDates('2020-01', 30), target: history(30) } });
      const accepted = await server.request('POST', '/v1/forecast-jobs', { key, body: { series_ids: ['job-a'], horizon: 2, model: 'naive', store: true } });
      assert.equal(accepted.status, 202, accepted.text);
      const job = await waitForJob(server, accepted.body.job_id, key, (s) => s === 'completed' || s === 'failed');
      assert.equal(job.status, 'completed', JSON.stringify(job));
      const view = await server.request('GET', '/v1/series/job-a', { key });
      assert.equal(view.body.forecasts.length, 1);
      assert.deepEqual(view.body.forecasts[0].prediction, job.series[0][0].prediction);
      await server.request('POST', '/v1/series/job-a/observations', { key, body: { index: monthlyDates('2022-07', 2), target: [1, 2] } });
      const acc = await pollUntil('job forecast scoring', async () => (await server.request('GET', '/v1/series/job-a/accuracy', { key })).body, (b) => b.overall.forecasts === 1);
      assert.equal(acc.models[0].model, 'naive');
    });
  });
}
