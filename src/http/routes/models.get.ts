import type { Route } from '../app-types.ts';
import { ModelInfo, problemResponses, jsonResponse } from '../schemas.ts';
import { ModelIdParams } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import type { PrivateModelRow } from '../../store/private-models.ts';
import type { FineTuneSummary } from '../../runtime/fine-tuning.ts';

/** The fields a private model's entry carries beyond ModelInfo's. */
export function privateModelInfo(row: PrivateModelRow) {
  return {
    private: true, base_model: row.base_model, base_size: row.base_size, job_id: row.job_id,
    created_at: row.created_at.toISOString(), training: row.summary as FineTuneSummary,
  };
}

/** GET /v1/models/{id} — one model as GET /v1/models lists it: a catalog id, or one of the caller's
 * private models (by id or name); another account's private model is 404. */
export const modelsGet: Route = (app, deps) => {
  app.get('/v1/models/:id', {
    schema: {
      summary: 'Get one model', tags: ['models'], params: ModelIdParams, response: { 200: jsonResponse(ModelInfo, 'The model'), ...problemResponses(401, 404) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const rows = deps.fineTuning ? await deps.fineTuning.privateModels.rows(owner.accountId) : [];
    const row = rows.find((r) => r.id === request.params.id || r.name === request.params.id);
    const id = row?.id ?? request.params.id;
    const model = deps.registry.list().find((m) => m.model_id === id);
    if (!model) throw new HorizonError('not_found', `no model "${request.params.id}" (GET /v1/models lists the models this account can use)`);
    return row ? { ...model, ...privateModelInfo(row) } : model;
  });
};
