import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { SeriesIdParams, SeriesPut, SeriesView } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { storedSchedule, validateHistory } from '../../forecasting/stored-series.ts';
import { getSeries, putSeries } from '../../store/series.ts';
import { seriesView } from './series-view.ts';

/** PUT /v1/series/{id} — creates a stored series (201) or replaces its history and settings (200); a
 * replacement drops the series' forecasts not scored yet. Not charged: storing is not forecasting. The rules of a
 * history and of the settings are forecasting/stored-series.ts's. */
export const seriesPut: Route = (app, deps) => {
  app.put('/v1/series/:id', {
    schema: {
      summary: 'Create or replace a stored series', tags: ['series'], params: SeriesIdParams, body: SeriesPut,
      response: { 200: jsonResponse(SeriesView, 'Replaced'), 201: jsonResponse(SeriesView, 'Created'), ...problemResponses(400, 401, 409, 413, 415, 422) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const body = request.body;
    const history = validateHistory(body, { maxSeries: deps.config.seriesMaxPerAccount ?? 0, maxPoints: deps.config.seriesMaxPoints ?? 0 });
    const schedule = storedSchedule(body);
    const result = await putSeries(deps.database.db, owner.accountId, id, {
      freq: history.freq, grid: history.grid, target: history.target, schedule, drift: body.drift ?? null, webhook: body.webhook ?? null,
    }, deps.config.seriesMaxPerAccount ?? 0);
    if ('limit' in result) {
      throw new HorizonError('series_limit', `this account already holds ${result.limit} stored series, its limit (HORIZON_SERIES_MAX_PER_ACCOUNT); delete ` +
        `one (DELETE /v1/series/{id}) before creating "${id}"`);
    }
    const row = await getSeries(deps.database.db, owner.accountId, id);
    return reply.code(result.created ? 201 : 200).send(seriesView(row!));
  });
};
