// A request's "client gone" signal (issue 33): it aborts when the connection closes before the answer is
// out, or when the request this one was made for goes (a /nixtla route or an MCP tool calls its /v1
// operation through app.inject: the inner request runs inside the outer one's async context, so it finds
// the outer signal there). The handler's model calls read it from the request context (runtime/inference.ts
// drops their waiting chunks and cancels the one at the worker); a charged unit is refunded (charge.ts).
import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentRequest } from './request-context.ts';

declare module 'fastify' {
  interface FastifyRequest { clientGone?: AbortSignal }
}

/** The request's signal, made once (preHandler, before the request's own context is entered). */
export function clientGoneSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  if (request.clientGone) return request.clientGone;
  const gone = new AbortController();
  const res = reply.raw;
  // our own 'finish' flag, not writableFinished: app.inject()'s response has no socket (as in charge.ts)
  let finished = false;
  res.once('finish', () => { finished = true; });
  res.once('close', () => { if (!finished) gone.abort(); });
  // it left while the body was read (not request.raw.destroyed: a request stream read to its end is destroyed too)
  if (res.destroyed || request.raw.socket?.destroyed) gone.abort();
  const parent = currentRequest()?.signal;
  const signal = parent ? AbortSignal.any([gone.signal, parent]) : gone.signal;
  // every model call in flight listens (a large request has one per fair chunk): not a leak
  setMaxListeners(0, signal);
  request.clientGone = signal;
  return signal;
}
