// Quotas through HTTP (contract B.7): headers, 429 on the daily then the weekly window,
// exactness under 50 concurrent requests, refunds on 5xx, nothing charged for 4xx.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, startServerOn, storeBackends, simpleRequest, slowRequest, type TestServer } from './helpers.ts';
import { setQuotas } from '../src/store/accounts.ts';
import { quotaWindows } from '../src/store/quota.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const forecast = (key: string, body: unknown = simpleRequest()) => server.request('POST', '/v1/forecast', { key, body });

describe('quotas', () => {
  it('every charged response carries X-RateLimit-*; 429 on the daily window, then on the weekly window', async () => {
    const { accountId, key } = await server.newAccount({ daily: 2, weekly: 100 });
    const windows = quotaWindows(new Date());
    const ok = await forecast(key);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-ratelimit-limit'), '2');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '1');
    assert.equal(ok.headers.get('x-ratelimit-reset'), String(windows.dayResetsAt));
    const job = await server.request('POST', '/v1/forecast-jobs', { key, body: simpleRequest() });
    assert.equal(job.status, 202, 'a job is charged too');
    assert.equal(job.headers.get('x-ratelimit-remaining'), '0');
    const daily = await forecast(key);
    assert.equal(daily.status, 429, daily.text);
    assert.equal(daily.body.code, 'quota_exceeded');
    assert.match(daily.body.detail, /daily/);
    assert.equal(daily.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(daily.headers.get('x-ratelimit-reset'), String(windows.dayResetsAt));
    const retryAfter = Number(daily.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);

    // earlier days of this ISO week count toward the weekly window
    if (windows.day !== windows.weekStart) {
      await sql`INSERT INTO quota_usage (account_id, day, used) VALUES (${accountId}::uuid, ${windows.weekStart}::date, 5)`.execute(server.database.db);
    }
    const weekUsed = windows.day !== windows.weekStart ? 7 : 2;
    await setQuotas(server.database.db, accountId, { daily: 50, weekly: weekUsed + 1 });
    const last = await forecast(key);
    assert.equal(last.status, 200, last.text);
    assert.equal(last.headers.get('x-ratelimit-limit'), String(weekUsed + 1), 'the weekly window binds');
    assert.equal(last.headers.get('x-ratelimit-reset'), String(windows.weekResetsAt));
    const weekly = await forecast(key);
    assert.equal(weekly.status, 429, weekly.text);
    assert.match(weekly.body.detail, /weekly/);
    assert.equal(weekly.headers.get('x-ratelimit-reset'), String(windows.weekResetsAt));
    const weeklyRetry = Number(weekly.headers.get('retry-after'));
    assert.ok(weeklyRetry > 0 && weeklyRetry <= 7 * 86_400 && weeklyRetry >= retryAfter - 5);
  });

  it('50 concurrent charged requests with 10 left: exactly 10 admitted, 40 get 429', async () => {
    const { key } = await server.newAccount({ daily: 10, weekly: 1000 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => forecast(key)));
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 40);
  });

  it('invalid requests (401, 422) are not charged', async () => {
    const { key } = await server.newAccount({ daily: 1, weekly: 10 });
    // 401: no key, and the account's own key id with a wrong secret (the lookup finds the account, the check fails)
    const wrongSecret = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const [what, bearer] of [['no key', null], ['a wrong secret', wrongSecret]] as const) {
      const res = await server.request('POST', '/v1/forecast', { key: bearer, body: simpleRequest() });
      assert.equal(res.status, 401, `${what}: ${res.text}`);
      assert.equal(res.body.code, 'unauthorized', what);
      assert.equal(res.headers.get('x-ratelimit-remaining'), null, `${what}: nothing charged, no quota headers`);
    }
    const bad = await forecast(key, simpleRequest({ freq: 'M' }));
    assert.equal(bad.status, 422);
    const unknown = await forecast(key, simpleRequest({ model: 'nope' }));
    assert.equal(unknown.status, 422);
    const ok = await forecast(key);
    assert.equal(ok.status, 200, 'the one unit was still there');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '0');
  });

  it('a request that fails with a 5xx is refunded', async () => {
    const { key } = await server.newAccount({ daily: 5, weekly: 10 });
    const before = await forecast(key);
    assert.equal(before.headers.get('x-ratelimit-remaining'), '4');
    // a valid request while the worker is down gets a 503
    server.supervisor.kill('core');
    await new Promise((r) => setTimeout(r, 100));
    const failed = await forecast(key);
    assert.equal((await server.request('GET', '/v1/status', { key: null })).body.status, 'degraded', 'status shows the missing worker');
    assert.equal(failed.status, 503, failed.text);
    assert.equal(failed.body.code, 'no_worker');
    assert.ok(Number(failed.headers.get('retry-after')) > 0);
    // wait for the supervisor to bring the worker back
    const deadline = Date.now() + 60_000;
    while (!server.supervisor.endpoint('core') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const after = await forecast(key);
    assert.equal(after.status, 200, after.text);
    assert.equal(after.headers.get('x-ratelimit-remaining'), '3', 'the 503 was refunded');
  });
});

// A unit is settled only once its answer has left (issue 24): a client that leaves while its answer is
// computed is not charged, on both stores.
describe('quotas: a client that leaves before its answer', () => {
  const ADMIN = 'q'.repeat(40);
  for (const backend of storeBackends) {
    it(`${backend.name}: its unit is refunded once the answer is ready`, async () => {
      const { server: s, cleanup } = await startServerOn(backend, { HORIZON_ADMIN_TOKEN: ADMIN });
      try {
        const { accountId, key } = await s.newAccount({ daily: 5, weekly: 10 });
        const usedToday = async () => {
          const res = await s.request('GET', '/v1/admin/accounts', { key: ADMIN });
          assert.equal(res.status, 200, res.text);
          return (res.body.accounts as { id: string; used_today: number }[]).find((a) => a.id === accountId)!.used_today;
        };
        const abort = new AbortController();
        const cut = fetch(`${s.url}/v1/forecast`, {
          method: 'POST', signal: abort.signal,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...slowRequest(), series: Array(4).fill((slowRequest().series as unknown[])[0]) }), // a few seconds of auto-arima
        });
        // charged, then the client goes away while the model runs
        const deadline = Date.now() + 30_000;
        while (await usedToday() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await usedToday(), 1, 'the request was charged');
        abort.abort();
        await assert.rejects(cut, { name: 'AbortError' }, 'the answer had not come yet');
        const refunded = Date.now() + 120_000;
        while (await usedToday() !== 0 && Date.now() < refunded) await new Promise((r) => setTimeout(r, 100));
        assert.equal(await usedToday(), 0, 'the answer was never given: nothing is charged');
        // an answer through app.inject() (how MCP's tools call the API) stays charged too
        const injected = await s.app.inject({ method: 'POST', url: '/v1/forecast', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(simpleRequest()) });
        assert.equal(injected.statusCode, 200, injected.body);
        await new Promise((r) => setTimeout(r, 500)); // its settlement, and the refund a wrong 'close' would make
        assert.equal(await usedToday(), 1, 'the injected answer was given: charged once');
        // and a request answered normally stays charged
        const answered = await s.request('POST', '/v1/forecast', { key, body: simpleRequest() });
        assert.equal(answered.status, 200, answered.text);
        const settled = Date.now() + 10_000;
        while (await usedToday() !== 2 && Date.now() < settled) await new Promise((r) => setTimeout(r, 50));
        assert.equal(await usedToday(), 2);
      } finally {
        await s.close();
        await cleanup();
      }
    });
  }
});
