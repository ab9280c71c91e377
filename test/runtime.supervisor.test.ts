// The worker supervisor with a real worker process: READY, health checks, restart of a hung or
// crashed worker with backoff, clean stop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Supervisor } from '../src/runtime/supervisor.ts';
import { InferenceClient } from '../src/runtime/inference.ts';
import { HorizonError } from '../src/errors.ts';

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Supervisor', () => {
  it('starts the worker, restarts it when it hangs (failed health checks) and when it crashes, stops it', async () => {
    const supervisor = new Supervisor({ groups: ['core'], healthIntervalMs: 200, healthFailures: 2, backoffInitialMs: 100 });
    await supervisor.start();
    try {
      assert.ok(supervisor.endpoint('core'));
      assert.ok(supervisor.modelsByGroup().get('core')!.some((m) => m.model === 'naive'));
      const [first] = supervisor.status();
      assert.equal(first.state, 'ready');

      process.kill(first.pid!, 'SIGSTOP'); // hung: alive but not answering
      await until(() => supervisor.status()[0].restarts === 1 && supervisor.status()[0].state === 'ready', 60_000);
      const second = supervisor.status()[0];
      assert.notEqual(second.pid, first.pid, 'a new process');
      assert.throws(() => process.kill(first.pid!, 0), 'the hung process was killed');

      supervisor.kill('core', 'SIGKILL'); // crashed
      assert.equal(supervisor.endpoint('core'), undefined, 'no endpoint while it is down');
      await until(() => supervisor.status()[0].restarts === 2 && supervisor.status()[0].state === 'ready', 60_000);
      assert.ok(supervisor.endpoint('core'));
    } finally {
      const pid = supervisor.status()[0].pid!;
      await supervisor.stop();
      assert.equal(supervisor.status()[0].state, 'stopped');
      assert.throws(() => process.kill(pid, 0), 'stopped means the process is gone');
    }
  });

  it('spares a worker with calls in flight its missed health checks (a long fit holds the GIL) until they end', async () => {
    let client: InferenceClient | undefined;
    const supervisor = new Supervisor({ groups: ['core'], healthIntervalMs: 200, healthFailures: 2, backoffInitialMs: 100, busy: (url) => (client?.inFlightAt(url) ?? 0) > 0 });
    await supervisor.start();
    try {
      client = new InferenceClient(() => supervisor.endpoint('core'), 6_000, { coalesce: false });
      const [first] = supervisor.status();
      process.kill(first.pid!, 'SIGSTOP'); // stands in for a fit that holds the GIL: /health cannot answer
      const call = client.infer('core', { model: 'naive', size: 'default', freq: 'D', horizon: 2, quantiles: [0.5], series: [{ target: [1, 2, 3], past_covariates: {}, future_covariates: {}, static_covariates: {} }] }).catch((error: unknown) => error);
      await new Promise((r) => setTimeout(r, 4_000)); // each check times out after 2 s: at least 2 have failed by now
      assert.equal(supervisor.status()[0].restarts, 0, 'not restarted while its call is in flight');
      assert.equal(supervisor.status()[0].pid, first.pid);
      const error = await call;
      assert.ok(error instanceof HorizonError && error.code === 'inference_timeout', String(error));
      // the call ended at the inference timeout: now the missed checks count and the hung worker goes
      await until(() => supervisor.status()[0].restarts === 1 && supervisor.status()[0].state === 'ready', 60_000);
      assert.notEqual(supervisor.status()[0].pid, first.pid);
    } finally {
      await client?.close();
      await supervisor.stop();
    }
  });
});
