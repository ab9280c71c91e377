import type { AccountOverview } from '../../store/accounts.ts';

/** An account as the admin operations answer it (schemas.ts AdminAccount). */
export function adminView(a: AccountOverview) {
  return {
    id: a.id, name: a.name, daily_quota: a.daily_quota, weekly_quota: a.weekly_quota,
    disabled: a.disabled_at !== null, disabled_at: a.disabled_at?.toISOString() ?? null,
    used_today: a.used_today, used_this_week: a.used_this_week, created_at: a.created_at.toISOString(),
  };
}
