import type { Kysely } from 'kysely';
import type { Schema } from './database.ts';

export interface Account {
  id: string;
  name: string;
  daily_quota: number;
  weekly_quota: number;
  created_at: Date;
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
}
