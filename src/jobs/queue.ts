// Durable jobs (forecast and cross-validation) on pg-boss, in the same database as everything else. pg-boss delivers job
// ids with retries and heartbeats (a consumer killed mid-job is detected and the job redelivered);
// the forecast_jobs row (store/jobs.ts) is the state clients see.
import { PgBoss, fromPglite } from 'pg-boss';
import type { Kysely } from 'kysely';
import type { Database, JobKind, Schema } from '../store/database.ts';
import { finishJob, getJob, markRunning, unfinishedJobs, deleteExpiredJobs } from '../store/jobs.ts';
import { HorizonError } from '../errors.ts';
import { deleteChunks } from '../store/job-chunks.ts';
import { retriedInPlace } from './chunks.ts';

export const FORECAST_QUEUE = 'forecast';
/** pg-boss's longest delivery (24 h); a job attempt is bounded by its heartbeat, not by this */
export const MAX_DELIVERY_SECONDS = 24 * 3600;
/** fine-tuning jobs: a queue of their own, so hours of training never hold the forecast jobs' slots */
export const FINETUNE_QUEUE = 'fine-tuning';

function queueOf(kind: JobKind): string {
  return kind === 'fine-tuning' ? FINETUNE_QUEUE : FORECAST_QUEUE;
}

export interface JobQueueOptions {
  /** redeliveries after the first attempt when the failure is transient (worker gone, timeout) */
  retryLimit: number;
  concurrency: number;
  /** fine-tuning jobs run at once by this process (HORIZON_FINETUNE_CONCURRENCY) */
  fineTuneConcurrency?: number;
  resultTtlSeconds: number;
  /** seconds without a heartbeat after which a running delivery counts as lost */
  heartbeatSeconds?: number;
  superviseIntervalSeconds?: number;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void; error(o: object, m?: string): void };
}

/** Runs one job's inference; throws HorizonError on failure. `jobId` names it in the logs; `kind` says
 * what the stored request is (a forecast plan, or a cross-validation body); `stopping` aborts when the queue
 * stops (a job waiting for a worker stops waiting). */
export type JobExecutor = (request: unknown, jobId: string, kind: JobKind, accountId: string, stopping: AbortSignal) => Promise<unknown>;

// delivered again: a call that reached a worker and lost it, or timed out. A call that found no worker up never
// gets here: the job waits for one within its delivery (jobs/worker-wait.ts), so waiting costs no attempt
const TRANSIENT = new Set(['no_worker', 'inference_timeout']);

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly db: Kysely<Schema>;
  private readonly options: JobQueueOptions;
  private sweepTimer?: NodeJS.Timeout;
  private readonly stopping = new AbortController();

  constructor(database: Database, options: JobQueueOptions) {
    this.db = database.db;
    this.options = options;
    // monitorIntervalSeconds is how often a delivery without a heartbeat (its process died) is failed
    // and so redelivered to a live process; pg-boss's default of 60 s would leave it that long
    const common = { superviseIntervalSeconds: options.superviseIntervalSeconds ?? 5, monitorIntervalSeconds: 10, schedule: false, useListenNotify: true };
    this.boss = database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...common })
      : new PgBoss({ connectionString: database.connectionString!, max: 4, ...common });
    this.boss.on('error', (error: Error) => options.logger?.error({ err: error.message }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    const common = {
      retryLimit: this.options.retryLimit,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 30,
      heartbeatSeconds: this.options.heartbeatSeconds ?? 10,
      // a delivery runs as long as its job takes (a chunked forecast job or a training: many minutes); the
      // heartbeat is what detects a dead process. pg-boss's default of 15 min failed a longer attempt and
      // redelivered it while it still ran; 24 h is pg-boss's ceiling (docs/fine-tuning.md)
      expireInSeconds: MAX_DELIVERY_SECONDS,
      deleteAfterSeconds: this.options.resultTtlSeconds,
    };
    await this.ensureQueue(FORECAST_QUEUE, common);
    await this.ensureQueue(FINETUNE_QUEUE, common);
  }

  /** Creates a queue, or brings an existing one (an earlier version's defaults) to these options:
   * pg-boss's createQueue leaves an existing queue as it is. */
  private async ensureQueue(name: string, options: Parameters<PgBoss['createQueue']>[1] & object): Promise<void> {
    if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
    else await this.boss.createQueue(name, options).catch((error: Error) => { if (!/exists/i.test(error.message)) throw error; });
  }

  /** Hands a stored job to the queue. Idempotent: the pg-boss id is the job id. */
  async enqueue(jobId: string, kind: JobKind = 'forecast'): Promise<void> {
    await this.boss.send(queueOf(kind), { job_id: jobId }, { id: jobId });
  }

  /**
   * Reconciles unfinished job rows with the queue: re-delivers a job stored but never handed over
   * (a crash between insert and enqueue), and fails one whose deliveries pg-boss has given up on
   * (e.g. the process died during its last attempt), so no job stays queued or running forever.
   */
  async reconcile(): Promise<{ enqueued: number; failed: number }> {
    let enqueued = 0;
    let failed = 0;
    for (const { id, kind } of await unfinishedJobs(this.db)) {
      const delivery = await this.boss.getJobById(queueOf(kind), id);
      if (!delivery) {
        await this.enqueue(id, kind);
        enqueued += 1;
      } else if (delivery.state === 'failed' || delivery.state === 'cancelled' || delivery.state === 'completed') {
        const detail = `the job's deliveries ended (${delivery.state}) without a result after ${delivery.retryCount + 1} attempts; the process running ` +
          `it most likely died`;
        if (await finishJob(this.db, id, { status: 'failed', error: { code: 'internal_error', detail } }, this.options.resultTtlSeconds)) {
          failed += 1;
          await deleteChunks(this.db, id);
        }
      }
    }
    return { enqueued, failed };
  }

  /** Starts consuming: each delivery runs `execute` on the stored request and records the outcome. */
  async consume(execute: JobExecutor): Promise<void> {
    const { concurrency, retryLimit, resultTtlSeconds, logger } = this.options;
    const work = async ([delivery]: { data: { job_id: string }; retryCount: number }[]) => {
      const jobId = delivery.data.job_id;
      const row = await getJob(this.db, jobId);
      if (!row || !(await markRunning(this.db, jobId))) return; // cancelled, expired or already finished
      try {
        const result = await execute(row.request, jobId, row.kind, row.account_id, this.stopping.signal);
        await finishJob(this.db, jobId, { status: 'completed', result }, resultTtlSeconds);
      } catch (error) {
        // a failure while the queue stops is not the job's (its wait for a worker was cut short): pg-boss delivers it again
        if (this.stopping.signal.aborted) throw error;
        const horizonError = error instanceof HorizonError ? error : undefined;
        const code = horizonError?.code ?? 'internal_error';
        const attempt = delivery.retryCount + 1;
        // a chunk of a chunked job is retried where it failed (jobs/chunks.ts): its final failure is the job's
        if (TRANSIENT.has(code) && !retriedInPlace(error) && delivery.retryCount < retryLimit) {
          logger?.warn({ job_id: jobId, attempt, code }, 'job attempt failed, will retry');
          throw error; // pg-boss redelivers after its backoff; a chunked job keeps its stored chunks
        }
        const detail = TRANSIENT.has(code) && !retriedInPlace(error)
          ? `${(error as Error).message} (gave up after ${attempt} attempts)`
          : (error as Error).message;
        await finishJob(this.db, jobId, { status: 'failed', error: { code, detail } }, resultTtlSeconds);
      }
      // finished (or cancelled meanwhile): a chunked job's stored chunks are not needed any more
      await deleteChunks(this.db, jobId).catch((error: Error) => logger?.warn({ job_id: jobId, err: error.message }, 'job chunks not deleted'));
    };
    await this.boss.work<{ job_id: string }>(FORECAST_QUEUE, { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: 0.5 }, work);
    await this.boss.work<{ job_id: string }>(
      FINETUNE_QUEUE, { batchSize: 1, localConcurrency: this.options.fineTuneConcurrency ?? 1, pollingIntervalSeconds: 0.5 }, work,
    );
    this.sweepTimer = setInterval(() => {
      void this.reconcile().catch((error: Error) => logger?.warn({ err: error.message }, 'job reconcile failed'));
      void deleteExpiredJobs(this.db).catch(() => undefined);
    }, 30_000);
    this.sweepTimer.unref();
  }

  /** Stops consuming; in-flight deliveries are left to pg-boss's heartbeat to redeliver. */
  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.stopping.abort(new Error('the job queue is stopping'));
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
