// API keys: `hzn_<prefix>_<secret>`. The prefix is public and finds the row; only a SHA-256 of the
// whole key is stored (keys carry 256 random bits, so a slow password hash buys nothing), and the
// comparison is constant-time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema } from './database.ts';

const KEY_PATTERN = /^hzn_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

export interface KeyOwner {
  keyId: string;
  accountId: string;
  /** the account is disabled by the operator: the key is genuine but gets 403 */
  disabled?: true;
}

export class DuplicateKeyNameError extends Error {}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function randomPrefix(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += PREFIX_ALPHABET[b % PREFIX_ALPHABET.length];
  return out;
}

export async function createApiKey(db: Kysely<Schema>, accountId: string, name: string): Promise<CreatedApiKey> {
  const prefix = randomPrefix();
  const key = `hzn_${prefix}_${randomBytes(32).toString('base64url')}`;
  try {
    const row = await db.insertInto('api_keys')
      .values({ account_id: accountId, name, prefix, key_hash: hashKey(key), revoked_at: null })
      .returning(['id', 'name', 'prefix', 'created_at', 'revoked_at'])
      .executeTakeFirstOrThrow();
    return { ...row, key };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new DuplicateKeyNameError(`an active API key named "${name}" already exists`);
    }
    throw error;
  }
}

/** Resolves a presented key to its owner, or undefined when it is malformed, unknown or revoked. */
export async function authenticateKey(db: Kysely<Schema>, presented: string): Promise<KeyOwner | undefined> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return undefined;
  const row = await db.selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.account_id', 'api_keys.key_hash', 'api_keys.revoked_at', 'accounts.disabled_at'])
    .where('api_keys.prefix', '=', match[1])
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return undefined;
  const stored = Buffer.from(row.key_hash);
  const given = hashKey(presented);
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return undefined;
  return row.disabled_at === null ? { keyId: row.id, accountId: row.account_id } : { keyId: row.id, accountId: row.account_id, disabled: true };
}

export async function listApiKeys(db: Kysely<Schema>, accountId: string): Promise<ApiKeyInfo[]> {
  return db.selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'created_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes a key of the account; false when the account has no such active key. */
export async function revokeApiKey(db: Kysely<Schema>, accountId: string, keyId: string): Promise<ApiKeyInfo | undefined> {
  return db.updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'prefix', 'created_at', 'revoked_at'])
    .executeTakeFirst();
}
