// The worker supervisor with a real worker process: READY, health checks, restart of a hung or
// crashed worker with backoff, clean stop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Supervisor } from '../src/runtime/supervisor.ts';

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
});
