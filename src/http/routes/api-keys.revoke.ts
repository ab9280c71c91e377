import type { Route } from '../app-types.ts';
import { ApiKey, JobIdParams, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { revokeApiKey } from '../../store/api-keys.ts';
import { UUID_PATTERN } from './job-view.ts';

/** DELETE /v1/api-keys/{id} — revokes at once; the key gets 401 from then on. */
export const apiKeysRevoke: Route = (app, deps) => {
  app.delete('/v1/api-keys/:id', {
    schema: {
      summary: 'Revoke an API key', tags: ['api-keys'], params: JobIdParams,
      response: { 200: jsonResponse(ApiKey, 'The revoked key; it gets 401 from now on'), ...problemResponses(401, 404) },
    },
  }, async (request) => {
    const { id } = request.params;
    const key = UUID_PATTERN.test(id) ? await revokeApiKey(deps.database.db, ownerOf(request).accountId, id) : undefined;
    if (!key) throw new HorizonError('not_found', `no active API key "${id}" for this account`);
    deps.keyCache?.forget(key.id);
    return { id: key.id, name: key.name, prefix: key.prefix, created_at: key.created_at.toISOString(), revoked_at: key.revoked_at?.toISOString() ?? null };
  });
};
