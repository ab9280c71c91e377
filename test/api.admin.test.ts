// Operator controls (issue 15 item 1): the /v1/admin account operations, the CLI's accounts
// list/update/disable/enable against a running server (embedded store: through the server; PostgreSQL:
// directly), quota changes applying to the very next request, 0 = unlimited, disabled accounts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, createPostgresDatabase, simpleRequest, type TestServer } from './helpers.ts';
import { configFromEnv } from '../src/config.ts';
import { readServerInfo, SERVER_INFO } from '../src/http/server-info.ts';
import { listAccounts } from '../src/store/accounts.ts';

const ADMIN_TOKEN = 'adm_0123456789abcdefghijklmnopqrstuvwxyz';
const run = promisify(execFile);

/** The CLI as a separate process (the operator's shell), against the given store. */
async function horizon(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/main.ts', ...args], { env: { ...process.env, ...env }, cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const admin = (server: TestServer, method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) =>
  server.request(method, path, { key: token, body });
const forecast = (server: TestServer, key: string) => server.request('POST', '/v1/forecast', { key, body: simpleRequest() });

/** The checks that must hold on both stores; `change` applies a change the way the test case says. */
function quotaControls(name: string, setup: () => Promise<{ server: TestServer; change(account: string, body: Record<string, unknown>): Promise<void>; teardown(): Promise<void> }>) {
  describe(name, () => {
    let server: TestServer;
    let change: (account: string, body: Record<string, unknown>) => Promise<void>;
    let teardown: () => Promise<void>;
    before(async () => ({ server, change, teardown } = await setup()));
    after(async () => teardown());

    const accountName = async (accountId: string) =>
      (await server.database.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow()).name;
    const overview = async (name: string) => (await listAccounts(server.database.db)).find((a) => a.name === name)!;

    it('a quota raised while the account is refused applies to its very next request', async () => {
      const { accountId, key } = await server.newAccount({ daily: 1, weekly: 100 });
      const name = await accountName(accountId);
      assert.equal((await forecast(server, key)).status, 200);
      const refused = await forecast(server, key);
      assert.equal(refused.status, 429, refused.text);
      await change(name, { daily_quota: 3 });
      const next = await forecast(server, key);
      assert.equal(next.status, 200, next.text);
      assert.equal(next.headers.get('x-ratelimit-limit'), '3');
      assert.equal(next.headers.get('x-ratelimit-remaining'), '1');
      await change(name, { daily_quota: 2 });
      assert.equal((await forecast(server, key)).status, 429, 'lowered below the usage: refused at once');
    });

    it('0 means unlimited: no window binds, no X-RateLimit-* headers; one unlimited window leaves the other binding', async () => {
      const { accountId, key } = await server.newAccount({ daily: 1, weekly: 1 });
      const name = await accountName(accountId);
      assert.equal((await forecast(server, key)).status, 200);
      assert.equal((await forecast(server, key)).status, 429);
      await change(name, { daily_quota: 0, weekly_quota: 0 });
      const answers = await Promise.all(Array.from({ length: 5 }, () => forecast(server, key)));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
      assert.equal(answers[0].headers.get('x-ratelimit-limit'), null);
      await change(name, { weekly_quota: 8 }); // 6 used this week
      const weekly = await forecast(server, key);
      assert.equal(weekly.status, 200, weekly.text);
      assert.equal(weekly.headers.get('x-ratelimit-limit'), '8', 'the weekly window binds; the daily one is unlimited');
      assert.equal(weekly.headers.get('x-ratelimit-remaining'), '1');
      assert.equal((await forecast(server, key)).status, 200);
      const refused = await forecast(server, key);
      assert.equal(refused.status, 429);
      assert.match(refused.body.detail, /weekly/);
    });

    it('a disabled account\'s keys get 403 account_disabled at once (also a key used just before); enabled again they work', async () => {
      const { accountId, key } = await server.newAccount();
      const name = await accountName(accountId);
      assert.equal((await server.request('GET', '/v1/models', { key })).status, 200, 'used (and so remembered) before');
      await change(name, { disabled: true });
      for (const [method, path] of [['GET', '/v1/models'], ['POST', '/v1/forecast'], ['GET', '/v1/api-keys']]) {
        const res = await server.request(method, path, { key, body: method === 'POST' ? simpleRequest() : undefined });
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, 'account_disabled');
        assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      }
      const listed = await overview(name);
      assert.ok(listed.disabled_at instanceof Date);
      assert.equal(listed.used_today, 0, 'the refused requests were not charged');
      await change(name, { disabled: false });
      assert.equal((await forecast(server, key)).status, 200);
      assert.equal((await server.request('GET', '/v1/models')).status, 200, 'other accounts were never affected');
    });
  });
}

// 1. embedded store: the admin API itself
quotaControls('admin API, embedded store', async () => {
  const server = await startTestServer({ HORIZON_ADMIN_TOKEN: ADMIN_TOKEN });
  return {
    server,
    async change(name, body) {
      const res = await admin(server, 'PATCH', `/v1/admin/accounts/${name}`, body);
      assert.equal(res.status, 200, res.text);
      for (const [field, value] of Object.entries(body)) assert.equal(res.body[field], value);
    },
    teardown: () => server.close(),
  };
});

// 2. embedded store held by a running server: the CLI goes through the server (no HORIZON_ADMIN_TOKEN needed)
quotaControls('CLI against a running server, embedded store', async () => {
  const server = await startTestServer();
  return {
    server,
    async change(name, body) {
      const args = body.disabled === true ? ['disable', name] : body.disabled === false ? ['enable', name] : ['update', name,
        ...(body.daily_quota !== undefined ? ['--daily-quota', String(body.daily_quota)] : []),
        ...(body.weekly_quota !== undefined ? ['--weekly-quota', String(body.weekly_quota)] : [])];
      const res = await horizon({ HORIZON_DATA_DIR: server.dataDir }, 'accounts', ...args, '--json');
      assert.equal(res.code, 0, res.stderr);
      const account = JSON.parse(res.stdout);
      for (const [field, value] of Object.entries(body)) assert.equal(account[field], value);
    },
    teardown: () => server.close(),
  };
});

// 3. PostgreSQL: a running server, and the CLI opening the database directly (live)
for (const via of ['admin API', 'CLI (direct)'] as const) {
  quotaControls(`${via}, PostgreSQL`, async () => {
    const pg = await createPostgresDatabase();
    const server = await startTestServer({ HORIZON_DATABASE_URL: pg.url, HORIZON_ADMIN_TOKEN: ADMIN_TOKEN });
    return {
      server,
      async change(name, body) {
        if (via === 'admin API') {
          const res = await admin(server, 'PATCH', `/v1/admin/accounts/${name}`, body);
          assert.equal(res.status, 200, res.text);
          return;
        }
        const args = body.disabled === true ? ['disable', name] : body.disabled === false ? ['enable', name] : ['update', name,
          ...(body.daily_quota !== undefined ? ['--daily-quota', String(body.daily_quota)] : []),
          ...(body.weekly_quota !== undefined ? ['--weekly-quota', String(body.weekly_quota)] : [])];
        // a data dir of its own: nothing but the database connects the CLI to the server
        const res = await horizon({ HORIZON_DATABASE_URL: pg.url, HORIZON_DATA_DIR: join(server.dataDir, 'cli'), HORIZON_ADMIN_TOKEN: '' }, 'accounts', ...args);
        assert.equal(res.code, 0, res.stderr);
      },
      teardown: async () => { await server.close(); await pg.drop(); },
    };
  });
}

describe('admin API authorisation and shape', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_ADMIN_TOKEN: ADMIN_TOKEN }); });
  after(async () => server.close());

  it('GET /v1/admin/accounts lists every account with quotas, state and usage', async () => {
    const res = await admin(server, 'GET', '/v1/admin/accounts');
    assert.equal(res.status, 200, res.text);
    const first = res.body.accounts.find((a: { name: string }) => a.name === 'default');
    assert.deepEqual(Object.keys(first).sort(), ['created_at', 'daily_quota', 'disabled', 'disabled_at', 'id', 'name', 'used_this_week', 'used_today', 'weekly_quota']);
    assert.equal(first.daily_quota, 200, 'the contract\'s default');
    assert.equal(first.weekly_quota, 1000);
    assert.equal(first.disabled, false);
  });

  it('a tenant API key, no token or a wrong token: 401 problem+json, nothing changed', async () => {
    for (const token of [server.key, null, `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
      for (const [method, body] of [['GET', undefined], ['PATCH', { daily_quota: 0 }]] as const) {
        const res = await admin(server, method, method === 'GET' ? '/v1/admin/accounts' : '/v1/admin/accounts/default', body, token);
        assert.equal(res.status, 401, `${method} with ${token?.slice(0, 6)}: ${res.text}`);
        assert.equal(res.body.code, 'unauthorized');
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="horizon-admin"/);
      }
    }
    const list = await admin(server, 'GET', '/v1/admin/accounts');
    assert.equal(list.body.accounts.find((a: { name: string }) => a.name === 'default').daily_quota, 200);
  });

  it('precise 404 and 422s', async () => {
    const unknown = await admin(server, 'PATCH', '/v1/admin/accounts/nobody', { daily_quota: 5 });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /no account named "nobody"/);
    const empty = await admin(server, 'PATCH', '/v1/admin/accounts/default', {});
    assert.equal(empty.status, 422, empty.text);
    const negative = await admin(server, 'PATCH', '/v1/admin/accounts/default', { daily_quota: -1 });
    assert.equal(negative.status, 422);
    assert.equal(negative.body.errors[0].field, 'daily_quota');
    const typo = await admin(server, 'PATCH', '/v1/admin/accounts/default', { daily_qouta: 5 });
    assert.equal(typo.status, 422);
    assert.equal(typo.body.errors[0].field, 'daily_qouta');
    const text = await admin(server, 'PATCH', '/v1/admin/accounts/default', { disabled: 'yes' });
    assert.equal(text.status, 422);
    assert.equal(text.body.errors[0].field, 'disabled');
  });

  it('the OpenAPI document describes both operations: every status, problem+json errors, a body example', async () => {
    const doc = (await server.request('GET', '/v1/openapi.json', { key: null })).body;
    const list = doc.paths['/v1/admin/accounts'].get;
    const update = doc.paths['/v1/admin/accounts/{name}'].patch;
    for (const op of [list, update]) {
      assert.deepEqual(op.security, [{ adminBearer: [] }]);
      for (const [status, answer] of Object.entries(op.responses) as [string, { description: string; content: Record<string, unknown> }][]) {
        assert.ok(answer.description && answer.description !== 'Default Response', `${status} has a description`);
        if (Number(status) >= 400) assert.deepEqual(Object.keys(answer.content), ['application/problem+json'], status);
      }
    }
    assert.deepEqual(Object.keys(update.responses).sort(), ['200', '400', '401', '404', '415', '422']);
    assert.deepEqual(update.requestBody.content['application/json'].example, { daily_quota: 1000, weekly_quota: 5000 });
    assert.ok(doc.components.securitySchemes.adminBearer);
  });
});

describe('admin API off (HORIZON_ADMIN_TOKEN unset), default quotas from the environment', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_DEFAULT_DAILY_QUOTA: '0', HORIZON_DEFAULT_WEEKLY_QUOTA: '5000' }); });
  after(async () => server.close());

  it('the admin routes answer 404 to a tenant key, any token and none, and are not in the OpenAPI document', async () => {
    for (const token of [server.key, ADMIN_TOKEN, null]) {
      const res = await admin(server, 'GET', '/v1/admin/accounts', undefined, token);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'not_found');
      const patch = await admin(server, 'PATCH', '/v1/admin/accounts/default', { disabled: true }, token);
      assert.equal(patch.status, 404);
    }
    const doc = (await server.request('GET', '/v1/openapi.json', { key: null })).body;
    assert.equal(Object.keys(doc.paths).some((p) => p.startsWith('/v1/admin')), false);
    assert.equal((await server.request('GET', '/v1/models')).status, 200, 'the account was not disabled');
  });

  it('the local CLI token is in <data dir>/horizon.server.json, owner-only, and removed at shutdown', async () => {
    const info = readServerInfo(server.dataDir)!;
    assert.equal(statSync(join(server.dataDir, SERVER_INFO)).mode & 0o777, 0o600);
    assert.equal(info.pid, process.pid);
    assert.equal(info.url, server.url);
    const res = await admin(server, 'GET', '/v1/admin/accounts', undefined, info.admin_token);
    assert.equal(res.status, 200, res.text);
    const cli = await horizon({ HORIZON_DATA_DIR: server.dataDir }, 'accounts', 'list');
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /^NAME +DAILY +USED TODAY +WEEKLY +USED THIS WEEK +STATE\ndefault +unlimited +0 +5000 +0 +enabled\n$/);
  });

  it('HORIZON_DEFAULT_*_QUOTA set the first account\'s quotas; accounts create uses them too', async () => {
    const info = readServerInfo(server.dataDir)!;
    const res = await admin(server, 'GET', '/v1/admin/accounts', undefined, info.admin_token);
    assert.deepEqual(res.body.accounts.map((a: { daily_quota: number; weekly_quota: number }) => [a.daily_quota, a.weekly_quota]), [[0, 5000]]);
    const ok = await forecast(server, server.key);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-ratelimit-limit'), '5000', 'the daily window is unlimited, the weekly binds');
  });
});

describe('start-up checks', () => {
  it('a HORIZON_ADMIN_TOKEN shorter than 32 characters is refused at start', async () => {
    assert.throws(() => configFromEnv({ HORIZON_ADMIN_TOKEN: 'short-token' }), /HORIZON_ADMIN_TOKEN must be at least 32 characters/);
    assert.throws(() => configFromEnv({ HORIZON_ADMIN_TOKEN: 'x'.repeat(31) }), /at least 32/);
    assert.equal(configFromEnv({ HORIZON_ADMIN_TOKEN: 'x'.repeat(32) }).adminToken, 'x'.repeat(32));
    const serve = await horizon({ HORIZON_ADMIN_TOKEN: 'short-token', HORIZON_DATA_DIR: '/nonexistent/never-created' }, 'serve');
    assert.equal(serve.code, 1);
    assert.match(serve.stderr, /HORIZON_ADMIN_TOKEN must be at least 32 characters/);
  });

  it('HORIZON_DEFAULT_*_QUOTA must be non-negative integers', () => {
    assert.throws(() => configFromEnv({ HORIZON_DEFAULT_DAILY_QUOTA: '-1' }), /HORIZON_DEFAULT_DAILY_QUOTA must be a non-negative integer/);
    assert.throws(() => configFromEnv({ HORIZON_DEFAULT_WEEKLY_QUOTA: 'lots' }), /HORIZON_DEFAULT_WEEKLY_QUOTA/);
    const config = configFromEnv({});
    assert.deepEqual([config.defaultDailyQuota, config.defaultWeeklyQuota], [200, 1000]);
  });
});
