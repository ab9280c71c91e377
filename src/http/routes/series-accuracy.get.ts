import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { AccuracyQuery, SeriesAccuracy, SeriesIdParams } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { getSeries, scoredForecasts } from '../../store/series.ts';
import { rollingAccuracy } from '../../forecasting/stored-series.ts';
import { notFound, queryInt } from './series-view.ts';

/** GET /v1/series/{id}/accuracy — rolling accuracy of the series' latest `window` scored forecasts:
 * overall, per model, and per horizon step (docs/stored-series.md says how each is pooled). */
export const seriesAccuracyGet: Route = (app, deps) => {
  app.get('/v1/series/:id/accuracy', {
    schema: {
      summary: 'Rolling accuracy of a stored series', tags: ['series'], params: SeriesIdParams, querystring: AccuracyQuery,
      response: { 200: jsonResponse(SeriesAccuracy, 'Rolling accuracy'), ...problemResponses(401, 404, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const window = queryInt(request.query.window, 'window', 100, 1, 10_000);
    if (!(await getSeries(deps.database.db, owner.accountId, id))) throw notFound(id);
    const rows = await scoredForecasts(deps.database.db, owner.accountId, { seriesId: id, limit: window });
    const models = [...new Set(rows.map((r) => r.model))].sort();
    return {
      series_id: id, window, overall: rollingAccuracy(rows),
      models: models.map((model) => ({ model, ...rollingAccuracy(rows.filter((r) => r.model === model)) })),
    };
  });
};
