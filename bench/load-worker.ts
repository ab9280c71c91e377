// Closed-loop HTTP load generator, run in a worker thread by forecast-throughput.ts so that it has
// its own event loop: the in-process service keeps the main thread to itself (the two still share
// the machine's CPU cores). `concurrency` loops each keep one request in flight over a keep-alive
// pool; after `warmupMs` the latencies of requests that start and finish within `measureMs` count.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface LoadSpec {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  warmupMs: number;
  measureMs: number;
}

/** What the worker posts back: 'measuring' when the window opens, then 'done' with the results. */
export type LoadMessage =
  | { type: 'measuring' }
  | { type: 'done'; latenciesMs: Float64Array; errors: Record<string, number>; windowMs: number; elu: number };

const spec = workerData as LoadSpec;
const pool = new Pool(spec.origin, { connections: spec.concurrency, pipelining: 1, keepAliveTimeout: 60_000 });
const latencies: number[] = [];
const errors: Record<string, number> = {};

const start = performance.now();
const measureFrom = start + spec.warmupMs;
const end = measureFrom + spec.measureMs;
// this thread's event-loop utilisation over the window shows whether the generator itself saturates
let elu0 = performance.eventLoopUtilization();
setTimeout(() => {
  elu0 = performance.eventLoopUtilization();
  parentPort!.postMessage({ type: 'measuring' } satisfies LoadMessage);
}, spec.warmupMs);

async function loop(): Promise<void> {
  while (performance.now() < end) {
    const t0 = performance.now();
    let outcome: string;
    try {
      const res = await pool.request({ path: spec.path, method: 'POST', headers: spec.headers, body: spec.body });
      await res.body.text(); // read the whole answer, as a real client would
      outcome = String(res.statusCode);
    } catch (error) {
      outcome = (error as { code?: string }).code ?? String(error);
    }
    const t1 = performance.now();
    if (outcome !== '200') errors[outcome] = (errors[outcome] ?? 0) + 1;
    else if (t0 >= measureFrom && t1 <= end) latencies.push(t1 - t0);
  }
}

await Promise.all(Array.from({ length: spec.concurrency }, loop));
const elu = performance.eventLoopUtilization(elu0).utilization;
await pool.close();
parentPort!.postMessage({ type: 'done', latenciesMs: Float64Array.from(latencies), errors, windowMs: spec.measureMs, elu } satisfies LoadMessage);
