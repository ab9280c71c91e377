-- Fine-tuning (issue 22): fine-tuning jobs are rows of the job store like forecast and cross-validation
-- jobs (kind 'fine-tuning'; progress {step, steps, loss, validation_loss} in `progress`), and each
-- completed one makes a private model owned by one account. The weights lie under
-- HORIZON_MODEL_DIR/private/<id>/ (written atomically by the fine-tuning worker); this row is what makes
-- the model exist for its account, and only for it.
ALTER TABLE forecast_jobs DROP CONSTRAINT forecast_jobs_kind_check;
ALTER TABLE forecast_jobs ADD CONSTRAINT forecast_jobs_kind_check CHECK (kind IN ('forecast', 'cross-validation', 'fine-tuning'));

CREATE TABLE private_models (
  id          text PRIMARY KEY,                 -- ft-<24 hex>: the id the workers and the directory use
  account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        text NOT NULL,                    -- the account's name for it (the id when none was given)
  base_model  text NOT NULL,
  base_size   text NOT NULL,
  job_id      uuid,
  summary     json NOT NULL,                    -- the training summary (series, steps, validation WQL before → after)
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, name)
);
CREATE INDEX private_models_account ON private_models (account_id, created_at DESC);
