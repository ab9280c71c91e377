// Large forecasts' answers are decoded, checked and written as JSON text in worker threads instead of
// on the event loop. At batch 256 (256 series × horizon 64 × 9 levels) that work — base64 decode,
// contract checks, JSON.stringify of ~3 MB and the garbage it leaves — was ~40 % of the service
// thread's ~63 ms per request (bench/README.md, "Answer threads"), and one event loop at ~63 ms a request
// caps a GPU worker that does ~4,500 series/s. Small answers stay on the loop: a thread's round trip
// would cost more than it saves. The bytes are the ones the loop would have written (same functions).
import { Worker } from 'node:worker_threads';
import { HorizonError, type ErrorCode } from '../errors.ts';
import type { ContractShape } from './contract.ts';
import type { AnswerJob, AnswerReply } from './answer-thread.ts';

export interface ShapedAnswer { body: Buffer; timing: Record<string, number> }

interface Pending { resolve(reply: { id: number }): void; reject(error: Error): void; thread: Thread }
interface Thread { worker: Worker; inFlight: number }

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
    const reply = await this.run({ text, shape, chunkSeries } satisfies Omit<AnswerJob, 'id'>) as AnswerReply;
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
    const thread = this.pick();
    const id = this.nextId++;
    thread.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, thread });
      thread.worker.postMessage({ ...job, id });
    });
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
