import { sql, type Kysely } from 'kysely';
import type { Schema } from './database.ts';
import { quotaWindows } from './quota.ts';
import { quotaLedger } from './quota-ledger.ts';

export interface Account {
  id: string;
  name: string;
  /** 0 = unlimited */
  daily_quota: number;
  /** 0 = unlimited */
  weekly_quota: number;
  created_at: Date;
  disabled_at: Date | null;
}

/** An account as the operator sees it: its quotas and what the current windows have used. */
export interface AccountOverview extends Account {
  used_today: number;
  used_this_week: number;
}

export class AccountExistsError extends Error {}

export async function createAccount(
  db: Kysely<Schema>,
  input: { name: string; dailyQuota?: number; weeklyQuota?: number },
): Promise<Account> {
  try {
    return await db.insertInto('accounts')
      .values({ name: input.name, daily_quota: input.dailyQuota, weekly_quota: input.weeklyQuota })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new AccountExistsError(`account "${input.name}" already exists`);
    throw error;
  }
}

export async function findAccountByName(db: Kysely<Schema>, name: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function countAccounts(db: Kysely<Schema>): Promise<number> {
  const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setQuotas(db: Kysely<Schema>, accountId: string, quotas: { daily?: number; weekly?: number }): Promise<void> {
  await db.updateTable('accounts')
    .set({ daily_quota: quotas.daily, weekly_quota: quotas.weekly })
    .where('id', '=', accountId)
    .execute();
  quotaLedger(db)?.forget(accountId);
}

export interface AccountChanges {
  dailyQuota?: number;
  weeklyQuota?: number;
  disabled?: boolean;
}

/** Changes an account by name; undefined when there is none. The charge reads the quotas on every
 * request (horizon_charge; an embedded store's ledger reads them again), so a change applies to the next one. Re-disabling keeps the first date. */
export async function updateAccount(db: Kysely<Schema>, name: string, changes: AccountChanges): Promise<Account | undefined> {
  const { dailyQuota, weeklyQuota, disabled } = changes;
  if (dailyQuota === undefined && weeklyQuota === undefined && disabled === undefined) return findAccountByName(db, name);
  const updated = await db.updateTable('accounts')
    .set({
      daily_quota: dailyQuota,
      weekly_quota: weeklyQuota,
      disabled_at: disabled === undefined ? undefined : disabled ? sql<Date>`coalesce(disabled_at, now())` : null,
    })
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst();
  if (updated) quotaLedger(db)?.forget(updated.id);
  return updated;
}

/** Every account (by name) with the usage of the current UTC day and ISO week. */
export async function listAccounts(db: Kysely<Schema>, now: Date = new Date(), name?: string): Promise<AccountOverview[]> {
  const { day, weekStart } = quotaWindows(now);
  await quotaLedger(db)?.flush(); // units still being written count
  let query = db.selectFrom('accounts as a')
    .leftJoin('quota_usage as q', (join) => join.onRef('q.account_id', '=', 'a.id').on('q.day', '>=', sql<string>`${weekStart}::date`).on(
      'q.day', '<', sql<string>`${weekStart}::date + 7`,
    ))
    .select(['a.id', 'a.name', 'a.daily_quota', 'a.weekly_quota', 'a.created_at', 'a.disabled_at'])
    .select([
      sql<string>`coalesce(sum(q.used) FILTER (WHERE q.day = ${day}::date), 0)`.as('used_today'),
      sql<string>`coalesce(sum(q.used), 0)`.as('used_this_week'),
    ])
    .groupBy('a.id')
    .orderBy('a.name');
  if (name !== undefined) query = query.where('a.name', '=', name);
  const rows = await query.execute();
  return rows.map((r) => ({ ...r, used_today: Number(r.used_today), used_this_week: Number(r.used_this_week) }));
}

/** One account's overview, by name. */
export async function accountOverview(db: Kysely<Schema>, name: string, now: Date = new Date()): Promise<AccountOverview | undefined> {
  return (await listAccounts(db, now, name))[0];
}

/** One account's overview, by id (the account of an API key: GET /nixtla/usage). */
export async function accountOverviewById(db: Kysely<Schema>, accountId: string, now: Date = new Date()): Promise<AccountOverview | undefined> {
  const account = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return account && accountOverview(db, account.name, now);
}
