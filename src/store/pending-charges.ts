// Pending charges of a PostgreSQL store (migration 008): a unit charged by this process stays pending
// until its answer is sent (settle) or its request fails (refund). This process holds a lease in
// api_instances, renewed every lease/3; every renewal also runs the recovery, which refunds the
// pending units of any process whose lease lapsed (kill -9, a lost machine) — so the units of a dead
// replica are given back by another replica, or by the same deployment's next start.
// A unit is settled once its answer's last byte is with the kernel (src/http/charge.ts), in the same
// turn of the event loop: a kill -9 can fall only between two socket writes, not across a database
// round trip and fsync as when the settlement came first. Its answer is given by then, so a settlement
// never fails the answer: one the database refuses is retried at each renewal, and one whose unit recovery
// already refunded (this process's lease lapsed) charges the unit again.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from './schema.ts';

/** A pending charge's row is gone before it was settled: recovery refunded it (this process's lease lapsed). */
export class ChargeLostError extends Error {}

/** A unit to settle: its pending_charges row, and where to charge it again if recovery refunded it. */
export interface Settlement { id: string; accountId: string; day: string }

export class PendingCharges {
  readonly instanceId = randomUUID();
  private readonly db: Kysely<Schema>;
  private readonly leaseSeconds: number;
  private timer?: NodeJS.Timeout;
  private waiting: Settlement[] = [];
  /** settlements the database refused (it was down): retried at every renewal, before anything else */
  private readonly settlesDue = new Map<string, Settlement>();
  /** units charged again because recovery had refunded them before their answer's settlement (tests read it) */
  chargedAgain = 0;
  private renewing?: Promise<void>;
  /** refunds that failed (the database was unreachable): retried at every renewal, so a live process gives them back too */
  private readonly refundsDue = new Set<string>();

  /** the settlements' own connections (a small pool of their own): a settlement must be written in the turn its
   * answer left, not wait behind the main pool's queries for a connection (the soak saw a kill fall in such a wait) */
  private readonly settleDb: Kysely<Schema>;

  constructor(db: Kysely<Schema>, leaseSeconds: number, settleDb: Kysely<Schema> = db) {
    this.db = db;
    this.settleDb = settleDb;
    this.leaseSeconds = leaseSeconds;
  }

  /** Takes the lease and recovers what dead processes left pending (before this process charges anything). */
  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => {
      // a failed renewal (the database is down) is retried at the next tick; recovery waits for it too
      if (!this.renewing) this.renewing = this.renew().then(() => undefined, () => undefined).finally(() => { this.renewing = undefined; });
    }, Math.max(100, (this.leaseSeconds * 1000) / 3));
    this.timer.unref();
  }

  /** Renews this process's lease, then refunds the pending units of processes whose lease lapsed. */
  async renew(): Promise<number> {
    // on the settlements' pool: each renewal keeps a connection of it open (one reopened after a restart of PostgreSQL)
    await sql`INSERT INTO api_instances (id) VALUES (${this.instanceId}::uuid)
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`.execute(this.settleDb);
    // owed settlements first: the clean-up below deletes settled rows, and a retry must still find its row
    if (this.settlesDue.size > 0) {
      const due = [...this.settlesDue.values()];
      await this.settleNow(due);
      for (const s of due) this.settlesDue.delete(s.id);
    }
    if (this.refundsDue.size > 0) {
      const due = [...this.refundsDue];
      await refundCharges(this.db, due);
      for (const id of due) this.refundsDue.delete(id);
    }
    // this process's settled rows once no refund can need them any more
    await sql`DELETE FROM pending_charges WHERE instance_id = ${this.instanceId}::uuid AND settled
      AND created_at < now() - make_interval(secs => ${this.leaseSeconds * 2})`.execute(this.db);
    return recoverCharges(this.db, this.leaseSeconds);
  }

  /** Gives the unit of charge `id` back; when the database cannot be reached now, at a later renewal. */
  async refund(id: string): Promise<void> {
    try {
      await refundCharges(this.db, [id]);
    } catch {
      this.refundsDue.add(id);
    }
  }

  /** Stops renewing; what is still pending (nothing after a graceful close) is refunded now. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    // the settlements of answers already sent first: the refund below would give their units back
    while (this.flushing.size > 0) await Promise.all(this.flushing);
    if (this.settlesDue.size > 0) await this.settleNow([...this.settlesDue.values()]).then(() => this.settlesDue.clear(), () => undefined);
    const owed = `{${[...this.refundsDue].join(',')}}`;
    const refunded = await sql`SELECT horizon_refund_pending(coalesce(array_agg(id), '{}'::bigint[])) FROM pending_charges
      WHERE instance_id = ${this.instanceId}::uuid AND (NOT settled OR id = ANY(${owed}::bigint[]))`.execute(this.db).then(() => true, () => false);
    // a refund that failed leaves the rows: once this lease is gone, recovery (any replica, or the next start) refunds them
    if (refunded) await sql`DELETE FROM pending_charges WHERE instance_id = ${this.instanceId}::uuid`.execute(this.db).catch(() => undefined);
    await sql`DELETE FROM api_instances WHERE id = ${this.instanceId}::uuid`.execute(this.db).catch(() => undefined);
  }

  /** The answer of charge `id` has been sent: its unit stays. Settlements of one turn of the event loop go in
   * one statement, written at once (no batching delay: the window a kill -9 can hit is this short). Never
   * rejects: a failure is retried at the next renewals. */
  settle(settlement: Settlement): Promise<void> {
    if (this.waiting.push(settlement) === 1) queueMicrotask(() => void this.flush());
    return this.flushed ??= new Promise<void>((resolve) => { this.resolveFlushed = resolve; });
  }

  private flushed?: Promise<void>;
  private resolveFlushed?: () => void;
  /** settlement statements in flight (stop() waits for them) */
  private readonly flushing = new Set<Promise<void>>();

  private flush(): Promise<void> {
    const batch = this.waiting;
    const resolve = this.resolveFlushed!;
    this.waiting = [];
    this.flushed = undefined;
    const done = this.settleNow(batch).catch(() => { for (const s of batch) this.settlesDue.set(s.id, s); })
      .finally(() => { this.flushing.delete(done); resolve(); });
    this.flushing.add(done);
    return done;
  }

  /** Marks the batch's rows settled; a unit whose row recovery deleted (refunded) is charged again. */
  private async settleNow(batch: Settlement[]): Promise<void> {
    const found = new Set(await settleCharges(this.settleDb, batch.map((s) => s.id)));
    const lost = batch.filter((s) => !found.has(s.id));
    if (lost.length === 0) return;
    const values = sql.join(lost.map((s) => sql`(${s.accountId}::uuid, ${s.day}::date, 1)`));
    await sql`INSERT INTO quota_usage AS q (account_id, day, used)
      SELECT account_id, day, sum(used)::integer FROM (VALUES ${values}) AS v(account_id, day, used)
      GROUP BY account_id, day ON CONFLICT (account_id, day) DO UPDATE SET used = q.used + excluded.used`.execute(this.settleDb);
    this.chargedAgain += lost.length;
  }
}

/** Marks the rows `ids` settled (their units stay charged); returns the ids whose row is still there (a
 * retry of a settlement whose first try committed finds its row settled already: it is not lost). */
export async function settleCharges(db: Kysely<Schema> | Transaction<Schema>, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: string }>`UPDATE pending_charges SET settled = true
    WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) RETURNING id::text AS id`.execute(db);
  return rows.map((r) => r.id);
}

/** Refunds the pending charges `ids` that are still pending (a 5xx); returns the units given back. */
export async function refundCharges(db: Kysely<Schema>, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`SELECT horizon_refund_pending(${`{${ids.join(',')}}`}::bigint[]) AS n`.execute(db);
  return rows[0].n;
}

/** Refunds every pending charge of a process whose lease lapsed `leaseSeconds` ago or more. */
export async function recoverCharges(db: Kysely<Schema>, leaseSeconds: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT horizon_recover_charges(make_interval(secs => ${leaseSeconds})) AS n`.execute(db);
  return rows[0].n;
}

const registries = new WeakMap<Kysely<Schema>, PendingCharges>();

/** Marks `db` (PostgreSQL) as charging with pending units under this process's lease. */
export function usePendingCharges(db: Kysely<Schema>, leaseSeconds: number, settleDb?: Kysely<Schema>): PendingCharges {
  let registry = registries.get(db);
  if (!registry) registries.set(db, registry = new PendingCharges(db, leaseSeconds, settleDb));
  return registry;
}

export function pendingCharges(db: Kysely<Schema>): PendingCharges | undefined {
  return registries.get(db);
}
