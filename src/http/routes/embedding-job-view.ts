// The wire view of an embedding job row, shared by the embedding-job routes.
import type { EmbeddingJobView } from '../embedding-schemas.ts';
import type { JobSummary, JobViewRow } from '../../store/jobs.ts';

export function embeddingJobView(row: JobSummary | JobViewRow): EmbeddingJobView {
  // the model column holds the model; `models` the rest of what was planned at submit
  const planned = (row.models ?? {}) as { model_size?: string; granularity?: EmbeddingJobView['granularity'] };
  const view: EmbeddingJobView = {
    job_id: row.id, status: row.status, model: row.model, model_size: planned.model_size ?? '', granularity: planned.granularity ?? 'series',
    created_at: row.created_at.toISOString(), attempts: row.attempts,
  };
  if (row.started_at) view.started_at = row.started_at.toISOString();
  if (row.finished_at) view.finished_at = row.finished_at.toISOString();
  if (row.status === 'failed' && row.error) view.error = row.error as { code: string; detail: string };
  if ('result' in row && row.status === 'completed' && row.result) view.result = row.result as EmbeddingJobView['result'];
  return view;
}
