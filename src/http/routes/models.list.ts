import type { Route } from './index.ts';
import { ModelList, problemResponses, jsonResponse } from '../schemas.ts';

/** GET /v1/models — what this deployment serves, with caps, covariates and licences. */
export const modelsList: Route = (app, deps) => {
  app.get('/v1/models', {
    schema: { summary: 'List served models', tags: ['models'], response: { 200: jsonResponse(ModelList, 'The models this deployment serves'), ...problemResponses(401) } },
  }, async () => ({ models: deps.registry.list(), default_model: deps.registry.defaultModel }));
};
