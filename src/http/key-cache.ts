// Remembers authenticated keys so the hot path skips the store. Used only with the embedded store,
// where this process is the store's only writer: revoking through it (forget) is then immediate.
// With PostgreSQL several processes share the keys, so every request asks the database.
import type { KeyOwner } from '../store/api-keys.ts';

const MAX_ENTRIES = 10_000;

export class KeyCache {
  private readonly owners = new Map<string, KeyOwner>();

  get(key: string): KeyOwner | undefined {
    return this.owners.get(key);
  }

  set(key: string, owner: KeyOwner): void {
    if (this.owners.size >= MAX_ENTRIES) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(key, owner);
  }

  /** Drops a revoked key (by id: the cache never learns a key it was not shown). */
  forget(keyId: string): void {
    for (const [key, owner] of this.owners) if (owner.keyId === keyId) this.owners.delete(key);
  }

  /** Drops every key of an account whose state changed (disabled or enabled through the admin API). */
  forgetAccount(accountId: string): void {
    for (const [key, owner] of this.owners) if (owner.accountId === accountId) this.owners.delete(key);
  }
}
