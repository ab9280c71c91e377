import type { Route } from '../app-types.ts';
import { AdminKeyParams, ApiKey, problemAnswer } from '../schemas.ts';
import { HorizonError } from '../../errors.ts';
import { revokeApiKey } from '../../store/api-keys.ts';
import { adminAccountNamed, adminKeyView } from './admin-account-view.ts';
import { UUID_PATTERN } from './job-view.ts';

/** DELETE /v1/admin/accounts/{name}/keys/{id} — revokes an account's key at once (`horizon keys revoke`). */
export const adminKeysRevoke: Route = (app, deps) => {
  app.delete('/v1/admin/accounts/:name/keys/:id', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'Revoke an account\'s API key (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      params: AdminKeyParams,
      response: {
        200: { description: 'The revoked key; it gets 401 from now on', content: { 'application/json': { schema: ApiKey } } },
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('No such account, no active key with this id in it, or the admin operations are off'),
      },
    },
  }, async (request) => {
    const { name, id } = request.params;
    const account = await adminAccountNamed(deps.database.db, name);
    const key = UUID_PATTERN.test(id) ? await revokeApiKey(deps.database.db, account.id, id) : undefined;
    if (!key) throw new HorizonError('not_found', `no active key with id "${id}" in account "${name}"`);
    deps.keyCache?.forget(key.id);
    return adminKeyView(key);
  });
};
