-- The model's own backtest on the series when the forecast was made (a scheduled forecast with
-- `evaluation`): {mase, wql, holdout}. A drift rule's max_mase_ratio compares the rolling MASE with it.
ALTER TABLE stored_forecasts ADD COLUMN backtest jsonb;
