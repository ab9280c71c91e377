// The TypeScript SDK (clients/typescript) against the real server (real PGlite, real Python worker):
// its generated types equal what openapi-typescript makes of the live /v1/openapi.json (drift check, in every
// environment; `node scripts/update-sdk-types.ts` rewrites them), every method, retries on a real 429 and a real 503,
// typed errors for 401/404/409/422, waitForJob, listJobs across pages, and the README example.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestServer, simpleRequest, slowRequest, monthlyDates, type TestServer } from './helpers.ts';
import { generateTypes, TYPES_PATH } from '../clients/typescript/scripts/generate.ts';
import { Horizon, HorizonError, hierarchyTree, type ForecastInput, type HierarchyTreeNode } from '../clients/typescript/src/index.ts';

const SDK_ENTRY = new URL('../clients/typescript/src/index.ts', import.meta.url);

/** `fn` must reject with a HorizonError matching `expected`; returns it. */
async function horizonError(fn: () => Promise<unknown>, expected: { status: number; code: string }): Promise<HorizonError> {
  let caught: unknown;
  try { await fn(); } catch (error) { caught = error; }
  assert.ok(caught instanceof HorizonError, `expected a HorizonError, got ${String(caught)}`);
  assert.equal(caught.status, expected.status, caught.message);
  assert.equal(caught.code, expected.code, caught.message);
  assert.ok(caught.detail.length > 0);
  assert.match(caught.requestId ?? '', /\S/, 'the request id comes along');
  return caught;
}

/** a fetch that records every response status */
function countingFetch(): { fetch: typeof fetch; statuses: number[] } {
  const statuses: number[] = [];
  return {
    statuses,
    fetch: async (input, init) => { const res = await fetch(input, init); statuses.push(res.status); return res; },
  };
}

describe('TypeScript SDK against the real server', () => {
  let server: TestServer;
  let h: Horizon;
  before(async () => {
    server = await startTestServer({ HORIZON_JOB_CONCURRENCY: '1' });
    h = new Horizon({ baseUrl: server.url, apiKey: server.key });
  });
  after(async () => { await server?.close(); });

  it('the checked-in types equal openapi-typescript on the live /v1/openapi.json', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    assert.equal(res.status, 200);
    const generated = await generateTypes(await res.json());
    assert.equal(readFileSync(TYPES_PATH, 'utf8'), generated, 'clients/typescript/src/openapi.ts is stale: regenerate with node scripts/update-sdk-types.ts');
  });

  it('forecast(): the same numbers as the raw HTTP answer; Date and string indexes give the same request', async () => {
    const body = simpleRequest({ quantiles: [0.1, 0.9] }) as unknown as ForecastInput;
    const raw = await server.request('POST', '/v1/forecast', { body });
    assert.equal(raw.status, 200, raw.text);
    const viaSdk = await h.forecast(body);
    assert.deepEqual(viaSdk, raw.body);
    const withDates: ForecastInput = { ...body, series: body.series.map((s) => ({ ...s, index: s.index.map((d) => new Date(`${String(d)}T00:00:00Z`)) })) };
    assert.deepEqual(await h.forecast(withDates), raw.body);
    assert.deepEqual(Object.keys(viaSdk.series[0][0].prediction).sort(), ['0.1', '0.9', 'mean']);
  });

  it('hierarchyTree(): a hierarchy forecast\'s nodes as parent → children; every parent\'s reconciled mean is its children\'s sum', async () => {
    const index = monthlyDates('2021-01', 24);
    const wave = (level: number, phase: number) => index.map((_, t) => level + t * 0.4 + level * 0.2 * Math.sin((2 * Math.PI * (t + phase)) / 12));
    const res = await h.forecast({
      series: [{ target: wave(50, 0), index }, { target: wave(30, 3), index }, { target: wave(80, 1), index }],
      freq: 'MS', horizon: 3, model: 'seasonal-naive', quantiles: [0.1, 0.9], reconcile: 'ols',
      hierarchy: { labels: [{ region: 'north', store: 'n1' }, { region: 'north', store: 'n2' }, { region: 'south', store: 's1' }], levels: [['region'], ['region', 'store']] },
    });
    const tree = hierarchyTree(res.hierarchy!.nodes);
    const shape = (t: HierarchyTreeNode): unknown => ({ [t.node.id]: t.children.map(shape) });
    assert.deepEqual(tree.roots.map(shape), [{ total: [{ north: [{ 'north/n1': [] }, { 'north/n2': [] }] }, { south: [{ 'south/s1': [] }] }] }]);
    assert.deepEqual([...tree.byId.values()].map((t) => t.depth), [0, 1, 1, 2, 2, 2]);
    for (const { node, children } of tree.byId.values()) {
      assert.deepEqual(Object.keys(node.base).sort(), ['0.1', '0.9', 'mean']);
      if (children.length === 0) continue;
      node.reconciled.mean.forEach((v, t) => {
        const sum = children.reduce((acc, c) => acc + c.node.reconciled.mean[t], 0);
        assert.ok(Math.abs(v - sum) <= 1e-9 * Math.max(1, Math.abs(v)), `${node.id} step ${t}: ${v} ≠ ${sum}`);
      });
    }
    assert.deepEqual(tree.byId.get('north/n1')!.node.reconciled.mean, res.series[0][0].prediction.mean);
    // any nodes with id and parent (a cross-validation's too); a dangling parent, a repeated id or a cycle is a TypeError
    assert.throws(() => hierarchyTree([{ id: 'a', parent: 'nope' }]), /names parent "nope"/);
    assert.throws(() => hierarchyTree([{ id: 'a', parent: null }, { id: 'a', parent: null }]), /appears twice/);
    assert.throws(() => hierarchyTree([{ id: 'a', parent: 'b' }, { id: 'b', parent: 'a' }]), /cycle/);
  });

  it('hourly Dates become date-times', async () => {
    const t0 = Date.UTC(2024, 0, 1);
    const index = Array.from({ length: 48 }, (_, i) => new Date(t0 + i * 3_600_000));
    const res = await h.forecast({ series: [{ target: index.map((_, i) => 10 + (i % 24)), index }], horizon: 3, freq: 'H', model: 'naive' });
    assert.equal(res.series[0][0].index.length, 3);
    assert.ok(res.series[0][0].index[0].startsWith('2024-01-03T00:00'), res.series[0][0].index[0]);
  });

  it('models() and warmup()', async () => {
    const models = await h.models();
    assert.ok(models.models.some((m) => m.model_id === 'naive'));
    assert.equal(typeof models.default_model, 'string');
    const warm = await h.warmup({ model: 'naive' });
    assert.equal(warm.status, 'warm');
    assert.equal(warm.model, 'naive');
    const bad = await horizonError(() => h.warmup({ model: 'naive', modelSize: 'huge' }), { status: 422, code: 'validation_failed' });
    assert.equal(bad.errors[0].field, 'model_size');
  });

  it('createJob(), getJob(), waitForJob(): the job\'s result equals the synchronous forecast', async () => {
    const body = simpleRequest() as unknown as ForecastInput;
    const accepted = await h.createJob(body);
    assert.equal(accepted.status, 'queued');
    const polled: string[] = [];
    const done = await h.waitForJob(accepted.job_id, { intervalMs: 50, onPoll: (job) => polled.push(job.status) });
    assert.equal(done.status, 'completed');
    assert.equal(polled.at(-1), 'completed');
    assert.deepEqual(done.series, (await h.forecast(body)).series);
    assert.deepEqual((await h.getJob(accepted.job_id)).series, done.series);
  });

  it('createAnomalyJob(), waitForAnomalyJob(), listAnomalyJobs(), cancelAnomalyJob(): the result equals POST /v1/anomalies', async () => {
    const n = 48;
    const target = Array.from({ length: n }, (_, i) => 100 + 10 * Math.sin((2 * Math.PI * i) / 12) + (i * 7 % 5) + (i === 40 ? 60 : 0));
    const dates = monthlyDates('2018-01', n);
    const body = { series: [{ target, index: dates.map((d) => new Date(`${d}T00:00:00Z`)) }], freq: 'MS' as const, model: 'seasonal-naive' };
    const accepted = await h.createAnomalyJob(body);
    assert.deepEqual([accepted.status, accepted.model, accepted.mode], ['queued', 'seasonal-naive', 'in-sample']);
    const done = await h.waitForAnomalyJob(accepted.job_id, { intervalMs: 50 });
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const sync = await server.request('POST', '/v1/anomalies', { body: { ...body, series: [{ target, index: dates }] } });
    assert.equal(sync.status, 200, sync.text);
    assert.deepEqual(done.result, sync.body, 'Dates sent as the API\'s strings; the job equals the synchronous answer');
    assert.ok(done.result!.series[0].anomalies.includes(40));
    assert.equal((await h.listAnomalyJobs({ pageSize: 1 })).jobs[0].job_id, accepted.job_id);
    await horizonError(() => h.cancelAnomalyJob(accepted.job_id), { status: 409, code: 'job_not_cancellable' });
  });

  it('cancelJob(), and 409 for cancelling it again', async () => {
    const accepted = await h.createJob(slowRequest() as unknown as ForecastInput);
    const cancelled = await h.cancelJob(accepted.job_id);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await h.waitForJob(accepted.job_id)).status, 'cancelled');
    await horizonError(() => h.cancelJob(accepted.job_id), { status: 409, code: 'job_not_cancellable' });
  });

  it('waitForJob() gives up after timeoutMs with a typed error', async () => {
    const accepted = await h.createJob(slowRequest() as unknown as ForecastInput);
    try {
      const error = await h.waitForJob(accepted.job_id, { timeoutMs: 1, intervalMs: 50 }).then(() => null, (e: unknown) => e);
      assert.ok(error instanceof HorizonError && error.code === 'wait_timeout', String(error));
    } finally { await h.cancelJob(accepted.job_id).catch(() => {}); }
  });

  it('listJobs(): iterates every job across pages, newest first', async () => {
    const { key } = await server.newAccount({ daily: 100, weekly: 100 });
    const own = new Horizon({ baseUrl: server.url, apiKey: key });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await own.createJob(simpleRequest() as unknown as ForecastInput)).job_id);
    const pages = [];
    for await (const page of own.listJobs({ pageSize: 2 }).pages()) pages.push(page.jobs.map((j) => j.job_id));
    assert.deepEqual(pages.map((p) => p.length), [2, 2, 1]);
    const all = [];
    for await (const job of own.listJobs({ pageSize: 2 })) all.push(job.job_id);
    assert.deepEqual(all, [...ids].reverse());
    assert.deepEqual(pages.flat(), all);
    await horizonError(async () => { for await (const _ of own.listJobs({ pageSize: 500 })) { /* first page fails */ } }, { status: 422, code: 'validation_failed' });
  });

  it('apiKeys.create/list/revoke; a revoked key gets 401; a duplicate name 409; an unknown id 404', async () => {
    const created = await h.apiKeys.create('sdk-test');
    assert.match(created.key, /^hzn_/);
    const listed = await h.apiKeys.list();
    assert.ok(listed.some((k) => k.id === created.id && k.revoked_at === null));
    assert.ok(listed.every((k) => !('key' in k)), 'listing never shows secrets');
    const other = new Horizon({ baseUrl: server.url, apiKey: created.key });
    assert.ok((await other.models()).models.length > 0);
    await horizonError(() => h.apiKeys.create('sdk-test'), { status: 409, code: 'duplicate_key_name' });
    const revoked = await h.apiKeys.revoke(created.id);
    assert.equal(revoked.id, created.id);
    assert.notEqual(revoked.revoked_at, null);
    await horizonError(() => other.models(), { status: 401, code: 'unauthorized' });
    await horizonError(() => h.apiKeys.revoke(created.id), { status: 404, code: 'not_found' });
  });

  it('typed errors: 401 wrong key, 404 unknown job, 422 naming the field', async () => {
    await horizonError(() => new Horizon({ baseUrl: server.url, apiKey: 'hzn_wrong' }).forecast(simpleRequest() as unknown as ForecastInput), { status: 401, code: 'unauthorized' });
    await horizonError(() => h.getJob('00000000-0000-4000-8000-000000000000'), { status: 404, code: 'not_found' });
    const invalid = await horizonError(() => h.forecast(simpleRequest({ horizon: 0 }) as unknown as ForecastInput), { status: 422, code: 'validation_failed' });
    assert.ok(invalid.errors.some((e) => e.field === 'horizon'), JSON.stringify(invalid.errors));
    const series = await horizonError(() => h.forecast({ series: [{ target: [1, 2, 3], index: monthlyDates('2020-01', 2) }], horizon: 2, freq: 'MS', model: 'naive' }), { status: 422, code: 'validation_failed' });
    assert.equal(series.errors[0].series, 0, JSON.stringify(series.errors));
  });

  it('a real 429: waits as long as Retry-After says, never longer than maxDelayMs, and non-idempotent calls are not retried', async () => {
    const { key } = await server.newAccount({ daily: 1, weekly: 10 });
    const body = simpleRequest() as unknown as ForecastInput;
    const counting = countingFetch();
    const retries: { attempt: number; delayMs: number; error: HorizonError }[] = [];
    const tiny = new Horizon({ baseUrl: server.url, apiKey: key, fetch: counting.fetch, retries: { retries: 3, onRetry: (info) => retries.push(info) } });
    await tiny.forecast(body);
    // the daily quota resets at midnight UTC: more than the default 60 s cap (unless the test runs in the last minute of a day)
    const refused = await horizonError(() => tiny.forecast(body), { status: 429, code: 'quota_exceeded' });
    assert.ok(refused.retryAfterMs! > 0);
    const capped = refused.retryAfterMs! > 60_000;
    if (capped) assert.deepEqual(counting.statuses, [200, 429], 'a wait beyond the cap is not waited out');
    // with no cap the client sleeps exactly the server's Retry-After (the abort ends the sleep)
    counting.statuses.length = 0;
    retries.length = 0;
    const patient = new Horizon({ baseUrl: server.url, apiKey: key, fetch: counting.fetch, retries: { retries: 3, maxDelayMs: Infinity, onRetry: (info) => retries.push(info) } });
    const raw = await server.request('POST', '/v1/forecast', { key, body });
    const aborted = await patient.forecast(body, { signal: AbortSignal.timeout(300) }).then(() => null, (e: unknown) => e);
    assert.equal((aborted as Error)?.name, 'TimeoutError');
    assert.equal(retries.length, 1);
    assert.equal(retries[0].error.status, 429);
    assert.ok(Math.abs(retries[0].delayMs - Number(raw.headers.get('retry-after')) * 1000) <= 2000, `${retries[0].delayMs} ms vs Retry-After ${raw.headers.get('retry-after')} s`);
    // createJob is not idempotent: no retry unless asked for
    counting.statuses.length = 0;
    retries.length = 0;
    await horizonError(() => patient.createJob(body), { status: 429, code: 'quota_exceeded' });
    assert.deepEqual(counting.statuses, [429]);
    assert.equal(retries.length, 0);
    const askedFor = await patient.createJob(body, { retry: true, signal: AbortSignal.timeout(300) }).then(() => null, (e: unknown) => e);
    assert.equal((askedFor as Error)?.name, 'TimeoutError');
    assert.equal(retries.length, 1, 'retry: true retries createJob');
  });

  it('a real 503 (model worker killed): forecast() waits Retry-After and succeeds once the worker is back', async () => {
    const counting = countingFetch();
    const retries: { delayMs: number; error: HorizonError }[] = [];
    const client = new Horizon({ baseUrl: server.url, apiKey: server.key, fetch: counting.fetch, retries: { retries: 30, onRetry: (info) => retries.push(info) } });
    server.supervisor.kill('core');
    await new Promise((r) => setTimeout(r, 100));
    const res = await client.forecast(simpleRequest() as unknown as ForecastInput);
    assert.equal(res.status, 'completed');
    assert.ok(retries.length >= 1, `statuses ${counting.statuses}`);
    assert.equal(retries[0].error.status, 503);
    assert.equal(retries[0].error.code, 'no_worker');
    assert.equal(retries[0].delayMs, 2000, 'the server\'s Retry-After: 2');
    assert.equal(counting.statuses.at(-1), 200);
  });

  it('the package builds with its own tsconfig (tsc → dist), equal to its checked-in dist/, and the built ESM answers like the source', async () => {
    const out = mkdtempSync(join(tmpdir(), 'horizon-sdk-dist-'));
    try {
      const pkg = new URL('../clients/typescript/', import.meta.url).pathname;
      await promisify(execFile)(process.execPath, [join(pkg, 'node_modules/typescript/bin/tsc'), '-p', join(pkg, 'tsconfig.json'), '--outDir', out], { timeout: 120_000 });
      const built = await import(pathToFileURL(join(out, 'index.js')).href) as typeof import('../clients/typescript/src/index.ts');
      assert.ok(readFileSync(join(out, 'index.d.ts'), 'utf8').includes('Horizon'), 'declarations are emitted');
      // the package ships built (`npm install …/clients/typescript` needs no compiler): dist/ is this build
      const shipped = join(pkg, 'dist');
      assert.deepEqual(readdirSync(shipped).sort(), readdirSync(out).sort(), 'clients/typescript/dist holds the build\'s files');
      for (const file of readdirSync(out)) {
        assert.equal(readFileSync(join(shipped, file), 'utf8'), readFileSync(join(out, file), 'utf8'), `clients/typescript/dist/${file} is stale: rebuild with node scripts/update-sdk-types.ts`);
      }
      const client = new built.Horizon({ baseUrl: server.url, apiKey: server.key });
      const body = simpleRequest() as unknown as ForecastInput;
      assert.deepEqual(await client.forecast(body), await h.forecast(body));
      const error = await client.getJob('nope').then(() => null, (e: unknown) => e);
      assert.ok(error instanceof built.HorizonError && error.status === 404);
    } finally { rmSync(out, { recursive: true, force: true }); }
  });

  /** Runs a ```ts block as written (the package name pointed at the built SDK); its stdout. */
  async function runExample(code: string): Promise<string> {
    assert.ok(code.includes("from '@horizon-forecast/client'"));
    const dir = mkdtempSync(join(tmpdir(), 'horizon-readme-'));
    try {
      const file = join(dir, 'example.ts');
      writeFileSync(file, code.replace("'@horizon-forecast/client'", `'${pathToFileURL(SDK_ENTRY.pathname).href}'`));
      // a child process (asynchronously: the server runs in this one)
      const run = await promisify(execFile)(process.execPath, [file], { env: { ...process.env, HORIZON_URL: server.url, HORIZON_API_KEY: server.key }, encoding: 'utf8', timeout: 120_000 });
      return run.stdout;
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }

  /** The forecast lines `date mean q0.1 q0.9` of an example: a real series has intervals of real width. */
  function forecastLines(stdout: string): number[][] {
    const lines = [...stdout.matchAll(/^(\d{4}-\d{2}-\d{2}) ([\d.]+) ([\d.]+) ([\d.]+)$/gm)].map((m) => [Number(m[2]), Number(m[3]), Number(m[4])]);
    assert.equal(lines.length, 6, stdout);
    for (const [mean, low, high] of lines) assert.ok(low < mean && mean < high && high - low > 10, `a zero-width or inverted interval: ${stdout}`);
    return lines;
  }

  it('clients/typescript/README.md\'s example runs as written, on a real series (AirPassengers)', async () => {
    const readme = readFileSync(new URL('../clients/typescript/README.md', import.meta.url), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(code, 'clients/typescript/README.md has a ```ts block');
    const stdout = await runExample(code);
    assert.match(stdout, /^1961-01-01 [\d.]+ [\d.]+ [\d.]+$/m, stdout);
    forecastLines(stdout);
    assert.match(stdout, /^completed \[/m, stdout);
    assert.match(stdout, /^422 validation_failed/m, stdout);
    assert.match(stdout, /series: 0,\s+field: 'series\[0\]\.index'/, stdout);
  });

  it('the README\'s TypeScript forecast runs as written', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(code, 'README.md has a ```ts block');
    const stdout = await runExample(code);
    assert.match(stdout, /^1961-01-01 [\d.]+ [\d.]+ [\d.]+$/m, stdout);
    forecastLines(stdout);
  });
});
