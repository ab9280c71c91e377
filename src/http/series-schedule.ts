// Scheduled forecasts of stored series (forecast_every, issue 25): after an append, each series whose
// latest stored forecast is `every` or more steps behind (or that has none) is forecast by reference with
// store: true — through POST /v1/forecast itself (app.inject with the caller's key), so the validation,
// quota charge (one unit per call) and answer are the route's. Series with the same schedule go in one call.
import type { FastifyRequest } from 'fastify';
import type { App } from './app-types.ts';
import type { SeriesSchedule } from '../forecasting/stored-series.ts';
import { latestForecastSteps } from '../store/series.ts';
import type { Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';

export interface ScheduledOutcome { status: number; forecasts: number; detail?: string }

export async function runSchedules(app: App, db: Kysely<Schema>, request: FastifyRequest, accountId: string, appended: { id: string; schedule: unknown; points: number }[]): Promise<Map<string, ScheduledOutcome>> {
  const scheduled = appended.filter((s) => s.schedule);
  const out = new Map<string, ScheduledOutcome>();
  if (scheduled.length === 0) return out;
  const latest = await latestForecastSteps(db, accountId, scheduled.map((s) => s.id));
  const groups = new Map<string, { schedule: SeriesSchedule; ids: string[] }>();
  for (const s of scheduled) {
    const schedule = s.schedule as SeriesSchedule;
    const last = latest.get(s.id);
    if (last !== undefined && s.points - last < schedule.every) continue;
    const key = JSON.stringify(schedule);
    const group = groups.get(key) ?? { schedule, ids: [] };
    group.ids.push(s.id);
    groups.set(key, group);
  }
  for (const { schedule, ids } of groups.values()) {
    const { every: _every, ...asked } = schedule;
    const res = await app.inject({
      method: 'POST', url: '/v1/forecast', headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json' },
      payload: { ...asked, series_ids: ids, store: true },
    });
    const outcome: ScheduledOutcome = res.statusCode === 200 ? { status: 200, forecasts: ids.length } : { status: res.statusCode, forecasts: 0, detail: (res.json() as { detail?: string }).detail };
    for (const id of ids) out.set(id, outcome);
  }
  return out;
}
