-- A job's request, result and error are written once and read back whole, never queried inside: json
-- keeps the text as written, where jsonb re-encodes every number on the way in and prints it again on
-- the way out (bench/README.md, "job-latency"). Existing rows convert in place.
ALTER TABLE forecast_jobs
  ALTER COLUMN request TYPE json USING request::json,
  ALTER COLUMN result TYPE json USING result::json,
  ALTER COLUMN error TYPE json USING error::json;
