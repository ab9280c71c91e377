// Quota decisions of an embedded (PGlite) store, made in memory and written in batches.
// The embedded store has exactly one writer, this process (src/store/lock.ts; the CLI goes through
// the running server's admin API), so each account's usage of its current day and ISO week is known
// here: a charge is decided synchronously against that copy, exactly as horizon_charge would.
// A request answers only once its unit is stored. Two ways to store it:
// - on disk (HORIZON_DATA_DIR): the unit is appended to a journal file (one write(2), microseconds)
//   before the request answers, and the units are written to quota_usage every JOURNAL_FLUSH_MS in one
//   statement that also records the journal sequence number they reach (quota_journal_state, migration
//   006). Opening the store replays the journal lines past that number, so a kill -9 loses no unit and
//   counts none twice. A PGlite write costs ~0.4-1.5 ms of this thread (it runs on the event loop):
//   at concurrency 1 that was one write per request (bench/README.md). The journal is as durable as
//   PGlite's own files, which are not fsync'd either: safe against a crash of the process, not of the OS.
// - in memory (tests): the units of one event-loop turn are written together and awaited.
// A charge's unit is *pending* until its answer is sent (issue 24): its journal line is tagged `c`, the
// line `s<seq>` settles it once the answer is written, `r<seq>` refunds it (a 5xx). Opening the
// store refunds every charge still pending — its request never answered (kill -9) — so usage equals the
// answers given. Those lines are kept through journal rewrites until their charge is settled.
// PostgreSQL deployments keep horizon_charge: several API processes share their database.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Schema } from './schema.ts';

export interface LedgerUsage { dayUsed: number; weekUsed: number; daily: number; weekly: number }
interface AccountState extends LedgerUsage { day: string; weekStart: string }
interface Waiter { seq: number; resolve(): void; reject(error: unknown): void }

export interface JournalOptions {
  path: string;
  /** how long units wait in the journal before their batch write (default JOURNAL_FLUSH_MS) */
  flushMs?: number;
  /** rewrite the journal (keeping only unwritten lines) once it is this large (default 1 MiB) */
  rotateBytes?: number;
}

const JOURNAL_FLUSH_MS = 200;
const JOURNAL_ROTATE_BYTES = 1 << 20;

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
  private readonly journal?: Required<JournalOptions>;
  private journalFd?: number;
  /** journal lines not yet in quota_usage (kept when the journal is rewritten) */
  private unwritten: { seq: number; line: string }[] = [];
  private flushTimer?: NodeJS.Timeout;
  private closed = false;
  /** journal lines of charges not yet settled or refunded, by sequence number (kept through rewrites) */
  private unsettled = new Map<number, string>();
  /** how many charges open() refunded because their request never answered */
  recoveredRefunds = 0;

  constructor(db: Kysely<Schema>, journal?: JournalOptions) {
    this.db = db;
    if (journal) this.journal = { flushMs: JOURNAL_FLUSH_MS, rotateBytes: JOURNAL_ROTATE_BYTES, ...journal };
  }

  /** Journal mode: replays what the last run appended but did not write (after the migrations ran). */
  async open(): Promise<void> {
    if (!this.journal) return;
    const applied = Number((await sql<{ applied_seq: string }>`SELECT applied_seq FROM quota_journal_state`.execute(this.db)).rows[0].applied_seq);
    this.queued = this.durable = applied;
    const text = existsSync(this.journal.path) ? readFileSync(this.journal.path, 'utf8') : '';
    /** charges whose request never answered: neither settled nor refunded */
    const unanswered = new Map<number, { accountId: string; day: string }>();
    // a line cut short by the crash has no newline: its write never returned, nothing was acknowledged
    for (const line of text.split('\n').slice(0, -1)) {
      const [seqText, accountId, day, unitsText, tag] = line.split(' ');
      const [seq, units] = [Number(seqText), Number(unitsText)];
      if (!line || unitsText === undefined || !Number.isInteger(seq) || !Number.isInteger(units)) continue;
      if (tag === 'c') unanswered.set(seq, { accountId, day });
      else if (tag?.startsWith('s') || tag?.startsWith('r')) unanswered.delete(Number(tag.slice(1)));
      if (seq <= applied) continue;
      this.queued = Math.max(this.queued, seq);
      this.addPending(accountId, day, units);
    }
    if (unanswered.size > 0) {
      // one more sequence number: the refunds are written with everything else, then the journal is emptied
      this.queued++;
      for (const { accountId, day } of unanswered.values()) this.addPending(accountId, day, -1);
      this.recoveredRefunds = unanswered.size;
    }
    await this.write();
    if (this.queued !== this.durable) throw new Error('the quota journal could not be written to the store');
    writeFileSync(this.journal.path, '');
    this.journalFd = openSync(this.journal.path, 'a');
  }

  /** Writes what is pending and closes the journal (empty once everything is written). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.flushTimer);
    // a charge still pending now never answers (the server stops after its requests end: normally none)
    for (const [seq, line] of [...this.unsettled]) {
      const [, accountId, day] = line.split(' ');
      this.record(accountId, day, -1, `r${seq}`);
    }
    await this.serial(() => this.write());
    if (this.journalFd !== undefined) {
      closeSync(this.journalFd);
      this.journalFd = undefined;
      if (this.unwritten.length === 0) writeFileSync(this.journal!.path, '');
    }
  }

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
                 coalesce((SELECT sum(q.used) FROM quota_usage q
                   WHERE q.account_id = a.id AND q.day >= ${weekStart}::date AND q.day < ${weekStart}::date + 7), 0) AS week_used
            FROM accounts a WHERE a.id = ${accountId}::uuid`.execute(this.db);
        if (!row.rows[0]) throw new Error(`unknown account ${accountId}`);
        const r = row.rows[0];
        const state: AccountState = {
          day, weekStart, daily: r.daily_quota, weekly: r.weekly_quota, dayUsed: Number(r.day_used), weekUsed: Number(r.week_used),
        };
        this.accounts.set(accountId, state);
        return state;
      }).finally(() => this.loading.delete(key));
      this.loading.set(key, load);
    }
    return load;
  }

  /** Adds `units` (negative: a refund) to the account's day; returns the sequence number to wait for.
   * `tag`: `c` a charge that stays pending until settled, `r<seq>` the refund of charge seq. */
  record(accountId: string, day: string, units: number, tag?: string): number {
    if (this.journalFd !== undefined) {
      // stored before anything changes: a failed append fails the charge, nothing half-done
      const seq = this.queued + 1;
      const line = `${seq} ${accountId} ${day} ${units}${tag ? ` ${tag}` : ''}\n`;
      writeSync(this.journalFd, line);
      this.unwritten.push({ seq, line });
      if (tag === 'c') this.unsettled.set(seq, line);
      else if (tag?.startsWith('r')) this.unsettled.delete(Number(tag.slice(1)));
      this.scheduleFlush();
    }
    const state = this.accounts.get(accountId);
    if (state && state.day === day) { state.dayUsed += units; state.weekUsed += units; }
    else if (state) this.accounts.delete(accountId); // another day's unit: read the windows again next time
    this.addPending(accountId, day, units);
    return ++this.queued;
  }

  /** The answer of charge `seq` has been sent: one synchronous append, so a crash after it keeps the unit. */
  settle(seq: number, accountId: string, day: string): void {
    if (this.journalFd === undefined || !this.unsettled.has(seq)) return;
    this.record(accountId, day, 0, `s${seq}`);
    this.unsettled.delete(seq);
  }

  private addPending(accountId: string, day: string, units: number): void {
    const key = `${accountId} ${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.units += units; else this.pending.set(key, { accountId, day, units });
  }

  /** Journal mode: the batch write of what was appended, JOURNAL_FLUSH_MS later (a failed write is retried at the next). */
  private scheduleFlush(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.serial(() => this.write()).then(() => {
        if (this.queued !== this.durable) this.scheduleFlush();
      }, () => this.scheduleFlush());
    }, this.journal!.flushMs);
    this.flushTimer.unref();
  }

  /** Resolves once the units recorded up to `seq` are written. */
  persisted(seq: number): Promise<void> {
    // journal mode: record() appended the unit before returning its number
    if (seq <= this.durable || this.journalFd !== undefined) return Promise.resolve();
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
      const upsert = sql`INSERT INTO quota_usage AS q (account_id, day, used)
          VALUES ${sql.join(batch.map((e) => sql`(${e.accountId}::uuid, ${e.day}::date, ${e.units}::integer)`))}
          ON CONFLICT (account_id, day) DO UPDATE SET used = greatest(0, q.used + excluded.used)`;
      if (this.journal) {
        // one statement, so the units and the sequence number they reach are committed together
        if (batch.length) await sql`WITH units AS (${upsert}) UPDATE quota_journal_state SET applied_seq = ${upTo}`.execute(this.db);
        else await sql`UPDATE quota_journal_state SET applied_seq = ${upTo}`.execute(this.db);
      } else if (batch.length) {
        await upsert.execute(this.db);
      }
      this.durable = upTo;
      if (this.journalFd !== undefined) this.trimJournal(upTo);
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

  /** Drops the journal's lines up to `upTo` from memory; rewrites the file once it is large. */
  private trimJournal(upTo: number): void {
    let k = 0;
    while (k < this.unwritten.length && this.unwritten[k].seq <= upTo) k++;
    this.unwritten = this.unwritten.slice(k);
    if (fstatSync(this.journalFd!).size < this.journal!.rotateBytes) return;
    // synchronous, so no record() comes between: the new file holds exactly the unwritten lines and the
    // charges still pending (already written ones are skipped at replay by their sequence number)
    const path = this.journal!.path;
    const kept = new Map(this.unwritten.map((u) => [u.seq, u.line]));
    for (const [seq, line] of this.unsettled) kept.set(seq, line);
    writeFileSync(`${path}.next`, [...kept].sort((a, b) => a[0] - b[0]).map(([, line]) => line).join(''));
    renameSync(`${path}.next`, path);
    closeSync(this.journalFd!);
    this.journalFd = openSync(path, 'a');
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
export function useQuotaLedger(db: Kysely<Schema>, journal?: JournalOptions): QuotaLedger {
  let ledger = ledgers.get(db);
  if (!ledger) ledgers.set(db, ledger = new QuotaLedger(db, journal));
  return ledger;
}

export function quotaLedger(db: Kysely<Schema>): QuotaLedger | undefined {
  return ledgers.get(db);
}
