// One answer thread (answer-threads.ts): the worker's /infer JSON text in, the contract's JSON bytes out.
import { parentPort, workerData } from 'node:worker_threads';
import { HorizonError } from '../errors.ts';
import { answerBytes, type ContractShape } from './contract.ts';

/** `text`: the worker's answer, or the answers of a call cut into fair chunks of `chunkSeries` series */
export interface AnswerJob { id: number; kind?: 'answer'; text: string | string[]; shape: ContractShape; chunkSeries?: number }
export type AnswerReply =
  | { id: number; body: Uint8Array; timing: Record<string, number> }
  | { id: number; error: { code?: string; message: string } };

/** The reply to an answer job: the bytes, or the error the event loop would have thrown. */
export function answerReply({ id, text, shape, chunkSeries }: AnswerJob): AnswerReply {
  try {
    return { id, ...answerBytes(text, shape, chunkSeries) };
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
  parentPort.on('message', (job: AnswerJob) => postReply(answerReply(job)));
}
