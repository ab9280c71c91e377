-- The embedded store's quota journal (src/store/quota-ledger.ts): a unit is appended to a journal
-- file before its request answers and written to quota_usage in batches; this row says up to which
-- journal sequence number quota_usage already holds the units, so that replaying the journal after a
-- crash adds each unit exactly once. Written in the same statement as the units. PostgreSQL
-- deployments charge through horizon_charge and never use it.
CREATE TABLE quota_journal_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  applied_seq bigint NOT NULL
);
INSERT INTO quota_journal_state (id, applied_seq) VALUES (true, 0);
