// Soak (issue 24): kill -9 of the API process, of a model worker and of PostgreSQL during mixed load
// (sync forecasts, forecast jobs, cross-validation, cross-validation jobs), each trial followed by
// recovery and checks; or a mixed-load run that samples every process's memory (RSS).
//
//   node bench/soak.ts --trials 30            # trials, the kill target cycling api → worker → postgres
//   node bench/soak.ts --rss-seconds 600      # RSS of every process over a 10-minute mixed run
//
// It starts its own throw-away PostgreSQL cluster (initdb + pg_ctl from the installed binaries) on a free
// port — never the shared one — and `horizon serve` processes against it. Checks after each trial:
//   usage == answers   the account's units (admin API) == sync 200s + CV units answered (one per model)
//                      + jobs stored (a job's unit is settled with its row; jobs are listed through the API);
//                      the counts are cumulative, so a trial fails when it changes usage − answers
//   no job lost        every job a 202 was received for exists and ends completed
//   completed once     a job's state moves to completed once (finishJob updates only queued/running rows);
//                      attempts redone because a completion could not be stored are counted from the logs
//   no stuck job       every job ends (completed/failed/cancelled) once the service is back
// Exit status 1 on any failed check. bench/soak.sh wraps it; test/soak.test.ts runs a 3-trial variant.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, chmodSync, readFileSync, readdirSync, rmSync, existsSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from 'node:net';

const { values: args } = parseArgs({ options: {
  trials: { type: 'string', default: '0' }, 'rss-seconds': { type: 'string', default: '0' }, concurrency: { type: 'string', default: '4' },
  lease: { type: 'string', default: '2' }, verbose: { type: 'boolean', default: false }, targets: { type: 'string', default: 'api,worker,postgres' },
} });
const ADMIN = 'soak-admin-token-'.padEnd(40, 'x');
const LEASE = Number(args.lease);
const work = mkdtempSync(join(tmpdir(), 'horizon-soak-'));
const log = (...parts: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...parts);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
}

// --- a throw-away PostgreSQL cluster -------------------------------------------------------------
const pgBin = readdirSync('/usr/lib/postgresql').sort().map((v) => join('/usr/lib/postgresql', v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
if (!pgBin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql/*/bin');
const pgData = join(work, 'pg');
const pgPort = await freePort();
const pgEnv = { ...process.env, LC_ALL: 'C' };
// PostgreSQL refuses to run as root: as root, the cluster belongs to the system's postgres user
const asRoot = process.getuid?.() === 0;
const pgRun = (bin: string, a: string[]) => (asRoot
  ? execFileSync('runuser', ['-u', 'postgres', '--', join(pgBin!, bin), ...a], { stdio: 'ignore', env: pgEnv })
  : execFileSync(join(pgBin!, bin), a, { stdio: 'ignore', env: pgEnv }));
const pgSocketDir = join(work, 'sock');
mkdirSync(pgSocketDir);
if (asRoot) { chmodSync(work, 0o755); execFileSync('chown', ['postgres', pgSocketDir]); mkdirSync(pgData); execFileSync('chown', ['postgres', pgData]); }
pgRun('initdb', ['-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync']);
const pgCtl = (...a: string[]) => pgRun('pg_ctl', ['-D', pgData, '-o', `-p ${pgPort} -k ${pgSocketDir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(pgData, 'pg.log'), '-w', ...a]);
pgCtl('start');
const dbUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
const postmasterPid = () => Number(readFileSync(join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0]);

// --- horizon serve processes ------------------------------------------------------------------------
interface Api { child: ChildProcess; port: number; base: string; logPath: string }
const apis: Api[] = [];
let apiCount = 0;
let firstKey = '';
async function startApi(port: number): Promise<Api> {
  const logPath = join(work, `api-${++apiCount}.log`);
  const out = createWriteStream(logPath);
  const child = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', HORIZON_DATABASE_URL: dbUrl, HORIZON_DATA_DIR: join(work, `data-${apiCount}`),
      HORIZON_ADMIN_TOKEN: ADMIN, HORIZON_INSTANCE_LEASE_SECONDS: String(LEASE), HORIZON_LOG_LEVEL: 'info', HORIZON_JOB_CONCURRENCY: '2', HORIZON_RUNTIME_GROUPS: 'core' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d) => { text += d; out.write(d); });
  child.stderr!.on('data', (d) => { text += d; out.write(d); });
  const deadline = Date.now() + 120_000;
  while (!text.includes('horizon: listening on')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${text.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${text.slice(-2000)}`);
    await sleep(100);
  }
  firstKey ||= /hzn_\S+/.exec(text)?.[0] ?? '';
  const api = { child, port, base: `http://127.0.0.1:${port}`, logPath };
  apis.push(api);
  return api;
}
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
const killed = (c: ChildProcess) => new Promise((r) => (alive(c) ? c.once('exit', r) : r(undefined)));

// --- the load -----------------------------------------------------------------------------------------
const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2015 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const series = (k: number) => ({ target: Array.from({ length: 48 }, (_, i) => 100 + 10 * Math.sin((i + k) / 2) + i), index: monthly(48) });
const bodies = {
  forecast: () => ({ series: [series(1), series(2)], horizon: 6, freq: 'MS', model: Math.random() < 0.5 ? 'naive' : 'auto-ets' }),
  job: () => ({ series: [series(3)], horizon: 6, freq: 'MS', model: Math.random() < 0.5 ? 'naive' : 'auto-theta' }),
  cv: () => ({ series: [series(4)], horizon: 3, freq: 'MS', n_windows: 2, models: ['naive', 'seasonal-naive'] }),
};
const counts = { sync200: 0, cvUnits: 0, jobs202: [] as string[], cvJobs202: [] as string[], errors: {} as Record<string, number> };

async function call(api: Api, method: string, path: string, body?: unknown, key = firstKey): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api.base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let loading = false;
/** `awaitJobs` (the RSS run): a client waits for each job it submitted to end before its next call, so the
 * backlog stays at most one job per client. Without it, 4 clients submitting jobs that answer 202 at once
 * out-ran the job workers ten minutes long (13,234 accepted, 9,876 still queued at the end: a backlog, not a
 * leak or a stuck job), and the RSS then measured a growing queue. The trials keep the unbounded mix. */
async function loadLoop(api: () => Api, awaitJobs = false): Promise<void> {
  const ended = async (path: string) => {
    for (let i = 0; i < 600 && loading; i++) {
      try { const r = await call(api(), 'GET', path); if (r.status !== 200 || !['queued', 'running'].includes(r.body.status)) return; } catch { /* cut: retried */ }
      await sleep(200);
    }
  };
  while (loading) {
    const kind = (['forecast', 'forecast', 'job', 'cv', 'cvjob'] as const)[Math.floor(Math.random() * 5)];
    try {
      if (kind === 'forecast') { const r = await call(api(), 'POST', '/v1/forecast', bodies.forecast()); if (r.status === 200) counts.sync200++; else counts.errors[r.status] = (counts.errors[r.status] ?? 0) + 1; }
      else if (kind === 'cv') { const r = await call(api(), 'POST', '/v1/cross-validation', bodies.cv()); if (r.status === 200) counts.cvUnits += 2; else counts.errors[r.status] = (counts.errors[r.status] ?? 0) + 1; }
      else if (kind === 'job') { const r = await call(api(), 'POST', '/v1/forecast-jobs', bodies.job()); if (r.status === 202) { counts.jobs202.push(r.body.job_id); if (awaitJobs) await ended(`/v1/forecast-jobs/${r.body.job_id}`); } else counts.errors[r.status] = (counts.errors[r.status] ?? 0) + 1; }
      else { const r = await call(api(), 'POST', '/v1/cross-validation-jobs', bodies.cv()); if (r.status === 202) { counts.cvJobs202.push(r.body.job_id); if (awaitJobs) await ended(`/v1/cross-validation-jobs/${r.body.job_id}`); } else counts.errors[r.status] = (counts.errors[r.status] ?? 0) + 1; }
    } catch { counts.errors.cut = (counts.errors.cut ?? 0) + 1; await sleep(50); }
  }
}

// --- checks -------------------------------------------------------------------------------------------
async function listAll(api: Api, path: string): Promise<{ job_id: string; status: string; models?: unknown[] }[]> {
  const all: { job_id: string; status: string }[] = [];
  let cursor: string | undefined;
  for (;;) {
    const r = await call(api, 'GET', `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (r.status !== 200) throw new Error(`list ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    all.push(...(r.body.jobs ?? r.body.data ?? []));
    cursor = r.body.next_cursor ?? r.body.cursor ?? undefined;
    if (!cursor) return all;
  }
}

/** The units used this ISO week: a run that crosses UTC midnight keeps counting (the day's window would
 * start again at 0, as session 15's run found at 00:00); one that crosses Monday 00:00 UTC would not. */
async function usedThisWeek(api: Api): Promise<number> {
  const r = await call(api, 'GET', '/v1/admin/accounts', undefined, ADMIN);
  if (r.status !== 200) throw new Error(`admin: ${r.status}`);
  return (r.body.accounts as { used_this_week: number }[]).reduce((n, a) => n + a.used_this_week, 0);
}

/** Jobs with more than one "job attempt completed" line: work redone because the first completion could
 * not be stored (PostgreSQL or the API process died between the attempt and its finish). The stored state
 * moves to completed once (finishJob only updates queued/running rows): informational, not a failure. */
function redoneAttempts(): string[] {
  const seen = new Map<string, number>();
  for (const api of apis) {
    for (const line of readFileSync(api.logPath, 'utf8').split('\n')) {
      if (!line.includes('job attempt completed')) continue;
      try { const id = (JSON.parse(line) as { job_id?: string }).job_id; if (id) seen.set(id, (seen.get(id) ?? 0) + 1); } catch { /* not JSON */ }
    }
  }
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}

/** usage − answers after the previous trial: a trial fails when it changes (the counts are cumulative) */
let lastGap = 0;

async function settle(api: Api): Promise<{ ok: boolean; detail: string }> {
  const deadline = Date.now() + 240_000;
  let jobs: { job_id: string; status: string; models?: unknown[] }[] = [];
  let cvJobs: typeof jobs = [];
  for (;;) {
    try {
      jobs = await listAll(api, '/v1/forecast-jobs');
      cvJobs = await listAll(api, '/v1/cross-validation-jobs');
      const unfinished = [...jobs, ...cvJobs].filter((j) => j.status === 'queued' || j.status === 'running');
      if (unfinished.length === 0) break;
      if (Date.now() > deadline) return { ok: false, detail: `stuck: ${unfinished.length} jobs still queued/running` };
    } catch (error) {
      if (Date.now() > deadline) return { ok: false, detail: `service not back: ${(error as Error).message}` };
    }
    await sleep(500);
  }
  const stored = new Set([...jobs, ...cvJobs].map((j) => j.job_id));
  const lost = [...counts.jobs202, ...counts.cvJobs202].filter((id) => !stored.has(id));
  const notCompleted = [...jobs, ...cvJobs].filter((j) => j.status !== 'completed');
  const redone = redoneAttempts();
  // usage: a dead instance's pending units come back once its lease lapses (PostgreSQL)
  const cvJobUnits = cvJobs.length * 2;
  const expected = counts.sync200 + counts.cvUnits + jobs.length + cvJobUnits;
  let used = -1;
  const until = Date.now() + (LEASE + 10) * 1000;
  while (Date.now() < until) { used = await usedThisWeek(api); if (used - expected === lastGap) break; await sleep(300); }
  const gap = used - expected;
  const ok = gap === lastGap && lost.length === 0 && notCompleted.length === 0;
  const newGap = gap - lastGap;
  lastGap = gap;
  return { ok, detail: `usage ${used} vs answers ${expected}${gap ? ` (gap ${gap > 0 ? '+' : ''}${gap}, ${newGap ? `${newGap > 0 ? '+' : ''}${newGap} in this trial` : 'none new'})` : ''} (sync ${counts.sync200}, cv units ${counts.cvUnits}, jobs ${jobs.length}, cv jobs ${cvJobs.length}); lost ${lost.length}; not completed ${notCompleted.length}; attempts redone ${redone.length} (recorded once)` };
}

function workerPid(api: Api): number | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(api.child.pid)], { encoding: 'utf8' });
    const line = out.split('\n').find((l) => /python/.test(l));
    return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
  } catch { return undefined; }
}

function childPids(pid: number): number[] {
  try { return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number); } catch { return []; }
}

function rssKb(pid: number): number {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0); } catch { return 0; }
}

// --- main ---------------------------------------------------------------------------------------------
const port = await freePort();
let api = await startApi(port);
// an unlimited account: usage still counts every unit (quota 0 = no cap), and nothing is refused
await call(api, 'PATCH', '/v1/admin/accounts/default', { daily_quota: 0, weekly_quota: 0 }, ADMIN).catch(() => undefined);
const accounts = (await call(api, 'GET', '/v1/admin/accounts', undefined, ADMIN)).body.accounts as { name: string }[];
for (const a of accounts) await call(api, 'PATCH', `/v1/admin/accounts/${encodeURIComponent(a.name)}`, { daily_quota: 0, weekly_quota: 0 }, ADMIN);
const concurrency = Number(args.concurrency);
let stopRequested = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { stopRequested = true; log(`${signal}: stopping after this trial`); });
let failures = 0;
let exitCode = 0;
try {
  const trials = Number(args.trials);
  const targets = args.targets.split(',') as ('api' | 'worker' | 'postgres')[];
  let ran = 0;
  for (let t = 0; t < trials && !stopRequested; t++, ran++) {
    const target = targets[t % targets.length];
    loading = true;
    const loops = Array.from({ length: concurrency }, () => loadLoop(() => api));
    await sleep(1000 + Math.random() * 2000);
    if (target === 'api') {
      api.child.kill('SIGKILL');
      await killed(api.child);
      api = await startApi(port);
    } else if (target === 'worker') {
      const pid = workerPid(api);
      if (pid) process.kill(pid, 'SIGKILL');
      await sleep(1500);
    } else {
      process.kill(postmasterPid(), 'SIGKILL');
      await sleep(1000);
      // the postmaster's children exit when it is gone; a restart runs crash recovery
      for (let i = 0; i < 50 && existsSync(join(pgData, 'postmaster.pid')); i++) { try { pgCtl('start'); break; } catch { await sleep(200); } }
      if (!alive(api.child)) {
        const last = readFileSync(api.logPath, 'utf8').split('\n').filter((l) => /error|Error/.test(l)).slice(-2).map((l) => l.slice(0, 300));
        execFileSync('cp', [api.logPath, join(tmpdir(), 'horizon-soak-last-crash.log')]);
        log(`the API process exited with PostgreSQL gone (${api.child.exitCode ?? api.child.signalCode}); restarting it. ${last.join(' | ')}`);
        api = await startApi(port);
      }
    }
    await sleep(1000);
    loading = false;
    await Promise.all(loops);
    if (!alive(api.child)) api = await startApi(port);
    const result = await settle(api);
    if (!result.ok) { failures++; exitCode = 1; }
    log(`trial ${t + 1}/${trials} kill -9 ${target}: ${result.ok ? 'ok' : 'FAILED'} — ${result.detail}${args.verbose ? ` errors ${JSON.stringify(counts.errors)}` : ''}`);
  }
  if (trials > 0) log(`${ran - failures}/${ran} trials passed every check; answers: sync ${counts.sync200}, cv units ${counts.cvUnits}, jobs ${counts.jobs202.length} + cv jobs ${counts.cvJobs202.length} accepted; non-200s ${JSON.stringify(counts.errors)}`);

  const rssSeconds = Number(args['rss-seconds']);
  if (rssSeconds > 0) {
    loading = true;
    const loops = Array.from({ length: concurrency }, () => loadLoop(() => api, true));
    const samples: { t: number; api: number; worker: number; pg: number }[] = [];
    const started = Date.now();
    while (Date.now() - started < rssSeconds * 1000 && !stopRequested) {
      await sleep(10_000);
      const pgPids = childPids(postmasterPid());
      const workerRss = (() => { const w = workerPid(api); if (!w) return 0; return rssKb(w) + childPids(w).reduce((n, k) => n + rssKb(k), 0); })();
      samples.push({ t: (Date.now() - started) / 1000, api: rssKb(api.child.pid!), worker: workerRss, pg: rssKb(postmasterPid()) + pgPids.reduce((n, p) => n + rssKb(p), 0) });
      if (args.verbose) log(JSON.stringify(samples.at(-1)));
    }
    loading = false;
    await Promise.all(loops);
    const minute = Math.max(1, Math.round(60 / 10));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const key of ['api', 'worker', 'pg'] as const) {
      // growth: the last minute's mean over the second minute's (the first is warm-up: models load, caches fill)
      const early = avg(samples.slice(minute, 2 * minute).map((s) => s[key]));
      const late = avg(samples.slice(-minute).map((s) => s[key]));
      log(`RSS ${key}: ${(early / 1024).toFixed(0)} MiB (minute 2) → ${(late / 1024).toFixed(0)} MiB (last minute), growth ${((late / early - 1) * 100).toFixed(1)} %, max ${(Math.max(...samples.map((s) => s[key])) / 1024).toFixed(0)} MiB`);
    }
    log(`mixed load during the RSS run: sync ${counts.sync200}, cv units ${counts.cvUnits}, jobs ${counts.jobs202.length} + ${counts.cvJobs202.length}`);
    const result = await settle(api);
    log(`after the RSS run: ${result.ok ? 'ok' : 'FAILED'} — ${result.detail}`);
    if (!result.ok) exitCode = 1;
  }
} finally {
  loading = false;
  for (const a of apis) if (alive(a.child)) a.child.kill('SIGTERM');
  await Promise.all(apis.map((a) => killed(a.child)));
  try { pgCtl('stop', '-m', 'immediate'); } catch { /* already down */ }
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
