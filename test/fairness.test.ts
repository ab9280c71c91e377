// Fairness under load (issue 24): another account's small forecast completes while a large one is in
// progress (order, not timing: the large request's model call is cut into fair chunks, and a freed worker
// slot goes to the next account); the per-account cap on requests in flight (429 naming the cap); the
// per-request caps on series and observations (413 use_job_api naming the cap and the job route).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { accountOverviewById } from '../src/store/accounts.ts';
import { monthlyDates, simpleRequest, startTestServer, type TestServer } from './helpers.ts';

function manySeries(n: number, points: number): Record<string, unknown> {
  const index = monthlyDates('2020-01', points);
  return { series: Array.from({ length: n }, (_, i) => ({ target: index.map((_, t) => 100 + ((i * 7 + t * 13) % 17)), index })), horizon: 3, freq: 'MS', model: 'naive' };
}

describe('fairness between accounts', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      HORIZON_FAIR_CHUNK_SERIES: '50', HORIZON_ACCOUNT_MAX_INFLIGHT: '1',
      // 3,000 series (~700 kB) are read in a forecast thread and sent as encoded chunks; 1,500 (~350 kB) take the loop's path
      HORIZON_REQUEST_THREAD_MIN_BYTES: '500000',
      HORIZON_SYNC_MAX_SERIES: '4000', HORIZON_SYNC_MAX_POINTS: '100000',
    });
  });
  after(async () => { await server.close(); });

  for (const [n, path] of [[3000, 'a forecast thread'], [1500, 'the event loop']] as const) {
    it(`a small request from another account completes while a large one (${n} series, read in ${path}) is in progress; a second large one is 429 naming the cap`, async () => {
      const a = await server.newAccount();
      const b = await server.newAccount();
      const order: string[] = [];
      const large = server.request('POST', '/v1/forecast', { key: a.key, body: manySeries(n, 12) }).then((res) => { order.push('large'); return res; });
      // the large request is charged, so its model call is under way (chunks of 50 series)
      for (let i = 0; i < 600 && ((await accountOverviewById(server.database.db, a.accountId))?.used_today ?? 0) < 1; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await accountOverviewById(server.database.db, a.accountId))?.used_today, 1);

      const second = await server.request('POST', '/v1/forecast', { key: a.key, body: simpleRequest() });
      assert.equal(second.status, 429, second.text);
      assert.equal(second.body.code, 'too_many_inflight');
      assert.equal(second.headers.get('retry-after'), '1');
      assert.match(second.body.detail, /HORIZON_ACCOUNT_MAX_INFLIGHT=1/);

      const small = await server.request('POST', '/v1/forecast', { key: b.key, body: simpleRequest() });
      order.push('small');
      assert.equal(small.status, 200, small.text);
      const big = await large;
      assert.equal(big.status, 200, big.text.slice(0, 300));
      assert.deepEqual(order, ['small', 'large'], 'the other account\'s small request finished first');
      assert.equal(big.body.series.length, n);
      // chunking changes nothing in the answers: series 2999 alone gives the same forecast
      const alone = await server.request('POST', '/v1/forecast', { key: b.key, body: { ...manySeries(n, 12), series: [(manySeries(n, 12).series as unknown[])[n - 1]] } });
      assert.deepEqual(alone.body.series[0], big.body.series[n - 1]);
      // the refused request was not charged
      assert.equal((await accountOverviewById(server.database.db, a.accountId))?.used_today, 1);
    });
  }

  it('more series or observations than a synchronous request may hold: 413 use_job_api naming the cap and the job route; the job takes it', async () => {
    const tooMany = await server.request('POST', '/v1/forecast', { body: manySeries(4001, 2) });
    assert.equal(tooMany.status, 413, tooMany.text.slice(0, 300));
    assert.equal(tooMany.body.code, 'use_job_api');
    assert.match(tooMany.body.detail, /4001 series, over this deployment's maximum of 4000 series .*HORIZON_SYNC_MAX_SERIES.*POST \/v1\/forecast-jobs/);
    const tooLong = await server.request('POST', '/v1/forecast', { body: manySeries(101, 1000) });
    assert.equal(tooLong.status, 413, tooLong.text.slice(0, 300));
    assert.match(tooLong.body.detail, /101000 observations .* maximum of 100000 .*HORIZON_SYNC_MAX_POINTS/);
    const job = await server.request('POST', '/v1/forecast-jobs', { body: manySeries(4001, 2) });
    assert.equal(job.status, 202, job.text);
  });
});
