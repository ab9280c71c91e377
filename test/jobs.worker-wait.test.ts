// A job's wait for a worker (src/jobs/worker-wait.ts), without a Python worker: which failed calls never
// reached a worker (the InferenceClient's own errors against stand-in servers), how a call waits for one and
// is sent again, and how the wait ends (a worker came, the bound ran out, the group has none, the queue stops).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceClient, type InferRequest, type InferResponse } from '../src/runtime/inference.ts';
import { HorizonError } from '../src/errors.ts';
import { neverReachedWorker, WorkerWaitingInference } from '../src/jobs/worker-wait.ts';
import { retriedInPlace } from '../src/jobs/chunks.ts';
import { Supervisor } from '../src/runtime/supervisor.ts';
import { freePort } from './free-port.ts';

const body: InferRequest = {
  model: 'naive', size: 'default', freq: 'D', horizon: 2, quantiles: [0.5],
  series: [{ target: [1, 2, 3], past_covariates: {}, future_covariates: {}, static_covariates: {} }],
};
const answer = { model: 'naive', size: 'default', predictions: [], warnings: [], timing: {} } as unknown as InferResponse;

/** A stand-in worker: `handle` decides what each request gets. */
async function standIn(handle: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What the InferenceClient throws for one call to `url` (undefined: no worker up). */
async function failure(url: string | undefined, timeoutMs = 5_000): Promise<unknown> {
  const client = new InferenceClient(() => url, timeoutMs, { coalesce: false });
  try {
    await client.inferText('core', body);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
}

const notRunning = () => new HorizonError('no_worker', 'the model worker for runtime group "core" is not running; retry shortly');

/** A shared client whose infer() answers from `outcomes` in turn (an Error is thrown), then `answer`. */
function scripted(outcomes: Error[]): { client: InferenceClient; calls: () => number } {
  let calls = 0;
  const client = { infer: async () => { const next = outcomes[calls++]; if (next) throw next; return answer; } } as unknown as InferenceClient;
  return { client, calls: () => calls };
}

describe('which failed model calls never reached a worker', () => {
  const servers: Server[] = [];
  after(() => { for (const s of servers) s.close(); });

  it('no worker up, a refused connection and a worker shutting down did not; a call cut off at the worker, a proxy\'s answer and a timeout did', async () => {
    assert.equal(neverReachedWorker(await failure(undefined)), true, 'no endpoint: "not running"');
    assert.equal(neverReachedWorker(await failure(`http://127.0.0.1:${await freePort()}`)), true, 'nothing listens: ECONNREFUSED');

    const shuttingDown = await standIn((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'shutting_down', detail: "worker 4242 of group 'core' is shutting down" } }));
    });
    const cutOff = await standIn((req) => req.socket.destroy()); // the worker died with the call in it
    const proxy = await standIn((_req, res) => { res.writeHead(502); res.end('Bad Gateway'); });
    const silent = await standIn(() => undefined);
    servers.push(shuttingDown.server, cutOff.server, proxy.server, silent.server);
    assert.equal(neverReachedWorker(await failure(shuttingDown.url)), true, 'the worker refused it before running it');

    const reached = [['cut off', await failure(cutOff.url)], ['proxy', await failure(proxy.url)], ['timeout', await failure(silent.url, 300)]] as const;
    for (const [what, error] of reached) {
      assert.ok(error instanceof HorizonError, `${what}: ${String(error)}`);
      assert.equal(neverReachedWorker(error), false, `${what}: ${error.code} ${error.message}`);
    }
    assert.equal(neverReachedWorker(new HorizonError('inference_failed', 'the model failed')), false);
  });
});

describe('WorkerWaitingInference', () => {
  it('a call that found no worker waits until one is ready, is sent again and answers; the wait is counted', async () => {
    const shared = scripted([notRunning(), notRunning()]);
    let ready!: () => void;
    const readyNow = new Promise<void>((r) => { ready = r; });
    const waits: string[] = [];
    const whenReady = (group: string) => { waits.push(group); return readyNow; };
    const client = new WorkerWaitingInference(shared.client, 'job-1', { waitMs: 60_000, backoffMs: () => 1, whenReady });
    const call = client.infer('core', body);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(shared.calls(), 1, 'no second try before a worker is ready');
    ready();
    assert.equal(await call, answer);
    assert.equal(shared.calls(), 3, 'tried again after each wait');
    assert.deepEqual(waits, ['core', 'core']);
    assert.ok(client.waitedMs > 0);
  });

  it('a call that reached a worker and failed fails at once (the job\'s attempt counts it)', async () => {
    const cutOff = new HorizonError('no_worker', 'the model worker for runtime group "core" is unreachable (other side closed); retry shortly', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    for (const error of [cutOff, new HorizonError('inference_timeout', 'did not answer'), new HorizonError('inference_failed', 'the model failed')]) {
      const shared = scripted([error]);
      const client = new WorkerWaitingInference(shared.client, 'job-2', { waitMs: 60_000, whenReady: () => assert.fail('no wait') });
      await assert.rejects(client.infer('core', body), (thrown) => thrown === error);
      assert.equal(shared.calls(), 1);
    }
  });

  it('the wait is bounded: a group that never comes back fails the call with no_worker, not to be delivered again', async () => {
    const shared = scripted(Array.from({ length: 1_000 }, notRunning));
    // a whenReady that never resolves, nor heeds its signal: the bound holds all the same
    const client = new WorkerWaitingInference(shared.client, 'job-3', { waitMs: 300, backoffMs: () => 20, whenReady: () => new Promise(() => undefined) });
    await assert.rejects(client.infer('core', body), (error) => {
      assert.ok(error instanceof HorizonError && error.code === 'no_worker', String(error));
      assert.match(error.message, /no worker of runtime group "core" came up within 0.3 s \(HORIZON_JOB_WORKER_WAIT_MS\); the last try: .* is not running$/);
      assert.equal(retriedInPlace(error), true, 'the queue does not deliver it again: it waited already');
      return true;
    });
    assert.equal(shared.calls(), 2, 'one try, then a last one at the deadline');
  });

  it('a group the supervisor does not run fails at once; a queue that stops ends the wait with the call\'s own error', async () => {
    const supervisor = new Supervisor({ groups: ['core'] }); // not started: no worker is ready
    const settings = { waitMs: 60_000, backoffMs: () => 1, whenReady: (group: string, signal: AbortSignal) => supervisor.whenReady(group, signal) };
    const none = new WorkerWaitingInference(scripted([notRunning()]).client, 'job-4', settings);
    const noGroup = (error: unknown) => retriedInPlace(error) && /runtime group "timesfm9" has no local worker/.test((error as Error).message);
    await assert.rejects(none.infer('timesfm9', body), noGroup);

    const stopping = new AbortController();
    const first = notRunning();
    const waiting = new WorkerWaitingInference(scripted([first]).client, 'job-5', { ...settings, signal: stopping.signal });
    const call = waiting.infer('core', body);
    await new Promise((r) => setTimeout(r, 50));
    stopping.abort(new Error('the job queue is stopping'));
    await assert.rejects(call, (error) => error === first && !retriedInPlace(error));

    const pending = supervisor.whenReady('core');
    await supervisor.stop();
    await assert.rejects(pending, /stopping/);
  });
});
