// Authentication (401 variants), API keys (create/list/revoke, 409, name reuse), models, warm-up, status.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, simpleRequest, type TestServer } from './helpers.ts';
import { KeyCache } from '../src/http/key-cache.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

describe('authentication', () => {
  const protectedRoutes: [string, string, unknown?][] = [
    ['POST', '/v1/forecast', simpleRequest()], ['POST', '/v1/forecast-jobs', simpleRequest()], ['GET', '/v1/forecast-jobs'],
    ['GET', '/v1/forecast-jobs/00000000-0000-4000-8000-000000000000'], ['DELETE', '/v1/forecast-jobs/00000000-0000-4000-8000-000000000000'],
    ['GET', '/v1/models'], ['GET', '/v1/warmup?model=naive'], ['POST', '/v1/api-keys', { name: 'x' }], ['GET', '/v1/api-keys'],
    ['DELETE', '/v1/api-keys/00000000-0000-4000-8000-000000000000'],
  ];
  const badCredentials: [string, Record<string, string>, string | null][] = [
    ['missing', {}, null],
    ['malformed (no Bearer)', { authorization: 'Token abc' }, null],
    ['malformed key', { authorization: 'Bearer not-a-key' }, null],
    ['unknown key', { authorization: 'Bearer hzn_AAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, null],
  ];
  for (const [label, headers] of badCredentials) {
    it(`401 on every protected route when the key is ${label}`, async () => {
      for (const [method, path, body] of protectedRoutes) {
        const res = await server.request(method, path, { key: null, headers, body });
        assert.equal(res.status, 401, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, 'unauthorized');
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      }
    });
  }

  it('GET /v1/status needs no key and carries no secrets or tenant data', async () => {
    const res = await server.request('GET', '/v1/status', { key: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.ok(res.body.version);
    assert.doesNotMatch(res.text, /hzn_|account|default/);
  });

  it('another account\'s key does not see this account\'s keys', async () => {
    const other = await server.newAccount();
    const mine = await server.request('GET', '/v1/api-keys');
    const theirs = await server.request('GET', '/v1/api-keys', { key: other.key });
    const myIds = new Set(mine.body.keys.map((k: { id: string }) => k.id));
    assert.ok(theirs.body.keys.every((k: { id: string }) => !myIds.has(k.id)));
    const revoke = await server.request('DELETE', `/v1/api-keys/${mine.body.keys[0].id}`, { key: other.key });
    assert.equal(revoke.status, 404, 'cannot revoke another account\'s key');
  });
});

describe('the embedded store\'s key cache', () => {
  it('holds no key, only its SHA-256: found by the key, dropped by key id and by account', () => {
    const cache = new KeyCache();
    const key = 'hzn_AbCdEfGh1234_secretsecretsecretsecretsecretsecretsecret00';
    cache.set(key, { keyId: 'k1', accountId: 'a1' });
    cache.set(`${key}x`, { keyId: 'k2', accountId: 'a1' });
    assert.deepEqual(cache.get(key), { keyId: 'k1', accountId: 'a1' });
    assert.equal(cache.get(key.slice(0, -1)), undefined);
    const held = JSON.stringify([...(cache as unknown as { owners: Map<string, unknown> }).owners.keys()]);
    assert.ok(!held.includes('secret') && !held.includes('hzn_'), held);
    cache.forget('k1');
    assert.equal(cache.get(key), undefined);
    assert.ok(cache.get(`${key}x`));
    cache.forgetAccount('a1');
    assert.equal(cache.get(`${key}x`), undefined);
  });
});

describe('API keys', () => {
  it('create → 201 with the secret once; list without secrets; the new key works', async () => {
    const res = await server.request('POST', '/v1/api-keys', { body: { name: 'ci runner.1' } });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.key, /^hzn_/);
    assert.ok(res.body.key.startsWith(`hzn_${res.body.prefix}_`));
    const list = await server.request('GET', '/v1/api-keys');
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(res.body.key.slice(18)), 'no secret in the list');
    assert.ok(list.body.keys.some((k: { id: string; revoked_at: null }) => k.id === res.body.id && k.revoked_at === null));
    const use = await server.request('GET', '/v1/models', { key: res.body.key });
    assert.equal(use.status, 200);
  });

  it('409 for a duplicate active name; the name is free again after revoke; the revoked key gets 401', async () => {
    const first = await server.request('POST', '/v1/api-keys', { body: { name: 'deploy' } });
    assert.equal(first.status, 201);
    assert.equal((await server.request('GET', '/v1/models', { key: first.body.key })).status, 200, 'used (and so remembered) before the revoke');
    const dup = await server.request('POST', '/v1/api-keys', { body: { name: 'deploy' } });
    assert.equal(dup.status, 409, dup.text);
    assert.equal(dup.body.code, 'duplicate_key_name');
    const revoke = await server.request('DELETE', `/v1/api-keys/${first.body.id}`);
    assert.equal(revoke.status, 200, revoke.text);
    assert.ok(revoke.body.revoked_at);
    const revoked = await server.request('GET', '/v1/models', { key: first.body.key });
    assert.equal(revoked.status, 401, 'revoked at once');
    const again = await server.request('POST', '/v1/api-keys', { body: { name: 'deploy' } });
    assert.equal(again.status, 201, again.text);
    const twice = await server.request('DELETE', `/v1/api-keys/${first.body.id}`);
    assert.equal(twice.status, 404);
  });

  it('422 for invalid names and unknown fields', async () => {
    for (const body of [{ name: '' }, { name: 'x'.repeat(65) }, { name: 'bad/name' }, {}, { name: 'ok', scope: 'all' }]) {
      const res = await server.request('POST', '/v1/api-keys', { body });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.ok(res.body.errors.length > 0);
    }
  });
});

describe('models, warm-up', () => {
  it('GET /v1/models lists the served models with caps, licences and the default', async () => {
    const res = await server.request('GET', '/v1/models');
    assert.equal(res.status, 200);
    const ids = res.body.models.map((m: { model_id: string }) => m.model_id);
    for (const id of ['naive', 'seasonal-naive', 'auto-ets', 'auto-arima', 'auto-theta']) assert.ok(ids.includes(id), id);
    assert.ok(ids.includes(res.body.default_model));
    for (const m of res.body.models) {
      assert.ok(Number.isInteger(m.max_context) && m.max_context > 0);
      assert.ok(Number.isInteger(m.max_horizon) && m.max_horizon > 0);
      assert.equal(typeof m.supports_covariates, 'boolean');
      assert.ok(m.sizes.includes(m.default_size));
      assert.ok(m.license.id);
    }
  });

  it('GET /v1/warmup loads the model, is idempotent and not charged; the model then shows as loaded', async () => {
    const first = await server.request('GET', '/v1/warmup?model=auto-arima');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(Object.keys(first.body).sort(), ['device', 'load_ms', 'model', 'model_size', 'status']);
    assert.equal(first.body.status, 'warm');
    assert.equal(first.body.model_size, 'default');
    assert.equal(first.headers.get('x-ratelimit-remaining'), null);
    const second = await server.request('GET', '/v1/warmup?model=auto-arima&model_size=default');
    assert.equal(second.status, 200);
    await server.supervisor.refreshModels('core');
    const models = await server.request('GET', '/v1/models');
    assert.deepEqual(models.body.models.find((m: { model_id: string }) => m.model_id === 'auto-arima').loaded, ['default']);
  });

  it('warm-up errors: unknown model and size are 422', async () => {
    const unknown = await server.request('GET', '/v1/warmup?model=nope');
    assert.equal(unknown.status, 422);
    const size = await server.request('GET', '/v1/warmup?model=naive&model_size=xl');
    assert.equal(size.status, 422);
    assert.match(size.body.detail, /default/);
  });

  it('a catalog model this deployment does not serve is 422 naming the served ones', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: simpleRequest({ model: 'chronos-2' }) });
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.detail, /not served by this deployment.*naive/);
  });
});
