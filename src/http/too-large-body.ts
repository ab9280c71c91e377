// A body over HORIZON_BODY_LIMIT_BYTES is answered 413 payload_too_large before it has arrived. Fastify
// then closes the connection, and a client still sending (the CLI's 23 MB CSV, any SDK) gets EPIPE or
// ECONNRESET instead of the answer: `cannot reach …` for a server that did answer. So the rest of the body
// is read and dropped, on a kept-alive connection, and the client reads the 413 once its write is done;
// a body beyond DRAIN_MIN_BYTES and DRAIN_FACTOR times the limit still has its connection closed.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How much is read and dropped at most to get a 413 to the client: the larger of these two. */
export const DRAIN_FACTOR = 16;
export const DRAIN_MIN_BYTES = 256 * 1024 * 1024;

/** Before a payload_too_large answer is sent: keep the connection and read the body's rest into nothing. */
export function drainTooLargeBody(request: FastifyRequest, reply: FastifyReply, limitBytes: number): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  const cap = Math.max(limitBytes * DRAIN_FACTOR, DRAIN_MIN_BYTES);
  const declared = Number(request.headers['content-length']);
  if (declared > cap) return; // Fastify's connection: close stands
  reply.removeHeader('connection');
  let drained = 0;
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > cap) raw.socket?.destroy();
  });
  raw.resume();
}
