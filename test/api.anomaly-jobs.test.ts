// Anomaly detection as a job (issue 33 item 2): POST /v1/anomaly-jobs validates and charges like POST
// /v1/anomalies (every 422 at once, one unit), stores the job before 202, runs it on the job queue with the
// real worker — in stored chunks over its series when it is over the chunk budget — and its result equals the
// sync answer. Listed, cancellable, scoped to the account, kept apart from the other kinds of job. On both
// store backends (PGlite, PostgreSQL); kill -9 of the server and of the worker: test/jobs.anomaly-durability.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storeBackends, startServerOn, monthlyDates, pollUntil, type TestServer } from './helpers.ts';

const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** Monthly series with a yearly season, deterministic noise and a spike at position 40 (lengths differ). */
export function anomalySeries(n: number, length = 60): { target: number[]; index: string[] }[] {
  return Array.from({ length: n }, (_, k) => {
    const len = length + (k % 4) * 3;
    const target = Array.from({ length: len }, (_, t) => 100 + 20 * Math.sin((2 * Math.PI * (t + k)) / 12) + 0.3 * t + ((t * 7919 + k * 104729) % 13) / 3);
    target[40] += 40 + k;
    return { target, index: monthlyDates('2012-01', len) };
  });
}

const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ freq: 'MS', model: 'auto-ets', series: anomalySeries(6), ...overrides });

async function waitForAnomalyJob(
  server: TestServer, id: string, key: string | undefined, done: (status: string) => boolean, timeoutMs = 240_000,
): Promise<any> {
  return pollUntil(`anomaly job ${id}`, async () => {
    const res = await server.request('GET', `/v1/anomaly-jobs/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }, (job) => done(job.status), timeoutMs);
}

for (const backend of storeBackends) {
  describe(`anomaly jobs (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    // estimates with one CPU: auto-ets ~140 ms per monthly series of ~60 values, so a 300 ms chunk holds 2 series
    // (the job runs in chunks); the sync budget is large, so the same bodies also run in one synchronous call to compare
    before(async () => {
      ({ server, cleanup } = await startServerOn(backend, {
        HORIZON_JOB_CONCURRENCY: '1', HORIZON_JOB_CHUNK_BUDGET_MS: '300', HORIZON_SYNC_BUDGET_MS: '1000000000', HORIZON_CPU_WORKERS: '1',
      }));
    });
    after(async () => { await server.close(); await cleanup(); });

    it('202 with Location, model and mode, charged one unit; completed in chunks with exactly the sync answer; listed apart from other jobs', async () => {
      const { key } = await server.newAccount({ daily: 10, weekly: 100 });
      const sent = body();
      const res = await server.request('POST', '/v1/anomaly-jobs', { key, body: sent });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'job_id', 'mode', 'model', 'model_size', 'status']);
      assert.deepEqual([res.body.status, res.body.model, res.body.model_size, res.body.mode], ['queued', 'auto-ets', 'default', 'in-sample']);
      assert.equal(res.headers.get('location'), `/v1/anomaly-jobs/${res.body.job_id}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), '9', 'one unit, before 202');
      const job = await waitForAnomalyJob(server, res.body.job_id, key, finished);
      assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
      assert.equal(job.attempts, 1);
      assert.ok(job.started_at && job.finished_at && job.created_at <= job.started_at && job.started_at <= job.finished_at);
      assert.ok(job.progress.chunks_total > 1, `chunked: ${JSON.stringify(job.progress)}`);
      assert.equal(job.progress.chunks_done, job.progress.chunks_total);
      const sync = await server.request('POST', '/v1/anomalies', { key, body: sent });
      assert.equal(sync.status, 200, sync.text);
      assert.deepEqual(job.result, sync.body, 'the job result equals the sync answer');
      assert.ok(job.result.series.every((s: { anomalies: number[] }) => s.anomalies.includes(40)), 'the spikes are found');
      assert.equal(job.result.n_windows, sync.body.n_windows);

      const list = await server.request('GET', '/v1/anomaly-jobs', { key });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.jobs.map((j: any) => j.job_id), [res.body.job_id]);
      assert.equal(list.body.jobs[0].result, undefined, 'the list does not inline results');
      assert.deepEqual(list.body.jobs[0].progress, job.progress);
      // the kinds of job are kept apart
      for (const other of ['/v1/forecast-jobs', '/v1/cross-validation-jobs']) {
        assert.deepEqual((await server.request('GET', other, { key })).body.jobs, [], other);
        assert.equal((await server.request('GET', `${other}/${res.body.job_id}`, { key })).status, 404, other);
      }
    });

    it('mode windows and model auto: the job equals the sync answer (windows unchunked, auto in chunks per candidate)', async () => {
      const { key } = await server.newAccount({ daily: 10, weekly: 100 });
      for (const sent of [
        body({ model: 'seasonal-naive', mode: 'windows', level: 95, series: anomalySeries(2, 48) }),
        body({ model: 'auto', series: anomalySeries(4) }),
      ]) {
        const res = await server.request('POST', '/v1/anomaly-jobs', { key, body: sent });
        assert.equal(res.status, 202, res.text);
        assert.equal(res.body.mode, sent.mode ?? 'in-sample');
        assert.equal(res.body.model, sent.model);
        const job = await waitForAnomalyJob(server, res.body.job_id, key, finished);
        assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
        const sync = await server.request('POST', '/v1/anomalies', { key, body: sent });
        assert.equal(sync.status, 200, sync.text);
        assert.deepEqual(job.result, sync.body, String(sent.model));
        if (sent.model === 'auto') assert.ok(job.progress.chunks_total > 2, JSON.stringify(job.progress));
      }
    });

    it('validates like the sync call: 422 at once naming the field, the same errors, nothing stored, nothing charged', async () => {
      const { key } = await server.newAccount({ daily: 5, weekly: 100 });
      const gap = anomalySeries(1)[0];
      gap.index[5] = '2012-06-15';
      const cases: [Record<string, unknown>, string][] = [
        [{ level: 100 }, 'level'], [{ step: 0 }, 'step'], [{ model: 'no-such-model' }, 'model'],
        [{ mode: 'in-sample', step: 2 }, 'mode'], [{ model: 'auto', mode: 'windows' }, 'mode'],
        [{ min_history: 500 }, 'min_history'], [{ series: [gap] }, 'series[0].index'], [{ freq: 'X' }, 'freq'], [{ horizon: 3 }, 'horizon'],
      ];
      for (const [extra, field] of cases) {
        const res = await server.request('POST', '/v1/anomaly-jobs', { key, body: body(extra) });
        assert.equal(res.status, 422, `${JSON.stringify(extra)}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
        const named = res.body.errors.some((e: any) => e.field === field || e.field.startsWith(field));
        assert.ok(named, `${JSON.stringify(extra)} → ${JSON.stringify(res.body.errors)}`);
        const sync = await server.request('POST', '/v1/anomalies', { key, body: body(extra) });
        assert.equal(sync.status, 422, sync.text);
        assert.deepEqual(res.body.errors, sync.body.errors, 'the same 422 as the synchronous route');
        assert.equal(res.headers.get('x-ratelimit-remaining'), null, 'not charged');
      }
      assert.deepEqual((await server.request('GET', '/v1/anomaly-jobs', { key })).body.jobs, [], 'nothing stored');
      const ok = await server.request('POST', '/v1/anomaly-jobs', { key, body: body({ model: 'naive' }) });
      assert.equal(ok.status, 202, ok.text);
      assert.equal(ok.headers.get('x-ratelimit-remaining'), '4', 'no unit was taken by the refused requests');
      assert.equal((await waitForAnomalyJob(server, ok.body.job_id, key, finished)).status, 'completed');
    });

    it('401 without a key; another account\'s job, an unknown id and a malformed id are 404; 429 with no unit left', async () => {
      const unknown = '/v1/anomaly-jobs/00000000-0000-4000-8000-000000000000';
      for (const [method, path] of [['POST', '/v1/anomaly-jobs'], ['GET', '/v1/anomaly-jobs'], ['GET', unknown], ['DELETE', unknown]]) {
        const res = await server.request(method, path, { key: null, body: method === 'POST' ? body() : undefined });
        assert.equal(res.status, 401, `${method} ${path}: ${res.text}`);
      }
      const other = await server.newAccount({ daily: 1, weekly: 100 });
      const job = await server.request('POST', '/v1/anomaly-jobs', { key: other.key, body: body({ model: 'naive' }) });
      assert.equal(job.status, 202, job.text);
      for (const path of [`/v1/anomaly-jobs/${job.body.job_id}`, '/v1/anomaly-jobs/00000000-0000-4000-8000-000000000000', '/v1/anomaly-jobs/not-a-uuid']) {
        for (const method of ['GET', 'DELETE']) {
          const res = await server.request(method, path);
          assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
          assert.equal(res.body.code, 'not_found');
        }
      }
      const listed = (await server.request('GET', '/v1/anomaly-jobs?limit=100')).body.jobs;
      assert.ok(listed.every((j: any) => j.job_id !== job.body.job_id), 'not in another account\'s list');
      const refused = await server.request('POST', '/v1/anomaly-jobs', { key: other.key, body: body({ model: 'naive' }) });
      assert.equal(refused.status, 429, refused.text);
      assert.equal((await server.request('GET', '/v1/anomaly-jobs', { key: other.key })).body.jobs.length, 1, 'the refused job was not stored');
      assert.equal((await waitForAnomalyJob(server, job.body.job_id, other.key, finished)).status, 'completed', 'the owner\'s job ran regardless');
    });

    it('list: newest first with a cursor, filtered by status; bad query parameters are 422', async () => {
      const { key } = await server.newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await server.request('POST', '/v1/anomaly-jobs', { key, body: body({ model: 'naive', series: anomalySeries(1) }) })).body.job_id);
      }
      const page1 = await server.request('GET', '/v1/anomaly-jobs?limit=2', { key });
      assert.equal(page1.status, 200, page1.text);
      assert.deepEqual(page1.body.jobs.map((j: any) => j.job_id), [ids[2], ids[1]]);
      const page2 = await server.request('GET', `/v1/anomaly-jobs?limit=2&cursor=${page1.body.next_cursor}`, { key });
      assert.deepEqual(page2.body.jobs.map((j: any) => j.job_id), [ids[0]]);
      assert.equal(page2.body.next_cursor, null);
      for (const id of ids) await waitForAnomalyJob(server, id, key, finished);
      const completed = await server.request('GET', '/v1/anomaly-jobs?status=completed', { key });
      assert.deepEqual(completed.body.jobs.map((j: any) => j.job_id), [...ids].reverse());
      assert.deepEqual((await server.request('GET', '/v1/anomaly-jobs?status=queued', { key })).body.jobs, []);
      for (const query of ['limit=0', 'limit=101', 'cursor=zzz', 'status=done', 'page=2']) {
        const bad = await server.request('GET', `/v1/anomaly-jobs?${query}`, { key });
        assert.equal(bad.status, 422, `${query}: ${bad.text}`);
      }
    });

    it('cancel: a running (chunked) job and a queued job become cancelled and stay so, no further chunk runs; a finished job is 409', async () => {
      // mode windows with auto-ets: one fit per window, ~100 windows in chunks of two: running a while
      const slow = body({ mode: 'windows', series: anomalySeries(1, 130) });
      const running = await server.request('POST', '/v1/anomaly-jobs', { body: slow });
      assert.equal(running.status, 202, running.text);
      const queued = await server.request('POST', '/v1/anomaly-jobs', { body: body({ model: 'naive' }) });
      const seen = await waitForAnomalyJob(server, running.body.job_id, undefined, (s) => s !== 'queued');
      assert.equal(seen.status, 'running');
      const q = await server.request('DELETE', `/v1/anomaly-jobs/${queued.body.job_id}`);
      assert.equal(q.status, 200, q.text);
      assert.equal(q.body.status, 'cancelled');
      assert.equal(q.body.started_at, undefined);
      const r = await server.request('DELETE', `/v1/anomaly-jobs/${running.body.job_id}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.status, 'cancelled');
      const again = await server.request('DELETE', `/v1/anomaly-jobs/${running.body.job_id}`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'job_not_cancellable');
      // the next job runs once the cancelled one has stopped; both cancelled jobs stay so, without a result
      const next = await server.request('POST', '/v1/anomaly-jobs', { body: body({ model: 'naive' }) });
      assert.equal((await waitForAnomalyJob(server, next.body.job_id, undefined, finished)).status, 'completed');
      for (const id of [running.body.job_id, queued.body.job_id]) {
        const job = (await server.request('GET', `/v1/anomaly-jobs/${id}`)).body;
        assert.equal(job.status, 'cancelled');
        assert.equal(job.result, undefined);
      }
      const stopped = (await server.request('GET', `/v1/anomaly-jobs/${running.body.job_id}`)).body;
      assert.ok(stopped.progress && stopped.progress.chunks_done < stopped.progress.chunks_total,
        `the cancelled job's remaining chunks were not run: ${JSON.stringify(stopped.progress)}`);
    });
  });
}
