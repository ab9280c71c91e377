import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { ModelAccuracy, ModelAccuracyQuery } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { scoredForecasts } from '../../store/series.ts';
import { rollingAccuracy } from '../../forecasting/stored-series.ts';
import { queryInt } from './series-view.ts';

/** GET /v1/accuracy?model=… — rolling accuracy of a model over the account's stored series: its latest
 * `window` scored forecasts, overall, per horizon step and per series. */
export const accuracyGet: Route = (app, deps) => {
  app.get('/v1/accuracy', {
    schema: {
      summary: 'Rolling accuracy of a model over the stored series', tags: ['series'], querystring: ModelAccuracyQuery,
      response: { 200: jsonResponse(ModelAccuracy, 'Rolling accuracy'), ...problemResponses(401, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const window = queryInt(request.query.window, 'window', 1000, 1, 10_000);
    const { model } = request.query;
    const rows = await scoredForecasts(deps.database.db, owner.accountId, { model, limit: window });
    const bySeries = new Map<string, typeof rows>();
    for (const row of rows) bySeries.set(row.series_id, [...(bySeries.get(row.series_id) ?? []), row]);
    return {
      model, window, overall: rollingAccuracy(rows),
      series: [...bySeries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([seriesId, own]) => {
        const r = rollingAccuracy(own);
        return { series_id: seriesId, forecasts: r.forecasts, mase: r.mase, wql: r.wql, coverage: r.coverage };
      }),
    };
  });
};
