// The control plane's one inference call: routes a normalised request to the worker of the model's
// runtime group and maps the worker's protocol errors (docs/runtime-protocol.md) to the registry.
import { Pool } from 'undici';
import { HorizonError } from '../errors.ts';
import type { EmbedRequest, EmbedResponse, InferRequest, InferResponse, LoadResponse, Prediction } from './worker-protocol.ts';
import {
  decodeEmbedResponse, decodeInferResponse, encodeEmbedRequest, encodeInferRequest, joinChunkAnswers, joinEmbedAnswers,
} from './wire.ts';
import { currentRequest } from '../contract/request-context.ts';

// the protocol's shapes, for the code that calls the client
export type { EmbedRequest, EmbedResponse, InferRequest, InferResponse, LoadResponse, Prediction } from './worker-protocol.ts';

/** Where a group's workers listen right now (undefined or empty while none is up): local workers'
 * origins (HORIZON_WORKERS_PER_GROUP of them), or a Ray Serve application's URL with its route prefix
 * (http://serve:8000/core). */
export type EndpointResolver = (group: string) => string | readonly string[] | undefined;

const RETRY_AFTER_SECONDS = '2';

/** An answer's warnings for a call made of some of its series: a per-series warning ("series i: …") goes
 * to each new index `to(i)` gives (none: dropped), renumbered; the others are kept as they are. */
export function renumberWarnings(warnings: readonly string[], to: (i: number) => readonly number[]): string[] {
  return warnings.flatMap((text) => {
    const m = /^series (\d+): /.exec(text);
    if (!m) return [text];
    return to(Number(m[1])).map((j) => `series ${j}: ${text.slice(m[0].length)}`);
  });
}
/** A coalesced call carries at most this many series (the worker's default batch) */
const COALESCE_MAX_SERIES = 256;

interface Waiting {
  body: InferRequest; requestId: string | undefined; resolve(answer: InferResponse): void; reject(error: unknown): void;
  /** its request's client-gone signal: the call rejects at once when it aborts (request-context.ts) */
  signal: AbortSignal | undefined;
}

/** What a model call rejects with once its request's client has gone (http/client-gone.ts): a 499 that no
 * client reads, and that the charge refunds (http/charge.ts). */
export function clientClosed(): HorizonError {
  return new HorizonError('client_closed_request', 'the client closed the connection before the answer was ready: its model calls were dropped ' +
    'and nothing is charged');
}

/** Calls `onAbort` once `signal` aborts; the returned function stops listening (call it when the work is settled). */
function onAborted(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return () => undefined;
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** A call waiting at the gate. `key`: its batch key when it may share one worker call with other waiting
 * calls of the same key (up to `maxSeries` series in all); `item`: what the batch's leader is handed for it. */
interface GateEntry<T> {
  key: string | undefined;
  series: number;
  maxSeries: number;
  item: T | undefined;
  /** its flow had nothing at the worker and nothing waiting when it came: it may take the slot over the limit */
  newcomer: boolean;
  begin(mates: T[], release: () => void): void;
}

/**
 * Fair and work-conserving queueing of model calls between accounts (issues 24, 32): each group's worker
 * calls pass a gate of a few slots (2 per worker: one running, one queued in the worker, so the worker never
 * holds a long FIFO backlog); a call that finds no free slot waits in its flow's queue, and a freed slot goes
 * to the waiting flow with the fewest calls at the worker, round robin among equals.
 *
 * The turn forms a batch: a call that may share a worker call (`join`: same batch key, no covariates) takes
 * with it the waiting calls of the same key from every flow, one per flow per round, up to one worker batch.
 * One account alone thus fills whole batches (the worker is never left waiting while calls queue), and under
 * contention each flow gets its share of every batch. Calls of one event-loop turn are gathered the same way
 * (the gate's pump runs at setImmediate), so they go as one worker call even when slots are free.
 *
 * A flow with nothing at the worker and nothing waiting takes one slot over the limit (one extra in all), so
 * a newcomer's call goes at once. A large call is cut into chunks by the client, each queued on its own, so
 * another account's small call waits for at most one chunk. Calls outside a request (a job) are queued by
 * their job id: jobs interleave with each other and with requests.
 *
 * A waiting call whose `signal` aborts (its request's client has gone, issue 33) leaves its queue at once and
 * rejects with the signal's reason: it never takes a slot.
 */
export class FairGate<T = unknown> {
  private running = 0;
  /** calls at the worker, by flow (a batch counts for each flow in it): a freed slot goes to the waiting flow with the fewest */
  private readonly runningByFlow = new Map<string, number>();
  /** waiting calls by flow, in round-robin order among equals: a flow served goes to the back */
  private readonly queues = new Map<string, GateEntry<T>[]>();
  private readonly slots: () => number;
  private pumpScheduled = false;
  constructor(slots: () => number) { this.slots = slots; }

  /** Resolves with the release function once this flow's call may go to the worker (a call of its own);
   * rejects with `signal`'s reason, leaving the queue, if it aborts first. */
  acquire(flow: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queues.size === 0 && this.running < this.slots()) return Promise.resolve(this.start([flow]));
    // a flow with no call at the worker and none waiting may take one slot over the limit (one such call at a
    // time): another account's small call then waits for no chunk of a large one, only for the worker itself
    if (this.isNewcomer(flow) && this.running < this.slots() + 1) return Promise.resolve(this.start([flow]));
    return new Promise((resolve, reject) => {
      const entry: GateEntry<T> = {
        key: undefined, series: 0, maxSeries: 0, item: undefined, newcomer: false, begin: (_mates, release) => { stop(); resolve(release); },
      };
      const stop = onAborted(signal, () => { this.withdraw(flow, entry); reject(signal!.reason); });
      this.enqueue(flow, entry);
    });
  }

  /**
   * Queues a call that may share one worker call with others of the same `key`. When its turn comes it
   * resolves with the release function and the items of the waiting calls taken into the same worker call
   * (round robin over the flows, at most `maxSeries` series in all); a call taken into another's batch never
   * resolves here: that batch's leader answers it. Decided at the next setImmediate at the latest, so calls
   * of one event-loop turn are batched together. `signal`: as for acquire (a call already taken into another's
   * batch is not withdrawn: the leader's call drops it, inference.ts sendBatch).
   */
  join(flow: string, key: string, series: number, maxSeries: number, item: T, signal?: AbortSignal): Promise<{ release: () => void; mates: T[] }> {
    const newcomer = this.isNewcomer(flow);
    return new Promise((resolve, reject) => {
      const entry: GateEntry<T> = { key, series, maxSeries, item, newcomer, begin: (mates, release) => { stop(); resolve({ release, mates }); } };
      const stop = onAborted(signal, () => { if (this.withdraw(flow, entry)) reject(signal!.reason); });
      this.enqueue(flow, entry);
      if (!this.pumpScheduled) {
        this.pumpScheduled = true;
        setImmediate(() => { this.pumpScheduled = false; this.next(); });
      }
    });
  }

  /** calls waiting, by flow (tests and metrics) */
  waiting(): Record<string, number> {
    return Object.fromEntries([...this.queues].map(([flow, q]) => [flow, q.length]));
  }

  private isNewcomer(flow: string): boolean {
    return !this.runningByFlow.has(flow) && !this.queues.has(flow);
  }

  /** Takes a waiting call out of its flow's queue (its caller has gone); false when it is not waiting any more. */
  private withdraw(flow: string, entry: GateEntry<T>): boolean {
    const queue = this.queues.get(flow);
    const i = queue ? queue.indexOf(entry) : -1;
    if (i < 0) return false;
    queue!.splice(i, 1);
    if (queue!.length === 0) this.queues.delete(flow);
    return true;
  }

  private enqueue(flow: string, entry: GateEntry<T>): void {
    const queue = this.queues.get(flow);
    if (queue) queue.push(entry); else this.queues.set(flow, [entry]);
  }

  private start(flows: readonly string[]): () => void {
    this.running++;
    for (const flow of flows) this.runningByFlow.set(flow, (this.runningByFlow.get(flow) ?? 0) + 1);
    return once(() => {
      this.running--;
      for (const flow of flows) {
        const left = this.runningByFlow.get(flow)! - 1;
        if (left > 0) this.runningByFlow.set(flow, left); else this.runningByFlow.delete(flow);
      }
      this.next();
    });
  }

  private next(): void {
    while (this.queues.size > 0) {
      let chosen: string | undefined;
      if (this.running < this.slots()) {
        // the waiting flow with the fewest calls at the worker; among equals the one waiting longest
        for (const flow of this.queues.keys()) {
          if (chosen === undefined || (this.runningByFlow.get(flow) ?? 0) < (this.runningByFlow.get(chosen) ?? 0)) chosen = flow;
        }
      } else if (this.running < this.slots() + 1) {
        // the slot over the limit, for a flow that came with nothing at the worker and nothing waiting
        for (const [flow, queue] of this.queues) if (queue[0].newcomer && !this.runningByFlow.has(flow)) { chosen = flow; break; }
      }
      if (chosen === undefined) return;
      this.dispatch(chosen);
    }
  }

  /** Starts the head call of `flow`, with the compatible waiting calls of every flow when it may share. */
  private dispatch(flow: string): void {
    const head = this.takeAt(flow, 0);
    const mates: GateEntry<T>[] = [];
    const flows = [flow];
    if (head.key !== undefined) {
      let series = head.series;
      // one call per flow per round, in the flows' round-robin order (the chosen flow went to the back)
      for (let taken = true; taken && series < head.maxSeries;) {
        taken = false;
        for (const [other, queue] of [...this.queues]) {
          const i = queue.findIndex((e) => e.key === head.key);
          if (i < 0 || series + queue[i].series > head.maxSeries) continue;
          const mate = this.takeAt(other, i);
          mates.push(mate);
          if (!flows.includes(other)) flows.push(other);
          series += mate.series;
          taken = true;
        }
      }
    }
    head.begin(mates.map((m) => m.item!), this.start(flows));
  }

  /** Removes the i-th waiting call of `flow`; the flow goes to the back of the round robin. */
  private takeAt(flow: string, i: number): GateEntry<T> {
    const queue = this.queues.get(flow)!;
    const [entry] = queue.splice(i, 1);
    this.queues.delete(flow);
    if (queue.length > 0) this.queues.set(flow, queue);
    return entry;
  }
}

/** A signal that aborts once every one of `signals` has (none when a caller has none: it never goes away). */
function abandonedByAll(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  if (signals.length === 0 || signals.some((s) => s === undefined)) return undefined;
  if (signals.length === 1) return signals[0];
  const all = new AbortController();
  let left = signals.length;
  for (const s of signals) onAborted(s, () => { if (--left === 0) all.abort(); });
  return all.signal;
}

function noWorker(group: string): HorizonError {
  return new HorizonError('no_worker', `the model worker for runtime group "${group}" is not ` +
    `running; retry shortly`, { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
}

function once(fn: () => void): () => void {
  let done = false;
  return () => { if (!done) { done = true; fn(); } };
}

/** The fairness flow of the current call: its account, else its job (request) id. */
function currentFlow(): string {
  const context = currentRequest();
  return context?.accountId ?? context?.requestId ?? 'anonymous';
}

export class InferenceClient {
  private readonly pools = new Map<string, Pool>();
  private readonly resolve: EndpointResolver;
  private readonly timeoutMs: number;
  private readonly float32: boolean;
  /** calls in flight per worker URL, and where each group's round robin among equally busy workers stands */
  private readonly inFlight = new Map<string, number>();
  private readonly nextIndex = new Map<string, number>();
  private readonly coalesce: boolean;
  /** per group: the fair gate of its worker calls, which also forms their batches */
  private readonly gates = new Map<string, FairGate<Waiting>>();
  /** a call of more series than this is cut into chunks queued fairly (HORIZON_FAIR_CHUNK_SERIES; 0: never) */
  readonly chunkSeries: number;
  /** the same for a CPU model's calls (HORIZON_FAIR_CHUNK_SERIES_CPU) */
  readonly cpuChunkSeries: number;
  private readonly isCpuModel: (model: string) => boolean;

  /** float32: ask the worker for float32 answers where they are exact (HORIZON_INFER_FLOAT32).
   * coalesce: concurrent calls with the same model, size, freq, horizon and levels go as one (HORIZON_INFER_COALESCE). */
  /** gate slots per endpoint: 2 for a local worker (one call running, one queued); more for a Ray Serve
   * application, whose one URL stands for all its replicas */
  private readonly slotsPerEndpoint: number;

  constructor(resolve: EndpointResolver, timeoutMs: number, options: {
    float32?: boolean; coalesce?: boolean; chunkSeries?: number; cpuChunkSeries?: number; isCpuModel?: (model: string) => boolean; slotsPerEndpoint?: number;
  } = {}) {
    this.resolve = resolve;
    this.timeoutMs = timeoutMs;
    this.float32 = options.float32 ?? true;
    this.coalesce = options.coalesce ?? true;
    this.chunkSeries = options.chunkSeries ?? 256; // one worker batch (HORIZON_BATCH_MAX_SERIES)
    this.cpuChunkSeries = options.cpuChunkSeries ?? this.chunkSeries;
    this.isCpuModel = options.isCpuModel ?? (() => false);
    this.slotsPerEndpoint = options.slotsPerEndpoint ?? 2;
  }

  /** The group's fair gate (slotsPerEndpoint slots per ready worker, at least that many). */
  gate(group: string): FairGate<Waiting> {
    let gate = this.gates.get(group);
    if (!gate) this.gates.set(group, gate = new FairGate<Waiting>(() => this.slotsPerEndpoint * Math.max(1, this.endpoints(group).length)));
    return gate;
  }

  /** The fair chunk of a model's calls: a foundation model's is one worker batch, so a GPU batch is never
   * split; a CPU model's (catalog `cost`: the statistical models and baselines) is smaller, since its series
   * are fitted one by one anyway and a smaller chunk holds the worker for less time while another account
   * waits (bench/README.md, fairness). 0: never chunked. */
  chunkSeriesFor(model: string): number {
    return this.isCpuModel(model) ? this.cpuChunkSeries : this.chunkSeries;
  }

  /** A large call in chunks of `size` series, each queued fairly; the answers joined in order. */
  private async inferChunked(group: string, body: InferRequest, size: number): Promise<InferResponse> {
    const chunks: InferRequest[] = [];
    for (let start = 0; start < body.series.length; start += size) chunks.push({ ...body, series: body.series.slice(start, start + size) });
    const answers = await Promise.all(chunks.map((chunk) => this.inferNow(group, chunk, currentRequest()?.requestId)));
    return joinChunkAnswers(answers, size);
  }

  /**
   * One model call. A call without covariates waits at the gate under its batch key (model, size, freq,
   * horizon, levels); when its turn comes it goes to the worker as ONE /infer call with the other waiting
   * calls of that key (of every flow, round robin; calls of one event-loop turn included), up to one worker
   * batch — the model's fair chunk: 50 series for a CPU model by default, 256 for a foundation model —
   * and the answer is split back per caller. The worker would have put their series into one batch anyway
   * (its micro-batcher; adapters are batch-independent, runtime/tests); sending them as one saves a hop per
   * call and keeps the worker busy while calls queue. Covariates keep their own call (the worker's
   * "covariates ignored" warning is per call).
   */
  infer(group: string, body: InferRequest): Promise<InferResponse> {
    const requestId = currentRequest()?.requestId;
    const none = (o: object | undefined) => o === undefined || Object.keys(o).length === 0;
    const plain = body.series.every((s) => none(s.past_covariates) && none(s.future_covariates) && none(s.static_covariates));
    // a joint forecast is one group, never cut nor merged; sample paths keep their own call (their count and seed)
    if (body.multivariate || body.samples) return this.inferNow(group, body, requestId);
    const chunk = this.chunkSeriesFor(body.model);
    if (chunk > 0 && body.series.length > chunk) return this.inferChunked(group, body, chunk);
    const maxSeries = chunk > 0 ? Math.min(chunk, COALESCE_MAX_SERIES) : COALESCE_MAX_SERIES;
    if (!this.coalesce || !plain || body.series.length >= maxSeries) return this.inferNow(group, body, requestId);
    if (this.endpoints(group).length === 0) return Promise.reject(noWorker(group));
    const key = `${body.model}\u0000${body.size}\u0000${body.freq}\u0000${body.horizon}\u0000${body.quantiles.join(',')}`;
    const flow = currentFlow();
    const signal = currentRequest()?.signal;
    if (signal?.aborted) return Promise.reject(clientClosed());
    return new Promise((resolve, reject) => {
      // the client gone: the call rejects at once, whether it waits at the gate or is in a batch at the worker
      const stop = onAborted(signal, () => reject(clientClosed()));
      const own: Waiting = { body, requestId, resolve: (a) => { stop(); resolve(a); }, reject: (e) => { stop(); reject(e); }, signal };
      this.gate(group).join(flow, key, body.series.length, maxSeries, own, signal)
        .then(({ release, mates }) => this.sendBatch(group, [own, ...mates], flow, release), () => undefined);
    });
  }

  /** The calls of one gate turn as one /infer call; each caller gets its own series' predictions back. */
  private sendBatch(group: string, batch: Waiting[], flow: string, release: () => void): void {
    // a caller that has gone is left out (taken into this batch before its client left)
    const waiting = batch.filter((w) => !w.signal?.aborted);
    const url = this.pick(group);
    if (!url || waiting.length === 0) {
      release();
      for (const w of waiting) w.reject(noWorker(group));
      return;
    }
    // the worker call is cancelled only when every caller in it has gone: the others still want its answer
    const abandoned = abandonedByAll(waiting.map((w) => w.signal));
    const merged: InferRequest = waiting.length === 1 ? waiting[0].body : { ...waiting[0].body, series: waiting.flatMap((w) => w.body.series) };
    // the worker logs the call under every caller's request id
    const ids = waiting.map((w) => w.requestId).filter((id): id is string => id !== undefined);
    const sent = this.sendCounted<Parameters<typeof decodeInferResponse>[0]>(
      group, url, '/infer', encodeInferRequest(merged, this.float32), ids.length ? ids.join(',') : undefined, false, flow, release, abandoned,
    );
    sent.then((raw) => {
      let answer: InferResponse;
      try { answer = decodeInferResponse(raw); } catch (error) { for (const w of waiting) w.reject(error); return; }
      if (waiting.length === 1) { waiting[0].resolve(answer); return; }
      let offset = 0;
      for (const w of waiting) {
        const n = w.body.series.length;
        // per-series warnings ("series i: …") go to the caller of series i, renumbered; the rest to all
        const warnings = renumberWarnings(answer.warnings, (i) => (i >= offset && i < offset + n ? [i - offset] : []));
        w.resolve({ ...answer, warnings, predictions: answer.predictions.slice(offset, offset + n) });
        offset += n;
      }
    }, (error) => { for (const w of waiting) w.reject(error); });
  }

  private async inferNow(group: string, body: InferRequest, requestId: string | undefined): Promise<InferResponse> {
    return decodeInferResponse(await this.call(group, '/infer', encodeInferRequest(body, this.float32), undefined, requestId));
  }

  /** One model call on its own (never coalesced), answering the worker's JSON text as it came: for a
   * caller that decodes and shapes a large answer off the event loop (forecasting/answer-threads.ts). */
  inferText(group: string, body: InferRequest): Promise<string> {
    return this.call<string>(group, '/infer', encodeInferRequest(body, this.float32), undefined, currentRequest()?.requestId, true);
  }

  /** An /infer call whose body the caller encoded already (encodeInferRequest → JSON text, made in a forecast
   * thread: http/large-forecast.ts), answering the worker's JSON text as it came. */
  inferEncodedText(group: string, body: string): Promise<string> {
    return this.call<string>(group, '/infer', body, undefined, currentRequest()?.requestId, true);
  }

  /** A call to another operation of the group's worker (the hierarchy endpoints: runtime/hierarchy.ts), answering its JSON: the
   * worker picked, the request id and the errors as for a model call, without the fair gate (no model runs in it). */
  post<T>(group: string, path: string, body: unknown): Promise<T> {
    return this.call<T>(group, path, body);
  }

  /** The series' encoder embeddings (the worker's POST /embed): in chunks of the model's fair chunk, each a call of its own
   * that waits for its fair turn at the gate as /infer's calls do (never coalesced with other callers': the worker's
   * micro-batcher puts concurrent calls of one model, size and granularity into one batch anyway); answers joined in order. */
  async embed(group: string, body: EmbedRequest): Promise<EmbedResponse> {
    const size = this.chunkSeriesFor(body.model) || body.series.length;
    const chunks: EmbedRequest[] = [];
    for (let start = 0; start < body.series.length; start += size) chunks.push({ ...body, series: body.series.slice(start, start + size) });
    const requestId = currentRequest()?.requestId;
    const answers = await Promise.all(chunks.map(async (chunk) => decodeEmbedResponse(
      await this.call<Parameters<typeof decodeEmbedResponse>[0]>(group, '/embed', encodeEmbedRequest(chunk), undefined, requestId),
    )));
    return joinEmbedAnswers(answers);
  }

  /** Loads the model in every ready worker of the group (a warm-up must warm whichever serves next);
   * the answer is the first worker's, `already_loaded` only when every worker had it, `load_ms` the longest. */
  async load(group: string, model: string, size: string): Promise<LoadResponse> {
    const urls = this.endpoints(group);
    const answers = await Promise.all((urls.length ? urls : [undefined]).map((url) => this.call<LoadResponse>(group, '/load', { model, size }, url)));
    if (answers.length === 1) return answers[0];
    return { ...answers[0], load_ms: Math.max(...answers.map((a) => a.load_ms)), already_loaded: answers.every((a) => a.already_loaded) };
  }

  private endpoints(group: string): string[] {
    const resolved = this.resolve(group);
    return resolved === undefined ? [] : typeof resolved === 'string' ? [resolved] : [...resolved];
  }

  /** Calls in flight to the worker at `baseUrl` (the supervisor spares a busy worker's missed health checks). */
  inFlightAt(baseUrl: string): number {
    return this.inFlight.get(baseUrl) ?? 0;
  }

  /** The ready worker with the fewest calls in flight; among equally busy ones, round robin. */
  private pick(group: string): string | undefined {
    const urls = this.endpoints(group);
    if (urls.length <= 1) return urls[0];
    const start = (this.nextIndex.get(group) ?? 0) % urls.length;
    let best = start;
    for (let k = 1; k < urls.length; k++) {
      const i = (start + k) % urls.length;
      if ((this.inFlight.get(urls[i]) ?? 0) < (this.inFlight.get(urls[best]) ?? 0)) best = i;
    }
    this.nextIndex.set(group, best + 1);
    return urls[best];
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }

  private pool(baseUrl: string): Pool {
    let pool = this.pools.get(baseUrl);
    if (!pool) {
      pool = new Pool(baseUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
      this.pools.set(baseUrl, pool);
    }
    return pool;
  }

  private async call<T>(
    group: string, path: string, body: unknown, at?: string, requestId: string | undefined = currentRequest()?.requestId, asText = false,
  ): Promise<T> {
    const baseUrl = at ?? this.pick(group);
    if (!baseUrl) throw noWorker(group);
    // model calls wait for a fair turn (FairGate); loads and health checks do not
    const flow = path === '/infer' || path === '/embed' ? currentFlow() : undefined;
    // a model call of a request whose client has gone leaves the gate, or is cancelled at the worker (issue 33)
    const signal = flow !== undefined ? currentRequest()?.signal : undefined;
    if (signal?.aborted) throw clientClosed();
    const release = flow !== undefined && !at ? await this.gate(group).acquire(flow, signal).catch((error: unknown) => {
      throw signal?.aborted ? clientClosed() : error;
    }) : undefined;
    // the worker picked when the turn comes (the one with the fewest calls then)
    const url = release ? this.pick(group) ?? baseUrl : baseUrl;
    return this.sendCounted<T>(group, url, path, body, requestId, asText, flow, release, signal);
  }

  /** A call to the worker at `url`, counted in flight; `release` (its gate turn) given back when it ends. */
  private async sendCounted<T>(group: string, url: string, path: string, body: unknown, requestId: string | undefined, asText: boolean,
    flow: string | undefined, release: (() => void) | undefined, signal?: AbortSignal): Promise<T> {
    this.inFlight.set(url, (this.inFlight.get(url) ?? 0) + 1);
    try {
      // the worker logs its side of the request under the same id
      return await this.send<T>(group, url, path, body, requestId, asText, flow, signal);
    } finally {
      release?.();
      const left = this.inFlight.get(url)! - 1;
      if (left > 0) this.inFlight.set(url, left); else this.inFlight.delete(url); // restarted workers get new ports
    }
  }

  private async send<T>(group: string, baseUrl: string, path: string, body: unknown, requestId: string | undefined, asText = false, flow?: string,
    signal?: AbortSignal): Promise<T> {
    const base = new URL(baseUrl);
    let res;
    let text: string;
    try {
      res = await this.pool(base.origin).request({
        path: `${base.pathname.replace(/\/$/, '')}${path}`, method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body),
        // x-horizon-flow: whose call it is, so the worker's batches take waiting series fairly between accounts;
        // x-horizon-batch: the gate formed this call's batch already, so the worker predicts it without its batching wait
        headers: {
          'content-type': 'application/json', ...(requestId && { 'x-request-id': requestId }),
          ...(flow && { 'x-horizon-flow': flow, 'x-horizon-batch': 'formed' }),
        },
        headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
        // aborting closes the connection: the worker cancels the call's series not yet fitted
        // (docs/runtime-protocol.md, "Cancellation"); the pool opens another connection for the next call
        signal,
      });
      text = await res.body.text();
    } catch (error) {
      if (signal?.aborted) throw clientClosed();
      const code = (error as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        // the contract's 504 names the job API (B.8): a job splits what one call cannot finish
        throw new HorizonError('inference_timeout', `the model worker for "${group}" did not answer within ${this.timeoutMs} ms ` +
          `(HORIZON_INFERENCE_TIMEOUT_MS); send large requests to POST /v1/forecast-jobs (or POST /v1/cross-validation-jobs): a job runs them in chunks ` +
          `that each fit one call`, { cause: error });
      }
      throw new HorizonError('no_worker', `the model worker for runtime group "${group}" is unreachable ` +
        `(${(error as Error).message}); retry shortly`, { headers: { 'retry-after': RETRY_AFTER_SECONDS }, cause: error });
    }
    if (res.statusCode === 200) return (asText ? text : JSON.parse(text)) as T;
    let code = 'unknown';
    let detail = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as { error?: { code?: string; detail?: string } };
      code = parsed.error?.code ?? code;
      detail = parsed.error?.detail ?? detail;
    } catch { /* not JSON: keep the raw text as detail */ }
    switch (code) {
      case 'unknown_model':
      case 'unknown_size':
      case 'model_unavailable':
        throw new HorizonError('model_unavailable', detail);
      case 'weights_missing':
        // the worker's detail names server paths: for the operator's log, not for API clients
      {
        const { model = 'this model', size = '' } = body as { model?: string; size?: string };
        throw new HorizonError('weights_missing', `the weights of ${model}/${size} are not installed on this deployment; the operator installs them with ` +
          `\`./horizon models pull ${model} --size ${size}\` (into HORIZON_MODEL_DIR/${model}/${size}/)`, { cause: new Error(detail) });
      }
      case 'shutting_down':
        throw new HorizonError('no_worker', detail, { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
      case 'inference_failed':
        throw new HorizonError('inference_failed', `the model failed: ${detail}`);
      case 'unknown':
        // no protocol error body: not the worker's answer but what stands in front of it (Ray Serve's
        // proxy when a replica died mid-request, a load balancer): the worker is gone, not wrong
        throw new HorizonError('no_worker', `the model worker for runtime group "${group}" is unavailable ` +
          `(answered ${res.statusCode}: ${detail.slice(0, 200)}); retry shortly`, { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
      default:
        throw new HorizonError('internal_error', `the model worker answered ${res.statusCode} (${code}): ${detail}`);
    }
  }
}
