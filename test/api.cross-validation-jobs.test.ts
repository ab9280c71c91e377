// Cross-validation as a job (issue 13 item 1): POST /v1/cross-validation-jobs validates and charges like
// POST /v1/cross-validation (422 at once, one unit per model, all or nothing), stores the job before 202,
// runs it on the job queue with the real worker; the result equals the sync answer. Listed, cancellable,
// scoped to the account, kept apart from /v1/forecast-jobs, and durable across a kill -9 of the server.
// On both store backends (PGlite, PostgreSQL); the kill -9 test on the embedded store.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { storeBackends, startServerOn, serveProcess, monthlyDates, slowRequest, type TestServer } from './helpers.ts';

const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** Two years of a seasonal monthly series, two models, two windows of 3 months. */
function cvBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const target = Array.from({ length: 24 }, (_, i) => 100 + 15 * Math.sin((2 * Math.PI * i) / 12) + i);
  return { series: [{ target, index: monthlyDates('2018-01', 24) }], freq: 'MS', horizon: 3, n_windows: 2, quantiles: [0.1, 0.5, 0.9], models: ['naive', { model: 'seasonal-naive' }], ...overrides };
}

/** A cross-validation slow enough to keep the one job slot busy a while: auto-arima on hourly windows. */
function slowCvBody(): Record<string, unknown> {
  const { series, horizon, freq } = slowRequest();
  return { series, horizon, freq, n_windows: 2, models: ['auto-arima'] };
}

async function waitForCvJob(server: TestServer, id: string, key: string | undefined, done: (status: string) => boolean, timeoutMs = 180_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request('GET', `/v1/cross-validation-jobs/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    if (done(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`cross-validation job ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}


for (const backend of storeBackends) {
  describe(`cross-validation jobs (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => { ({ server, cleanup } = await startServerOn(backend, { HORIZON_JOB_CONCURRENCY: '1' })); });
    after(async () => { await server.close(); await cleanup(); });

    it('202 with Location and the models, then completed with exactly the sync answer; listed, not among forecast jobs', async () => {
      const { key } = await server.newAccount({ daily: 10, weekly: 100 });
      const body = cvBody();
      const res = await server.request('POST', '/v1/cross-validation-jobs', { key, body });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'job_id', 'models', 'status']);
      assert.equal(res.body.status, 'queued');
      assert.deepEqual(res.body.models, [{ model: 'naive', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' }]);
      assert.equal(res.headers.get('location'), `/v1/cross-validation-jobs/${res.body.job_id}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), '8', 'one unit per model, before 202');
      const job = await waitForCvJob(server, res.body.job_id, key, finished);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.attempts, 1);
      assert.ok(job.started_at && job.finished_at && job.created_at <= job.started_at && job.started_at <= job.finished_at);
      const sync = await server.request('POST', '/v1/cross-validation', { key, body });
      assert.equal(sync.status, 200, sync.text);
      assert.deepEqual(job.result, sync.body, 'the job result equals the sync answer');
      assert.deepEqual(job.result.leaderboard.map((r: any) => r.model).sort(), ['naive', 'seasonal-naive']);

      const list = await server.request('GET', '/v1/cross-validation-jobs', { key });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.jobs.map((j: any) => j.job_id), [res.body.job_id]);
      assert.equal(list.body.jobs[0].status, 'completed');
      assert.equal(list.body.jobs[0].result, undefined, 'the list does not inline results');
      assert.deepEqual(list.body.jobs[0].models, res.body.models);
      // the two kinds of job are kept apart
      assert.deepEqual((await server.request('GET', '/v1/forecast-jobs', { key })).body.jobs, []);
      assert.equal((await server.request('GET', `/v1/forecast-jobs/${res.body.job_id}`, { key })).status, 404);
      assert.equal((await server.request('DELETE', `/v1/forecast-jobs/${res.body.job_id}`, { key })).status, 404);
    });

    it('list: newest first with a cursor, filtered by status; bad query parameters are 422', async () => {
      const { key } = await server.newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody({ models: ['naive'] }) })).body.job_id);
      const page1 = await server.request('GET', '/v1/cross-validation-jobs?limit=2', { key });
      assert.equal(page1.status, 200, page1.text);
      assert.deepEqual(page1.body.jobs.map((j: any) => j.job_id), [ids[2], ids[1]]);
      const page2 = await server.request('GET', `/v1/cross-validation-jobs?limit=2&cursor=${page1.body.next_cursor}`, { key });
      assert.deepEqual(page2.body.jobs.map((j: any) => j.job_id), [ids[0]]);
      assert.equal(page2.body.next_cursor, null);
      for (const id of ids) await waitForCvJob(server, id, key, finished);
      const completed = await server.request('GET', '/v1/cross-validation-jobs?status=completed', { key });
      assert.deepEqual(completed.body.jobs.map((j: any) => j.job_id), [...ids].reverse());
      assert.deepEqual((await server.request('GET', '/v1/cross-validation-jobs?status=queued', { key })).body.jobs, []);
      for (const query of ['limit=0', 'limit=101', 'cursor=zzz', 'status=done', 'page=2']) {
        const bad = await server.request('GET', `/v1/cross-validation-jobs?${query}`, { key });
        assert.equal(bad.status, 422, `${query}: ${bad.text}`);
      }
    });

    it('validates like the sync call: 422 at once naming the field, nothing stored, nothing charged', async () => {
      const { key } = await server.newAccount({ daily: 5, weekly: 100 });
      const cases: [Record<string, unknown>, string][] = [
        [{ n_windows: 0 }, 'n_windows'], [{ step: 0 }, 'step'], [{ models: [] }, 'models'],
        [{ models: ['naive', 'no-such-model'] }, 'models[1].model'], [{ models: [{ model: 'naive', model_size: 'huge' }] }, 'models[0].model_size'],
        [{ metric: 'rmse' }, 'metric'],
        [{ horizon: 24 }, 'n_windows'], // no window of any series fits
        [{ series: [{ target: [1, 2, 3, 4, 5, 6, 7, 8], index: monthlyDates('2015-01', 8).map((d, i) => (i === 5 ? '2015-06-15' : d)) }] }, 'series[0].index'],
      ];
      for (const [extra, field] of cases) {
        const res = await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody(extra) });
        assert.equal(res.status, 422, `${JSON.stringify(extra)}: ${res.text}`);
        assert.ok(res.body.errors.some((e: any) => e.field === field || e.field.startsWith(field)), `${JSON.stringify(extra)} → ${JSON.stringify(res.body.errors)}`);
        // the same 422 as the synchronous route
        const sync = await server.request('POST', '/v1/cross-validation', { key, body: cvBody(extra) });
        assert.equal(sync.status, 422);
        assert.deepEqual(res.body.errors, sync.body.errors);
        assert.equal(res.headers.get('x-ratelimit-remaining'), null, 'not charged');
      }
      const list = await server.request('GET', '/v1/cross-validation-jobs', { key });
      assert.deepEqual(list.body.jobs, [], 'nothing stored');
      const ok = await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody({ models: ['naive'] }) });
      assert.equal(ok.status, 202, ok.text);
      assert.equal(ok.headers.get('x-ratelimit-remaining'), '4', 'no unit was taken by the refused requests');
    });

    it('charges one unit per model, all or nothing: 429 with the exact units left, nothing stored, the units given back', async () => {
      const { key } = await server.newAccount({ daily: 3, weekly: 100 });
      const two = await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody() });
      assert.equal(two.status, 202, two.text);
      assert.equal(two.headers.get('x-ratelimit-limit'), '3');
      assert.equal(two.headers.get('x-ratelimit-remaining'), '1');
      const refused = await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody() });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 'quota_exceeded');
      assert.match(refused.body.detail, /^this request needs 2 units \(one per model\) and only 1 is left: the daily \(UTC day\) quota of 3 requests has 1 left; it resets at /);
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '1', 'the unit taken first was given back');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      const list = await server.request('GET', '/v1/cross-validation-jobs', { key });
      assert.deepEqual(list.body.jobs.map((j: any) => j.job_id), [two.body.job_id], 'the refused job was not stored');
      // the unit the refused request took first was given back: one model still fits, then none
      const one = await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody({ models: ['seasonal-naive'] }) });
      assert.equal(one.status, 202, one.text);
      assert.equal(one.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await server.request('POST', '/v1/cross-validation-jobs', { key, body: cvBody({ models: ['naive'] }) })).status, 429);
      for (const id of [two.body.job_id, one.body.job_id]) assert.equal((await waitForCvJob(server, id, key, finished)).status, 'completed');
    });

    it('401 without a key; another account\'s job, an unknown id and a malformed id are 404', async () => {
      for (const [method, path] of [['POST', '/v1/cross-validation-jobs'], ['GET', '/v1/cross-validation-jobs'], ['GET', '/v1/cross-validation-jobs/00000000-0000-4000-8000-000000000000'], ['DELETE', '/v1/cross-validation-jobs/00000000-0000-4000-8000-000000000000']]) {
        const res = await server.request(method, path, { key: null, body: method === 'POST' ? cvBody() : undefined });
        assert.equal(res.status, 401, `${method} ${path}: ${res.text}`);
      }
      const other = await server.newAccount();
      const job = await server.request('POST', '/v1/cross-validation-jobs', { key: other.key, body: cvBody() });
      assert.equal(job.status, 202, job.text);
      for (const path of [`/v1/cross-validation-jobs/${job.body.job_id}`, '/v1/cross-validation-jobs/00000000-0000-4000-8000-000000000000', '/v1/cross-validation-jobs/not-a-uuid']) {
        for (const method of ['GET', 'DELETE']) {
          const res = await server.request(method, path);
          assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
          assert.equal(res.body.code, 'not_found');
        }
      }
      assert.ok((await server.request('GET', '/v1/cross-validation-jobs?limit=100')).body.jobs.every((j: any) => j.job_id !== job.body.job_id), 'not in another account\'s list');
      assert.equal((await waitForCvJob(server, job.body.job_id, other.key, finished)).status, 'completed', 'the owner\'s job ran regardless');
    });

    it('cancel: a queued job and a running job become cancelled and stay so; a finished job is 409', async () => {
      const running = await server.request('POST', '/v1/cross-validation-jobs', { body: slowCvBody() });
      assert.equal(running.status, 202, running.text);
      const queued = await server.request('POST', '/v1/cross-validation-jobs', { body: cvBody() });
      await waitForCvJob(server, running.body.job_id, undefined, (s) => s !== 'queued');
      const q = await server.request('DELETE', `/v1/cross-validation-jobs/${queued.body.job_id}`);
      assert.equal(q.status, 200, q.text);
      assert.equal(q.body.status, 'cancelled');
      assert.equal(q.body.started_at, undefined);
      const r = await server.request('DELETE', `/v1/cross-validation-jobs/${running.body.job_id}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.status, 'cancelled');
      const again = await server.request('DELETE', `/v1/cross-validation-jobs/${running.body.job_id}`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'job_not_cancellable');
      // once the worker is done with the slow cross-validation, both jobs are still cancelled, without a result
      const next = await server.request('POST', '/v1/cross-validation-jobs', { body: cvBody({ models: ['naive'] }) });
      assert.equal((await waitForCvJob(server, next.body.job_id, undefined, finished)).status, 'completed');
      for (const id of [running.body.job_id, queued.body.job_id]) {
        const job = (await server.request('GET', `/v1/cross-validation-jobs/${id}`)).body;
        assert.equal(job.status, 'cancelled');
        assert.equal(job.result, undefined);
      }
    });
  });
}

describe('cross-validation jobs: durability', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-cv-durability-'));
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill('SIGKILL'); rmSync(dataDir, { recursive: true, force: true }); });

  it('a job accepted (202) but not yet run survives kill -9 of the server and completes after the restart', async () => {
    const port = await freePort();
    const first = await serveProcess(dataDir, port);
    children.push(first.child);
    const key = /hzn_\S+/.exec(first.output())![0];
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: (await res.json()) as any };
    };
    // the one job slot is busy with a slow forecast job, so the cross-validation job is still queued at the kill
    const blocker = await call('POST', '/v1/forecast-jobs', slowRequest());
    assert.equal(blocker.status, 202);
    const deadline = Date.now() + 60_000;
    while ((await call('GET', `/v1/forecast-jobs/${blocker.body.job_id}`)).body.status !== 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const body = cvBody();
    const accepted = await call('POST', '/v1/cross-validation-jobs', body);
    assert.equal(accepted.status, 202);
    const id = accepted.body.job_id;
    assert.equal((await call('GET', `/v1/cross-validation-jobs/${id}`)).body.status, 'queued');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serveProcess(dataDir, port);
    children.push(second.child);
    const until = Date.now() + 180_000;
    let job: any;
    while (Date.now() < until) {
      job = (await call('GET', `/v1/cross-validation-jobs/${id}`)).body;
      if (finished(job.status)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.attempts, 1, 'it ran once, after the restart');
    const sync = await call('POST', '/v1/cross-validation', body);
    assert.equal(sync.status, 200);
    assert.deepEqual(job.result, sync.body);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  });
});
