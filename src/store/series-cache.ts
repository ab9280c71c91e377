// Stored histories of the embedded store kept in memory (issue 25): a forecast by reference and a bulk
// append read them from here instead of from PGlite, whose single WASM thread spent ~130 ms reading and
// ~150 ms locking the heads of 10,000 series per call (bench/README.md, stored-series). It is exact
// because this process is the embedded store's only writer and PGlite runs one statement or transaction
// at a time: every write changes the cache inside its own transaction (so the next transaction sees it),
// and a transaction that fails drops what it touched. A read that missed fills the cache only if no
// write happened since it started (`epoch`). PostgreSQL (several processes) has no cache.
import type { Kysely } from 'kysely';
import type { Schema } from './schema.ts';

/** One series as a forecast by reference or an append needs it (see readHistories). */
export interface CachedHistory { series_id: string; freq: string; grid: unknown; gridKey: string; bytes: Buffer; schedule: unknown | null }

const key = (accountId: string, seriesId: string) => `${accountId}\u0000${seriesId}`;

export class SeriesCache {
  /** least recently used first (a Map keeps insertion order; a hit moves its entry to the end) */
  private readonly entries = new Map<string, CachedHistory>();
  private bytes = 0;
  /** counts writes: a fill from a read that started before a write is dropped */
  private epoch = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get size(): number { return this.entries.size; }

  /** The cached histories of `seriesIds` (an id absent here must be read from the store). */
  lookup(accountId: string, seriesIds: Iterable<string>): Map<string, CachedHistory> {
    const found = new Map<string, CachedHistory>();
    for (const id of seriesIds) {
      const k = key(accountId, id);
      const entry = this.entries.get(k);
      if (!entry) continue;
      this.entries.delete(k);
      this.entries.set(k, entry);
      found.set(id, entry);
    }
    return found;
  }

  /** Taken before a read from the store: fill() with it keeps the rows only if nothing was written since. */
  readStarted(): number { return this.epoch; }

  fill(token: number, accountId: string, rows: Iterable<CachedHistory>): void {
    if (token !== this.epoch) return;
    for (const row of rows) this.put(accountId, row);
  }

  /** A write replaced (or created) the series: the new row, or nothing when it is not known here. */
  replaced(accountId: string, seriesId: string, row?: CachedHistory): void {
    this.epoch++;
    this.drop(accountId, seriesId);
    if (row) this.put(accountId, row);
  }

  /** A write appended `added` (float64 bytes) to the series' history. */
  appended(accountId: string, seriesId: string, added: Buffer): void {
    this.epoch++;
    const k = key(accountId, seriesId);
    const entry = this.entries.get(k);
    if (!entry) return;
    this.entries.set(k, { ...entry, bytes: Buffer.concat([entry.bytes, added]) });
    this.bytes += added.byteLength;
    this.evict();
  }

  /** A transaction that changed these series failed: what it wrote here is not in the store. */
  forget(accountId: string, seriesIds: Iterable<string>): void {
    this.epoch++;
    for (const id of seriesIds) this.drop(accountId, id);
  }

  private put(accountId: string, row: CachedHistory): void {
    this.drop(accountId, row.series_id);
    this.entries.set(key(accountId, row.series_id), row);
    this.bytes += row.bytes.byteLength;
    this.evict();
  }

  private drop(accountId: string, seriesId: string): void {
    const k = key(accountId, seriesId);
    const entry = this.entries.get(k);
    if (!entry) return;
    this.entries.delete(k);
    this.bytes -= entry.bytes.byteLength;
  }

  private evict(): void {
    for (const [k, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(k);
      this.bytes -= entry.bytes.byteLength;
    }
  }
}

const caches = new WeakMap<Kysely<Schema>, SeriesCache>();

/** Keeps up to `maxBytes` of `db`'s (the embedded store's) histories in memory; 0: none. */
export function useSeriesCache(db: Kysely<Schema>, maxBytes: number): void {
  if (maxBytes > 0) caches.set(db, new SeriesCache(maxBytes));
}

export function seriesCache(db: Kysely<Schema>): SeriesCache | undefined {
  return caches.get(db);
}
