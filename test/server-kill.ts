// kill -9 of the API process mid-job and its restart on the same store, for the durability suites (chunked forecast and
// cross-validation jobs, anomaly jobs, hierarchy jobs): `horizon serve` as its own process (serveProcess), the job
// posted, the process killed (SIGKILL) once some of the job's chunks are stored and before the last, the server started
// again on the same store, the job waited for. What each suite then checks (the chunks reused, one attempt, the result
// equals the sync answer) runs while the restarted server is up; it is stopped afterwards, whatever happened.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { createPostgresDatabase, serveProcess } from './helpers.ts';

export const finished = (status: string) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** A store that outlives the server processes run on it: the embedded PGlite in dataDir, or a fresh PostgreSQL database. */
export interface DurableStore {
  name: string;
  dataDir: string;
  /** the server processes' store settings */
  env: Record<string, string>;
  /** the bootstrap account's key, printed by the first start on the store ('' until then; later starts print none) */
  key: string;
  /** the job's stored chunk rows (PGlite: read while no server has the store open) */
  storedChunks(jobId: string): Promise<number>;
  close(): Promise<void>;
}

const CHUNKS_SQL = 'SELECT count(*)::int AS n FROM job_chunks WHERE job_id = $1';

export const durableStores: { name: string; open(): Promise<DurableStore> }[] = [
  {
    name: 'PGlite',
    async open() {
      const dataDir = mkdtempSync(join(tmpdir(), 'horizon-kill-'));
      return {
        name: 'PGlite', dataDir, env: {}, key: '',
        async storedChunks(jobId) {
          const db = new PGlite(join(dataDir, 'pglite'));
          try { return (await db.query<{ n: number }>(CHUNKS_SQL, [jobId])).rows[0].n; } finally { await db.close(); }
        },
        async close() { rmSync(dataDir, { recursive: true, force: true }); },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const dataDir = mkdtempSync(join(tmpdir(), 'horizon-kill-'));
      const database = await createPostgresDatabase();
      return {
        name: 'PostgreSQL', dataDir, env: { HORIZON_DATABASE_URL: database.url }, key: '',
        async storedChunks(jobId) {
          const client = new pg.Client({ connectionString: database.url });
          await client.connect();
          try { return (await client.query<{ n: number }>(CHUNKS_SQL, [jobId])).rows[0].n; } finally { await client.end(); }
        },
        async close() { await database.drop(); rmSync(dataDir, { recursive: true, force: true }); },
      };
    },
  },
];

export type JobView = {
  status: string; attempts: number; finished_at?: string; progress?: { chunks_done: number; chunks_total: number };
  result?: unknown; error?: unknown; [field: string]: unknown;
};

export interface KilledJob {
  jobId: string;
  /** the progress the test saw just before the kill */
  seen: JobView;
  /** the job's chunk rows stored when the first server was killed */
  stored: number;
  /** the job as the restarted server answers once it finished */
  done: JobView;
  /** the first server's whole output */
  firstOutput: string;
  /** the restarted server's output so far */
  output(): string;
  /** the restarted server's log lines about the job with this message, parsed */
  jobLines(msg: string): Record<string, unknown>[];
  /** the restarted server's 'job attempt completed' lines of the job, once there is one (pino writes asynchronously: the
   * line can reach the pipe after the job reads as completed) */
  attempts(): Promise<{ chunks_reused: number; chunks_computed: number }[]>;
  /** the job as the restarted server answers now */
  get(): Promise<JobView>;
  /** a call to the restarted server with the store's key */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
}

export interface KillOptions {
  /** the job's chunks done before the kill (default 2) */
  chunksBeforeKill?: number;
  /** how long the job may take after the restart (default 300 s) */
  finishMs?: number;
}

/** SIGKILL, and the process gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** SIGTERM (a clean shutdown), and the process gone: the next server can open the same embedded store. */
export async function stopGently(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts `job.body` to `job.path` on a server process on `store`, kills it mid-job (SIGKILL, after the chunks asked for
 * and before the last), starts it again on the same store and waits for the job to finish there; then `check` runs
 * with that server up. Asserts what every such test needs: the kill came mid-job with chunks stored, the first process
 * completed no attempt, and the job completed after the restart in a second delivery with every chunk done. */
export async function killMidJob(
  store: DurableStore, job: { path: string; body: unknown }, env: Record<string, string>,
  check: (killed: KilledJob) => Promise<void>, options: KillOptions = {},
): Promise<void> {
  const chunksBeforeKill = options.chunksBeforeKill ?? 2;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const first = await serveProcess(store.dataDir, port, { ...store.env, ...env });
  let second: Awaited<ReturnType<typeof serveProcess>> | undefined;
  try {
    store.key ||= /hzn_\S+/.exec(first.output())?.[0] ?? '';
    assert.ok(store.key, `the first start on the store printed no key: ${first.output().slice(-1000)}`);
    const headers = { authorization: `Bearer ${store.key}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
      return { status: res.status, body: parsed as any, text };
    };
    const posted = await call('POST', job.path, job.body);
    assert.equal(posted.status, 202, posted.text.slice(0, 500));
    const jobId = (posted.body as { job_id: string }).job_id;
    const get = async () => (await call('GET', `${job.path}/${jobId}`)).body as JobView;
    const deadline = Date.now() + 180_000;
    let seen = await get();
    while (!((seen.progress?.chunks_done ?? 0) >= chunksBeforeKill) && !finished(seen.status) && Date.now() < deadline) { await pause(25); seen = await get(); }
    assert.ok((seen.progress?.chunks_done ?? 0) >= chunksBeforeKill, JSON.stringify(seen).slice(0, 300));
    await killHard(first.child);
    assert.ok(seen.progress!.chunks_done < seen.progress!.chunks_total, `the kill came before the last chunk: ${JSON.stringify(seen.progress)}`);
    assert.ok(!first.output().includes('job attempt completed'), 'the first process completed no attempt');
    const stored = await store.storedChunks(jobId);
    assert.ok(stored >= chunksBeforeKill, `chunks stored before the kill: ${stored}`);

    second = await serveProcess(store.dataDir, port, { ...store.env, ...env });
    const restarted = second;
    let done = await get();
    const until = Date.now() + (options.finishMs ?? 300_000);
    while (!finished(done.status) && Date.now() < until) { await pause(250); done = await get(); }
    assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 500));
    assert.ok(done.attempts >= 2, 'delivered again after the kill');
    assert.equal(done.progress?.chunks_done, done.progress?.chunks_total, 'every chunk done');
    const jobLines = (msg: string) => restarted.output().split('\n').filter((l) => l.includes(msg) && l.includes(jobId))
      .map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg && l.job_id === jobId);
    const attempts = async () => {
      const logDeadline = Date.now() + 15_000;
      while (jobLines('job attempt completed').length === 0 && Date.now() < logDeadline) await pause(100);
      const lines = jobLines('job attempt completed');
      assert.ok(lines.length > 0, `no 'job attempt completed' line: ${restarted.output().slice(-2000)}`);
      return lines as { chunks_reused: number; chunks_computed: number }[];
    };
    await check({ jobId, seen, stored, done, firstOutput: first.output(), output: restarted.output, jobLines, attempts, get, call });
  } finally {
    await killHard(first.child);
    // the next test may open the same embedded store: this server must be gone even when an assertion failed
    if (second) await stopGently(second.child);
  }
}
