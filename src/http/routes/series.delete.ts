import type { Route } from '../app-types.ts';
import { Type } from '@fastify/type-provider-typebox';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { SeriesIdParams } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { deleteSeries } from '../../store/series.ts';
import { notFound } from './series-view.ts';

/** DELETE /v1/series/{id} — the series, its stored forecasts, scores and events. */
export const seriesDelete: Route = (app, deps) => {
  app.delete('/v1/series/:id', {
    schema: { summary: 'Delete a stored series', tags: ['series'], params: SeriesIdParams, response: {
      200: jsonResponse(Type.Object({ series_id: Type.String(), deleted: Type.Boolean() }), 'Deleted, with its forecasts and events'),
      ...problemResponses(401, 404, 422),
    } },
  }, async (request) => {
    const owner = ownerOf(request);
    if (!(await deleteSeries(deps.database.db, owner.accountId, request.params.id))) throw notFound(request.params.id);
    return { series_id: request.params.id, deleted: true };
  });
};
