import type { Route } from '../app-types.ts';
import { AdminAccountParams, ApiKeyList, problemAnswer } from '../schemas.ts';
import { listApiKeys } from '../../store/api-keys.ts';
import { adminAccountNamed, adminKeyView } from './admin-account-view.ts';

/** GET /v1/admin/accounts/{name}/keys — an account's keys, revoked ones included (`horizon keys list`). */
export const adminKeysList: Route = (app, deps) => {
  app.get('/v1/admin/accounts/:name/keys', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'List an account\'s API keys (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      params: AdminAccountParams,
      response: {
        200: { description: 'The account\'s keys (never their secrets)', content: { 'application/json': { schema: ApiKeyList } } },
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('No account has this name, or the admin operations are off (HORIZON_ADMIN_TOKEN is not set)'),
      },
    },
  }, async (request) => {
    const account = await adminAccountNamed(deps.database.db, request.params.name);
    return { keys: (await listApiKeys(deps.database.db, account.id)).map(adminKeyView) };
  });
};
