// Pools sized by cost (issue 35): with no members named (by the request or the operator) and no foundation model
// served, prism blends (and model "auto", with HORIZON_AUTO_CANDIDATES=pool, chooses from) every served statistical model whose
// estimated cost per series for the request fits HORIZON_POOL_BUDGET_MS (the base three always; naive and ces never, nor
// mstl where the freq has no season: it is auto-ets there):
// a short yearly request gets the expensive one (auto-arima), a long hourly one does not; the answer names the pool.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { POOL_BASE, POOL_DEFAULT_BUDGET_MS } from '../src/forecasting/model-pool.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const yearly = (n: number, k: number) => ({
  target: Array.from({ length: n }, (_, t) => 100 + (3 + k) * t + 10 * Math.sin(t * (1.3 + k))),
  index: Array.from({ length: n }, (_, t) => `${1990 + t}-01-01`),
});
const yearlyBody = (model: string) => ({ model, freq: 'Y', horizon: 4, quantiles: [0.1, 0.5, 0.9], series: [yearly(24, 0), yearly(30, 1), yearly(18, 2)] });
// 1,200 hours: auto-arima is estimated at ~120 s per series there, far over the default budget
const hours = 1200;
const start = Date.parse('2024-01-01T00:00:00Z');
const hourlyIndex = Array.from({ length: hours }, (_, t) => new Date(start + t * 3_600_000).toISOString().replace('.000Z', 'Z'));
const hourlyBody = (model: string) => ({
  model, freq: 'H', horizon: 24, quantiles: [0.1, 0.5, 0.9],
  series: [{ target: Array.from({ length: hours }, (_, t) => 50 + 10 * Math.sin((2 * Math.PI * t) / 24) + ((t * 7) % 5)), index: hourlyIndex }],
});
const EXPENSIVE = ['auto-arima'];
const NEVER = ['naive', 'ces'];
const ids = (list: { model: string }[]) => list.map((m) => m.model);

describe('pools sized by cost', () => {
  it('prism on short yearly series blends every served statistical model, auto-arima included; the answer names them', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: yearlyBody('prism') });
    assert.equal(res.status, 200, res.text);
    const { members, pool } = res.body.prism;
    for (const id of [...POOL_BASE, ...EXPENSIVE, 'damped-ets', 'dyn-opt-theta']) assert.ok(ids(members).includes(id), `${id} in ${ids(members)}`);
    for (const id of NEVER) assert.ok(!ids(members).includes(id), `${id} is never in a sized pool`);
    assert.ok(!ids(members).includes('mstl'), 'mstl on yearly data (no season) is auto-ets: not a second vote');
    assert.deepEqual(pool, { source: 'cost', budget_ms: POOL_DEFAULT_BUDGET_MS, left_out: [] });
    assert.ok(members.every((m: { model_size: string }) => m.model_size === 'default'));
  });

  it('prism on a long hourly series leaves the expensive models out, naming them with their estimates; the base three stay', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: hourlyBody('prism') });
    assert.equal(res.status, 200, res.text);
    const { members, pool } = res.body.prism;
    for (const id of EXPENSIVE) assert.ok(!ids(members).includes(id), `${id} not in ${ids(members)}`);
    for (const id of POOL_BASE) assert.ok(ids(members).includes(id), `${id} in ${ids(members)}`);
    assert.equal(pool.source, 'cost');
    assert.deepEqual(ids(pool.left_out).sort(), [...EXPENSIVE].sort());
    assert.ok(pool.left_out.every((m: { estimate_ms: number }) => m.estimate_ms > POOL_DEFAULT_BUDGET_MS), JSON.stringify(pool.left_out));
  });

  it('auto: its default candidates stay auto-ets, auto-theta, seasonal-naive (pool source default)', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: yearlyBody('auto') });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(ids(res.body.auto.candidates), POOL_BASE);
    assert.deepEqual(res.body.auto.pool, { source: 'default' });
  });

  it('named members and candidates win over the sized pool (pool source request); a job answers with the same prism object', async () => {
    const prism = await server.request('POST', '/v1/forecast', { body: { ...yearlyBody('prism'), prism_members: ['auto-theta', 'naive'] } });
    assert.equal(prism.status, 200, prism.text);
    const named = [{ model: 'auto-theta', model_size: 'default' }, { model: 'naive', model_size: 'default' }];
    assert.deepEqual(prism.body.prism, { members: named, pool: { source: 'request' } });
    const auto = await server.request('POST', '/v1/forecast', { body: { ...yearlyBody('auto'), auto_candidates: ['auto-theta', 'naive'] } });
    assert.equal(auto.status, 200, auto.text);
    assert.deepEqual(auto.body.auto.pool, { source: 'request' });
    assert.deepEqual(ids(auto.body.auto.candidates), ['auto-theta', 'naive']);
    const sync = await server.request('POST', '/v1/forecast', { body: yearlyBody('prism') });
    const accepted = await server.request('POST', '/v1/forecast-jobs', { body: yearlyBody('prism') });
    assert.equal(accepted.status, 202, accepted.text);
    let job;
    for (;;) {
      job = await server.request('GET', `/v1/forecast-jobs/${accepted.body.job_id}`);
      if (job.body.status === 'completed' || job.body.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.body.status, 'completed', job.text);
    assert.deepEqual(job.body.prism, sync.body.prism);
    assert.deepEqual(job.body.series, sync.body.series);
  });
});

describe('pools: the operator\'s settings', () => {
  it('HORIZON_AUTO_CANDIDATES=pool: auto cross-validates the sized pool, all on short yearly series, the cheap ones on a long hourly one', async () => {
    const pooled = await startTestServer({ HORIZON_AUTO_CANDIDATES: 'pool' });
    try {
      const short = await pooled.request('POST', '/v1/forecast', { body: yearlyBody('auto') });
      assert.equal(short.status, 200, short.text);
      for (const id of [...POOL_BASE, ...EXPENSIVE]) assert.ok(ids(short.body.auto.candidates).includes(id), `${id} in ${ids(short.body.auto.candidates)}`);
      assert.deepEqual(short.body.auto.pool, { source: 'cost', budget_ms: POOL_DEFAULT_BUDGET_MS, left_out: [] });
      const long = await pooled.request('POST', '/v1/forecast', { body: hourlyBody('auto') });
      assert.equal(long.status, 200, long.text);
      for (const id of EXPENSIVE) assert.ok(!ids(long.body.auto.candidates).includes(id), `${id} not in ${ids(long.body.auto.candidates)}`);
      assert.deepEqual(ids(long.body.auto.pool.left_out), EXPENSIVE);
    } finally {
      await pooled.close();
    }
  });

  it('HORIZON_PRISM_MEMBERS and HORIZON_AUTO_CANDIDATES win (pool source operator); HORIZON_POOL_BUDGET_MS sizes the pool', async () => {
    const operator = await startTestServer({ HORIZON_PRISM_MEMBERS: 'auto-theta,seasonal-naive', HORIZON_AUTO_CANDIDATES: 'auto-theta,naive' });
    const small = await startTestServer({ HORIZON_POOL_BUDGET_MS: '40' });
    try {
      const prism = await operator.request('POST', '/v1/forecast', { body: yearlyBody('prism') });
      assert.equal(prism.status, 200, prism.text);
      const configured = [{ model: 'auto-theta', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' }];
      assert.deepEqual(prism.body.prism, { members: configured, pool: { source: 'operator' } });
      const auto = await operator.request('POST', '/v1/forecast', { body: yearlyBody('auto') });
      assert.deepEqual(auto.body.auto.pool, { source: 'operator' });
      // a budget of 40 ms per series: on these yearly series (~24 values) only the cheapest extras join the base three
      const sized = await small.request('POST', '/v1/forecast', { body: yearlyBody('prism') });
      assert.equal(sized.status, 200, sized.text);
      assert.equal(sized.body.prism.pool.budget_ms, 40);
      for (const id of POOL_BASE) assert.ok(ids(sized.body.prism.members).includes(id));
      for (const id of [...EXPENSIVE, 'damped-ets']) assert.ok(ids(sized.body.prism.pool.left_out).includes(id), JSON.stringify(sized.body.prism.pool));
    } finally {
      await operator.close();
      await small.close();
    }
  });
});
