// The wire view of a job row (contract B.3), shared by the job routes.
import type { Static } from '@fastify/type-provider-typebox';
import type { Job } from '../schemas.ts';
import type { JobSummary, JobViewRow } from '../store/jobs.ts';
import type { ForecastResult } from '../forecast.ts';

export type JobView = Static<typeof Job>;

export function jobView(row: JobSummary | JobViewRow): JobView {
  const view: JobView = { job_id: row.id, status: row.status, model: row.model, created_at: row.created_at.toISOString(), attempts: row.attempts };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) {
    const result = row.result as ForecastResult;
    Object.assign(view, { model_size: result.model_size, series: result.series, metrics: result.metrics, warnings: result.warnings });
    if ('auto' in result && result.auto) view.auto = result.auto as JobView['auto'];
  }
  return view;
}

/** Job ids are UUIDs; anything else cannot name a job (and must not reach a uuid column). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
