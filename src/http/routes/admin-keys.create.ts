import type { Route } from '../app-types.ts';
import { AdminAccountParams, ApiKeyCreate, CreatedApiKey, problemAnswer } from '../schemas.ts';
import { HorizonError } from '../../errors.ts';
import { createApiKey, DuplicateKeyNameError } from '../../store/api-keys.ts';
import { adminAccountNamed } from './admin-account-view.ts';

/** POST /v1/admin/accounts/{name}/keys — a new key for an account (`horizon keys create`); the secret is in this answer only. */
export const adminKeysCreate: Route = (app, deps) => {
  app.post('/v1/admin/accounts/:name/keys', {
    config: { admin: true },
    onRequest: deps.adminAuth,
    schema: {
      summary: 'Create an API key for an account (operator)', tags: ['admin'], hide: !deps.admin?.operator, security: [{ adminBearer: [] }],
      params: AdminAccountParams, body: ApiKeyCreate,
      response: {
        201: { description: 'The new key; `key` is its secret, shown only here', content: { 'application/json': { schema: CreatedApiKey } } },
        400: problemAnswer('The body is not valid JSON'),
        401: problemAnswer('The operator token is missing or wrong (API keys are never accepted here)'),
        404: problemAnswer('No account has this name, or the admin operations are off (HORIZON_ADMIN_TOKEN is not set)'),
        409: problemAnswer('An active key of this account has this name'),
        415: problemAnswer('The body is not application/json'),
        422: problemAnswer('The name is missing or not 1–64 letters, digits, space, _ . -'),
      },
    },
  }, async (request, reply) => {
    const account = await adminAccountNamed(deps.database.db, request.params.name);
    try {
      const key = await createApiKey(deps.database.db, account.id, request.body.name);
      return reply.code(201).send({ id: key.id, name: key.name, key: key.key, prefix: key.prefix, created_at: key.created_at.toISOString() });
    } catch (error) {
      if (error instanceof DuplicateKeyNameError) throw new HorizonError('duplicate_key_name', error.message);
      throw error;
    }
  });
};
