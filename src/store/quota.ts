// Quotas (contract B.7): a UTC-day window and an ISO-week window (Monday 00:00 UTC) per account.
// The charge is one SQL call to horizon_charge (migration 001), exact under concurrency.
import { sql, type Kysely } from 'kysely';
import type { Schema } from './database.ts';

const DAY_MS = 86_400_000;

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
  limit: number;
  remaining: number;
  /** epoch seconds when the binding window resets */
  reset: number;
  /** when refused: which window is exhausted */
  exhausted?: 'daily' | 'weekly';
  retryAfterSeconds?: number;
}

export async function chargeQuota(db: Kysely<Schema>, accountId: string, now: Date = new Date()): Promise<QuotaDecision> {
  const w = quotaWindows(now);
  const { rows } = await sql<{ admitted: boolean; day_used: number; week_used: number; daily_quota: number; weekly_quota: number }>`
    SELECT * FROM horizon_charge(${accountId}::uuid, ${w.day}::date, ${w.weekStart}::date)`.execute(db);
  const r = rows[0];
  const dayLeft = Math.max(0, r.daily_quota - r.day_used);
  const weekLeft = Math.max(0, r.weekly_quota - r.week_used);
  // the binding window is the one with less room; on a tie the day, which resets first
  const weekBinds = weekLeft < dayLeft;
  const decision: QuotaDecision = {
    admitted: r.admitted,
    limit: weekBinds ? r.weekly_quota : r.daily_quota,
    remaining: Math.min(dayLeft, weekLeft),
    reset: weekBinds ? w.weekResetsAt : w.dayResetsAt,
  };
  if (!r.admitted) {
    // when both are exhausted, the week is the one that decides when a retry can succeed
    const weekExhausted = r.week_used >= r.weekly_quota;
    decision.exhausted = weekExhausted ? 'weekly' : 'daily';
    decision.limit = weekExhausted ? r.weekly_quota : r.daily_quota;
    decision.reset = weekExhausted ? w.weekResetsAt : w.dayResetsAt;
    decision.retryAfterSeconds = Math.max(1, Math.ceil(decision.reset - now.getTime() / 1000));
  }
  return decision;
}

/** Gives back one unit charged on `chargedAt`'s day (a request that failed with a 5xx). */
export async function refundQuota(db: Kysely<Schema>, accountId: string, chargedAt: Date): Promise<void> {
  const { day } = quotaWindows(chargedAt);
  await db.updateTable('quota_usage')
    .set((eb) => ({ used: eb('used', '-', 1) }))
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .where('used', '>', 0)
    .execute();
}
