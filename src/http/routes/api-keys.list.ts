import type { Route } from '../app-types.ts';
import { ApiKeyList, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { listApiKeys } from '../../store/api-keys.ts';

/** GET /v1/api-keys — the account's keys (active and revoked), never their secrets. */
export const apiKeysList: Route = (app, deps) => {
  app.get('/v1/api-keys', {
    schema: {
      summary: 'List API keys', tags: ['api-keys'],
      response: { 200: jsonResponse(ApiKeyList, 'The account\'s keys, active and revoked, without secrets'), ...problemResponses(401) },
    },
  }, async (request) => {
    const keys = await listApiKeys(deps.database.db, ownerOf(request).accountId);
    return { keys: keys.map(
      (k) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at.toISOString(), revoked_at: k.revoked_at?.toISOString() ?? null }),
    ) };
  });
};
