// Large forecasts' answers are decoded, checked and written as JSON text in worker threads instead of
// on the event loop. At batch 256 (256 series × horizon 64 × 9 levels) that work — base64 decode,
// contract checks, JSON.stringify of ~3 MB and the garbage it leaves — was ~40 % of the service
// thread's ~63 ms per request (bench/README.md, "Answer threads"), and one event loop at ~63 ms a request
// caps a GPU worker that does ~4,500 series/s. Small answers stay on the loop: a thread's round trip
// would cost more than it saves. The bytes are the ones the loop would have written (same functions).
// Names: this is the pool on the event loop; answer-thread.ts (singular) is the code each thread runs.
import { Worker } from 'node:worker_threads';
import { HorizonError, type ErrorCode } from '../errors.ts';
import type { ContractShape } from './contract.ts';
import type { AnswerJob, AnswerPart, AnswerReply } from './answer-thread.ts';

export interface ShapedAnswer { body: Buffer; timing: Record<string, number> }

interface Pending { resolve(reply: { id: number }): void; reject(error: Error): void; thread: Thread }
export interface Thread { worker: Worker; inFlight: number }

export class AnswerThreads {
  private readonly threads: Thread[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** answers shaped in a thread so far (tests and /metrics-free introspection) */
  shaped = 0;

  readonly size: number;
  readonly minValues: number;

  /** the module each thread runs: answer-thread.ts, or one that also takes other jobs (http/forecast-thread.ts) */
  private readonly entry: URL;

  /** size: threads (started on first use); minValues: the smallest answer (series × horizon × (levels + 1) numbers) sent to one */
  constructor(size: number, minValues: number, entry: URL = new URL('./answer-thread.ts', import.meta.url)) {
    this.size = size;
    this.minValues = minValues;
    this.entry = entry;
  }

  /** Whether an answer of this size goes to a thread. */
  worthIt(seriesCount: number, horizon: number, levels: number): boolean {
    return this.size > 0 && !this.closed && seriesCount * horizon * (levels + 1) >= this.minValues;
  }

  /** The contract's JSON bytes for the worker's answer `text`; the errors the loop would have thrown. */
  async shape(text: string | string[], shape: ContractShape, chunkSeries?: number): Promise<ShapedAnswer> {
    return this.answerOf(await this.run({ text, shape, chunkSeries } satisfies Omit<AnswerJob, 'id'>) as AnswerReply);
  }

  /** A call cut into chunks: each chunk's answer goes to one thread as it arrives, then that thread shapes them
   * (AnswerCollector). Sent at the end instead, 2,000 chunk answers of a 100,000-series call (10 MB of text)
   * were one copy of 20-60 ms on the event loop (bench/README.md, fairness, issue 32). */
  collector(): AnswerCollector {
    if (this.closed) throw new HorizonError('internal_error', 'the service is shutting down');
    const thread = this.pick();
    thread.inFlight++; // the collection counts as in flight on its thread until shaped or dropped
    return new AnswerCollector(this, thread, this.nextId++);
  }

  /** A call cut into chunks (`bodies`, each sent with `send`): the contract's JSON bytes of the answers, each
   * handed to the thread that shapes them as it arrives (collector); the first failure is the call's. */
  async shapeChunks(bodies: readonly string[], send: (body: string) => Promise<string>, shape: ContractShape, chunkSeries: number): Promise<ShapedAnswer> {
    const collector = this.collector();
    try {
      await Promise.all(bodies.map(async (body, i) => collector.add(i, await send(body))));
    } catch (error) {
      collector.drop();
      throw error;
    }
    return collector.shape(shape, chunkSeries);
  }

  /** The job on `thread` (a collection's): rejected at once if that thread has been replaced. */
  runOn(thread: Thread, job: object): Promise<{ id: number }> {
    if (this.closed) return Promise.reject(new HorizonError('internal_error', 'the service is shutting down'));
    if (!this.threads.includes(thread)) return Promise.reject(new HorizonError('internal_error', 'the answer thread failed: it was replaced'));
    const id = this.nextId++;
    thread.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, thread });
      thread.worker.postMessage({ ...job, id });
    });
  }

  /** The bytes of an answer job's reply, or its error as the loop would have thrown it. */
  answerOf(reply: AnswerReply): ShapedAnswer {
    if ('error' in reply) {
      // the error the event loop would have thrown: a HorizonError keeps its code, anything else stays a plain 500
      throw reply.error.code ? new HorizonError(reply.error.code as ErrorCode, reply.error.message) : new Error(reply.error.message);
    }
    this.shaped++;
    return { body: Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength), timing: reply.timing };
  }

  /** Any job the entry module understands (an `id` is added); resolves with its reply. */
  run(job: object): Promise<{ id: number }> {
    if (this.closed) return Promise.reject(new HorizonError('internal_error', 'the service is shutting down'));
    return this.runOn(this.pick(), job);
  }

  async close(): Promise<void> {
    this.closed = true;
    // the server closes this after its requests have ended; anything still here fails rather than hangs
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new HorizonError('internal_error', 'the service is shutting down'));
    }
    await Promise.all(this.threads.splice(0).map((t) => t.worker.terminate()));
  }

  /** The least busy thread, starting one while fewer than `size` run. */
  private pick(): Thread {
    const idle = this.threads.find((t) => t.inFlight === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) return this.start();
    return this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
  }

  private start(): Thread {
    const worker = new Worker(this.entry, { workerData: { entry: this.entry.href } });
    worker.unref(); // an idle pool never keeps the process alive
    const thread: Thread = { worker, inFlight: 0 };
    worker.on('message', (reply: { id: number }) => this.settle(reply));
    // a thread that dies fails its own answers (500) and is replaced on the next pick
    const fail = (error: Error) => {
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads.splice(at, 1);
      for (const [id, p] of this.pending) {
        if (p.thread !== thread) continue;
        this.pending.delete(id);
        p.reject(new HorizonError('internal_error', `the answer thread failed: ${error.message}`));
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => { if (!this.closed) fail(new Error(`it exited with code ${code}`)); });
    this.threads.push(thread);
    return thread;
  }

  private settle(reply: { id: number }): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    p.thread.inFlight--;
    p.resolve(reply);
  }
}

/** A chunked call's answers, each sent to one thread as it arrives (AnswerThreads.collector); shape() has that
 * thread join and shape them, as AnswerThreads.shape does with all of them at once. */
export class AnswerCollector {
  private readonly threads: AnswerThreads;
  private readonly thread: Thread;
  private readonly id: number;
  private done = false;

  constructor(threads: AnswerThreads, thread: Thread, id: number) {
    this.threads = threads;
    this.thread = thread;
    this.id = id;
  }

  /** Chunk `index`'s answer text. */
  add(index: number, text: string): void {
    if (!this.done) this.thread.worker.postMessage({ kind: 'answer-part', collected: this.id, index, text } satisfies AnswerPart);
  }

  /** What was sent is not needed (a chunk failed). */
  drop(): void {
    if (this.finish()) this.thread.worker.postMessage({ kind: 'answer-part', collected: this.id, index: 0 } satisfies AnswerPart);
  }

  async shape(shape: ContractShape, chunkSeries: number): Promise<ShapedAnswer> {
    this.finish();
    const reply = await this.threads.runOn(this.thread, { collected: this.id, shape, chunkSeries } satisfies Omit<AnswerJob, 'id'>);
    return this.threads.answerOf(reply as AnswerReply);
  }

  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.thread.inFlight--;
    return true;
  }
}
