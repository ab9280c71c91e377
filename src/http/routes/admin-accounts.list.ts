import type { Route } from '../app-types.ts';
import { AdminAccountList, problemAnswer } from '../schemas.ts';
import { listAccounts } from '../../store/accounts.ts';
import { adminView } from './admin-account-view.ts';

/** GET /v1/admin/accounts — every account with its quotas, state and current usage (operator token). */
export const adminAccountsList: Route = (app, deps) => {
  app.get('/v1/admin/accounts', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'List accounts (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      response: {
        200: { description: 'Every account, by name, with its quotas (0 = unlimited), state and the usage of ' +
          'the current windows', content: { 'application/json': { schema: AdminAccountList } } },
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('The admin operations are off: HORIZON_ADMIN_TOKEN is not set'),
      },
    },
  }, async () => ({ accounts: (await listAccounts(deps.database.db)).map(adminView) }));
};
