// Forecast jobs through HTTP (contract B.3) on both store backends: 202 + Location, lifecycle to
// completed, list newest first with a cursor, cancel (queued and running), 409, cross-account 404.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storeBackends, startServerOn, simpleRequest, slowRequest, waitForJob, type TestServer } from './helpers.ts';

const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';


for (const backend of storeBackends) {
  describe(`forecast jobs (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => { ({ server, cleanup } = await startServerOn(backend, { HORIZON_JOB_CONCURRENCY: '1' })); });
    after(async () => { await server.close(); await cleanup(); });

    it('202 with Location, stored before the answer, then queued → running → completed with the sync result', async () => {
      const body = simpleRequest({ model: 'seasonal-naive', quantiles: [0.2, 0.8] });
      const res = await server.request('POST', '/v1/forecast-jobs', { body });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'job_id', 'model', 'status']);
      assert.equal(res.body.status, 'queued');
      assert.equal(res.body.model, 'seasonal-naive');
      assert.equal(res.headers.get('location'), `/v1/forecast-jobs/${res.body.job_id}`);
      const job = await waitForJob(server, res.body.job_id, undefined, finished);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.ok(job.started_at && job.finished_at && job.created_at <= job.started_at && job.started_at <= job.finished_at);
      const sync = await server.request('POST', '/v1/forecast', { body });
      assert.deepEqual(job.series, sync.body.series, 'the job result equals the sync result');
      assert.equal(job.metrics, null);
    });

    it('validates like the sync call (422 at once, nothing stored)', async () => {
      const res = await server.request('POST', '/v1/forecast-jobs', { body: simpleRequest({ horizon: 0 }) });
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].field, 'horizon');
    });

    it('cancel: a queued job and a running job become cancelled and stay so; a finished job is 409', async () => {
      const running = await server.request('POST', '/v1/forecast-jobs', { body: slowRequest() });
      const queued = await server.request('POST', '/v1/forecast-jobs', { body: simpleRequest() });
      await waitForJob(server, running.body.job_id, undefined, (s) => s !== 'queued');
      const q = await server.request('DELETE', `/v1/forecast-jobs/${queued.body.job_id}`);
      assert.equal(q.status, 200, q.text);
      assert.equal(q.body.status, 'cancelled');
      const r = await server.request('DELETE', `/v1/forecast-jobs/${running.body.job_id}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.status, 'cancelled');
      const again = await server.request('DELETE', `/v1/forecast-jobs/${running.body.job_id}`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'job_not_cancellable');
      // after the worker finishes the slow forecast, the job is still cancelled
      const next = await server.request('POST', '/v1/forecast-jobs', { body: simpleRequest() });
      await waitForJob(server, next.body.job_id, undefined, finished);
      assert.equal((await server.request('GET', `/v1/forecast-jobs/${running.body.job_id}`)).body.status, 'cancelled');
      assert.equal((await server.request('GET', `/v1/forecast-jobs/${queued.body.job_id}`)).body.status, 'cancelled');
    });

    it('list: the caller\'s jobs only, newest first, paginated with a cursor', async () => {
      const other = await server.newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await server.request('POST', '/v1/forecast-jobs', { key: other.key, body: simpleRequest() })).body.job_id);
      const page1 = await server.request('GET', '/v1/forecast-jobs?limit=2', { key: other.key });
      assert.equal(page1.status, 200, page1.text);
      assert.deepEqual(page1.body.jobs.map((j: { job_id: string }) => j.job_id), [ids[2], ids[1]]);
      assert.ok(page1.body.next_cursor);
      const page2 = await server.request('GET', `/v1/forecast-jobs?limit=2&cursor=${page1.body.next_cursor}`, { key: other.key });
      assert.deepEqual(page2.body.jobs.map((j: { job_id: string }) => j.job_id), [ids[0]]);
      assert.equal(page2.body.next_cursor, null);
      const mine = await server.request('GET', '/v1/forecast-jobs?limit=100');
      assert.ok(mine.body.jobs.every((j: { job_id: string }) => !ids.includes(j.job_id)), 'no other account\'s jobs');
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=zzz', 'status=done', 'page=2']) {
        const bad = await server.request('GET', `/v1/forecast-jobs?${query}`);
        assert.equal(bad.status, 422, `${query}: ${bad.text}`);
      }
    });

    it('another account\'s job, an unknown id and a malformed id are all 404', async () => {
      const other = await server.newAccount();
      const job = await server.request('POST', '/v1/forecast-jobs', { key: other.key, body: simpleRequest() });
      for (const path of [`/v1/forecast-jobs/${job.body.job_id}`, '/v1/forecast-jobs/00000000-0000-4000-8000-000000000000', '/v1/forecast-jobs/not-a-uuid']) {
        for (const method of ['GET', 'DELETE']) {
          const res = await server.request(method, path);
          assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
          assert.equal(res.body.code, 'not_found');
        }
      }
    });
  });
}
