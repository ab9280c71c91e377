// Scheduled forecasts of stored series (forecast_every, issue 25): after an append, the forecasts it makes due
// (forecasting/stored-series.ts's dueScheduledForecasts: the rule) are made through POST /v1/forecast itself
// (app.inject with the caller's key), so the validation, quota charge (one unit per call), storing and answer
// are the route's own, not a second copy of them here.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { App } from './app-types.ts';
import { dueScheduledForecasts } from '../forecasting/stored-series.ts';
import { latestForecastSteps } from '../store/series.ts';
import type { Schema } from '../store/database.ts';

export interface ScheduledOutcome { status: number; forecasts: number; detail?: string }

export async function runSchedules(
  app: App, db: Kysely<Schema>, request: FastifyRequest, accountId: string, appended: { id: string; schedule: unknown; points: number }[],
): Promise<Map<string, ScheduledOutcome>> {
  const out = new Map<string, ScheduledOutcome>();
  const scheduled = appended.filter((s) => s.schedule);
  if (scheduled.length === 0) return out;
  const latest = await latestForecastSteps(db, accountId, scheduled.map((s) => s.id));
  for (const { ids, request: payload } of dueScheduledForecasts(scheduled, latest)) {
    const res = await app.inject({
      method: 'POST', url: '/v1/forecast', headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json' }, payload,
    });
    const outcome: ScheduledOutcome = res.statusCode === 200
      ? { status: 200, forecasts: ids.length }
      : { status: res.statusCode, forecasts: 0, detail: (res.json() as { detail?: string }).detail };
    for (const id of ids) out.set(id, outcome);
  }
  return out;
}
