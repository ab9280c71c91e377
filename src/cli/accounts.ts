// Every store command of the operator CLI (`horizon accounts …`, `horizon keys …`): the same operations
// whichever way the store is reached.
// PostgreSQL and a stopped embedded store are opened directly (a change applies to a running
// PostgreSQL server's next request: the charge reads quotas from the database every time); an
// embedded store held by a running server is changed through that server's admin API, with the
// token it left in <data dir>/horizon.server.json (owner-only).
import type { Config } from '../config.ts';
import type { Database } from '../store/database.ts';
import {
  listAccounts, accountOverview, updateAccount, createAccount, findAccountByName, type AccountChanges, type AccountOverview,
} from '../store/accounts.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../store/api-keys.ts';
import { lockHolder, StoreLockedError } from '../store/lock.ts';
import { readServerInfo, type ServerInfo } from '../http/server-info.ts';
import { adminView, adminKeyView } from '../http/routes/admin-account-view.ts';

export type AccountView = ReturnType<typeof adminView>;
export type KeyView = ReturnType<typeof adminKeyView>;
export interface CreatedKeyView { id: string; name: string; key: string; prefix: string; created_at: string }

export class NoSuchAccountError extends Error {}
/** A refusal the operator can fix (a duplicate name, a revoked or unknown key): exit 2 with the reason. */
export class OperatorError extends Error {}

export interface AccountsBackend {
  list(): Promise<AccountView[]>;
  create(name: string, quotas: { dailyQuota?: number; weeklyQuota?: number }): Promise<AccountView>;
  update(name: string, changes: AccountChanges): Promise<AccountView>;
  listKeys(account: string): Promise<KeyView[]>;
  createKey(account: string, keyName: string): Promise<CreatedKeyView>;
  revokeKey(account: string, id: string): Promise<KeyView>;
}

function direct(database: Database): AccountsBackend {
  const accountId = async (name: string) => {
    const account = await findAccountByName(database.db, name);
    if (!account) throw new NoSuchAccountError(`no account named "${name}"`);
    return account.id;
  };
  return {
    list: async () => (await listAccounts(database.db)).map(adminView),
    async create(name, quotas) {
      await createAccount(database.db, { name, ...quotas });
      return adminView((await accountOverview(database.db, name)) as AccountOverview);
    },
    listKeys: async (account) => (await listApiKeys(database.db, await accountId(account))).map(adminKeyView),
    async createKey(account, keyName) {
      const key = await createApiKey(database.db, await accountId(account), keyName);
      return { id: key.id, name: key.name, key: key.key, prefix: key.prefix, created_at: key.created_at.toISOString() };
    },
    async revokeKey(account, id) {
      const key = await revokeApiKey(database.db, await accountId(account), id);
      if (!key) throw new OperatorError(`no active key with id "${id}" in account "${account}"`);
      return adminKeyView(key);
    },
    async update(name, changes) {
      if (!(await updateAccount(database.db, name, changes))) throw new NoSuchAccountError(`no account named "${name}"`);
      return adminView((await accountOverview(database.db, name)) as AccountOverview);
    },
  };
}

function throughServer(info: ServerInfo): AccountsBackend {
  const call = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${info.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${info.admin_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await res.json() as { detail?: string; code?: string };
    if (res.status === 404 && answer.code === 'not_found' && /^no account named/.test(answer.detail ?? '')) throw new NoSuchAccountError(answer.detail!);
    // the server's own refusals (a duplicate name, an unknown key, a bad quota) are the operator's to fix
    if (res.status === 404 || res.status === 409 || res.status === 422) throw new OperatorError(answer.detail ?? JSON.stringify(answer));
    if (!res.ok) throw new Error(`the running server (${info.url}) answered ${res.status}: ${answer.detail ?? JSON.stringify(answer)}`);
    return answer;
  };
  const keysOf = (account: string) => `/v1/admin/accounts/${encodeURIComponent(account)}/keys`;
  return {
    list: async () => ((await call('GET', '/v1/admin/accounts')) as unknown as { accounts: AccountView[] }).accounts,
    create: async (name, quotas) => (await call(
      'POST', '/v1/admin/accounts', { name, daily_quota: quotas.dailyQuota, weekly_quota: quotas.weeklyQuota },
    )) as unknown as AccountView,
    listKeys: async (account) => ((await call('GET', keysOf(account))) as unknown as { keys: KeyView[] }).keys,
    createKey: async (account, keyName) => (await call('POST', keysOf(account), { name: keyName })) as unknown as CreatedKeyView,
    revokeKey: async (account, id) => (await call('DELETE', `${keysOf(account)}/${encodeURIComponent(id)}`)) as unknown as KeyView,
    update: async (name, changes) => (await call('PATCH', `/v1/admin/accounts/${encodeURIComponent(name)}`, {
      daily_quota: changes.dailyQuota, weekly_quota: changes.weeklyQuota, disabled: changes.disabled,
    })) as unknown as AccountView,
  };
}

/** Runs `work` against the store, through the running server when it holds the embedded store. */
export async function withAccounts<T>(
  config: Config, withStore: <R>(work: (d: Database) => Promise<R>) => Promise<R>, work: (backend: AccountsBackend) => Promise<T>,
): Promise<T> {
  if (!config.databaseUrl) {
    const holder = lockHolder(config.dataDir);
    if (holder !== undefined) {
      const info = readServerInfo(config.dataDir);
      // a lock without the file (an older server, or one still starting) cannot be reached safely
      if (!info || info.pid !== holder) throw new StoreLockedError(holder, config.dataDir);
      return work(throughServer(info));
    }
  }
  return withStore((database) => work(direct(database)));
}

const quotaText = (n: number) => (n === 0 ? 'unlimited' : String(n));

export function describeAccount(a: AccountView): string {
  return `${a.name}: daily quota ${quotaText(a.daily_quota)} (used today ${a.used_today}), weekly quota ${quotaText(a.weekly_quota)} (used this ` +
    `week ${a.used_this_week}), ${a.disabled ? `disabled since ${a.disabled_at}` : 'enabled'}`;
}

export function accountsTable(accounts: AccountView[]): string {
  if (!accounts.length) return '(no accounts)';
  const rows = [['NAME', 'DAILY', 'USED TODAY', 'WEEKLY', 'USED THIS WEEK', 'STATE'],
    ...accounts.map(
      (a) => [a.name, quotaText(a.daily_quota), String(a.used_today), quotaText(a.weekly_quota), String(a.used_this_week), a.disabled ? 'disabled' : 'enabled'],
    )];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}
