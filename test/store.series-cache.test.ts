// The embedded store's cache of stored histories (src/store/series-cache.ts): reads through it equal reads
// of a store without it, under random writes racing random reads; a read that started before a write
// does not fill; a failed write drops what it touched; eviction keeps it under its byte budget.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../src/store/database.ts';
import { createAccount } from '../src/store/accounts.ts';
import { appendToManySeries, appendToSeries, deleteSeries, encodeTarget, putSeries, readHistories } from '../src/store/series.ts';
import { SeriesCache, seriesCache } from '../src/store/series-cache.ts';

const grid = { start: '2020-01-01', freq: 'D' };
const write = (target: (number | null)[]) => ({ freq: 'D', grid, target, schedule: null, drift: null, webhook: null });

/** A seeded generator: the same sequence of operations every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

describe('series cache (embedded store)', () => {
  const open: Database[] = [];
  after(async () => { for (const d of open) await d.close(); });

  it('reads through the cache equal reads without it, with writes racing reads', async () => {
    const cached = await openDatabase({ dataDir: 'memory://', seriesCacheBytes: 1 << 20 });
    const plain = await openDatabase({ dataDir: 'memory://' });
    open.push(cached, plain);
    assert.ok(seriesCache(cached.db) && !seriesCache(plain.db));
    const accounts = await Promise.all([cached, plain].map((d) => createAccount(d.db, { name: 'cache' })));
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const next = random(7);
    const value = () => Math.round(next() * 1000) / 10;
    const both = async <T>(op: (db: Database, accountId: string) => Promise<T>): Promise<T[]> => Promise.all([op(cached, accounts[0].id), op(plain, accounts[1].id)]);
    const snapshot = async (db: Database, accountId: string) => {
      const rows = await readHistories(db.db, accountId, ids);
      return ids.map((id) => rows.get(id)).map((h) => h && { freq: h.freq, grid: h.grid, values: [...new Float64Array(new Uint8Array(h.bytes).buffer)] });
    };
    for (let step = 0; step < 300; step++) {
      const id = ids[Math.floor(next() * ids.length)];
      const kind = next();
      const values = Array.from({ length: 1 + Math.floor(next() * 3) }, value);
      let op: (db: Database, accountId: string) => Promise<unknown>;
      if (kind < 0.15) op = (db, a) => putSeries(db.db, a, id, write(values), 0);
      else if (kind < 0.22) op = (db, a) => deleteSeries(db.db, a, id);
      else if (kind < 0.5) op = (db, a) => appendToSeries(db.db, a, id, () => ({ append: values }));
      else if (kind < 0.8) {
        const some = ids.filter(() => next() < 0.5);
        op = (db, a) => appendToManySeries(db.db, a, some, () => false, (found) => some.map((s) => ({ append: found.has(s) ? values : [] })));
      } else op = snapshot;
      // a read started before the write and one after it, all in flight together (a stale fill would stay)
      await Promise.all([both(snapshot), both(op), both(snapshot)]);
      const [a, b] = await both(snapshot);
      assert.deepEqual(a, b, `step ${step}: the cached store reads what the plain one holds`);
    }
    assert.ok(seriesCache(cached.db)!.size > 0, 'the cache was used');
  });

  it('a read that started before a write does not fill; a failed write forgets; the byte budget holds', () => {
    const cache = new SeriesCache(3 * 8 * 10);
    const row = (id: string, n: number) => ({ series_id: id, freq: 'D', grid, gridKey: JSON.stringify(grid), bytes: encodeTarget(Array(n).fill(1)), schedule: null });
    const token = cache.readStarted();
    cache.appended('a', 'x', encodeTarget([2])); // a write to any series meanwhile
    cache.fill(token, 'a', [row('x', 10)]);
    assert.equal(cache.lookup('a', ['x']).size, 0, 'a fill from before the write is dropped');
    cache.fill(cache.readStarted(), 'a', [row('x', 10), row('y', 10)]);
    cache.appended('a', 'x', encodeTarget([3]));
    assert.equal(cache.lookup('a', ['x']).get('x')!.bytes.byteLength, 88);
    assert.equal(cache.lookup('b', ['x']).size, 0, 'entries are per account');
    cache.forget('a', ['x']);
    assert.deepEqual([...cache.lookup('a', ['x', 'y']).keys()], ['y']);
    cache.fill(cache.readStarted(), 'a', [row('z', 10), row('w', 10)]);
    cache.lookup('a', ['y']); // y used last: z goes first
    cache.fill(cache.readStarted(), 'a', [row('v', 10)]);
    assert.deepEqual([...cache.lookup('a', ['v', 'w', 'y', 'z']).keys()].sort(), ['v', 'w', 'y'], 'the least recently used went');
  });

  it('a transaction that fails at its COMMIT, after changing the cache, drops those entries', async () => {
    const db = await openDatabase({ dataDir: 'memory://', seriesCacheBytes: 1 << 20 });
    open.push(db);
    const account = await createAccount(db.db, { name: 'fails' });
    await putSeries(db.db, account.id, 'f', write([1, 2]), 0);
    await readHistories(db.db, account.id, ['f']);
    assert.equal(seriesCache(db.db)!.lookup(account.id, ['f']).size, 1, 'cached');
    // a deferred constraint trigger fails the COMMIT of any history longer than 3 points
    await db.pglite!.exec(`CREATE FUNCTION refuse_long() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF length(NEW.target) > 24 THEN RAISE EXCEPTION 'too long'; END IF; RETURN NEW; END $$;
      CREATE CONSTRAINT TRIGGER refuse_long AFTER UPDATE ON stored_series DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_long();`);
    await assert.rejects(appendToManySeries(db.db, account.id, ['f'], () => false, () => [{ append: [3, 4] }]), /too long/);
    assert.equal(seriesCache(db.db)!.lookup(account.id, ['f']).size, 0, 'the failed append dropped its entry');
    assert.equal((await readHistories(db.db, account.id, ['f'])).get('f')!.bytes.byteLength, 16, 'read again: what the store holds');
    await assert.rejects(appendToSeries(db.db, account.id, 'f', () => ({ append: [3, 4] })), /too long/);
    assert.equal((await readHistories(db.db, account.id, ['f'])).get('f')!.bytes.byteLength, 16);
    await appendToSeries(db.db, account.id, 'f', () => ({ append: [3] }));
    assert.equal((await readHistories(db.db, account.id, ['f'])).get('f')!.bytes.byteLength, 24, 'an append that commits is cached');
  });
});
