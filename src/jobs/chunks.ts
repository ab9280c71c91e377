// Jobs of any size (issue 26): a job whose estimated model time (src/forecasting/cost.ts) is over the chunk
// budget (HORIZON_JOB_CHUNK_BUDGET_MS, default half of HORIZON_INFERENCE_TIMEOUT_MS) runs every model call
// it makes in chunks: consecutive runs of the call's series whose estimate fits the budget (at most
// JOB_CHUNK_MAX_SERIES each), sent one after another (two at a time while their estimates together fit).
// Each chunk's answer is stored as it arrives (job_chunks, migration 007), keyed by a hash of the chunk's
// model call; a job delivered again after its process died plans the same calls and reuses what is stored.
// A chunk that fails transiently (no_worker, inference_timeout) is sent again, up to
// HORIZON_JOB_RETRY_LIMIT times with backoff, without touching the chunks done. A chunk that never reached a
// worker (none was up) does not count: the job's client waits for one first (jobs/worker-wait.ts).
//
// The chunking is of model calls, not of the request: forecast.ts, prism.ts, auto.ts,
// cross-validation.ts and anomalies.ts run unchanged on the whole request with a client whose infer() chunks (a subclass
// of InferenceClient), and the chunks' answers are put back together as the one answer of the call
// (predictions in series order, "series i:" warnings renumbered, as the coalescer does). The workers'
// forecasts do not depend on the other series of a call (runtime/tests), so a chunked job's result is
// the result the same job would have had in one piece, prism's and auto's pooling over all of the
// request's series and the backtest/cross-validation scores included.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { HorizonError, type ErrorCode } from '../errors.ts';
import { InferenceClient, type InferRequest, type InferResponse, type LoadResponse } from '../runtime/inference.ts';
import { decodeInferResponse } from '../runtime/wire.ts';
import type { Catalog } from '../runtime/catalog.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import { anomaliesCostMs, autoCostMs, crossValidationCostMs, forecastCostMs, seriesCostMs } from '../forecasting/cost.ts';
import { planAnomalies, type AnomaliesBody } from '../forecasting/anomalies.ts';
import { isStoredAutoJob, planAuto, type AutoSettings } from '../forecasting/auto.ts';
import type { CrossValidationBody } from '../forecasting/cross-validation.ts';
import { crossValidationPlanOf } from '../forecasting/hierarchy-cv.ts';
import type { ForecastPlan } from '../forecasting/forecast.ts';
import type { JobKind, Schema } from '../store/database.ts';
import { getChunk, putChunk, setProgress, storedChunkKeys } from '../store/job-chunks.ts';

/** the most series in one chunk, whatever the estimate (a chunk's answer is one stored row) */
export const JOB_CHUNK_MAX_SERIES = 1024;
/** chunks of one job in flight at once, while their estimates together fit the budget */
export const JOB_CHUNK_PARALLEL = 2;
/** the codes a chunk is sent again for (the same as a job's redelivery, jobs/queue.ts) */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['no_worker', 'inference_timeout']);
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 30_000;

export interface ChunkSettings {
  budgetMs: number;
  cpuWorkers: number;
  /** sends again after a transient failure (HORIZON_JOB_RETRY_LIMIT) */
  retries: number;
  maxSeries?: number;
  /** the wait before retry k (1-based); default 2 s · 2^(k-1), at most 30 s */
  retryDelayMs?: (k: number) => number;
}

export interface ChunkLogger { info(o: object, m?: string): void; warn(o: object, m?: string): void }

/** Consecutive ranges [start, end) of a call's series: each range's estimate (callMs) fits `budgetMs` and it
 * holds at most `maxSeries`; a series dearer than the budget on its own is a range of its own. */
export function splitSeries(
  costs: readonly number[], budgetMs: number, cpuWorkers: number, maxSeries = JOB_CHUNK_MAX_SERIES,
): { start: number; end: number; estimateMs: number }[] {
  const ranges: { start: number; end: number; estimateMs: number }[] = [];
  let start = 0;
  let sum = 0;
  let most = 0;
  const estimate = (s: number, m: number) => Math.max(s / Math.max(1, cpuWorkers), m);
  for (let i = 0; i < costs.length; i++) {
    const c = costs[i];
    const fits = i === start || (i - start < maxSeries && estimate(sum + c, Math.max(most, c)) <= budgetMs);
    if (!fits) {
      ranges.push({ start, end: i, estimateMs: estimate(sum, most) });
      start = i; sum = 0; most = 0;
    }
    sum += c;
    most = Math.max(most, c);
  }
  if (costs.length) ranges.push({ start, end: costs.length, estimateMs: estimate(sum, most) });
  return ranges;
}

/** The chunks' answers of one call as the call's answer: predictions in order; per-series warnings
 * ("series i: …") renumbered to the call's series, the others once each, first (the worker's order). */
export function mergeAnswers(parts: { answer: InferResponse; offset: number }[]): InferResponse {
  if (parts.length === 1 && parts[0].offset === 0) return parts[0].answer;
  const general: string[] = [];
  const seen = new Set<string>();
  const perSeries: string[] = [];
  const timing: Record<string, number> = {};
  for (const { answer, offset } of parts) {
    for (const text of answer.warnings) {
      const m = /^series (\d+): /.exec(text);
      if (m) perSeries.push(`series ${Number(m[1]) + offset}: ${text.slice(m[0].length)}`);
      else if (!seen.has(text)) { seen.add(text); general.push(text); }
    }
    // the call's timing: the chunks' queue and inference times add up, a load happened at most once
    for (const [key, value] of Object.entries(answer.timing ?? {})) {
      timing[key] = key === 'queue_ms' || key === 'infer_ms' ? (timing[key] ?? 0) + value : Math.max(timing[key] ?? 0, value);
    }
  }
  return {
    model: parts[0].answer.model, size: parts[0].answer.size, predictions: parts.flatMap((p) => p.answer.predictions), warnings: [...general, ...perSeries],
    timing,
  };
}

/** The stored key of a chunk: its model call, hashed (the same call planned again finds it). */
export function chunkKey(group: string, request: InferRequest): string {
  return createHash('sha256').update('horizon-chunk-v1\u0000').update(group).update('\u0000').update(JSON.stringify(request)).digest('base64url');
}

/** A failure already retried or waited out where it happened (a chunk's retries here, a job's wait for a worker in
 * jobs/worker-wait.ts): the queue does not deliver the job again for it. */
export function retriedInPlace(error: unknown): boolean {
  return (error as { retriedInPlace?: boolean } | undefined)?.retriedInPlace === true;
}

interface Waiting { cost: number; start(): void; stop(error: unknown): void }

/**
 * The model client of one chunked job attempt. Only infer() is chunked; warm-ups, the answer threads'
 * text calls (jobs make neither) and the worker's other operations (post) go to the shared client as they are.
 */
export class ChunkedInference extends InferenceClient {
  private readonly shared: InferenceClient;
  private readonly catalog: Catalog;
  private readonly db: Kysely<Schema>;
  private readonly jobId: string;
  private readonly settings: ChunkSettings;
  private readonly logger?: ChunkLogger;
  private storedKeys?: Promise<Set<string>>;
  private chunksDone = 0;
  private chunksTotal = 0;
  /** what this attempt found stored and what it computed */
  readonly counts = { reused: 0, computed: 0 };
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private runningCost = 0;
  private stopped?: unknown;
  private progressDirty = false;
  private progressWrite?: Promise<void>;

  constructor(shared: InferenceClient, catalog: Catalog, db: Kysely<Schema>, jobId: string, settings: ChunkSettings, logger?: ChunkLogger) {
    super(() => undefined, 0, { coalesce: false });
    this.shared = shared;
    this.catalog = catalog;
    this.db = db;
    this.jobId = jobId;
    this.settings = settings;
    this.logger = logger;
  }

  infer(group: string, body: InferRequest): Promise<InferResponse> {
    if (this.stopped) return Promise.reject(this.stopped);
    const costs = body.series.map((s) => seriesCostMs(this.catalog, body.model, body.size, body.freq, s));
    const ranges = splitSeries(costs, this.settings.budgetMs, this.settings.cpuWorkers, this.settings.maxSeries);
    this.chunksTotal += ranges.length;
    this.reportProgress();
    const parts = ranges.map(async ({ start, end, estimateMs }) => {
      const sub: InferRequest = { ...body, series: body.series.slice(start, end) };
      return { answer: await this.chunk(group, sub, estimateMs), offset: start };
    });
    return Promise.all(parts).then(async (answers) => {
      await this.flushProgress(); // the job's result is stored after its progress
      return mergeAnswers(answers);
    });
  }

  inferText(group: string, body: InferRequest): Promise<string> {
    return this.shared.inferText(group, body);
  }

  load(group: string, model: string, size: string): Promise<LoadResponse> {
    return this.shared.load(group, model, size);
  }

  /** the worker's other operations (a hierarchy's reconciliation) are not chunked */
  post<T>(group: string, path: string, body: unknown): Promise<T> {
    return this.shared.post<T>(group, path, body);
  }

  inFlightAt(baseUrl: string): number {
    return this.shared.inFlightAt(baseUrl);
  }

  async close(): Promise<void> { /* the shared client is the server's to close */ }

  /** Waits for the last progress write (so that it lands before the job's result). */
  async flushProgress(): Promise<void> {
    while (this.progressWrite) await this.progressWrite;
  }

  /** One chunk: stored already, or sent (retried on a transient failure) and stored. */
  private async chunk(group: string, sub: InferRequest, estimateMs: number): Promise<InferResponse> {
    const key = chunkKey(group, sub);
    this.storedKeys ??= storedChunkKeys(this.db, this.jobId);
    if ((await this.storedKeys).has(key)) {
      const stored = await getChunk(this.db, this.jobId, key);
      if (stored !== undefined) {
        this.finished(key, sub, true);
        return decodeInferResponse(stored as Parameters<typeof decodeInferResponse>[0]);
      }
    }
    return this.whenSlot(estimateMs, async () => {
      const text = await this.sendChunk(group, sub);
      await putChunk(this.db, this.jobId, key, sub.series.length, text);
      this.finished(key, sub, false);
      return decodeInferResponse(JSON.parse(text));
    });
  }

  private finished(key: string, sub: InferRequest, reused: boolean): void {
    this.chunksDone += 1;
    if (reused) this.counts.reused += 1; else this.counts.computed += 1;
    this.logger?.info({
      job_id: this.jobId, chunk: key.slice(0, 12), model: sub.model, series: sub.series.length, reused, chunks_done: this.chunksDone,
      chunks_total: this.chunksTotal,
    }, reused ? 'job chunk reused' : 'job chunk stored');
    this.reportProgress();
  }

  /** The chunk's /infer call (never coalesced: the chunk is what must fit one call), sent again after a transient failure. */
  private async sendChunk(group: string, sub: InferRequest): Promise<string> {
    const { retries } = this.settings;
    const delay = this.settings.retryDelayMs ?? ((k: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (k - 1)));
    for (let attempt = 1; ; attempt++) {
      if (this.stopped) throw this.stopped;
      try {
        return await this.shared.inferText(group, sub);
      } catch (error) {
        const code = error instanceof HorizonError ? error.code : undefined;
        if (!code || !TRANSIENT_CODES.has(code) || retriedInPlace(error)) throw error;
        if (attempt > retries) {
          throw Object.assign(new HorizonError(code as ErrorCode, `${(error as Error).message} (a chunk of ${sub.series.length} series gave up ` +
            `after ${attempt} tries; the ${this.chunksDone} chunks done are kept)`, { cause: error }), { retriedInPlace: true });
        }
        this.logger?.warn({ job_id: this.jobId, code, attempt, series: sub.series.length }, 'job chunk failed, will retry');
        await new Promise((r) => setTimeout(r, delay(attempt)));
      }
    }
  }

  /** Runs `run` when a slot is free: up to JOB_CHUNK_PARALLEL chunks while their estimates together fit the budget (one always runs). */
  private whenSlot<T>(cost: number, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        cost,
        start: () => {
          run().then(resolve, (error) => { this.stop(error); reject(error); }).finally(() => {
            this.running -= 1;
            this.runningCost -= cost;
            this.pump();
          });
        },
        stop: reject,
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length) {
      const next = this.waiting[0];
      if (this.stopped) { this.waiting.shift(); next.stop(this.stopped); continue; }
      const fits = this.running === 0 || (this.running < JOB_CHUNK_PARALLEL && this.runningCost + next.cost <= this.settings.budgetMs);
      if (!fits) return;
      this.waiting.shift();
      this.running += 1;
      this.runningCost += next.cost;
      next.start();
    }
  }

  /** No further chunk starts (one failed for good, or the job is no longer running). */
  private stop(error: unknown): void {
    this.stopped ??= error;
    this.pump();
  }

  /** Writes {chunks_done, chunks_total} to the job row, one write at a time (the latest wins). */
  private reportProgress(): void {
    this.progressDirty = true;
    if (this.progressWrite) return;
    this.progressWrite = (async () => {
      while (this.progressDirty) {
        this.progressDirty = false;
        try {
          const running = await setProgress(this.db, this.jobId, { chunks_done: this.chunksDone, chunks_total: this.chunksTotal });
          if (!running) this.stop(new HorizonError('job_cancelled', `job ${this.jobId} is no longer running (cancelled or finished by another delivery); ` +
            `its remaining chunks are not run`));
        } catch (error) {
          this.logger?.warn({ job_id: this.jobId, err: (error as Error).message }, 'job progress not stored');
        }
      }
    })().finally(() => { this.progressWrite = undefined; });
  }
}

/** A stored job's estimated model time (src/forecasting/cost.ts): its plan (a forecast job stores it), or its
 * body planned again as the job will plan it (model "auto", a cross-validation, an anomaly request). */
export function jobEstimateMs(
  request: unknown, kind: JobKind, registry: ModelRegistry, options: { cpuWorkers: number; auto: AutoSettings; pulls?: PullManager },
): number {
  const { cpuWorkers, pulls } = options;
  if (kind === 'cross-validation') return crossValidationCostMs(
    registry, crossValidationPlanOf(request as CrossValidationBody, registry, { pulls, mode: 'job' }), cpuWorkers,
  );
  if (kind === 'anomalies') {
    const plan = planAnomalies(request as AnomaliesBody, registry, { pulls, mode: 'job', autoCandidates: options.auto.candidates });
    return anomaliesCostMs(registry, plan, cpuWorkers);
  }
  if (isStoredAutoJob(request)) return autoCostMs(registry, planAuto(request.auto_request, registry, options.auto, { pulls, mode: 'job' }), cpuWorkers);
  return forecastCostMs(registry, request as ForecastPlan, cpuWorkers);
}

/** The model client of one job attempt: a ChunkedInference when the job's estimate is over the chunk
 * budget, else undefined (the shared client, exactly as before chunking existed). A job whose planning
 * fails here is not chunked: running it reports the same failure. */
export function chunkingFor(
  request: unknown, kind: JobKind, jobId: string,
  deps: {
    shared: InferenceClient; registry: ModelRegistry; db: Kysely<Schema>; pulls?: PullManager; auto: AutoSettings; settings: ChunkSettings;
    logger?: ChunkLogger;
  },
): ChunkedInference | undefined {
  let estimate: number;
  try {
    estimate = jobEstimateMs(request, kind, deps.registry, { cpuWorkers: deps.settings.cpuWorkers, auto: deps.auto, pulls: deps.pulls });
  } catch {
    return undefined;
  }
  if (estimate <= deps.settings.budgetMs) return undefined;
  deps.logger?.info({ job_id: jobId, estimate_ms: Math.ceil(estimate), budget_ms: deps.settings.budgetMs }, 'job runs in chunks');
  return new ChunkedInference(deps.shared, deps.registry.catalog, deps.db, jobId, deps.settings, deps.logger);
}
