import type { Kysely } from 'kysely';
import type { AccountOverview, Account } from '../../store/accounts.ts';
import { findAccountByName } from '../../store/accounts.ts';
import type { ApiKeyInfo } from '../../store/api-keys.ts';
import type { Schema } from '../../store/database.ts';
import { HorizonError } from '../../errors.ts';

/** An account as the admin operations answer it (schemas.ts AdminAccount). */
export function adminView(a: AccountOverview) {
  return {
    id: a.id, name: a.name, daily_quota: a.daily_quota, weekly_quota: a.weekly_quota,
    disabled: a.disabled_at !== null, disabled_at: a.disabled_at?.toISOString() ?? null,
    used_today: a.used_today, used_this_week: a.used_this_week, created_at: a.created_at.toISOString(),
  };
}

/** A key as listed (schemas.ts ApiKey): never its secret or hash. */
export function adminKeyView(k: ApiKeyInfo) {
  return { id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at.toISOString(), revoked_at: k.revoked_at?.toISOString() ?? null };
}

/** The account of an admin path's {name}; 404 naming it when there is none. */
export async function adminAccountNamed(db: Kysely<Schema>, name: string): Promise<Account> {
  const account = await findAccountByName(db, name);
  if (!account) throw new HorizonError('not_found', `no account named "${name}"`);
  return account;
}
