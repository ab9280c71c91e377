// Anomaly jobs survive kill -9 (issue 33 item 2): of the API process mid-job (the chunks stored before the kill
// are reused after the restart, the others computed; embedded store), and of the model worker mid-job (the
// chunk the kill caught is sent again once the worker is back; PGlite and PostgreSQL). Each job completes
// exactly once, with the synchronous answer. Real server processes and workers; no timed assertions.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, monthlyDates, pollUntil, startServerOn, storeBackends, type TestServer } from './helpers.ts';
import { durableStores, finished, killMidJob, type DurableStore } from './server-kill.ts';

/** n monthly series of ~150 values with a spike each: auto-ets in-sample, ~230 ms estimated per series, so three
 * series to a 700 ms chunk: long enough to kill between chunks. */
function body(n: number): Record<string, unknown> {
  const series = Array.from({ length: n }, (_, k) => {
    const length = 150 + (k % 5) * 4;
    const target = Array.from({ length }, (_, t) => 100 + 20 * Math.sin((2 * Math.PI * (t + k)) / 12)
      + 0.5 * t * ((k % 3) - 1) + ((t * 7919 + k * 104729) % 17) / 4);
    target[100 + (k % 30)] += 60;
    return { target, index: monthlyDates('2005-01', length) };
  });
  return { freq: 'MS', model: 'auto-ets', level: 99, series };
}

const env = { HORIZON_JOB_CHUNK_BUDGET_MS: '700', HORIZON_CPU_WORKERS: '1', HORIZON_LOG_LEVEL: 'info' };

describe('anomaly jobs survive kill -9 of the API process', () => {
  let store: DurableStore; // the embedded store (test/server-kill.ts)
  before(async () => { store = await durableStores[0].open(); });
  after(async () => store?.close());

  it('the chunks stored before the kill are reused, the others computed, one attempt completes; the result equals POST /v1/anomalies', async () => {
    const sent = body(60);
    await killMidJob(store, { path: '/v1/anomaly-jobs', body: sent }, env, async ({ stored, done, attempts, get, call }) => {
      const total = done.progress!.chunks_total;
      const lines = await attempts();
      assert.equal(lines.length, 1, 'exactly one attempt completed');
      assert.equal(lines[0].chunks_reused, stored, 'every chunk stored before the kill was reused');
      assert.equal(lines[0].chunks_computed, total - stored, 'only the chunks not stored were computed');
      assert.equal((await get()).finished_at, done.finished_at, 'completed once');

      const sync = await call('POST', '/v1/anomalies', sent);
      assert.equal(sync.status, 200);
      assert.deepEqual(done.result, sync.body, 'the result equals the synchronous answer');
    });
  });
});

for (const backend of storeBackends) {
  describe(`anomaly jobs survive kill -9 of the model worker (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => { ({ server, cleanup } = await startServerOn(backend, { ...env, HORIZON_JOB_CONCURRENCY: '1', HORIZON_RUNTIME_GROUPS: 'core' })); });
    after(async () => { await server?.close(); await cleanup?.(); });

    it('a kill mid-job: the job waits for the restarted worker, completes exactly once, and equals the sync answer', async () => {
      const sent = body(30);
      const res = await server.request('POST', '/v1/anomaly-jobs', { body: sent });
      assert.equal(res.status, 202, res.text);
      const id = res.body.job_id;
      const read = async () => (await server.request('GET', `/v1/anomaly-jobs/${id}`)).body;
      // a chunk is stored and the next ones are at the worker
      const seen = await pollUntil('a chunk done', read, (j) => finished(j.status) || (j.progress?.chunks_done ?? 0) >= 1, 180_000);
      assert.equal(seen.status, 'running', JSON.stringify(seen).slice(0, 300));
      assert.ok(seen.progress.chunks_done < seen.progress.chunks_total, JSON.stringify(seen.progress));
      const worker = server.supervisor.status().find((w) => w.group === 'core')!;
      assert.ok(worker.pid, 'the core worker runs');
      process.kill(worker.pid!, 'SIGKILL');

      const done = await pollUntil('the job finished', read, (j) => finished(j.status), 300_000);
      assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 500));
      assert.equal(done.progress.chunks_done, done.progress.chunks_total);
      // one kill, one job in flight: at most one attempt beyond the first (a chunk is retried in place, so usually none)
      assert.ok(done.attempts <= 2, `attempts: ${done.attempts}`);
      const lines = capturedLogLines.map((line) => JSON.parse(line) as { msg?: string; job_id?: string }).filter((entry) => entry.job_id === id);
      assert.equal(lines.filter((entry) => entry.msg === 'job attempt completed').length, 1, 'exactly one attempt completed');
      // the kill reached the job: a chunk it caught at the worker is sent again, or the next one waited for the new worker
      assert.ok(lines.some((entry) => entry.msg === 'job chunk failed, will retry' || entry.msg === 'job waits for a worker'), 'the kill interrupted the job');
      assert.ok(server.supervisor.status().find((w) => w.group === 'core')!.restarts >= 1, 'the worker was restarted');

      const sync = await server.request('POST', '/v1/anomalies', { body: sent });
      assert.equal(sync.status, 200, sync.text);
      assert.deepEqual(done.result, sync.body, 'the result equals the synchronous answer');
    });
  });
}
