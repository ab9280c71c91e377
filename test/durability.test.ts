// Nothing lost: kill -9 the server with jobs queued and running, restart it on the same store, and
// every job completes; kill -9 the model worker mid-request, and sync requests get 503 (or succeed)
// while jobs are retried to completion.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { startTestServer, serveProcess, simpleRequest, slowRequest, waitForJob, type TestServer } from './helpers.ts';

const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';


describe('durability', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-durability-'));
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill('SIGKILL'); rmSync(dataDir, { recursive: true, force: true }); });

  it('kill -9 of the server with jobs queued and running: after a restart every job completes', async () => {
    const port = await freePort();
    const first = await serveProcess(dataDir, port);
    children.push(first.child);
    const key = /hzn_\S+/.exec(first.output())![0];
    const base = `http://127.0.0.1:${port}`;
    const post = async (body: unknown) => {
      const res = await fetch(`${base}/v1/forecast-jobs`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.status, 202);
      return ((await res.json()) as { job_id: string }).job_id;
    };
    const ids = [await post(slowRequest())];
    for (let i = 0; i < 4; i++) ids.push(await post(simpleRequest({ model: i % 2 ? 'auto-ets' : 'naive' })));
    // wait until the first job runs, so the kill hits one running and several queued
    const get = async (id: string) => (await (await fetch(`${base}/v1/forecast-jobs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string; attempts: number };
    const deadline = Date.now() + 60_000;
    while ((await get(ids[0])).status !== 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await get(ids[0])).status, 'running');
    assert.equal((await get(ids[4])).status, 'queued');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serveProcess(dataDir, port);
    children.push(second.child);
    assert.doesNotMatch(second.output(), /hzn_/, 'a restart creates no new account or key');
    const until = Date.now() + 180_000;
    let states: { status: string; attempts: number }[] = [];
    while (Date.now() < until) {
      states = await Promise.all(ids.map(get));
      if (states.every((s) => finished(s.status))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(states.map((s) => s.status), ids.map(() => 'completed'), JSON.stringify(states));
    assert.ok(states[0].attempts >= 2, 'the job that was running was delivered again');
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  });

  describe('kill -9 of the model worker', () => {
    let server: TestServer;
    after(async () => server?.close());

    it('mid-request: the sync call answers 503 with Retry-After (or succeeds), the worker comes back, jobs complete', async () => {
      server = await startTestServer({ HORIZON_JOB_CONCURRENCY: '1' });
      const inflight = server.request('POST', '/v1/forecast', { body: slowRequest() });
      const job = await server.request('POST', '/v1/forecast-jobs', { body: slowRequest() });
      await new Promise((r) => setTimeout(r, 500));
      const pid = server.supervisor.kill('core', 'SIGKILL');
      assert.ok(pid);
      const sync = await inflight;
      assert.ok(sync.status === 503 || sync.status === 200, sync.text);
      if (sync.status === 503) {
        assert.equal(sync.body.code, 'no_worker');
        assert.ok(Number(sync.headers.get('retry-after')) > 0);
      }
      const done = await waitForJob(server, job.body.job_id, undefined, finished, 180_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const status = await server.request('GET', '/v1/status', { key: null });
      assert.equal(status.body.workers[0].restarts >= 1, true);
      const again = await server.request('POST', '/v1/forecast', { body: simpleRequest() });
      assert.equal(again.status, 200, 'the restarted worker serves');
    });
  });
});
