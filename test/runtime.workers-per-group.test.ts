// HORIZON_WORKERS_PER_GROUP=2: two worker processes of the core group behind one control plane. Calls
// go to the ready worker with the fewest in flight (ties: round robin), so concurrent forecasts land on
// both; a warm-up loads the model in both; /v1/status and /metrics show each; killing one leaves the
// other serving while the supervisor restarts it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, simpleRequest, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_WORKERS_PER_GROUP: '2' }); });
after(async () => { await server?.close(); });

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** the worker pids of the /infer lines the workers logged under these request ids */
function servedBy(requestIds: Set<string>): Set<number> {
  return new Set(capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    // a coalesced call (src/runtime/inference.ts) is logged under all its callers' ids, comma-separated
    .filter((l) => l.url === '/infer' && String(l.request_id).split(',').some((id) => requestIds.has(id))).map((l) => l.worker_pid as number));
}

async function forecasts(n: number): Promise<Set<string>> {
  // a horizon of its own each: calls with one batch key could share one worker call (coalescing)
  const answers = await Promise.all(Array.from({ length: n }, (_, k) => server.request('POST', '/v1/forecast', { body: simpleRequest({ model: 'naive', horizon: k + 1 }) })));
  for (const res of answers) assert.equal(res.status, 200, res.text);
  return new Set(answers.map((res) => res.headers.get('x-request-id')!));
}

describe('two workers per runtime group', () => {
  it('starts both, shows each in /v1/status and /metrics, and concurrent forecasts use both', async () => {
    const workers = server.supervisor.status();
    assert.deepEqual(workers.map((w) => [w.group, w.worker, w.state]), [['core', 0, 'ready'], ['core', 1, 'ready']]);
    assert.notEqual(workers[0].pid, workers[1].pid);
    const status = await server.request('GET', '/v1/status');
    assert.equal(status.body.status, 'ok');
    assert.deepEqual(status.body.workers.map((w: { group: string; state: string }) => [w.group, w.state]), [['core', 'ready'], ['core', 'ready']]);

    const ids = await forecasts(8);
    assert.deepEqual([...servedBy(ids)].toSorted(), workers.map((w) => w.pid).toSorted(), 'both workers served');

    const metrics = await server.request('GET', '/metrics');
    assert.match(metrics.text, /horizon_worker_up\{runtime_group="core",worker="0"\} 1/);
    assert.match(metrics.text, /horizon_worker_up\{runtime_group="core",worker="1"\} 1/);
    // each worker's own series, told apart by the worker label
    assert.match(metrics.text, /horizon_runtime_\w+\{[^}]*runtime_group="core"[^}]*worker="0"\}/);
    assert.match(metrics.text, /horizon_runtime_\w+\{[^}]*runtime_group="core"[^}]*worker="1"\}/);
  });

  it('a warm-up loads the model in every worker', async () => {
    const res = await server.request('GET', '/v1/warmup?model=auto-theta');
    assert.equal(res.status, 200, res.text);
    await server.supervisor.refreshModels('core');
    for (const w of server.supervisor.status()) {
      const health = await fetch(`${w.url}/health`).then((r) => r.json()) as { loaded: [string, string][] };
      assert.ok(health.loaded.some(([model]) => model === 'auto-theta'), `worker ${w.worker} loaded auto-theta`);
    }
  });

  it('killing one worker leaves the other serving; the killed one is restarted', async () => {
    const [first, second] = server.supervisor.status();
    const killed = server.supervisor.kill('core', 'SIGKILL', 0);
    assert.equal(killed, first.pid);
    assert.deepEqual(server.supervisor.endpoints('core'), [second.url], 'only the live worker is handed out');
    const ids = await forecasts(4);
    assert.deepEqual([...servedBy(ids)], [second.pid], 'the other worker answered every call');
    await until(() => server.supervisor.status()[0].state === 'ready', 60_000);
    const [restarted, untouched] = server.supervisor.status();
    assert.equal(restarted.restarts, 1);
    assert.notEqual(restarted.pid, first.pid);
    assert.equal(untouched.pid, second.pid);
    assert.equal(untouched.restarts, 0);
    const after = await forecasts(8);
    assert.equal(servedBy(after).size, 2, 'both serve again');
  });
});
