-- Cross-validation jobs share the job store, the queue and the sweeper with forecast jobs: `kind` says
-- which a row is (every row before this is a forecast job), and each kind's routes see only their own.
-- `models` lists a cross-validation job's models with their sizes ([{model, model_size}]); null for a
-- forecast job, whose `model` column says it (a cross-validation job's `model` holds the ids, comma-joined).
ALTER TABLE forecast_jobs
  ADD COLUMN kind text NOT NULL DEFAULT 'forecast' CHECK (kind IN ('forecast', 'cross-validation')),
  ADD COLUMN models json;
CREATE INDEX forecast_jobs_account_kind_newest ON forecast_jobs (account_id, kind, created_at DESC, id DESC);
