// Jobs outlive worker restarts (issue 32): a kill -9 storm of the core worker (4 kills within 5 s) while 20
// forecast jobs are queued and running. Every job completes exactly once with the sync result; a job that
// only waited for the worker to come back spent no attempt (only a call a kill caught at the worker costs one).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, monthlyDates, pollUntil, startServerOn, storeBackends, type TestServer } from './helpers.ts';

const JOBS = 20;
const KILLS = 4;
/** HORIZON_JOB_CONCURRENCY here: at most this many jobs have a call at the worker when it is killed */
const JOB_CONCURRENCY = 4;
const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** auto-ets on a few seasonal series: long enough a fit that jobs are still running and queued during the kills */
function stormRequest(job: number): Record<string, unknown> {
  const n = 60;
  const series = Array.from({ length: 3 }, (_, s) => ({
    target: Array.from({ length: n }, (_, i) => 200 + 40 * Math.sin((2 * Math.PI * i) / 12 + s) + 1.5 * i + ((i * 7919 + job * 104729 + s * 31) % 17)),
    index: monthlyDates('2015-01', n),
  }));
  return { series, horizon: 6, freq: 'MS', model: 'auto-ets' };
}

/** kill -9 of each new process of the group's worker (ready or still starting), `count` times at least `gapMs`
 * apart, as an operator's `kill -9` or the OOM killer would: the supervisor learns of it only from the exit.
 * Answers the pids and how many of the kills found the worker serving (state ready). */
async function killStorm(server: TestServer, group: string, count: number, gapMs: number): Promise<{ pids: number[]; ofReady: number }> {
  const pids: number[] = [];
  let ofReady = 0;
  while (pids.length < count) {
    const worker = server.supervisor.status().find((w) => w.group === group)!;
    if (worker.pid !== undefined && !pids.includes(worker.pid)) {
      if (worker.state === 'ready') ofReady += 1;
      process.kill(worker.pid, 'SIGKILL');
      pids.push(worker.pid);
      await new Promise((r) => setTimeout(r, gapMs));
    } else {
      await new Promise((r) => setTimeout(r, 10)); // the supervisor's backoff: its next process is not spawned yet
    }
  }
  return { pids, ofReady };
}

for (const backend of storeBackends) {
  describe(`jobs through a worker kill -9 storm (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ server, cleanup } = await startServerOn(backend, { HORIZON_JOB_CONCURRENCY: String(JOB_CONCURRENCY), HORIZON_RUNTIME_GROUPS: 'core' }));
    });
    after(async () => { await server?.close(); await cleanup?.(); });

    it(`${KILLS} kills of the core worker within 5 s with ${JOBS} queued jobs: all complete exactly once with the sync result`, async () => {
      const bodies = Array.from({ length: JOBS }, (_, i) => stormRequest(i));
      const ids: string[] = [];
      for (const body of bodies) {
        const res = await server.request('POST', '/v1/forecast-jobs', { body });
        assert.equal(res.status, 202, res.text);
        ids.push(res.body.job_id);
      }
      // the first kill catches jobs running (their calls at the worker) and others still queued
      await pollUntil('a job running', async () => (await server.request('GET', `/v1/forecast-jobs/${ids[0]}`)).body.status, (s) => s !== 'queued');

      // every job's statuses as polled, from now until all have finished: a completed job must stay so
      const seen = new Map<string, { status: string; finished_at: string | null }[]>(ids.map((id) => [id, []]));
      let polling = true;
      const poller = (async () => {
        while (polling) {
          for (const id of ids) {
            const { body } = await server.request('GET', `/v1/forecast-jobs/${id}`);
            seen.get(id)!.push({ status: body.status, finished_at: body.finished_at ?? null });
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const storm = await killStorm(server, 'core', KILLS, 1_000);
      let jobs: any[] = [];
      try {
        jobs = await pollUntil('every job finished', () => Promise.all(ids.map(async (id) => (await server.request('GET', `/v1/forecast-jobs/${id}`)).body)),
          (all) => all.every((j) => finished(j.status)), 300_000);
      } finally {
        polling = false;
        await poller;
      }

      const unfinished = jobs.filter((j) => j.status !== 'completed');
      assert.deepEqual(unfinished.map((j) => ({ id: j.job_id, status: j.status, error: j.error, attempts: j.attempts })), [], 'no job failed');
      for (const [id, statuses] of seen) {
        const first = statuses.findIndex((s) => s.status === 'completed');
        const after = first < 0 ? [] : statuses.slice(first);
        const once = after.every((s) => s.status === 'completed' && s.finished_at === after[0].finished_at);
        assert.ok(once, `job ${id} moved to completed once: ${JSON.stringify(statuses)}`);
      }
      // exactly once: one attempt of each job ran to its end (a second one would have logged it too)
      const completions = capturedLogLines.map((line) => JSON.parse(line) as { msg?: string; job_id?: string })
        .filter((entry) => entry.msg === 'job attempt completed' && entry.job_id !== undefined && ids.includes(entry.job_id));
      assert.deepEqual(ids.map((id) => completions.filter((c) => c.job_id === id).length), ids.map(() => 1), 'one completed attempt per job');
      // attempts: only a call a kill caught at a ready worker costs one; waiting for the worker costs none
      const extraAttempts = jobs.reduce((sum, j) => sum + j.attempts - 1, 0);
      assert.ok(extraAttempts <= JOB_CONCURRENCY * storm.ofReady,
        `${extraAttempts} attempts beyond the first, for ${storm.ofReady} kill(s) of a serving worker: ${JSON.stringify(jobs.map((j) => j.attempts))}`);

      for (const [i, job] of jobs.entries()) {
        const sync = await server.request('POST', '/v1/forecast', { body: bodies[i] });
        assert.equal(sync.status, 200, sync.text);
        assert.deepEqual(job.series, sync.body.series, `job ${i}: the job result equals the sync result`);
      }
      const core = server.supervisor.status().find((w) => w.group === 'core')!;
      assert.ok(core.restarts >= KILLS, `the supervisor restarted the worker after each kill (${core.restarts})`);
    });
  });
}
