// One answer thread (answer-threads.ts): the worker's /infer JSON text in, the contract's JSON bytes out.
// Names: answer-thread.ts (this file) is the code one thread runs; answer-threads.ts is the pool on the event
// loop that starts the threads and hands them work.
import { parentPort, workerData } from 'node:worker_threads';
import { HorizonError } from '../errors.ts';
import { answerBytes, type ContractShape } from './contract.ts';

/** `text`: the worker's answer, or the answers of a call cut into fair chunks of `chunkSeries` series; or
 * (`collected`) the chunks' answers this thread was sent one by one (AnswerPart) */
export interface AnswerJob { id: number; kind?: 'answer'; text?: string | string[]; collected?: number; shape: ContractShape; chunkSeries?: number }
/** One chunk's answer, sent as it arrives (answer-threads.ts AnswerCollector); `text` undefined: the collection is dropped. */
export interface AnswerPart { kind: 'answer-part'; collected: number; index: number; text?: string }
export type AnswerReply =
  | { id: number; body: Uint8Array; timing: Record<string, number> }
  | { id: number; error: { code?: string; message: string } };

/** Chunk answers collected so far, by collection. */
const collections = new Map<number, string[]>();

/** Keeps a chunk's answer for its collection's answer job (or drops the collection). */
export function collectPart({ collected, index, text }: AnswerPart): void {
  if (text === undefined) { collections.delete(collected); return; }
  let texts = collections.get(collected);
  if (!texts) collections.set(collected, texts = []);
  texts[index] = text;
}

/** The reply to an answer job: the bytes, or the error the event loop would have thrown. */
export function answerReply({ id, text, collected, shape, chunkSeries }: AnswerJob): AnswerReply {
  try {
    const texts = collected === undefined ? text! : collections.get(collected) ?? [];
    collections.delete(collected!);
    return { id, ...answerBytes(texts, shape, chunkSeries) };
  } catch (error) {
    return { id, error: { code: error instanceof HorizonError ? error.code : undefined, message: (error as Error).message } };
  }
}

/** Posts a reply, handing the answer's bytes over without a copy. */
export function postReply(reply: { id: number; body?: Uint8Array }): void {
  parentPort!.postMessage(reply, reply.body ? [reply.body.buffer as ArrayBuffer] : []);
}

// run as a thread's entry (not when the forecast threads, http/forecast-thread.ts, import it)
if (parentPort && import.meta.url === (workerData as { entry?: string } | null)?.entry) {
  parentPort.on('message', (job: AnswerJob | AnswerPart) => {
    if (job.kind === 'answer-part') collectPart(job); else postReply(answerReply(job));
  });
}
