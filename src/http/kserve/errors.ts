// Errors on /v1/timeseries in KServe's shape: every problem+json answer of these routes (auth, schema, quota, the
// /v1 forecast's own) is rewritten as it leaves into a body that is KServe's ErrorResponse ({error: {code, message,
// param, type}}) and a ForecastResponse with status "error" at once, with the same HTTP status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import type { Problem } from '../../errors.ts';

export const KServeErrorRef = Type.Unsafe({ $ref: 'KServeError#' });

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON', 401: 'Missing or invalid API key', 403: 'The key may not do this', 413: 'Too large for a synchronous forecast',
  415: 'Not application/json', 422: 'Invalid request: error.param and errors[] name each input and field', 429: 'Rate limit or quota exceeded',
  500: 'Internal error', 502: 'A model worker failed', 503: 'Model not ready', 504: 'Model timed out',
};

/** Documented error answers of a /v1/timeseries route: application/json, the KServeError schema. */
export function kserveErrorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, { description: DESCRIPTIONS[s], content: { 'application/json': { schema: KServeErrorRef } } }]));
}

/** onSend: a problem+json answer becomes the KServe error body (the route answers application/json throughout). */
export async function kserveErrorBody(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('application/problem+json')) {
    return payload;
  }
  let problem: Problem;
  try { problem = JSON.parse(payload) as Problem; } catch { return payload; }
  const model = (request.body as { model?: unknown } | undefined)?.model;
  void reply.type('application/json; charset=utf-8');
  return JSON.stringify({
    id: problem.request_id, created_at: Math.floor(Date.now() / 1000), status: 'error', model: typeof model === 'string' ? model : '', outputs: [],
    error: { code: String(reply.statusCode), message: problem.detail, param: problem.errors?.[0]?.field ?? null, type: problem.code },
    request_id: problem.request_id,
    ...(problem.errors?.length ? { errors: problem.errors.map((e) => ({ field: e.field, reason: e.reason })) } : {}),
  });
}
