// Remembers authenticated keys so the hot path skips the store. Used only with the embedded store,
// where this process is the store's only writer: revoking through it (forget) is then immediate.
// With PostgreSQL several processes share the keys, so every request asks the database.
// Entries are keyed by the key's SHA-256 (base64), never the key: no secret is held in memory, and a
// lookup compares digests an attacker cannot steer, not the presented secret itself.
import { createHash } from 'node:crypto';
import type { KeyOwner } from '../store/api-keys.ts';

const digest = (key: string): string => createHash('sha256').update(key).digest('base64');

const MAX_ENTRIES = 10_000;

export class KeyCache {
  private readonly owners = new Map<string, KeyOwner>();

  get(key: string): KeyOwner | undefined {
    return this.owners.get(digest(key));
  }

  set(key: string, owner: KeyOwner): void {
    if (this.owners.size >= MAX_ENTRIES) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(digest(key), owner);
  }

  /** Drops a revoked key (by id: the cache never learns a key it was not shown). */
  forget(keyId: string): void {
    for (const [entry, owner] of this.owners) if (owner.keyId === keyId) this.owners.delete(entry);
  }

  /** Drops every key of an account whose state changed (disabled or enabled through the admin API). */
  forgetAccount(accountId: string): void {
    for (const [entry, owner] of this.owners) if (owner.accountId === accountId) this.owners.delete(entry);
  }
}
