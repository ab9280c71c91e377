// Quota decisions of an embedded (PGlite) store, made in memory and written in batches.
// The embedded store has exactly one writer, this process (src/store/lock.ts; the CLI goes through
// the running server's admin API), so each account's usage of its current day and ISO week is known
// here: a charge is decided synchronously against that copy, exactly as horizon_charge would, and
// its unit is written with every other unit charged since the last write (one INSERT … ON CONFLICT
// for all accounts). A request answers only once its unit is written (Charge.persisted), so a crash
// can lose only units of requests that never answered. A PGlite query runs on the event loop (~0.4 ms
// for horizon_charge), so one write per many requests is what this saves (bench/README.md).
// PostgreSQL deployments keep horizon_charge: several API processes share their database.
import { sql, type Kysely } from 'kysely';
import type { Schema } from './database.ts';

export interface LedgerUsage { dayUsed: number; weekUsed: number; daily: number; weekly: number }
interface AccountState extends LedgerUsage { day: string; weekStart: string }
interface Waiter { seq: number; resolve(): void; reject(error: unknown): void }

export class QuotaLedger {
  private readonly accounts = new Map<string, AccountState>();
  private readonly loading = new Map<string, Promise<AccountState>>();
  /** units not yet written, by account and day (a refund is -1) */
  private pending = new Map<string, { accountId: string; day: string; units: number }>();
  private queued = 0;
  private durable = 0;
  private waiters: Waiter[] = [];
  private flushing = false;
  /** loads and writes, one at a time */
  private tail: Promise<unknown> = Promise.resolve();

  private readonly db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) { this.db = db; }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The account's usage in the windows of `day`/`weekStart`, read once (after writing what is pending). */
  async usage(accountId: string, day: string, weekStart: string): Promise<AccountState> {
    const known = this.accounts.get(accountId);
    if (known && known.day === day && known.weekStart === weekStart) return known;
    const key = `${accountId} ${day}`;
    let load = this.loading.get(key);
    if (!load) {
      load = this.serial(async () => {
        await this.write();
        const row = await sql<{ daily_quota: number; weekly_quota: number; day_used: string; week_used: string }>`
          SELECT a.daily_quota, a.weekly_quota,
                 coalesce((SELECT sum(q.used) FROM quota_usage q WHERE q.account_id = a.id AND q.day = ${day}::date), 0) AS day_used,
                 coalesce((SELECT sum(q.used) FROM quota_usage q WHERE q.account_id = a.id AND q.day >= ${weekStart}::date AND q.day < ${weekStart}::date + 7), 0) AS week_used
            FROM accounts a WHERE a.id = ${accountId}::uuid`.execute(this.db);
        if (!row.rows[0]) throw new Error(`unknown account ${accountId}`);
        const r = row.rows[0];
        const state: AccountState = { day, weekStart, daily: r.daily_quota, weekly: r.weekly_quota, dayUsed: Number(r.day_used), weekUsed: Number(r.week_used) };
        this.accounts.set(accountId, state);
        return state;
      }).finally(() => this.loading.delete(key));
      this.loading.set(key, load);
    }
    return load;
  }

  /** Adds `units` (negative: a refund) to the account's day; returns the sequence number to wait for. */
  record(accountId: string, day: string, units: number): number {
    const state = this.accounts.get(accountId);
    if (state && state.day === day) { state.dayUsed += units; state.weekUsed += units; }
    else if (state) this.accounts.delete(accountId); // another day's unit: read the windows again next time
    const key = `${accountId} ${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.units += units; else this.pending.set(key, { accountId, day, units });
    return ++this.queued;
  }

  /** Resolves once the units recorded up to `seq` are written. */
  persisted(seq: number): Promise<void> {
    if (seq <= this.durable) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
    if (!this.flushing) {
      this.flushing = true;
      // the units of this event-loop turn go together
      setImmediate(() => void this.flushLoop());
    }
    return done;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.waiters.length) await this.serial(() => this.write());
    } finally {
      this.flushing = false;
    }
  }

  /** Writes every pending unit in one statement; on failure they stay pending and their waiters fail. */
  private async write(): Promise<void> {
    if (this.queued === this.durable) return;
    const batch = [...this.pending.values()].filter((e) => e.units !== 0);
    const upTo = this.queued;
    this.pending = new Map();
    try {
      if (batch.length) {
        await sql`INSERT INTO quota_usage AS q (account_id, day, used)
          VALUES ${sql.join(batch.map((e) => sql`(${e.accountId}::uuid, ${e.day}::date, ${e.units}::integer)`))}
          ON CONFLICT (account_id, day) DO UPDATE SET used = greatest(0, q.used + excluded.used)`.execute(this.db);
      }
      this.durable = upTo;
      const ready = this.waiters.filter((w) => w.seq <= upTo);
      this.waiters = this.waiters.filter((w) => w.seq > upTo);
      for (const w of ready) w.resolve();
    } catch (error) {
      for (const e of batch) {
        const entry = this.pending.get(`${e.accountId} ${e.day}`);
        if (entry) entry.units += e.units; else this.pending.set(`${e.accountId} ${e.day}`, { ...e });
      }
      const failed = this.waiters.filter((w) => w.seq <= upTo);
      this.waiters = this.waiters.filter((w) => w.seq > upTo);
      for (const w of failed) w.reject(error);
    }
  }

  /** The account's quotas changed (admin API): read them again at its next charge. */
  forget(accountId: string): void {
    this.accounts.delete(accountId);
  }

  /** Writes everything pending (before reading usage from the table, e.g. the admin overview). */
  flush(): Promise<void> {
    return this.serial(() => this.write());
  }
}

const ledgers = new WeakMap<Kysely<Schema>, QuotaLedger>();

/** Marks `db` as an embedded store written by this process alone: its quotas use a ledger. */
export function useQuotaLedger(db: Kysely<Schema>): void {
  if (!ledgers.has(db)) ledgers.set(db, new QuotaLedger(db));
}

export function quotaLedger(db: Kysely<Schema>): QuotaLedger | undefined {
  return ledgers.get(db);
}
