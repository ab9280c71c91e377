import type { Route } from '../app-types.ts';
import { ApiKeyCreate, CreatedApiKey, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { createApiKey, DuplicateKeyNameError } from '../../store/api-keys.ts';

/** POST /v1/api-keys — a new key for the caller's account; the secret is in this response only. */
export const apiKeysCreate: Route = (app, deps) => {
  app.post('/v1/api-keys', {
    schema: {
      summary: 'Create an API key', tags: ['api-keys'], body: ApiKeyCreate,
      response: { 201: jsonResponse(CreatedApiKey, 'The new key; `key` is its secret, shown only here'), ...problemResponses(400, 401, 409, 415, 422) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    try {
      const key = await createApiKey(deps.database.db, owner.accountId, request.body.name);
      return reply.code(201).send({ id: key.id, name: key.name, key: key.key, prefix: key.prefix, created_at: key.created_at.toISOString() });
    } catch (error) {
      if (error instanceof DuplicateKeyNameError) throw new HorizonError('duplicate_key_name', error.message);
      throw error;
    }
  });
};
