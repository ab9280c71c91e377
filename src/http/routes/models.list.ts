import type { Route } from '../app-types.ts';
import { ModelList, problemResponses, jsonResponse } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { privateModelInfo } from './models.get.ts';

/** GET /v1/models — what this deployment serves, with caps, covariates and licences; the caller's own
 * private (fine-tuned) models too, with their base and training summary (nobody else sees them). */
export const modelsList: Route = (app, deps) => {
  app.get('/v1/models', {
    schema: {
      summary: 'List served models', tags: ['models'],
      response: { 200: jsonResponse(ModelList, 'The models this deployment serves'), ...problemResponses(401) },
    },
  }, async (request) => {
    const models = deps.registry.list();
    const rows = deps.fineTuning ? await deps.fineTuning.privateModels.rows(ownerOf(request).accountId) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      models: models.map((m) => (byId.has(m.model_id) ? { ...m, ...privateModelInfo(byId.get(m.model_id)!) } : m)), default_model: deps.registry.defaultModel,
    };
  });
};
