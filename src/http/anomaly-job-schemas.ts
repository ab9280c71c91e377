// Wire schemas of anomaly jobs (POST /v1/anomaly-jobs and its views): the body is POST /v1/anomalies' own,
// and a completed job's result is exactly its answer (docs/api.md, "Anomaly jobs").
import { Type, type Static } from '@fastify/type-provider-typebox';
import { AnomaliesResponse, JobLifecycle, JobStatus } from './schemas.ts';

const Planned = {
  model: Type.String({ description: 'the model that scores the series, as the answer names it ("auto": a pick per series)' }),
  model_size: Type.String(),
  mode: Type.Union([Type.Literal('in-sample'), Type.Literal('windows')], {
    description: 'how the timesteps are scored, as the answer says (decided at submit)',
  }),
};

export const AnomalyJobAccepted = Type.Object({
  job_id: Type.String(),
  status: Type.Literal('queued'),
  ...Planned,
  created_at: Type.String({ format: 'date-time' }),
});

export const AnomalyJob = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  ...Planned,
  ...JobLifecycle,
  // once completed: exactly what POST /v1/anomalies answers for the same body
  result: Type.Optional(AnomaliesResponse),
}, { additionalProperties: false });
export type AnomalyJobView = Static<typeof AnomalyJob>;

export const AnomalyJobList = Type.Object({
  jobs: Type.Array(AnomalyJob, { description: 'without `result` (GET the job for it)' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as ?cursor= for the next page; null on the last page' }),
});
