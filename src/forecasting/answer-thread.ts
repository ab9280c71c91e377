// One answer thread (answer-threads.ts): the worker's /infer JSON text in, the contract's JSON bytes out.
import { parentPort } from 'node:worker_threads';
import { HorizonError } from '../errors.ts';
import { decodeInferResponse } from '../runtime/wire.ts';
import { shapeAnswer, type ContractShape } from './contract.ts';

export interface AnswerJob { id: number; text: string; shape: ContractShape }
export type AnswerReply =
  | { id: number; body: Uint8Array; timing: Record<string, number> }
  | { id: number; error: { code?: string; message: string } };

const encoder = new TextEncoder();

parentPort!.on('message', ({ id, text, shape }: AnswerJob) => {
  let reply: AnswerReply;
  try {
    const answer = decodeInferResponse(JSON.parse(text));
    // encode() gives a fresh buffer of its own, so it is transferred, not copied
    reply = { id, body: encoder.encode(JSON.stringify(shapeAnswer(shape, answer))), timing: answer.timing ?? {} };
  } catch (error) {
    reply = { id, error: { code: error instanceof HorizonError ? error.code : undefined, message: (error as Error).message } };
  }
  parentPort!.postMessage(reply, 'body' in reply ? [reply.body.buffer as ArrayBuffer] : []);
});
