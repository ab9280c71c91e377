-- Large job payloads in parts (src/store/job-payloads.ts, issue 32): a request or result of more than
-- 1 MiB of JSON is written as parts of 256 KiB, one statement each, and the job row's json column holds
-- a reference to them. The embedded store (PGlite) runs its statements on the event loop: one statement
-- of a 5.5 MB json value held it for 75-130 ms, a part of 256 KiB of text holds it for 4-7 ms.
-- `payload` names one write (a retried completion writes new parts); the parts of a job go with it (the
-- job sweeper deletes parts whose job is gone: they are written before the row, so no foreign key).
CREATE TABLE job_payload_parts (
  payload     uuid NOT NULL,
  part        integer NOT NULL,
  job_id      uuid NOT NULL,
  text        text NOT NULL,
  written_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (payload, part)
);
CREATE INDEX job_payload_parts_job ON job_payload_parts (job_id);
