import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { SeriesGetQuery, SeriesIdParams, SeriesView } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { getSeries, seriesEvents, seriesForecasts, webhookDeliveries } from '../../store/series.ts';
import { dateAtStep, type Grid } from '../../forecasting/calendar.ts';
import { forecastView, notFound, queryInt, seriesView } from './series-view.ts';

/** GET /v1/series/{id} — the series, the tail of its history, its latest forecasts (with actuals and
 * scores once scored) and its events; another account's series is 404. */
export const seriesGet: Route = (app, deps) => {
  app.get('/v1/series/:id', {
    schema: {
      summary: 'Get a stored series', tags: ['series'], params: SeriesIdParams, querystring: SeriesGetQuery,
      response: { 200: jsonResponse(SeriesView, 'The series'), ...problemResponses(401, 404, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const tail = queryInt(request.query.tail, 'tail', 1000, 0, 100_000);
    const forecastCount = queryInt(request.query.forecasts, 'forecasts', 20, 0, 1000);
    const row = await getSeries(deps.database.db, owner.accountId, id);
    if (!row) throw notFound(id);
    const grid = row.grid as Grid;
    const from = Math.max(0, row.target.length - tail);
    const index: string[] = [];
    for (let k = from; k < row.target.length; k++) index.push(dateAtStep(grid, k));
    const forecasts = forecastCount ? await seriesForecasts(deps.database.db, owner.accountId, id, forecastCount) : [];
    const events = await seriesEvents(deps.database.db, owner.accountId, id, 20);
    const deliveries = row.webhook ? await webhookDeliveries(deps.database.db, owner.accountId, id, 20) : [];
    return {
      ...seriesView(row), index, target: row.target.slice(from), forecasts: forecasts.map(forecastView),
      events: events.map((e) => ({ id: e.id, kind: e.kind, created_at: e.created_at.toISOString(), detail: e.detail })),
      drifting: events[0]?.kind === 'drift_raised',
      webhook_deliveries: deliveries.map((d) => ({
        id: d.id, event_id: d.event_id, status: d.status, attempts: d.attempts, last_status: d.last_status, last_error: d.last_error,
        next_attempt_at: d.next_attempt_at.toISOString(), delivered_at: d.delivered_at ? d.delivered_at.toISOString() : null,
        created_at: d.created_at.toISOString(),
      })),
    };
  });
};
