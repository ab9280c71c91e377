import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { ObservationsAppend, ObservationsAppended, SeriesIdParams } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { decideAppend } from '../../forecasting/stored-series.ts';
import { appendToSeries } from '../../store/series.ts';
import { dateAtStep, type Grid } from '../../forecasting/calendar.ts';
import { notFound } from './series-view.ts';
import { runSchedules } from '../series-schedule.ts';

/** POST /v1/series/{id}/observations — appends (docs/stored-series.md: the append rule). Committed before
 * the answer; then the scorer scores what the new actuals cover, and a scheduled forecast runs. */
export const seriesObservationsAppend: Route = (app, deps) => {
  app.post('/v1/series/:id/observations', {
    schema: {
      summary: 'Append observations to a stored series', tags: ['series'], params: SeriesIdParams, body: ObservationsAppend,
      response: {
        200: jsonResponse(ObservationsAppended, 'Appended (or already stored: a retry changes nothing)'),
        ...problemResponses(400, 401, 404, 409, 413, 415, 422),
      },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { id } = request.params;
    const limits = { maxSeries: 0, maxPoints: deps.config.seriesMaxPoints ?? 0 };
    const done = await appendToSeries(deps.database.db, owner.accountId, id, (row) => decideAppend(row.grid as Grid, row.target, request.body, limits, { id }));
    if (!done) throw notFound(id);
    const { row, decision } = done;
    const points = row.target.length + decision.append.length;
    let scheduled;
    if (decision.append.length > 0) {
      // scoring is in the background (exactly once, series-scorer.ts); a scheduled forecast is made now
      void deps.seriesScorer?.wakeMany(owner.accountId, [id]);
      scheduled = (await runSchedules(app, deps.database.db, request, owner.accountId, [{ id, schedule: row.schedule, points }])).get(id);
    }
    return {
      series_id: id, appended: decision.appended, unchanged: decision.unchanged, points, last_date: dateAtStep(row.grid as Grid, points - 1),
      ...(scheduled !== undefined && { scheduled_forecast: scheduled }),
    };
  });
};
