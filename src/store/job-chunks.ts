// The stored chunks of a chunked job (migration 007, src/jobs/chunks.ts) and the job's progress.
import type { Kysely } from 'kysely';
import type { Schema } from './database.ts';

export interface JobProgress { chunks_done: number; chunks_total: number }

/** The keys of the chunks stored for a job. */
export async function storedChunkKeys(db: Kysely<Schema>, jobId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('job_chunks').select('chunk').where('job_id', '=', jobId).execute();
  return new Set(rows.map((r) => r.chunk));
}

/** A stored chunk's answer (the worker's /infer answer, parsed), or undefined. */
export async function getChunk(db: Kysely<Schema>, jobId: string, chunk: string): Promise<unknown | undefined> {
  const row = await db.selectFrom('job_chunks').select('result').where('job_id', '=', jobId).where('chunk', '=', chunk).executeTakeFirst();
  return row?.result;
}

/** Stores a chunk's answer (`answerText`: the worker's JSON text as it came). A chunk stored already (two
 * deliveries of one job that overlapped) keeps its first answer: both are the same computation. */
export async function putChunk(db: Kysely<Schema>, jobId: string, chunk: string, series: number, answerText: string): Promise<void> {
  await db.insertInto('job_chunks').values({ job_id: jobId, chunk, series, result: answerText })
    .onConflict((oc) => oc.columns(['job_id', 'chunk']).doNothing())
    .execute();
}

/** Once the job has finished (its result, if any, is in forecast_jobs), its chunks are not needed. */
export async function deleteChunks(db: Kysely<Schema>, jobId: string): Promise<void> {
  await db.deleteFrom('job_chunks').where('job_id', '=', jobId).execute();
}

/** Records a running job's progress; false when the job is no longer running (cancelled, or finished by
 * another delivery): the caller stops starting chunks. */
export async function setProgress(db: Kysely<Schema>, jobId: string, progress: JobProgress): Promise<boolean> {
  const row = await db.updateTable('forecast_jobs').set({ progress: JSON.stringify(progress) })
    .where('id', '=', jobId).where('status', '=', 'running')
    .returning('id').executeTakeFirst();
  return row !== undefined;
}
