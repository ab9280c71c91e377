// The wire view of a fine-tuning job row, shared by the fine-tuning-job routes.
import type { Static } from '@fastify/type-provider-typebox';
import type { FineTuningJob } from '../fine-tuning-schemas.ts';
import type { JobSummary, JobViewRow } from '../../store/jobs.ts';
import type { FineTuningResult } from '../../jobs/fine-tuning-job.ts';

export type FineTuningJobView = Static<typeof FineTuningJob>;

/** The row's `models` holds [{model, model_size, model_id, name}] (set at submit). */
export function fineTuningJobView(row: JobSummary | JobViewRow): FineTuningJobView {
  const [made] = (row.models ?? [{}]) as { model: string; model_size: string; model_id: string; name: string }[];
  const view: FineTuningJobView = {
    job_id: row.id, status: row.status, model: made.model, model_size: made.model_size, model_id: made.model_id, name: made.name,
    created_at: row.created_at.toISOString(), attempts: row.attempts,
  };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  if (row.progress) view.progress = row.progress as FineTuningJobView['progress'];
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) view.summary = (row.result as FineTuningResult).summary;
  return view;
}
