// The webhook deliverer polls the store on a timer; a poll that fails (the database went away, as in the
// soak's PostgreSQL kills) must be logged and retried, never left as an unhandled rejection that ends the
// API process (issue 24's soak found it).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../src/store/database.ts';
import { WebhookDeliverer } from '../src/jobs/series-drift.ts';

it('a failing delivery poll is logged and retried, not an unhandled rejection', async () => {
  const database = await openDatabase({ dataDir: 'memory://' });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
  process.on('unhandledRejection', onUnhandled);
  const warnings: string[] = [];
  const deliverer = new WebhookDeliverer(database.db, { backoffMs: 10, pollMs: 10, logger: { warn: (_o, m) => { warnings.push(String(m)); } } });
  await database.close(); // every query of the deliverer now fails
  deliverer.start();
  try {
    const deadline = Date.now() + 10_000;
    while (warnings.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(warnings.length >= 2, `the failed polls were logged and retried: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0], /webhook delivery poll failed/);
    assert.deepEqual(unhandled, []);
  } finally {
    await deliverer.stop();
    process.off('unhandledRejection', onUnhandled);
  }
});
