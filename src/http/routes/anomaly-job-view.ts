// The wire view of an anomaly job row, shared by the anomaly-job routes.
import type { AnomalyJobView } from '../anomaly-job-schemas.ts';
import type { JobSummary, JobViewRow } from '../../store/jobs.ts';

export function anomalyJobView(row: JobSummary | JobViewRow): AnomalyJobView {
  // the model column holds the answer's model; `models` the rest of what was planned at submit
  const planned = (row.models ?? {}) as { model_size?: string; mode?: AnomalyJobView['mode'] };
  const view: AnomalyJobView = {
    job_id: row.id, status: row.status, model: row.model, model_size: planned.model_size ?? '', mode: planned.mode ?? 'windows',
    created_at: row.created_at.toISOString(), attempts: row.attempts,
  };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  // a chunked job's {chunks_done, chunks_total} (src/jobs/chunks.ts); absent for a job that is not chunked
  if (row.progress) view.progress = row.progress as AnomalyJobView['progress'];
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) view.result = row.result as AnomalyJobView['result'];
  return view;
}
