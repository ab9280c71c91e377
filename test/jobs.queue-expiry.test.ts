// A job's delivery must not expire while the job still runs: pg-boss's default expiry of 15 min failed a
// 23-min chunked 5,000-series prism job's first attempt and redelivered it while it ran (bench/large-requests.ts,
// session 12). The queues are created with pg-boss's 24 h ceiling, and a queue an earlier version created with
// the 15-min default is brought up to it at start. Both stores.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Database } from '../src/store/database.ts';
import { JobQueue, FORECAST_QUEUE, MAX_DELIVERY_SECONDS } from '../src/jobs/queue.ts';
import { storeDatabases } from './helpers.ts';


const expirySeconds = async (database: Database) =>
  (await sql<{ name: string; expire_seconds: number }>`SELECT name, expire_seconds FROM pgboss.queue ORDER BY name`.execute(database.db)).rows;

for (const backend of storeDatabases) {
  describe(`job queue delivery expiry: ${backend.name}`, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    before(async () => ({ database, cleanup } = await backend.open()));
    after(async () => cleanup());

    it('queues are created with the 24 h ceiling, and an old 15-min queue is raised to it at start', async () => {
      const options = { retryLimit: 1, concurrency: 1, resultTtlSeconds: 60 };
      let queue = new JobQueue(database, options);
      try {
        await queue.start();
        const created = await expirySeconds(database);
        assert.ok(created.some((q) => q.name === FORECAST_QUEUE), JSON.stringify(created));
        for (const q of created) assert.equal(q.expire_seconds, MAX_DELIVERY_SECONDS, q.name);
        await queue.stop();
        // as an earlier version left it
        await sql`UPDATE pgboss.queue SET expire_seconds = 900`.execute(database.db);
        queue = new JobQueue(database, options);
        await queue.start();
        for (const q of await expirySeconds(database)) assert.equal(q.expire_seconds, MAX_DELIVERY_SECONDS, q.name);
      } finally {
        await queue.stop();
      }
    });
  });
}
