// Quotas (contract B.7): a UTC-day window and an ISO-week window (Monday 00:00 UTC) per account.
// A charge is one call of the SQL function horizon_charge (migrations 001/002), exact under
// concurrency. Concurrent charges of one account are coalesced into one call (group commit): the
// charges of one event-loop turn, and those arriving while a call is in flight, go together in arrival order.
// An embedded store decides in memory and writes units in batches instead (src/store/quota-ledger.ts).
import { sql, type Kysely } from 'kysely';
import type { Schema } from './database.ts';
import { quotaLedger } from './quota-ledger.ts';
import { pendingCharges, settleCharges, ChargeLostError } from './pending-charges.ts';

const DAY_MS = 86_400_000;
const MAX_GROUP = 512;

export interface QuotaWindows {
  day: string;        // YYYY-MM-DD
  weekStart: string;  // YYYY-MM-DD, a Monday
  dayResetsAt: number;   // epoch seconds
  weekResetsAt: number;  // epoch seconds
}

export function quotaWindows(now: Date): QuotaWindows {
  const dayStartMs = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const isoWeekday = (new Date(dayStartMs).getUTCDay() + 6) % 7; // Monday = 0
  const weekStartMs = dayStartMs - isoWeekday * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    day: iso(dayStartMs),
    weekStart: iso(weekStartMs),
    dayResetsAt: (dayStartMs + DAY_MS) / 1000,
    weekResetsAt: (weekStartMs + 7 * DAY_MS) / 1000,
  };
}

export interface QuotaDecision {
  admitted: boolean;
  /** Infinity when both windows are unlimited (quota 0) */
  limit: number;
  remaining: number;
  /** epoch seconds when the binding window resets */
  reset: number;
  /** when refused: which window is exhausted */
  exhausted?: 'daily' | 'weekly';
  retryAfterSeconds?: number;
}

interface ChargeRow { admitted: number; day_used_before: number; week_used_before: number; daily_quota: number; weekly_quota: number; charge_ids?: string[] }

/** The decision for the request at `position` (0-based) of a group charged together. */
function decide(row: ChargeRow, position: number, windows: QuotaWindows, now: Date): QuotaDecision {
  const admitted = position < row.admitted;
  const dayUsed = row.day_used_before + Math.min(position + 1, row.admitted);
  const weekUsed = row.week_used_before + Math.min(position + 1, row.admitted);
  // a quota of 0 is unlimited (migration 004): a window without a cap never binds
  const daily = row.daily_quota === 0 ? Infinity : row.daily_quota;
  const weekly = row.weekly_quota === 0 ? Infinity : row.weekly_quota;
  const dayLeft = Math.max(0, daily - dayUsed);
  const weekLeft = Math.max(0, weekly - weekUsed);
  // the binding window is the one with less room; on a tie the day, which resets first
  const weekBinds = weekLeft < dayLeft;
  const decision: QuotaDecision = {
    admitted,
    limit: weekBinds ? weekly : daily,
    remaining: Math.min(dayLeft, weekLeft),
    reset: weekBinds ? windows.weekResetsAt : windows.dayResetsAt,
  };
  if (!admitted) {
    // when both are exhausted, the week decides when a retry can succeed
    const weekExhausted = weekUsed >= weekly;
    decision.exhausted = weekExhausted ? 'weekly' : 'daily';
    decision.limit = weekExhausted ? weekly : daily;
    decision.reset = weekExhausted ? windows.weekResetsAt : windows.dayResetsAt;
    decision.remaining = 0;
    decision.retryAfterSeconds = Math.max(1, Math.ceil(decision.reset - now.getTime() / 1000));
  }
  return decision;
}

type Charged = QuotaDecision & { chargeId?: string; day: string };

interface Waiter { now: Date; resolve(d: Charged): void; reject(e: unknown): void }

const queues = new WeakMap<Kysely<Schema>, Map<string, { waiting: Waiter[]; running: boolean }>>();

async function chargeGroup(db: Kysely<Schema>, accountId: string, group: Waiter[]): Promise<void> {
  // one group, one window: the first waiter's clock (a group spans microseconds)
  const now = group[0].now;
  const windows = quotaWindows(now);
  const pending = pendingCharges(db);
  try {
    // with pending charges (migration 008) each admitted unit gets a row that its answer settles
    const { rows } = pending
      ? await sql<ChargeRow>`
      SELECT admitted, day_used_before, week_used_before, daily_quota, weekly_quota, charge_ids::text[] AS charge_ids
        FROM horizon_charge_pending(${accountId}::uuid, ${windows.day}::date, ${windows.weekStart}::date, ${group.length}::integer,
          ${pending.instanceId}::uuid)`.execute(db)
      : await sql<ChargeRow>`
      SELECT * FROM horizon_charge(${accountId}::uuid, ${windows.day}::date, ${windows.weekStart}::date, ${group.length}::integer)`.execute(db);
    group.forEach((w, i) => w.resolve({ ...decide(rows[0], i, windows, now), chargeId: rows[0].charge_ids?.[i], day: windows.day }));
  } catch (error) {
    for (const w of group) w.reject(error);
  }
}

/** An admitted unit whose answer is not sent yet (issue 24): settled when it is, refunded when it fails;
 * a crash leaves it pending, and recovery refunds it. Settling or refunding twice does nothing. */
export interface PendingUnit {
  /** the answer has been sent: the unit stays (PostgreSQL: a unit recovery refunded meanwhile is charged again) */
  settle(): Promise<void>;
  /** the request failed: the unit is given back */
  refund(): Promise<void>;
  /** PostgreSQL: its pending_charges row (settled inside a job's transaction by settleUnitsWith) */
  readonly chargeId?: string;
  /** still neither settled nor refunded */
  readonly pending: boolean;
  /** settled by someone else (settleUnitsWith's transaction committed) */
  markSettled(): void;
}

/** Settles or refunds at most once, whichever comes first. */
class OnceUnit implements PendingUnit {
  private state: 'pending' | 'settled' | 'refunded' = 'pending';
  readonly chargeId?: string;
  private readonly doSettle: () => Promise<void>;
  private readonly doRefund: () => Promise<void>;
  constructor(doSettle: () => Promise<void>, doRefund: () => Promise<void>, chargeId?: string) {
    this.doSettle = doSettle;
    this.doRefund = doRefund;
    this.chargeId = chargeId;
  }
  get pending(): boolean { return this.state === 'pending'; }
  markSettled(): void { this.state = 'settled'; }
  // settled from the moment it starts: a refund that comes while the settlement is written does nothing
  async settle(): Promise<void> { if (this.state !== 'pending') return; this.state = 'settled'; await this.doSettle(); }
  async refund(): Promise<void> { if (this.state !== 'pending') return; this.state = 'refunded'; await this.doRefund(); }
}

/** Runs `store` (a job insert) and settles `units` with it: in one transaction on PostgreSQL (a stored
 * job is always a charged one, and the other way round), right after it on the embedded store (its
 * settlement is one synchronous journal append). */
export async function settleUnitsWith<T>(db: Kysely<Schema>, units: PendingUnit[], store: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
  if (units.some((u) => !u.pending)) throw new ChargeLostError('a unit of this request was already settled or refunded');
  const ids = units.map((u) => u.chargeId).filter((id): id is string => id !== undefined);
  if (ids.length === 0) {
    const result = await store(db);
    for (const unit of units) await unit.settle();
    return result;
  }
  const result = await db.transaction().execute(async (trx) => {
    const stored = await store(trx);
    const settled = await settleCharges(trx, ids);
    if (settled.length !== ids.length) throw new ChargeLostError('a pending charge was refunded by recovery before its job was stored');
    return stored;
  });
  for (const unit of units) unit.markSettled();
  return result;
}

/** A decision and, for a store with a ledger, the write of its unit still under way. */
export interface DeferredDecision { decision: QuotaDecision; persisted: () => Promise<void>; unit?: PendingUnit }

const written = () => Promise.resolve();

/** Charges one request; the unit may still be being written when this resolves (see persisted). */
export async function chargeQuotaDeferred(db: Kysely<Schema>, accountId: string, now: Date = new Date()): Promise<DeferredDecision> {
  const ledger = quotaLedger(db);
  if (!ledger) {
    const { chargeId, day, ...decision } = await chargeGroupQueued(db, accountId, now);
    const registry = pendingCharges(db);
    const unit = chargeId && registry ? new OnceUnit(
      () => registry.settle({ id: chargeId, accountId, day }), () => registry.refund(chargeId), chargeId,
    ) : undefined;
    return { decision, persisted: written, unit };
  }
  const windows = quotaWindows(now);
  const usage = await ledger.usage(accountId, windows.day, windows.weekStart);
  const room = Math.min(usage.daily === 0 ? 1 : usage.daily - usage.dayUsed, usage.weekly === 0 ? 1 : usage.weekly - usage.weekUsed);
  const row: ChargeRow = {
    admitted: room > 0 ? 1 : 0, day_used_before: usage.dayUsed, week_used_before: usage.weekUsed, daily_quota: usage.daily, weekly_quota: usage.weekly,
  };
  const decision = decide(row, 0, windows, now);
  if (!decision.admitted) return { decision, persisted: written };
  const seq = ledger.record(accountId, windows.day, 1, 'c');
  const unit = new OnceUnit(
    async () => ledger.settle(seq, accountId, windows.day),
    () => ledger.persisted(ledger.record(accountId, windows.day, -1, `r${seq}`)),
  );
  return { decision, persisted: () => ledger.persisted(seq), unit };
}

/** Charges one request; resolves once its unit is stored. */
export async function chargeQuota(db: Kysely<Schema>, accountId: string, now: Date = new Date()): Promise<QuotaDecision> {
  const { decision, persisted, unit } = await chargeQuotaDeferred(db, accountId, now);
  await persisted();
  await unit?.settle(); // no answer to wait for: the unit is final now
  return decision;
}

function chargeGroupQueued(db: Kysely<Schema>, accountId: string, now: Date = new Date()): Promise<Charged> {
  let perDb = queues.get(db);
  if (!perDb) queues.set(db, perDb = new Map());
  let queue = perDb.get(accountId);
  if (!queue) perDb.set(accountId, queue = { waiting: [], running: false });
  const entry = queue;
  const decision = new Promise<Charged>((resolve, reject) => entry.waiting.push({ now, resolve, reject }));
  if (!entry.running) {
    entry.running = true;
    void (async () => {
      // PGlite runs a query on this thread, so without a pause each charge would finish before the
      // next request is even parsed; waiting for the check phase lets this turn's requests join
      await new Promise((resolve) => setImmediate(resolve));
      while (entry.waiting.length) {
        // waiters with another UTC day go in their own group (tests charge at chosen instants)
        const day = quotaWindows(entry.waiting[0].now).day;
        let n = 0;
        while (n < entry.waiting.length && n < MAX_GROUP && quotaWindows(entry.waiting[n].now).day === day) n++;
        await chargeGroup(db, accountId, entry.waiting.splice(0, n));
      }
      entry.running = false;
      perDb.delete(accountId);
    })();
  }
  return decision;
}

/** Gives back one unit charged on `chargedAt`'s day (a request that failed with a 5xx). */
export async function refundQuota(db: Kysely<Schema>, accountId: string, chargedAt: Date): Promise<void> {
  const { day } = quotaWindows(chargedAt);
  const ledger = quotaLedger(db);
  if (ledger) return ledger.persisted(ledger.record(accountId, day, -1));
  await db.updateTable('quota_usage')
    .set((eb) => ({ used: eb('used', '-', 1) }))
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .where('used', '>', 0)
    .execute();
}
