// The wire view of a cross-validation job row, shared by the cross-validation-job routes.
import type { Static } from '@fastify/type-provider-typebox';
import type { CrossValidationJob } from '../schemas.ts';
import type { JobSummary, JobViewRow } from '../../store/jobs.ts';

export type CrossValidationJobView = Static<typeof CrossValidationJob>;

export function crossValidationJobView(row: JobSummary | JobViewRow): CrossValidationJobView {
  const view: CrossValidationJobView = {
    job_id: row.id, status: row.status, models: (row.models ?? []) as CrossValidationJobView['models'], created_at: row.created_at.toISOString(),
    attempts: row.attempts,
  };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  // a chunked job's {chunks_done, chunks_total} (src/jobs/chunks.ts); absent for a job that is not chunked
  if (row.progress) view.progress = row.progress as CrossValidationJobView['progress'];
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) view.result = row.result as CrossValidationJobView['result'];
  return view;
}
