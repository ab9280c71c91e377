-- Embedding jobs (issue 38 part 3): POST /v1/embedding-jobs rows share the job store, the queue and the sweeper with
-- the other kinds (kind 'embeddings'; the stored request is the validated POST /v1/embeddings body, planned again
-- when the job runs; `models` holds {model_size, granularity} as planned at submit).
ALTER TABLE forecast_jobs DROP CONSTRAINT forecast_jobs_kind_check;
ALTER TABLE forecast_jobs ADD CONSTRAINT forecast_jobs_kind_check CHECK (kind IN ('forecast', 'cross-validation', 'fine-tuning', 'anomalies', 'embeddings'));
