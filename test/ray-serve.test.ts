// Issue 12, Ray Serve backend: a real local Ray cluster (a head with no CPUs, so every replica runs on
// the extra worker node started with `ray start --address`), the core group deployed with
// `python -m horizon_runtime.serve deploy`, and the control plane pointed at it with
// HORIZON_INFERENCE_URL. Forecasts, a job and warm-up through the cluster equal those of a second
// server on local workers (statistical models and tiny random-weight Chronos-Bolt, bitwise);
// @serve.batch keeps every series' forecast independent of its batch mates; a replica killed
// mid-request answers 503 + Retry-After (or a retried 200) and a job still completes.
// Ray is the core venv's `ray` extra (runtime/requirements/core-ray.txt; scripts/setup-test.sh installs it): missing, the test fails.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, simpleRequest, slowRequest, waitForJob, type TestServer } from './helpers.ts';
import { REPO, writeFixtures, wave, index, HORIZON, QUANTILES } from './parity.ts';

const RUNTIME = join(REPO, 'runtime');
const BIN = join(RUNTIME, '.venv-core', 'bin');
// RAY_worker_niceness=0: replicas at nice 0 like the local worker (Ray's default 15 starves them on a busy machine)
const ENV = { ...process.env, PATH: `${BIN}:${process.env.PATH}`, PYTHONPATH: RUNTIME, RAY_USAGE_STATS_ENABLED: '0', RAY_worker_niceness: '0' };


function ray(args: string[]): string {
  return execFileSync(join(BIN, 'ray'), args, { cwd: RUNTIME, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

let tmp: string;
let weights: string;
let serveUrl: string;
let gcsAddress: string;
let cluster: TestServer;
let local: TestServer;

/** GET on the Serve application directly (the worker protocol). */
async function serveGet(path: string): Promise<any> {
  const res = await fetch(`${serveUrl}${path}`);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.json();
}

async function servePost(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${serveUrl}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

before(async () => {
  assert.ok(existsSync(join(BIN, 'ray')), 'ray is not installed in runtime/.venv-core: run bash runtime/setup.sh core (ray[serve] is in core.txt)');
  tmp = mkdtempSync(join(tmpdir(), 'hzray-'));
  weights = writeFixtures(['chronos-bolt', 'chronos-2']); // chronos-2: a joint (multivariate) forecast
  const gcs = await freePort();
  gcsAddress = `127.0.0.1:${gcs}`;
  const http = await freePort();
  serveUrl = `http://127.0.0.1:${http}`;
  const small = ['--object-store-memory', '100000000', '--disable-usage-stats'];
  // the head takes no replica (0 CPUs): the worker node's CPUs are the only place one can run
  ray(['start', '--head', '--port', String(gcs), '--num-cpus', '0', '--include-dashboard=false', '--temp-dir', join(tmp, 'ray'), ...small]);
  ray(['start', '--address', `127.0.0.1:${gcs}`, '--num-cpus', '2', ...small]);
  execFileSync(join(BIN, 'python'), ['-m', 'horizon_runtime.serve', 'deploy', '--address', `127.0.0.1:${gcs}`, '--groups', 'core',
    '--port', String(http), '--num-cpus', '1', '--max-wait-ms', '50', '--model-dir', weights], { cwd: RUNTIME, env: ENV, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
  [cluster, local] = await Promise.all([
    startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_INFERENCE_URL: serveUrl, HORIZON_RUNTIME_GROUPS: 'core' }),
    startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_RUNTIME_GROUPS: 'core' }),
  ]);
});

after(async () => {
  await cluster?.close();
  await local?.close();
  // always, even when a step above failed: no Ray process outlives the test
  spawnSync(join(BIN, 'ray'), ['stop', '--force'], { cwd: RUNTIME, env: ENV, stdio: 'ignore', timeout: 60_000 });
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  if (weights) rmSync(weights, { recursive: true, force: true });
});

const series = (k: number) => ({ target: wave(60, k / 3), index });
const BOLT = { model: 'chronos-bolt', model_size: 'tiny' };

describe('Ray Serve inference backend', () => {
  it('the replica runs on the extra worker node; /v1/models lists what the cluster serves, as the local workers do', async () => {
    const health = await serveGet('/core/health');
    const nodes = JSON.parse(execFileSync(join(BIN, 'python'), ['-c',
      'import json, ray; ray.init(logging_level="ERROR"); print(json.dumps([[n["NodeID"], n["Resources"].get("CPU", 0)] for n in ray.nodes() if n["Alive"]]))'],
    { cwd: RUNTIME, env: { ...ENV, RAY_ADDRESS: gcsAddress }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').pop()!) as [string, number][];
    assert.equal(nodes.length, 2, 'a head and one worker node');
    assert.equal(nodes.find(([id]) => id === health.node)?.[1], 2, 'the replica is on the node with CPUs, not the head');
    const [viaCluster, viaLocal] = await Promise.all([cluster.request('GET', '/v1/models'), local.request('GET', '/v1/models')]);
    assert.equal(viaCluster.status, 200);
    const ids = (body: any) => body.models.map((m: any) => [m.model_id, m.sizes]);
    assert.deepEqual(ids(viaCluster.body), ids(viaLocal.body));
    assert.ok(ids(viaCluster.body).some(([id]: [string]) => id === 'chronos-bolt'), 'the tiny checkpoint is served');
    const status = await cluster.request('GET', '/v1/status', { key: null });
    assert.deepEqual(status.body.workers, [{ group: 'core', state: 'ready', restarts: 0 }]);
  });

  it('warm-up loads the model on the cluster, and /v1/models then shows it loaded', async () => {
    const res = await cluster.request('GET', '/v1/warmup?model=chronos-bolt&model_size=tiny');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'warm');
    assert.equal(res.body.device, 'cpu');
    await waitFor('loaded in /v1/models', async () => {
      const models = await cluster.request('GET', '/v1/models');
      return models.body.models.find((m: any) => m.model_id === 'chronos-bolt')?.loaded.includes('tiny') ? true : undefined;
    }, 10_000);
  });

  it('forecasts equal the local worker\'s, bitwise: statistical models and tiny Chronos-Bolt', async () => {
    for (const model of [{ model: 'naive' }, { model: 'seasonal-naive' }, { model: 'auto-ets' }, { model: 'auto-theta' }, BOLT]) {
      const body = { series: [series(0), series(1)], horizon: HORIZON, freq: 'MS', quantiles: QUANTILES, ...model };
      const [a, b] = await Promise.all([cluster.request('POST', '/v1/forecast', { body }), local.request('POST', '/v1/forecast', { body })]);
      assert.equal(a.status, 200, a.text);
      assert.equal(b.status, 200, b.text);
      assert.deepEqual(a.body.series, b.body.series, `${model.model}: cluster = local`);
    }
  });

  it('a job through the cluster completes with the sync result', async () => {
    const body = { ...simpleRequest({ model: 'chronos-bolt', model_size: 'tiny' }) };
    const created = await cluster.request('POST', '/v1/forecast-jobs', { body });
    assert.equal(created.status, 202, created.text);
    const job = await waitForJob(cluster, created.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    assert.equal(job.status, 'completed', JSON.stringify(job));
    const sync = await local.request('POST', '/v1/forecast', { body });
    assert.deepEqual(job.series, sync.body.series);
  });

  it('@serve.batch: concurrent requests share a batch; each series\' forecast equals its forecast alone', async () => {
    // auto-ets fits each series on its own: bitwise, as the local worker's batches (runtime/tests/test_batching.py);
    // Chronos-Bolt runs one float32 network over the batch: equal up to the rounding of batched kernels
    for (const [model, size, tol] of [['auto-ets', 'default', 0], ['chronos-bolt', 'tiny', 1e-5]] as const) {
      const infer = (k: number, horizon = HORIZON) => ({ model, size, freq: 'MS', horizon, quantiles: QUANTILES, series: [{ target: wave(60, k / 3) }] });
      const alone: { mean: number[]; quantiles: Record<string, number[]> }[] = [];
      for (let k = 0; k < 8; k++) {
        const res = await servePost('/core/infer', infer(k));
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.timing.batch_series, 1);
        alone.push(res.body.predictions[0]);
      }
      const together = await Promise.all(Array.from({ length: 8 }, (_, k) => servePost('/core/infer', infer(k))));
      assert.ok(together.some((r) => r.body.timing.batch_series > 1), `${model}: no two requests shared a batch: ${together.map((r) => r.body.timing.batch_series)}`);
      together.forEach((r, k) => {
        const got = r.body.predictions[0];
        if (tol === 0) assert.deepEqual(got, alone[k], `${model} series ${k}`);
        else for (const [name, values] of [['mean', got.mean], ...Object.entries(got.quantiles)] as [string, number[]][]) {
          const wanted = name === 'mean' ? alone[k].mean : alone[k].quantiles[name];
          values.forEach((v, t) => assert.ok(Math.abs(v - wanted[t]) <= tol * (Math.abs(wanted[t]) + 100), `${model} series ${k} ${name}[${t}]: ${v} vs ${wanted[t]}`));
        }
      });
      // keys never mix: a different horizon in the same window is its own batch
      const [a, b] = await Promise.all([servePost('/core/infer', infer(0)), servePost('/core/infer', infer(1, 3))]);
      assert.equal(a.body.timing.batch_series, 1);
      assert.equal(b.body.timing.batch_series, 1);
      assert.deepEqual(a.body.predictions[0], alone[0]);
    }
  });

  it('a joint forecast (one predict call outside @serve.batch) and sample paths equal the local worker\'s', async () => {
    const three = [0, 1, 2].map(series);
    for (const [extra, tol] of [[{ model: 'chronos-2', model_size: 'small', multivariate: true }, 1e-5], [{ model: 'auto-ets', samples: 3, seed: 1 }, 0]] as const) {
      const body = { freq: 'MS', horizon: HORIZON, quantiles: QUANTILES, series: three, ...extra };
      const [a, b] = await Promise.all([cluster.request('POST', '/v1/forecast', { body }), local.request('POST', '/v1/forecast', { body })]);
      assert.equal(a.status, 200, a.text);
      assert.equal(b.status, 200, b.text);
      if (tol === 0) { assert.deepEqual(a.body.series, b.body.series); continue; }
      a.body.series.forEach((s: any, i: number) => s[0].prediction.mean.forEach((v: number, t: number) => {
        const wanted = b.body.series[i][0].prediction.mean[t];
        assert.ok(Math.abs(v - wanted) <= tol * (Math.abs(wanted) + 100), `joint series ${i} mean[${t}]: ${v} vs ${wanted}`);
      }));
    }
  });

  it('the hierarchy endpoints answer on the replica (docs/runtime-protocol.md "Hierarchies"), in the core application', async () => {
    const agg = await servePost('/core/hierarchy/aggregate', { series: [{ target: [1, 2, 3] }, { target: [10, 20, 30] }], aggregates: { total: [0, 1] } });
    assert.equal(agg.status, 200, JSON.stringify(agg.body));
    assert.deepEqual(agg.body.nodes.map((n: any) => [n.id, n.target]), [['total', [11, 22, 33]], ['series[0]', [1, 2, 3]], ['series[1]', [10, 20, 30]]]);
    const base = [[12, 12], [1, 2], [10, 11]].map((mean) => ({ mean, quantiles: {} }));
    const body = { node_ids: agg.body.nodes.map((n: any) => n.id), S: agg.body.S, tags: agg.body.tags, method: 'bottom_up', quantiles: [], base };
    const reconciled = await servePost('/core/hierarchy/reconcile', body);
    assert.equal(reconciled.status, 200, JSON.stringify(reconciled.body));
    assert.deepEqual(reconciled.body.reconciled.map((r: any) => r.mean), [[11, 13], [1, 2], [10, 11]]);
    assert.equal((await servePost('/core/hierarchy/reconcile', { ...body, method: 'magic' })).body.error.code, 'bad_request');
  });

  it('a replica killed mid-request: 503 + Retry-After (or a retried 200), then a job completes', async () => {
    const before = await serveGet('/core/health');
    const body = { ...slowRequest(), series: Array.from({ length: 3 }, () => slowRequest().series as unknown[]).flat() };
    const started = Date.now();
    const pending = cluster.request('POST', '/v1/forecast', { body });
    await new Promise((r) => setTimeout(r, 700));
    process.kill(before.pid, 'SIGKILL');
    const killedAt = Date.now();
    const res = await pending;
    assert.ok(Date.now() >= killedAt, 'answered after the kill');
    if (res.status === 503) {
      assert.equal(res.headers.get('retry-after'), '2', res.text);
      assert.equal(res.body.code, 'no_worker', res.text);
    } else assert.equal(res.status, 200, `neither 503 nor a retried success: ${res.status} ${res.text} (${killedAt - started} ms)`);
    // a job sent while the replica is down: its no_worker attempts are retried until Serve has replaced it
    const created = await cluster.request('POST', '/v1/forecast-jobs', { body: simpleRequest() });
    assert.equal(created.status, 202, created.text);
    const job = await waitForJob(cluster, created.body.job_id, undefined, (s) => s === 'completed' || s === 'failed', 90_000);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    const after = await serveGet('/core/health');
    assert.notEqual(after.pid, before.pid, 'Serve replaced the killed replica');
  });
});
