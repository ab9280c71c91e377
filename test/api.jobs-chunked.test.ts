// Issue 26 item 3, "no surprise 504s" and "jobs of any size complete" (src/forecasting/cost.ts,
// src/jobs/chunks.ts): a synchronous request estimated over HORIZON_SYNC_BUDGET_MS is 413 use_job_api at
// once, nothing charged; a worker-call timeout names the job API; a job estimated over
// HORIZON_JOB_CHUNK_BUDGET_MS runs its model calls in chunks, shows {chunks_done, chunks_total}, and its
// result equals the synchronous answer for the same body (plain model, prism, auto, cross-validation);
// chunks stored before a kill -9 of the server are not computed again after the restart. Real workers,
// PGlite and PostgreSQL; budgets set tiny to force chunks (no timed assertions).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storeBackends, startServerOn, startTestServer, monthlyDates, slowRequest, type TestServer } from './helpers.ts';
import { durableStores, finished, killMidJob, type DurableStore } from './server-kill.ts';
import { splitSeries, mergeAnswers } from '../src/jobs/chunks.ts';
import { seriesCostMs, BACKTEST_COST_FACTOR } from '../src/forecasting/cost.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';

/** n monthly series of different lengths and shapes; series `short` (if given) has only 5 values (auto-ets
 * forecasts it with naive and warns "series i: …"), series `gap` misses one month (a request warning). */
function monthly(n: number, options: { length?: number; short?: number; gap?: number } = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const length = i === options.short ? 5 : (options.length ?? 36) + (i % 5) * 3;
    const target = Array.from({ length }, (_, t) => 100 + 20 * Math.sin((2 * Math.PI * (t + i)) / 12) + 0.5 * t * ((i % 3) - 1) + ((t * 7919 + i * 104729) % 17) / 4);
    const index = monthlyDates('2015-01', length);
    if (i === options.gap) { target.splice(10, 1); index.splice(10, 1); }
    return { target, index };
  });
}

async function waitFor(server: TestServer, path: string, done: (body: any) => boolean, key?: string, timeoutMs = 240_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request('GET', path, { key });
    assert.equal(res.status, 200, res.text);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`${path} still ${res.body.status} after ${timeoutMs} ms: ${res.text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('cost estimate and chunks (units)', () => {
  const catalog = loadCatalog();
  it('a series costs ms_per_series + us_per_point · n / 1000 · max(1, m / 12), over its observed history capped at max_context', () => {
    const ets = catalog.models.find((m) => m.id === 'auto-ets')!.cost!;
    const series = (target: (number | null)[]) => ({ target, past_covariates: {}, future_covariates: {}, static_covariates: {} });
    const values = Array.from({ length: 100 }, (_, i) => i);
    assert.equal(seriesCostMs(catalog, 'auto-ets', 'default', 'MS', series(values)), ets.ms_per_series + ets.us_per_point * 100 / 1000);
    // hourly: m = 24, twice the monthly cost per point; leading nulls are not history
    assert.equal(seriesCostMs(catalog, 'auto-ets', 'default', 'H', series([null, null, ...values])), ets.ms_per_series + ets.us_per_point * 100 / 1000 * 2);
    // a series carrying validation windows (forward() at each origin) costs 1 + BACKTEST_COST_FACTOR forecasts
    assert.equal(seriesCostMs(catalog, 'auto-ets', 'default', 'MS', { ...series(values), backtest: { window: 6, origins: 2, step: 6 } }), (ets.ms_per_series + ets.us_per_point * 100 / 1000) * (1 + BACKTEST_COST_FACTOR));
    // a foundation model has no cost: 0
    const foundation = catalog.models.find((m) => !m.cost && m.weights)!;
    assert.equal(seriesCostMs(catalog, foundation.id, foundation.default_size, 'MS', series(values)), 0);
  });

  it('splitSeries: consecutive ranges within the budget (sum over the CPUs, at least the dearest), a too dear series alone, at most maxSeries', () => {
    assert.deepEqual(splitSeries([1, 1, 1, 1, 1], 2, 1).map((r) => [r.start, r.end]), [[0, 2], [2, 4], [4, 5]]);
    assert.deepEqual(splitSeries([1, 1, 1, 1, 1], 2, 2).map((r) => [r.start, r.end]), [[0, 4], [4, 5]]);
    assert.deepEqual(splitSeries([1, 5, 1], 2, 1).map((r) => [r.start, r.end]), [[0, 1], [1, 2], [2, 3]]);
    assert.deepEqual(splitSeries([0, 0, 0, 0, 0], 1, 1, 2).map((r) => [r.start, r.end]), [[0, 2], [2, 4], [4, 5]]);
    assert.deepEqual(splitSeries([], 1, 1), []);
  });

  it('mergeAnswers: predictions in order, "series i" warnings renumbered, the others once', () => {
    const p = (v: number) => ({ mean: [v], quantiles: {} });
    const merged = mergeAnswers([
      { offset: 0, answer: { model: 'm', size: 's', predictions: [p(0), p(1)], warnings: ['past covariates ignored', 'series 1: short'], timing: { infer_ms: 1, loaded_ms: 5 } } },
      { offset: 2, answer: { model: 'm', size: 's', predictions: [p(2)], warnings: ['past covariates ignored', 'series 0: short too'], timing: { infer_ms: 2, loaded_ms: 0 } } },
    ]);
    assert.deepEqual(merged.predictions.map((x) => x.mean[0]), [0, 1, 2]);
    assert.deepEqual(merged.warnings, ['past covariates ignored', 'series 1: short', 'series 2: short too']);
    assert.deepEqual(merged.timing, { infer_ms: 3, loaded_ms: 5 });
  });
});

describe('no surprise 504s', () => {
  let server: TestServer;
  // prism's members named: the estimate is theirs (a foundation model's is 0)
  before(async () => { server = await startTestServer({ HORIZON_SYNC_BUDGET_MS: '200', HORIZON_CPU_WORKERS: '1', HORIZON_JOB_CONCURRENCY: '1', HORIZON_PRISM_MEMBERS: 'auto-ets,auto-theta,seasonal-naive' }); });
  after(async () => { await server.close(); });

  it('POST /v1/forecast over the sync budget: 413 use_job_api at once, naming the estimate, the budget and POST /v1/forecast-jobs; nothing charged', async () => {
    const { key } = await server.newAccount({ daily: 3, weekly: 100 });
    // auto-ets: 4 series of ~40 months ≈ 4 × 120 ms estimated > 200 ms
    const body = { model: 'auto-ets', freq: 'MS', horizon: 6, series: monthly(4) };
    const res = await server.request('POST', '/v1/forecast', { key, body });
    assert.equal(res.status, 413, res.text);
    assert.equal(res.body.code, 'use_job_api');
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(res.body.detail, /POST \/v1\/forecast-jobs/);
    assert.match(res.body.detail, /estimated at \d+ ms/);
    assert.match(res.body.detail, /budget of 200 ms/);
    assert.equal(res.headers.get('x-ratelimit-remaining'), null, 'not charged: no rate-limit headers');
    // prism (×(1 + PRISM_COST_FACTOR) its members), auto (× 1 + windows) and a cross-validation are refused the same way
    const prism = await server.request('POST', '/v1/forecast', { key, body: { ...body, model: 'prism', series: monthly(2) } });
    assert.equal(prism.status, 413, prism.text);
    assert.equal(prism.body.code, 'use_job_api');
    const auto = await server.request('POST', '/v1/forecast', { key, body: { ...body, model: 'auto', auto_candidates: ['auto-ets', 'naive'], series: monthly(2) } });
    assert.equal(auto.status, 413, auto.text);
    const cv = await server.request('POST', '/v1/cross-validation', { key, body: { freq: 'MS', horizon: 6, n_windows: 2, models: ['auto-ets', 'naive'], series: monthly(3) } });
    assert.equal(cv.status, 413, cv.text);
    assert.equal(cv.body.code, 'use_job_api');
    assert.match(cv.body.detail, /POST \/v1\/cross-validation-jobs/);
    // a request within the budget is served and charged: the refusals took no unit
    const small = await server.request('POST', '/v1/forecast', { key, body: { ...body, model: 'seasonal-naive' } });
    assert.equal(small.status, 200, small.text);
    assert.equal(small.headers.get('x-ratelimit-remaining'), '2', 'only this request was charged');
    // the same body as a job is accepted (one unit) and completes; a job within the chunk budget shows no progress
    const job = await server.request('POST', '/v1/forecast-jobs', { key, body });
    assert.equal(job.status, 202, job.text);
    const done = await waitFor(server, `/v1/forecast-jobs/${job.body.job_id}`, (b) => finished(b.status), key);
    assert.equal(done.status, 'completed', JSON.stringify(done).slice(0, 500));
    assert.equal(done.series.length, 4);
    assert.equal(done.progress, undefined, 'not chunked (the default chunk budget is 60 s)');
  });

  it('the OpenAPI document says what the 413 of the synchronous routes means', async () => {
    const doc = (await server.request('GET', '/v1/openapi.json', { key: null })).body;
    assert.match(doc.paths['/v1/forecast'].post.responses['413'].description, /use_job_api.*POST \/v1\/forecast-jobs/);
    assert.match(doc.paths['/v1/cross-validation'].post.responses['413'].description, /use_job_api.*POST \/v1\/cross-validation-jobs/);
    assert.match(doc.paths['/v1/forecast'].post.responses['504'].description, /job API/);
    assert.ok(doc.components.schemas.Job?.properties?.progress ?? JSON.stringify(doc).includes('chunks_total'));
  });

  it('a worker call over HORIZON_INFERENCE_TIMEOUT_MS is 504 inference_timeout naming the job API', async () => {
    const slow = await startTestServer({ HORIZON_INFERENCE_TIMEOUT_MS: '200', HORIZON_SYNC_BUDGET_MS: '1000000000', HORIZON_INFER_COALESCE: '0' });
    try {
      const { key } = await slow.newAccount({ daily: 5, weekly: 100 });
      const res = await slow.request('POST', '/v1/forecast', { key, body: slowRequest() });
      assert.equal(res.status, 504, res.text);
      assert.equal(res.body.code, 'inference_timeout');
      assert.match(res.body.detail, /did not answer within 200 ms/);
      assert.match(res.body.detail, /send large requests to POST \/v1\/forecast-jobs/);
    } finally {
      await slow.close();
    }
  });
});

for (const backend of storeBackends) {
  describe(`chunked jobs (${backend.name})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    // estimates with one CPU: auto-ets 80 + n ms per monthly series (~120 ms), so a 300 ms chunk holds 2
    // series; the sync budget is large, so the same bodies also run in one synchronous call to compare
    before(async () => {
      ({ server, cleanup } = await startServerOn(backend, {
        HORIZON_JOB_CHUNK_BUDGET_MS: '300', HORIZON_SYNC_BUDGET_MS: '1000000000', HORIZON_CPU_WORKERS: '1', HORIZON_JOB_CONCURRENCY: '1',
        HORIZON_PRISM_MEMBERS: 'auto-ets,auto-theta,seasonal-naive',
      }));
    });
    after(async () => { await server.close(); await cleanup(); });

    const chunkRows = async (jobId: string) => Number((await server.database.db.selectFrom('job_chunks').select((eb) => eb.fn.countAll<number>().as('n')).where('job_id', '=', jobId).executeTakeFirstOrThrow()).n);

    it('a plain-model job over the chunk budget runs in chunks, shows progress, and equals the sync answer (warnings renumbered)', async () => {
      const body = { model: 'auto-ets', freq: 'MS', horizon: 6, quantiles: [0.1, 0.5, 0.9], series: monthly(11, { short: 8, gap: 3 }) };
      const res = await server.request('POST', '/v1/forecast-jobs', { body });
      assert.equal(res.status, 202, res.text);
      const job = await waitFor(server, `/v1/forecast-jobs/${res.body.job_id}`, (b) => finished(b.status));
      assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
      assert.ok(job.progress.chunks_total > 1, JSON.stringify(job.progress));
      assert.equal(job.progress.chunks_done, job.progress.chunks_total);
      assert.equal(job.attempts, 1);
      const sync = await server.request('POST', '/v1/forecast', { body });
      assert.equal(sync.status, 200, sync.text);
      assert.deepEqual(job.series, sync.body.series, 'the chunked job equals the one-call answer');
      assert.deepEqual(job.warnings, sync.body.warnings);
      assert.ok(job.warnings.some((w: { message: string }) => /^series 8: /.test(w.message)), JSON.stringify(job.warnings));
      assert.ok(job.warnings.some((w: { series?: number }) => w.series === 3), 'the gap warning');
      assert.equal(job.model_size, sync.body.model_size);
      // the list shows the progress too; the stored chunks are gone once the job finished
      const list = await server.request('GET', '/v1/forecast-jobs?limit=5');
      assert.deepEqual(list.body.jobs.find((j: { job_id: string }) => j.job_id === job.job_id).progress, job.progress);
      assert.equal(await chunkRows(job.job_id), 0);
    });

    it('a backtest (evaluation) job: chunked, the metrics equal the sync ones', async () => {
      const body = { model: 'auto-ets', freq: 'MS', horizon: 4, series: monthly(6), evaluation: { holdout: 4 } };
      const res = await server.request('POST', '/v1/forecast-jobs', { body });
      const job = await waitFor(server, `/v1/forecast-jobs/${res.body.job_id}`, (b) => finished(b.status));
      assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
      assert.ok(job.progress.chunks_total > 2, JSON.stringify(job.progress));
      const sync = await server.request('POST', '/v1/forecast', { body });
      assert.deepEqual(job.series, sync.body.series);
      assert.deepEqual(job.metrics, sync.body.metrics);
    });

    it('prism and auto jobs: chunked, pooled over the whole request, equal to the sync answer', async () => {
      for (const body of [
        { model: 'prism', freq: 'MS', horizon: 6, series: monthly(5) },
        { model: 'auto', auto_candidates: ['auto-ets', 'seasonal-naive'], auto_scope: 'series', freq: 'MS', horizon: 4, series: monthly(5) },
      ]) {
        const res = await server.request('POST', '/v1/forecast-jobs', { body });
        assert.equal(res.status, 202, res.text);
        const job = await waitFor(server, `/v1/forecast-jobs/${res.body.job_id}`, (b) => finished(b.status));
        assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
        assert.ok(job.progress.chunks_total > 2, `${body.model}: ${JSON.stringify(job.progress)}`);
        assert.equal(job.progress.chunks_done, job.progress.chunks_total);
        const sync = await server.request('POST', '/v1/forecast', { body });
        assert.equal(sync.status, 200, sync.text);
        assert.deepEqual(job.series, sync.body.series, body.model);
        assert.deepEqual(job.warnings, sync.body.warnings, body.model);
        if (body.model === 'auto') assert.deepEqual(job.auto, sync.body.auto);
      }
    });

    it('a cross-validation job: chunked, the result equals POST /v1/cross-validation', async () => {
      const body = { freq: 'MS', horizon: 3, n_windows: 2, quantiles: [0.1, 0.5, 0.9], models: ['auto-ets', 'naive'], series: monthly(4) };
      const res = await server.request('POST', '/v1/cross-validation-jobs', { body });
      assert.equal(res.status, 202, res.text);
      const job = await waitFor(server, `/v1/cross-validation-jobs/${res.body.job_id}`, (b) => finished(b.status));
      assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
      assert.ok(job.progress.chunks_total > 2, JSON.stringify(job.progress));
      assert.equal(job.progress.chunks_done, job.progress.chunks_total);
      const sync = await server.request('POST', '/v1/cross-validation', { body });
      assert.equal(sync.status, 200, sync.text);
      assert.deepEqual(job.result, sync.body);
      const list = await server.request('GET', '/v1/cross-validation-jobs?limit=5');
      assert.deepEqual(list.body.jobs.find((j: { job_id: string }) => j.job_id === job.job_id).progress, job.progress);
    });
  });
}

describe('chunked jobs survive kill -9 of the server', () => {
  let store: DurableStore; // one embedded store for both cases (test/server-kill.ts)
  before(async () => { store = await durableStores[0].open(); });
  after(async () => store?.close());

  // ~40 auto-ets fits of 150-170 months, two per chunk: long enough to kill the server between chunks
  const env = { HORIZON_JOB_CHUNK_BUDGET_MS: '700', HORIZON_CPU_WORKERS: '1', HORIZON_LOG_LEVEL: 'info' };
  const cases = [
    { kind: 'forecast', path: '/v1/forecast-jobs', sync: '/v1/forecast', body: { model: 'auto-ets', freq: 'MS', horizon: 6, series: monthly(40, { length: 150 }) } },
    { kind: 'cross-validation', path: '/v1/cross-validation-jobs', sync: '/v1/cross-validation', body: { freq: 'MS', horizon: 6, n_windows: 1, models: ['auto-ets'], series: monthly(40, { length: 150 }) } },
  ];

  for (const c of cases) {
    it(`${c.kind}: the chunks stored before the kill are reused after the restart, the others computed; the result equals the sync answer`, async () => {
      await killMidJob(store, c, env, async ({ stored, done, attempts, jobLines, call }) => {
        const total = done.progress!.chunks_total;
        assert.ok(stored < total);
        // the restarted server's attempt: the stored chunks reused, only the others sent to the worker
        const attempt = (await attempts()).at(-1)!;
        assert.equal(attempt.chunks_reused, stored, 'every chunk stored before the kill was reused');
        assert.equal(attempt.chunks_computed, total - stored, 'only the chunks not stored were computed');
        assert.equal(jobLines('job chunk stored').length, total - stored);

        const sync = await call('POST', c.sync, c.body);
        assert.equal(sync.status, 200);
        if (c.kind === 'forecast') assert.deepEqual(done.series, sync.body.series);
        else assert.deepEqual(done.result, sync.body);
      });
    });
  }
});
