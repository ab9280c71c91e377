// Charges one request against the account's quota and writes the X-RateLimit-* headers
// (contract B.7); a refused charge becomes a 429 naming the exhausted window.
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { HorizonError } from '../errors.ts';
import type { Schema } from '../store/database.ts';
import { chargeQuotaDeferred, refundQuota } from '../store/quota.ts';

export interface Charge {
  /** gives the unit back (the request failed with a 5xx) */
  refund(): Promise<void>;
  /** resolves once the unit is stored (an embedded store writes units in batches): awaited before answering */
  persisted(): Promise<void>;
}

export async function chargeRequest(db: Kysely<Schema>, accountId: string, reply: FastifyReply): Promise<Charge> {
  const chargedAt = new Date();
  const { decision, persisted } = await chargeQuotaDeferred(db, accountId, chargedAt);
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
  return {
    persisted,
    refund: async () => {
      await refundQuota(db, accountId, chargedAt);
      telemetry?.quotaUnits.inc({ account_id: accountId, outcome: 'refunded' });
    },
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
        `this request needs ${units} units (one per model) and only ${left} ${left === 1 ? 'is' : 'are'} left: ${error.message.replace(' is used up;', ` has ${left} left;`)}`,
        { headers: { ...error.headers, 'x-ratelimit-remaining': String(left) } });
    }
    throw error;
  }
  return {
    refund: async () => { for (const charge of charges) await charge.refund(); },
    persisted: async () => { await Promise.all(charges.map((charge) => charge.persisted())); },
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
    if (status >= 500) await charge.refund();
    throw error;
  }
}
