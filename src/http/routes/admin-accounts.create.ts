import type { Route } from '../app-types.ts';
import { AdminAccount, AdminAccountCreate, problemAnswer } from '../schemas.ts';
import { HorizonError } from '../../errors.ts';
import { accountOverview, createAccount, AccountExistsError } from '../../store/accounts.ts';
import { adminView } from './admin-account-view.ts';

/** POST /v1/admin/accounts — a new account (`horizon accounts create` while the server holds the embedded store). */
export const adminAccountsCreate: Route = (app, deps) => {
  app.post('/v1/admin/accounts', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'Create an account (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      body: AdminAccountCreate,
      response: {
        201: { description: 'The new account', content: { 'application/json': { schema: AdminAccount } } },
        400: problemAnswer('The body is not valid JSON'),
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('The admin operations are off: HORIZON_ADMIN_TOKEN is not set'),
        409: problemAnswer('An account with this name exists'),
        415: problemAnswer('The body is not application/json'),
        422: problemAnswer('No name, an unknown field, or a quota that is not a non-negative integer'),
      },
    },
  }, async (request, reply) => {
    const { name, daily_quota: dailyQuota, weekly_quota: weeklyQuota } = request.body;
    try {
      // quotas left out take the store's column defaults; the CLI sends its HORIZON_DEFAULT_*_QUOTA
      await createAccount(deps.database.db, { name, dailyQuota, weeklyQuota });
    } catch (error) {
      if (error instanceof AccountExistsError) throw new HorizonError('account_exists', error.message);
      throw error;
    }
    return reply.code(201).send(adminView((await accountOverview(deps.database.db, name))!));
  });
};
