// The wire view of a job row (contract B.3), shared by the job routes.
import type { Static } from '@fastify/type-provider-typebox';
import type { Job } from '../schemas.ts';
import type { JobSummary, JobViewRow } from '../../store/jobs.ts';
import type { ForecastResult } from '../../forecasting/forecast.ts';
import { HorizonError } from '../../errors.ts';

export type JobView = Static<typeof Job>;

export function jobView(row: JobSummary | JobViewRow): JobView {
  const view: JobView = { job_id: row.id, status: row.status, model: row.model, created_at: row.created_at.toISOString(), attempts: row.attempts };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  // a chunked job's {chunks_done, chunks_total} (src/jobs/chunks.ts); absent for a job that is not chunked
  if (row.progress) view.progress = row.progress as JobView['progress'];
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) {
    const result = row.result as ForecastResult;
    Object.assign(view, { model_size: result.model_size, series: result.series, metrics: result.metrics, warnings: result.warnings });
    if ('auto' in result && result.auto) view.auto = result.auto as JobView['auto'];
    if ('prism' in result && result.prism) view.prism = result.prism as JobView['prism'];
    if ('hierarchy' in result && result.hierarchy) view.hierarchy = result.hierarchy as JobView['hierarchy'];
  }
  return view;
}

/** Job ids are UUIDs; anything else cannot name a job (and must not reach a uuid column). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The list routes' opaque cursor: the last row's (created_at, id). */
export function encodeCursor(next: { createdAt: Date; id: string }): string {
  return Buffer.from(`${next.createdAt.toISOString()}|${next.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(time);
  if (!id || !UUID_PATTERN.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new HorizonError(
      'validation_failed', 'cursor is not one this API returned', { errors: [{ field: 'cursor', reason: 'not a cursor returned by this API' }] },
    );
  }
  return { createdAt, id };
}

/** The list routes' `limit` (1–100, default 20). */
export function pageLimit(raw: string | undefined): number {
  const limit = raw === undefined ? 20 : Number(raw);
  if (limit < 1 || limit > 100) {
    throw new HorizonError(
      'validation_failed', `limit must be between 1 and 100, got ${limit}`, { errors: [{ field: 'limit', reason: `must be between 1 and 100, got ${limit}` }] },
    );
  }
  return limit;
}
