import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { ObservationsAppendMany, ObservationsAppendedMany } from '../series-schemas.ts';
import { ownerOf } from '../auth.ts';
import { HorizonError } from '../../errors.ts';
import { RequestValidationError } from '../../forecasting/normalize.ts';
import { decideAppend, stepOfDate, type AppendDecision } from '../../forecasting/stored-series.ts';
import { appendToManySeries } from '../../store/series.ts';
import { dateAtStep, type Grid } from '../../forecasting/calendar.ts';
import type { FieldError } from '../../errors.ts';
import { runSchedules } from '../series-schedule.ts';

/** POST /v1/series/observations — appends to many stored series in one request and one transaction
 * (all or nothing), each by the append rule of POST /v1/series/{id}/observations; errors name
 * series[i]. For the daily "yesterday's actuals for every series" call. */
export const seriesObservationsAppendMany: Route = (app, deps) => {
  app.post('/v1/series/observations', {
    schema: {
      summary: 'Append observations to many stored series', tags: ['series'], body: ObservationsAppendMany,
      response: { 200: jsonResponse(ObservationsAppendedMany, 'Appended (all of them)'), ...problemResponses(400, 401, 404, 409, 413, 415, 422) },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const items = request.body.series;
    const seen = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      const earlier = seen.get(item.series_id);
      if (earlier !== undefined) throw new RequestValidationError([{ field: `series[${i}].series_id`, reason: `"${item.series_id}" is also series[${earlier}]; append each series once per request` }]);
      seen.set(item.series_id, i);
    }
    const maxPoints = deps.config.seriesMaxPoints ?? 0;
    const byId = new Map(items.map((item) => [item.series_id, item]));
    // an append whose first date is on or before the last stored step compares stored values (a retry)
    const reaches = (head: { series_id: string; grid: unknown; points: number }) => {
      const first = byId.get(head.series_id)?.index[0];
      if (first === undefined) return false;
      const placed = stepOfDate(head.grid as Grid, first);
      return !('reason' in placed) && placed.step < head.points;
    };
    const { rows, decisions } = await appendToManySeries(deps.database.db, owner.accountId, items.map((s) => s.series_id), reaches, (found) => {
      const missing = items.findIndex((s) => !found.has(s.series_id));
      if (missing >= 0) throw new HorizonError('not_found', `no stored series "${items[missing].series_id}" for this account (series[${missing}])`);
      const errors: FieldError[] = [];
      const out: AppendDecision[] = items.map((item, i) => {
        const row = found.get(item.series_id)!;
        try {
          const decision = decideAppend(row.grid as Grid, row.target, item, { maxSeries: 0, maxPoints });
          if (maxPoints > 0 && row.target.length + decision.append.length > maxPoints) {
            throw new HorizonError('series_limit', `series "${item.series_id}" (series[${i}]) would hold ${row.target.length + decision.append.length} grid steps, more than its limit of ${maxPoints} (HORIZON_SERIES_MAX_POINTS)`);
          }
          return decision;
        } catch (error) {
          if (!(error instanceof RequestValidationError)) throw error;
          errors.push(...error.errors.map((e) => ({ series: i, field: `series[${i}].${e.field}`, reason: e.reason })));
          return { append: [], appended: 0, unchanged: 0 };
        }
      });
      if (errors.length) throw new RequestValidationError(errors);
      return out;
    });
    void deps.seriesScorer?.wakeMany(owner.accountId, items.filter((_, i) => decisions[i].append.length > 0).map((item) => item.series_id));
    const grown = items.flatMap((item, i) => (decisions[i].append.length > 0 ? [{ id: item.series_id, schedule: rows.get(item.series_id)!.schedule, points: rows.get(item.series_id)!.target.length + decisions[i].append.length }] : []));
    const scheduled = await runSchedules(app, deps.database.db, request, owner.accountId, grown);
    return {
      series: items.map((item, i) => {
        const row = rows.get(item.series_id)!;
        const points = row.target.length + decisions[i].append.length;
        const outcome = scheduled.get(item.series_id);
        return { series_id: item.series_id, appended: decisions[i].appended, unchanged: decisions[i].unchanged, points, last_date: dateAtStep(row.grid as Grid, points - 1), ...(outcome && { scheduled_forecast: outcome }) };
      }),
    };
  });
};
