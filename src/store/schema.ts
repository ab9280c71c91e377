// The store's tables as Kysely sees them. A module of its own: database.ts opens the store with the
// quota ledger and the pending charges, and those need the table types, so taking them from
// database.ts made an import circle.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: Generated<string>;
  name: string;
  daily_quota: Generated<number>;
  weekly_quota: Generated<number>;
  created_at: Generated<Date>;
  /** set while the account is disabled (migration 004): its keys get 403 */
  disabled_at: Generated<Date | null>;
}
export interface ApiKeysTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  prefix: string;
  key_hash: Uint8Array;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}
export interface QuotaUsageTable { account_id: string; day: string; used: number }
export interface ForecastJobsTable {
  id: string;
  account_id: string;
  status: JobStatus;
  model: string;
  request: unknown;
  result: unknown | null;
  error: unknown | null;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  /** migration 005: which routes the job belongs to */
  kind: Generated<JobKind>;
  /** a cross-validation job's models and sizes ([{model, model_size}]); null for a forecast job */
  models: unknown | null;
  /** migration 007: a chunked job's {chunks_done, chunks_total}; null for a job that is not chunked */
  progress: Generated<unknown | null>;
}
/** migration 007: the stored chunks of a chunked job (src/jobs/chunks.ts) */
export interface JobChunksTable {
  job_id: string;
  /** hash of the chunk's model call */
  chunk: string;
  series: number;
  /** the worker's /infer answer text (JSON) */
  result: unknown;
  created_at: Generated<Date>;
}
/** A part of a large job request or result (migration 013, job-payloads.ts) */
export interface JobPayloadPartsTable {
  payload: string;
  part: number;
  job_id: string;
  text: string;
  written_at: Generated<Date>;
}
export type JobKind = 'forecast' | 'cross-validation' | 'fine-tuning' | 'anomalies' | 'embeddings';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A fine-tuned model owned by one account (migration 009; weights under HORIZON_MODEL_DIR/private/<id>/) */
export interface PrivateModelsTable {
  id: string;
  account_id: string;
  name: string;
  base_model: string;
  base_size: string;
  job_id: string | null;
  summary: unknown;
  created_at: Generated<Date>;
}

export interface Schema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  quota_usage: QuotaUsageTable;
  forecast_jobs: ForecastJobsTable;
  job_chunks: JobChunksTable;
  job_payload_parts: JobPayloadPartsTable;
  private_models: PrivateModelsTable;
}
