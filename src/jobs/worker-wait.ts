// Jobs outlive worker restarts (issue 32). A job's model call that never reached a worker ran nothing: no
// worker of its group was up (the InferenceClient's "not running"), the connection was refused or never made
// (the worker had just died and the supervisor had not yet seen it exit), or the worker refused the call
// while shutting down. Such a call waits for a worker (the supervisor's whenReady, with backoff between
// tries) and is sent again within the same delivery: the job spends no attempt on it. A call that reached a
// worker and failed there (the worker died mid-call, a timeout, a proxy answering for a dead replica) is the
// job's failure as before: the delivery fails and pg-boss delivers the job again (HORIZON_JOB_RETRY_LIMIT),
// so a job that kills its worker every time still ends. The wait is bounded (HORIZON_JOB_WORKER_WAIT_MS for
// each outage a call meets): a group that never comes back fails the job with no_worker, and the queue does
// not deliver it again for that (it has waited already).
import { setTimeout as sleep } from 'node:timers/promises';
import { HorizonError } from '../errors.ts';
import { InferenceClient, type EmbedRequest, type EmbedResponse, type InferRequest, type InferResponse, type LoadResponse } from '../runtime/inference.ts';

/** connection errors that mean the request was never sent: nothing listened there, or no connection was made */
const NOT_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a failed model call never reached a worker, so that nothing ran (see the top of this file). Reads the
 * InferenceClient's no_worker errors: "not running" (no endpoint), "unreachable" with the connection's error as
 * cause, and the worker's own 503 shutting_down (runtime/horizon_runtime/server.py answers it before running). */
export function neverReachedWorker(error: unknown): boolean {
  if (!(error instanceof HorizonError) || error.code !== 'no_worker') return false;
  const cause = error.cause as { code?: unknown } | undefined;
  if (cause === undefined) return / is not running; /.test(error.message) || / is shutting down$/.test(error.message);
  return typeof cause.code === 'string' && NOT_CONNECTED.has(cause.code);
}

export interface WorkerWaitSettings {
  /** the longest one call waits for a worker, from the first try that found none (HORIZON_JOB_WORKER_WAIT_MS) */
  waitMs: number;
  /** resolves once the group has a ready worker (Supervisor.whenReady); without it a wait only backs off */
  whenReady?: (group: string, signal: AbortSignal) => Promise<void>;
  /** aborted when the job queue stops: waits end at once (the delivery is left to pg-boss) */
  signal?: AbortSignal;
  /** the pause before try k + 1 after k tries found no worker; default 100 ms · 2^(k-1), at most 2 s (a worker
   * killed with -9 still looks ready until its exit is seen: these tries are refused at once) */
  backoffMs?: (k: number) => number;
}

export interface WorkerWaitLogger { warn(o: object, m?: string): void }

/**
 * The model client of one job attempt: the server's client, with each call that never reached a worker sent
 * again once a worker is up. A chunked job's client (jobs/chunks.ts) sends its chunks through this one.
 */
export class WorkerWaitingInference extends InferenceClient {
  private readonly shared: InferenceClient;
  private readonly jobId: string;
  private readonly settings: WorkerWaitSettings;
  private readonly logger?: WorkerWaitLogger;
  /** how long this attempt's calls waited for workers, in all (the job's log line) */
  waitedMs = 0;

  constructor(shared: InferenceClient, jobId: string, settings: WorkerWaitSettings, logger?: WorkerWaitLogger) {
    super(() => undefined, 0, { coalesce: false });
    this.shared = shared;
    this.jobId = jobId;
    this.settings = settings;
    this.logger = logger;
  }

  infer(group: string, body: InferRequest): Promise<InferResponse> {
    return this.untilReached(group, () => this.shared.infer(group, body));
  }

  inferText(group: string, body: InferRequest): Promise<string> {
    return this.untilReached(group, () => this.shared.inferText(group, body));
  }

  inferEncodedText(group: string, body: string): Promise<string> {
    return this.untilReached(group, () => this.shared.inferEncodedText(group, body));
  }

  embed(group: string, body: EmbedRequest): Promise<EmbedResponse> {
    return this.untilReached(group, () => this.shared.embed(group, body));
  }

  load(group: string, model: string, size: string): Promise<LoadResponse> {
    return this.untilReached(group, () => this.shared.load(group, model, size));
  }

  post<T>(group: string, path: string, body: unknown): Promise<T> {
    return this.untilReached(group, () => this.shared.post<T>(group, path, body));
  }

  inFlightAt(baseUrl: string): number {
    return this.shared.inFlightAt(baseUrl);
  }

  async close(): Promise<void> { /* the shared client is the server's to close */ }

  private async untilReached<T>(group: string, send: () => Promise<T>): Promise<T> {
    let deadline: number | undefined;
    for (let tries = 1; ; tries++) {
      try {
        return await send();
      } catch (error) {
        if (!neverReachedWorker(error)) throw error;
        deadline ??= Date.now() + this.settings.waitMs;
        if (Date.now() >= deadline) throw this.gaveUp(group, error as HorizonError);
        if (tries === 1) {
          const fields = { job_id: this.jobId, runtime_group: group, wait_ms: this.settings.waitMs, err: (error as Error).message };
          this.logger?.warn(fields, 'job waits for a worker');
        }
        const started = performance.now();
        try {
          await this.pause(group, tries, deadline);
        } catch (stopped) {
          // the queue stops: the call fails as it did (the queue leaves the delivery to pg-boss)
          if (this.settings.signal?.aborted) throw error;
          // the group has no worker that could come (whenReady refused): waiting is pointless
          if (Date.now() < deadline) throw this.gaveUp(group, error as HorizonError, (stopped as Error).message);
          // else the wait ran out: one last try at the deadline
        } finally {
          this.waitedMs += performance.now() - started;
        }
      }
    }
  }

  /** Backs off, then waits for a ready worker of the group; rejects when the deadline passes or the queue stops. */
  private async pause(group: string, tries: number, deadline: number): Promise<void> {
    const queueStops = this.settings.signal ? [this.settings.signal] : [];
    const stop = AbortSignal.any([AbortSignal.timeout(Math.max(0, deadline - Date.now())), ...queueStops]);
    const backoff = this.settings.backoffMs ?? ((k: number) => Math.min(2_000, 100 * 2 ** (k - 1)));
    await sleep(backoff(tries), undefined, { signal: stop, ref: false });
    if (!this.settings.whenReady) return;
    // raced with the signal itself: the wait ends at the deadline even if whenReady does not heed its signal
    const ended = new Promise<never>((_, reject) => stop.addEventListener('abort', () => reject(stop.reason), { once: true }));
    await Promise.race([this.settings.whenReady(group, stop), ended]);
  }

  /** The job's no_worker failure after its wait: not delivered again (retriedInPlace, jobs/chunks.ts), it waited already. */
  private gaveUp(group: string, last: HorizonError, why?: string): HorizonError {
    const waited = why ?? `no worker of runtime group "${group}" came up within ${this.settings.waitMs / 1000} s (HORIZON_JOB_WORKER_WAIT_MS)`;
    const lastTry = last.message.replace(/; retry shortly$/, '');
    const failure = new HorizonError('no_worker', `${waited}; the last try: ${lastTry}`, { cause: last, headers: last.headers });
    return Object.assign(failure, { retriedInPlace: true });
  }
}
