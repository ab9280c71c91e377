import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { ObservationsAppendMany, ObservationsAppendedMany } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { checkDistinctSeries, decideAppends, reachesStoredSteps } from '../../forecasting/stored-series.ts';
import { appendToManySeries } from '../../store/series.ts';
import { dateAtStep, type Grid } from '../../forecasting/calendar.ts';
import { runSchedules } from '../series-schedule.ts';

/** POST /v1/series/observations — appends to many stored series in one request and one transaction
 * (all or nothing), each by the append rule of POST /v1/series/{id}/observations; errors name
 * series[i]. For the daily "yesterday's actuals for every series" call. The rules: forecasting/stored-series.ts. */
export const seriesObservationsAppendMany: Route = (app, deps) => {
  app.post('/v1/series/observations', {
    schema: {
      summary: 'Append observations to many stored series', tags: ['series'], body: ObservationsAppendMany,
      response: { 200: jsonResponse(ObservationsAppendedMany, 'Appended (all of them)'), ...problemResponses(400, 401, 404, 409, 413, 415, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const items = request.body.series;
    checkDistinctSeries(items);
    const limits = { maxSeries: 0, maxPoints: deps.config.seriesMaxPoints ?? 0 };
    const byId = new Map(items.map((item) => [item.series_id, item]));
    const reaches = (head: { series_id: string; grid: unknown; points: number }) =>
      reachesStoredSteps(head.grid as Grid, head.points, byId.get(head.series_id)?.index[0]);
    const ids = items.map((s) => s.series_id);
    const { rows, decisions } = await appendToManySeries(deps.database.db, owner.accountId, ids, reaches, (found) => decideAppends(items, found, limits));
    void deps.seriesScorer?.wakeMany(owner.accountId, items.filter((_, i) => decisions[i].append.length > 0).map((item) => item.series_id));
    const grown = items.flatMap((item, i) => (decisions[i].append.length > 0 ? [
      { id: item.series_id, schedule: rows.get(item.series_id)!.schedule, points: rows.get(item.series_id)!.target.length + decisions[i].append.length },
    ] : []));
    const scheduled = await runSchedules(app, deps.database.db, request, owner.accountId, grown);
    return {
      series: items.map((item, i) => {
        const row = rows.get(item.series_id)!;
        const points = row.target.length + decisions[i].append.length;
        const outcome = scheduled.get(item.series_id);
        return {
          series_id: item.series_id, appended: decisions[i].appended, unchanged: decisions[i].unchanged, points,
          last_date: dateAtStep(row.grid as Grid, points - 1), ...(outcome && { scheduled_forecast: outcome }),
        };
      }),
    };
  });
};
