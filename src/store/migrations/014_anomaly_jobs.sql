-- Anomaly jobs (issue 33): POST /v1/anomaly-jobs rows share the job store, the queue and the sweeper with the
-- other kinds (kind 'anomalies'; the stored request is the validated POST /v1/anomalies body, planned again
-- when the job runs; `models` holds {model_size, mode} as planned at submit).
ALTER TABLE forecast_jobs DROP CONSTRAINT forecast_jobs_kind_check;
ALTER TABLE forecast_jobs ADD CONSTRAINT forecast_jobs_kind_check CHECK (kind IN ('forecast', 'cross-validation', 'fine-tuning', 'anomalies'));
