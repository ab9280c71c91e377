// Bearer API-key authentication (contract A.6): every route except those marked public.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { HorizonError } from '../errors.ts';
import type { Schema } from '../store/database.ts';
import { authenticateKey, type KeyOwner } from '../store/api-keys.ts';
import type { KeyCache } from './key-cache.ts';

declare module 'fastify' {
  interface FastifyRequest { owner?: KeyOwner }
  interface FastifyContextConfig {
    public?: boolean;
    /** an operator route: authorised by the admin token (admin.ts), never by a tenant key */
    admin?: boolean;
  }
}

const CHALLENGE = 'Bearer realm="horizon"';

function unauthorized(detail: string, error?: string): HorizonError {
  const challenge = error ? `${CHALLENGE}, error="${error}"` : CHALLENGE;
  return new HorizonError('unauthorized', detail, { headers: { 'www-authenticate': challenge } });
}

export function authHook(db: Kysely<Schema>, cache?: KeyCache) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    // public routes, the docs page's assets and unmatched paths (the 404 handler answers those) need no key
    const url = request.routeOptions.url;
    if (request.routeOptions.config?.public || request.routeOptions.config?.admin || url === undefined || url.startsWith('/v1/docs')) return;
    const header = request.headers.authorization;
    if (!header) throw unauthorized('the Authorization header is missing; send "Authorization: Bearer <API key>"');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('the Authorization header must have the form "Bearer <API key>"', 'invalid_request');
    let owner = cache?.get(match[1]);
    if (!owner) {
      owner = await authenticateKey(db, match[1]);
      if (!owner) throw unauthorized('the API key is not valid (unknown, malformed or revoked)', 'invalid_token');
      cache?.set(match[1], owner);
    }
    if (owner.disabled) throw new HorizonError('account_disabled', 'the account of this API key is disabled by the operator; ask them to enable it (`horizon ' +
      'accounts enable <name>`)');
    request.owner = owner;
  };
}

/** The authenticated owner; routes behind the hook always have one. */
export function ownerOf(request: FastifyRequest): KeyOwner {
  if (!request.owner) throw unauthorized('not authenticated');
  return request.owner;
}
