-- Chunked jobs (src/jobs/chunks.ts): a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS
-- runs each of its model calls in chunks of series that each fit one worker call. A chunk's answer is
-- stored as soon as it arrives, keyed by the job and `chunk`, a hash of the chunk's model call (model,
-- size, freq, horizon, levels, series): a job delivered again (its process died, pg-boss redelivered it)
-- plans the same calls, finds their stored chunks and runs only the others. `result` is the worker's
-- /infer answer as it came (base64 arrays, json: kept as written). The rows go when the job finishes
-- (its result is in forecast_jobs) or with the job row.
CREATE TABLE job_chunks (
  job_id      uuid NOT NULL REFERENCES forecast_jobs(id) ON DELETE CASCADE,
  chunk       text NOT NULL,
  series      integer NOT NULL,
  result      json NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, chunk)
);
-- what GET /v1/forecast-jobs/{id} shows of a chunked job: {chunks_done, chunks_total}; null otherwise
ALTER TABLE forecast_jobs ADD COLUMN progress json;
