// Job rows: the tenant-facing record of a job (status, normalised request, result). pg-boss (queue.ts)
// only delivers job ids to consumers; this table is what clients read. A row's `kind` (forecast or
// cross-validation) says which routes see it: each account-scoped read below is of one kind (default
// forecast), so /v1/forecast-jobs never shows a cross-validation job and the other way round.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ForecastJobsTable, JobKind, JobStatus, Schema } from './database.ts';
import { deleteOrphanParts, deletePayload, isPartsRef, JsonText, readPayload, writePayload } from './job-payloads.ts';

/** A job as stored (expires_at is internal bookkeeping for the sweeper). */
export type JobRow = Omit<Selectable<ForecastJobsTable>, 'expires_at'>;

const SUMMARY_COLUMNS = [
  'id', 'account_id', 'kind', 'status', 'model', 'models', 'attempts', 'created_at', 'started_at', 'finished_at', 'error', 'progress',
] as const;
export type JobSummary = Pick<JobRow, (typeof SUMMARY_COLUMNS)[number]>;
// What clients read of one job: never the stored request (megabytes for a large batch, read back and
// parsed on every poll otherwise; bench/README.md, "job-latency").
const VIEW_COLUMNS = [...SUMMARY_COLUMNS, 'result'] as const;
export type JobViewRow = Pick<JobRow, (typeof VIEW_COLUMNS)[number]>;

// created_at is set here, at millisecond precision, so the keyset cursor (an ISO string) is exact. A request
// given as JsonText is stored as it is: a large one's parts written already (writePayload, outside the transaction).
export async function insertJob(
  db: Kysely<Schema>, job: { id: string; accountId: string; model: string; request: unknown; kind?: JobKind; models?: unknown },
): Promise<JobSummary> {
  const request = job.request instanceof JsonText ? job.request.text() : JSON.stringify(job.request);
  return db.insertInto('forecast_jobs')
    .values({
      id: job.id, account_id: job.accountId, created_at: new Date(), status: 'queued', model: job.model, request,
      result: null, error: null, started_at: null, finished_at: null, expires_at: null,
      kind: job.kind ?? 'forecast', models: job.models === undefined ? null : JSON.stringify(job.models),
    })
    .returning(SUMMARY_COLUMNS)
    .executeTakeFirstOrThrow() as Promise<JobSummary>;
}

/** The whole row; a request or result stored in parts (job-payloads.ts) comes back as JsonText, not parsed. */
export async function getJob(db: Kysely<Schema>, id: string): Promise<JobRow | undefined> {
  const row = await db.selectFrom('forecast_jobs').selectAll().where('id', '=', id).executeTakeFirst() as JobRow | undefined;
  if (row && isPartsRef(row.request)) row.request = await readPayload(db, row.request);
  if (row && isPartsRef(row.result)) row.result = await readPayload(db, row.result);
  return row;
}

/** The job if it belongs to the account and is of `kind`; another account's job (or kind) is indistinguishable from none.
 * A result stored in parts is parsed here, or with `resultAsText` left as JsonText (for a forecast thread). */
export async function getAccountJob(
  db: Kysely<Schema>, accountId: string, id: string, kind: JobKind = 'forecast', options: { resultAsText?: boolean } = {},
): Promise<JobViewRow | undefined> {
  const row = await db.selectFrom('forecast_jobs').select(VIEW_COLUMNS)
    .where('id', '=', id).where('account_id', '=', accountId).where('kind', '=', kind).executeTakeFirst() as JobViewRow | undefined;
  if (row && isPartsRef(row.result)) {
    const text = await readPayload(db, row.result);
    row.result = options.resultAsText ? text : text.parse();
  }
  return row;
}

export interface JobPage { jobs: JobSummary[]; next?: { createdAt: Date; id: string } }

/** The account's jobs of one kind (default forecast), newest first, keyset-paginated on (created_at, id). */
export async function listAccountJobs(
  db: Kysely<Schema>, accountId: string, options: { limit: number; after?: { createdAt: Date; id: string }; status?: JobStatus; kind?: JobKind },
): Promise<JobPage> {
  let query = db.selectFrom('forecast_jobs').select(SUMMARY_COLUMNS).where('account_id', '=', accountId).where('kind', '=', options.kind ?? 'forecast');
  if (options.status) query = query.where('status', '=', options.status);
  if (options.after) {
    const { createdAt, id } = options.after;
    query = query.where(sql<boolean>`(created_at, id) < (${createdAt}, ${id}::uuid)`);
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit + 1).execute() as JobSummary[];
  const jobs = rows.slice(0, options.limit);
  const last = jobs.at(-1);
  return { jobs, next: rows.length > options.limit && last ? { createdAt: last.created_at, id: last.id } : undefined };
}

/** queued → running; false when the job is no longer runnable (cancelled, finished). */
export async function markRunning(db: Kysely<Schema>, id: string): Promise<boolean> {
  const row = await db.updateTable('forecast_jobs')
    .set((eb) => ({ status: 'running', started_at: new Date(), attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Writes the terminal state unless the job was cancelled meanwhile. A result given as JsonText (a forecast
 * thread's bytes) is stored as it is; a large result is written in parts first (job-payloads.ts). */
export async function finishJob(
  db: Kysely<Schema>, id: string, outcome: { status: 'completed'; result: unknown } | { status: 'failed'; error: unknown }, ttlSeconds: number,
): Promise<boolean> {
  let result: string | null = null;
  if (outcome.status === 'completed') {
    result = await writePayload(db, id, outcome.result instanceof JsonText ? outcome.result : new JsonText(JSON.stringify(outcome.result) ?? 'null'));
  }
  const now = new Date();
  const row = await db.updateTable('forecast_jobs')
    .set({
      status: outcome.status,
      result,
      error: outcome.status === 'failed' ? JSON.stringify(outcome.error) : null,
      finished_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning('id')
    .executeTakeFirst();
  if (row === undefined && result !== null) await deletePayload(db, result); // the job was cancelled meanwhile
  return row !== undefined;
}

/** queued|running → cancelled. Returns the row after the attempt (undefined: not the account's, or not of `kind`). */
export async function cancelAccountJob(
  db: Kysely<Schema>, accountId: string, id: string, ttlSeconds: number, kind: JobKind = 'forecast',
): Promise<{ cancelled: boolean; job?: JobViewRow }> {
  const now = new Date();
  const updated = await db.updateTable('forecast_jobs')
    .set({ status: 'cancelled', finished_at: now, expires_at: new Date(now.getTime() + ttlSeconds * 1000) })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('status', 'in', ['queued', 'running'])
    .returning(VIEW_COLUMNS)
    .executeTakeFirst() as JobViewRow | undefined;
  if (updated) return { cancelled: true, job: updated };
  return { cancelled: false, job: await getAccountJob(db, accountId, id, kind) };
}

/** Jobs not yet finished, with their kind (a fine-tuning job has a queue of its own). */
export async function unfinishedJobs(db: Kysely<Schema>): Promise<{ id: string; kind: JobKind }[]> {
  return db.selectFrom('forecast_jobs').select(['id', 'kind']).where('status', 'in', ['queued', 'running']).execute();
}

/** A job's progress as clients see it (chunked jobs: {chunks_done, chunks_total}; fine-tuning: {step, steps, loss, validation_loss}). */
export async function setJobProgress(db: Kysely<Schema>, id: string, progress: unknown): Promise<void> {
  await db.updateTable('forecast_jobs').set({ progress: JSON.stringify(progress) }).where('id', '=', id).where('status', '=', 'running').execute();
}

/** The job's status now (a running job polls it to notice a cancel made by any process). */
export async function jobStatus(db: Kysely<Schema>, id: string): Promise<JobStatus | undefined> {
  return (await db.selectFrom('forecast_jobs').select('status').where('id', '=', id).executeTakeFirst())?.status;
}

/** Ids of jobs not yet finished (re-delivered to the queue on start-up). */
export async function unfinishedJobIds(db: Kysely<Schema>): Promise<string[]> {
  const rows = await db.selectFrom('forecast_jobs').select('id').where('status', 'in', ['queued', 'running']).execute();
  return rows.map((r) => r.id);
}

/** Deletes expired jobs, and the parts of large payloads whose job is gone. */
export async function deleteExpiredJobs(db: Kysely<Schema>, now: Date = new Date()): Promise<number> {
  const result = await db.deleteFrom('forecast_jobs').where('expires_at', '<', now).executeTakeFirst();
  await deleteOrphanParts(db, now);
  return Number(result.numDeletedRows ?? 0);
}
