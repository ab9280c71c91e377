// The wire views of stored series, shared by the series routes (issue 25).
import type { Static } from '@fastify/type-provider-typebox';
import type { SeriesView } from '../series-schemas.ts';
import type { ForecastRow, SeriesRow } from '../../store/series.ts';
import { dateAtStep, type Grid } from '../../forecasting/calendar.ts';
import { HorizonError } from '../../errors.ts';

export type SeriesViewBody = Static<typeof SeriesView>;

export function seriesView(row: SeriesRow): SeriesViewBody {
  const grid = row.grid as Grid;
  const schedule = row.schedule as ({ every: number } & Record<string, unknown>) | null;
  const { every, ...asked } = schedule ?? { every: null };
  const webhook = row.webhook as { url: string } | null;
  return {
    series_id: row.series_id, freq: row.freq, points: row.target.length,
    first_date: dateAtStep(grid, 0), last_date: dateAtStep(grid, row.target.length - 1),
    created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString(),
    forecast_every: schedule ? every : null,
    schedule: schedule ? asked as SeriesViewBody['schedule'] : null,
    drift: row.drift as SeriesViewBody['drift'],
    webhook: webhook ? { url: webhook.url } : null,
  };
}

export function forecastView(row: ForecastRow) {
  return {
    id: row.id, model: row.model, model_size: row.model_size, issued_at: row.issued_at.toISOString(), horizon: row.horizon,
    index: row.forecast_index as string[], prediction: row.prediction as Record<string, number[]>,
    actuals: (row.actuals ?? null) as (number | null)[] | null,
    scored_at: row.scored_at ? row.scored_at.toISOString() : null,
    scores: (row.scores ?? null) as never,
  };
}

export function notFound(id: string): HorizonError {
  return new HorizonError('not_found', `no stored series "${id}" for this account`);
}

/** A query integer (a string of digits, series-schemas.ts QueryInt) within its range, or a 422 naming it. */
export function queryInt(raw: string | undefined, field: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (value < min || value > max) throw new HorizonError(
    'validation_failed', `${field} must be between ${min} and ${max}, got ${value}`,
    { errors: [{ field, reason: `must be between ${min} and ${max}, got ${value}` }] },
  );
  return value;
}
