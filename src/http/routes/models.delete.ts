import type { Route } from '../app-types.ts';
import { problemResponses } from '../schemas.ts';
import { ModelIdParams } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { deletePrivateModel, getPrivateModel } from '../../store/private-models.ts';

/** DELETE /v1/models/{id} — removes one of the account's private (fine-tuned) models, by id or name: its row
 * (the model stops existing for the account at once), then its weights. Catalog models and other
 * accounts' models are 404. */
export const modelsDelete: Route = (app, deps) => {
  app.delete('/v1/models/:id', {
    schema: {
      summary: 'Delete a private (fine-tuned) model', tags: ['models', 'fine-tuning'], params: ModelIdParams,
      response: { 204: { type: 'null', description: 'Deleted' }, ...problemResponses(401, 404) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const row = await getPrivateModel(deps.database.db, owner.accountId, request.params.id);
    if (!row || !(await deletePrivateModel(deps.database.db, owner.accountId, row.id))) {
      throw new HorizonError('not_found', `no private model "${request.params.id}" for this account (catalog models cannot be deleted here; \`horizon models ` +
        `rm\` removes their weights)`);
    }
    deps.fineTuning?.privateModels.forget(owner.accountId);
    deps.fineTuning?.tuner.remove(row.id);
    return reply.code(204).send(null);
  });
};
