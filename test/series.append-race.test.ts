// The bulk append (src/store/series.ts appendToManySeries) decides each series' append from its head (grid,
// length) read under a row lock, so concurrent identical appends (a client retrying) cannot both append:
// on both stores, each series grows once. Without the lock this fails on PostgreSQL (checked).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeDatabases } from './helpers.ts';
import { createAccount } from '../src/store/accounts.ts';
import { appendToManySeries, decodeTarget, putSeries, readHistories } from '../src/store/series.ts';
import { decideAppend, stepOfDate } from '../src/forecasting/stored-series.ts';
import { parseIndex, type Grid } from '../src/forecasting/calendar.ts';

for (const store of storeDatabases) {
  describe(`bulk append under concurrency (${store.name})`, () => {
    it('eight concurrent identical appends to 300 series: every series grows by exactly its new dates', async () => {
      const { database, cleanup } = await store.open();
      try {
        const { db } = database;
        const account = await createAccount(db, { name: 'race' });
        const parsed = parseIndex('D', ['2024-01-01', '2024-01-02']);
        assert.ok(parsed.ok);
        const grid = parsed.index.grid as Grid;
        const ids = Array.from({ length: 300 }, (_, i) => `s${i}`);
        for (const id of ids) await putSeries(db, account.id, id, { freq: 'D', grid, target: [1, 2], schedule: null, drift: null, webhook: null }, 0);
        // only new dates: no series' stored values are read, only the heads decide
        const item = { index: ['2024-01-03', '2024-01-04'], target: [3, 4] };
        const reaches = (head: { grid: unknown; points: number }) => {
          const placed = stepOfDate(head.grid as Grid, item.index[0]);
          return !('reason' in placed) && placed.step < head.points;
        };
        const append = () => appendToManySeries(db, account.id, ids, reaches, (rows) => ids.map((id) => decideAppend(rows.get(id)!.grid as Grid, rows.get(id)!.target, item, { maxSeries: 0, maxPoints: 0 })));
        const results = await Promise.all(Array.from({ length: 8 }, append));
        for (const [i] of ids.entries()) assert.equal(results.reduce((n, r) => n + r.decisions[i].appended, 0), 2, `series ${ids[i]}`);
        const stored = await readHistories(db, account.id, ids);
        for (const id of ids) assert.deepEqual(decodeTarget(stored.get(id)!.bytes), [1, 2, 3, 4], id);
      } finally {
        await cleanup();
      }
    });
  });
}
