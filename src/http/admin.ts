// Operator authorisation of /v1/admin/*: a bearer token from the environment (HORIZON_ADMIN_TOKEN),
// or the local token that a server with the embedded store writes to <data dir>/horizon.server.json
// (owner-only) so the CLI on the same machine can act while the server holds the store. Tenant API
// keys never pass. Without HORIZON_ADMIN_TOKEN the routes answer 404 to everyone but the local CLI,
// as if they did not exist.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HorizonError } from '../errors.ts';

export interface AdminTokens {
  /** HORIZON_ADMIN_TOKEN */
  operator?: string;
  /** generated per server start for the local CLI (embedded store only) */
  local?: string;
}

// both sides hashed first: equal lengths for timingSafeEqual, and the compare leaks nothing about length
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function matches(presented: Buffer, token: string | undefined): boolean {
  return token !== undefined && timingSafeEqual(presented, digest(token));
}

export function adminHook(tokens: AdminTokens) {
  return async function authorizeAdmin(request: FastifyRequest): Promise<void> {
    const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const presented = digest(match?.[1] ?? '');
    // evaluate both, so the answer time does not say which one exists
    const operator = matches(presented, tokens.operator);
    const local = matches(presented, tokens.local);
    if (match && (operator || local)) return;
    if (!tokens.operator) {
      throw new HorizonError('not_found', `no route ${request.method} ${request.url.split('?')[0]}; see /v1/openapi.json`);
    }
    throw new HorizonError('unauthorized', 'this operation needs the operator token (HORIZON_ADMIN_TOKEN) as "Authorization: Bearer <token>"; API ' +
      'keys are not accepted', {
      headers: { 'www-authenticate': `Bearer realm="horizon-admin"${match ? ', error="invalid_token"' : ''}` },
    });
  };
}
