// Charges one request against the account's quota and writes the X-RateLimit-* headers
// (contract B.7); a refused charge becomes a 429 naming the exhausted window.
// A charged unit stays pending until its answer is sent (issue 24): the onSend hook installed by
// installChargeSettlement settles it once the answer's last byte is with the kernel (the response's
// 'finish'), refunds it when the answer is a 5xx or the connection closes before the answer is out (also
// when the client of the request it was made for, through app.inject, did: client-gone.ts); a
// job's unit is settled with the job's row (settleWith). A crash in between leaves it pending, and
// recovery refunds it (src/store/quota-ledger.ts, src/store/pending-charges.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { HorizonError } from '../errors.ts';
import type { Schema } from '../store/database.ts';
import { chargeQuotaDeferred, refundQuota, settleUnitsWith, type PendingUnit } from '../store/quota.ts';

export interface Charge {
  /** gives the unit back (the request failed with a 5xx) */
  refund(): Promise<void>;
  /** resolves once the unit is stored (an embedded store writes units in batches): awaited before answering */
  persisted(): Promise<void>;
  /** runs `store` (a job insert) and settles the units with it (one transaction on PostgreSQL) */
  settleWith<T>(store: (db: Kysely<Schema>) => Promise<T>): Promise<T>;
  /** the pending units (none on a store without pending charges) */
  units: PendingUnit[];
}

declare module 'fastify' {
  interface FastifyRequest { pendingUnits?: PendingUnit[] }
}

/** Settles a request's pending units once its answer is out (refunds them when it is a 5xx or never leaves). */
export function installChargeSettlement(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const units = request.pendingUnits;
    if (!units?.length) return payload;
    request.pendingUnits = undefined;
    const refund = () => Promise.all(units.map((u) => u.refund()))
      .catch((error: Error) => request.log.warn({ err: error.message }, 'refund failed; recovery will give the unit back'));
    if (reply.statusCode >= 500 || request.clientGone?.aborted) {
      // the error handler's answer: give the units back; a store that is down leaves them to recovery.
      // A client that has gone (client-gone.ts; for a /v1 call made through app.inject, the /nixtla or MCP
      // client it was made for) gets no answer either: its 499, or an answer computed anyway, is not charged
      await refund();
      return payload;
    }
    // 'finish': every byte of the answer is written to the socket, synchronously in the turn that wrote the
    // last one — the settlement's statement is written in that turn too (pending-charges.ts)
    const res = reply.raw;
    if (res.destroyed) {
      // the client left while the answer was computed: it is not given, and no 'close' will come again
      await refund();
      return payload;
    }
    let finished = false;
    res.once('finish', () => {
      finished = true;
      if (res.statusCode >= 500) void refund();
      else void Promise.all(units.map((u) => u.settle())).catch((error: Error) => request.log.warn({ err: error.message }, 'settlement failed'));
    });
    // a connection that closes first (the client left, the socket broke): the answer was not given. (Our own
    // flag, not writableFinished: app.inject()'s response, which MCP's tools answer through, has no socket.)
    res.once('close', () => { if (!finished) void refund(); });
    return payload;
  });
}

function track(request: FastifyRequest, unit: PendingUnit | undefined): void {
  if (unit) (request.pendingUnits ??= []).push(unit);
}

export async function chargeRequest(db: Kysely<Schema>, accountId: string, reply: FastifyReply): Promise<Charge> {
  const chargedAt = new Date();
  const { decision, persisted, unit } = await chargeQuotaDeferred(db, accountId, chargedAt);
  // an unlimited account (both quotas 0) has no window to count down: no X-RateLimit-* headers
  const headers: Record<string, string> = Number.isFinite(decision.limit) ? {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.reset),
  } : {};
  const telemetry = reply.server.telemetry;
  if (!decision.admitted) {
    telemetry?.quotaUnits.inc({ account_id: accountId, outcome: 'refused' });
    const window = decision.exhausted === 'weekly' ? 'weekly (ISO week, Monday 00:00 UTC)' : 'daily (UTC day)';
    throw new HorizonError('quota_exceeded',
      `the ${window} quota of ${decision.limit} requests is used up; it resets at ${new Date(decision.reset * 1000).toISOString()}`,
      { headers: { ...headers, 'retry-after': String(decision.retryAfterSeconds) } });
  }
  reply.headers(headers);
  telemetry?.quotaUnits.inc({ account_id: accountId, outcome: 'charged' });
  track(reply.request, unit);
  return {
    persisted,
    refund: async () => {
      if (unit) await unit.refund(); else await refundQuota(db, accountId, chargedAt);
      telemetry?.quotaUnits.inc({ account_id: accountId, outcome: 'refunded' });
    },
    settleWith: (store) => settleUnitsWith(db, unit ? [unit] : [], store),
    units: unit ? [unit] : [],
  };
}

/** Charges `units` units, all or nothing: a refused unit gives back the ones already taken (then the
 * 429 propagates); the returned charge's refund gives back every unit. */
export async function chargeUnits(db: Kysely<Schema>, accountId: string, reply: FastifyReply, units: number): Promise<Charge> {
  const charges: Charge[] = [];
  try {
    for (let k = 0; k < units; k++) charges.push(await chargeRequest(db, accountId, reply));
  } catch (error) {
    for (const charge of charges) await charge.refund();
    const left = charges.length;
    if (left > 0 && error instanceof HorizonError && error.code === 'quota_exceeded') {
      // the units taken are back: the 429 says what the request needed and what is left, not "used up"
      throw new HorizonError('quota_exceeded',
        `this request needs ${units} units (one per model) and only ${left} ${left === 1 ? 'is' : 'are'} ` +
        `left: ${error.message.replace(' is used up;', ` has ${left} left;`)}`,
        { headers: { ...error.headers, 'x-ratelimit-remaining': String(left) } });
    }
    throw error;
  }
  return {
    refund: async () => { for (const charge of charges) await charge.refund(); },
    persisted: async () => { await Promise.all(charges.map((charge) => charge.persisted())); },
    settleWith: (store) => settleUnitsWith(db, charges.flatMap((charge) => charge.units), store),
    units: charges.flatMap((charge) => charge.units),
  };
}

/** Runs `work` under a charge: a 5xx from it refunds the unit before the error propagates. The
 * result is returned once the unit is stored; the unit's write (an embedded store's batch) is started
 * just after `work`, so that it overlaps the model call instead of delaying the answer. */
export async function withRefundOn5xx<T>(charge: Charge, work: () => Promise<T>): Promise<T> {
  try {
    const running = work();
    const stored = charge.persisted();
    stored.catch(() => undefined); // awaited below; a failure of `work` comes first
    const result = await running;
    await stored;
    return result;
  } catch (error) {
    const status = error instanceof HorizonError ? error.status : 500;
    // 499 client_closed_request: the client went away and its model calls were dropped (client-gone.ts)
    if (status >= 499) await charge.refund();
    throw error;
  }
}
