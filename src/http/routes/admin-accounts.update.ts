import type { Route } from '../app-types.ts';
import { AdminAccount, AdminAccountParams, AdminAccountUpdate, problemAnswer } from '../schemas.ts';
import { HorizonError } from '../../errors.ts';
import { accountOverview, updateAccount } from '../../store/accounts.ts';
import { adminView } from './admin-account-view.ts';

/** PATCH /v1/admin/accounts/{name} — quotas and disabled state; applies to the account's next request. */
export const adminAccountsUpdate: Route = (app, deps) => {
  app.patch('/v1/admin/accounts/:name', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'Change an account\'s quotas or state (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      params: AdminAccountParams, body: AdminAccountUpdate,
      response: {
        200: { description: 'The account after the change', content: { 'application/json': { schema: AdminAccount } } },
        400: problemAnswer('The body is not valid JSON'),
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('No account has this name, or the admin operations are off (HORIZON_ADMIN_TOKEN is not set)'),
        415: problemAnswer('The body is not application/json'),
        422: problemAnswer('The body names no field, an unknown field, or a quota that is not a non-negative integer'),
      },
    },
  }, async (request) => {
    const { name } = request.params;
    const { daily_quota: dailyQuota, weekly_quota: weeklyQuota, disabled } = request.body;
    const account = await updateAccount(deps.database.db, name, { dailyQuota, weeklyQuota, disabled });
    if (!account) throw new HorizonError('not_found', `no account named "${name}"`);
    // the embedded store's key cache remembers the account's state with each key
    if (disabled !== undefined) deps.keyCache?.forgetAccount(account.id);
    return adminView((await accountOverview(deps.database.db, name))!);
  });
};
