// Series embeddings (issue 38 part 3) through a real server and a real worker on the tiny random-weight checkpoints
// (runtime/tests/fixtures): POST /v1/embeddings per series and per patch (the numbers are the libraries' own:
// runtime/tests/test_embeddings.py holds the worker to Chronos2Pipeline.embed & co. called directly), its 422s
// (naming the models that embed), 401, one quota unit, 413 use_job_api above the synchronous answer's size, the
// embedding jobs (result = the sync answer; listed, cancellable, scoped to the account) and the MCP tool embed_series.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pollUntil, startTestServer, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';
import { EMBED_SYNC_MAX_VECTORS } from '../src/forecasting/embeddings.ts';
import { Horizon, HorizonError } from '../clients/typescript/src/index.ts';

const wave = (n: number, phase = 0): number[] => Array.from({ length: n }, (_, t) => Math.round(100 + 20 * Math.sin((2 * Math.PI * (t + phase)) / 12) + t));
// leading nulls and a gap of 20 values (no patch of 16 falls wholly inside it), and a short series
const gappy = [null, null, null, ...wave(40).map((v, t) => (t >= 18 && t < 38 ? null : v))];
const SERIES = [{ target: wave(50) }, { target: gappy }, { target: [3, 4, 5] }];
const body = (overrides: Record<string, unknown> = {}) => ({ model: 'chronos-2', model_size: 'small', series: SERIES, ...overrides });

/** The series' vector is the mean of its non-null patch vectors (taken in float64, rounded to float32). */
function assertMeanOf(vector: number[], patches: (number[] | null)[]): void {
  const rows = patches.filter((p): p is number[] => p !== null);
  const mean = rows[0].map((_, k) => rows.reduce((sum, r) => sum + r[k], 0) / rows.length);
  vector.forEach((v, k) => assert.ok(Math.abs(v - mean[k]) <= 1e-7 * (1 + Math.abs(mean[k])), `${k}: ${v} vs ${mean[k]}`));
}

describe('POST /v1/embeddings', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      HORIZON_MODEL_DIR: writeFixtures(['chronos-2', 'tirex']), HORIZON_ACCEPT_LICENSES: 'tirex', HORIZON_JOB_CONCURRENCY: '1',
    });
  });
  after(async () => server?.close());

  it('one vector per series, charged one unit; leading nulls are not embedded; equal alone and in a request', async () => {
    const { key } = await server.newAccount({ daily: 10, weekly: 100 });
    const res = await server.request('POST', '/v1/embeddings', { key, body: body() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '9');
    const a = res.body;
    assert.deepEqual([a.model, a.model_size, a.granularity, a.dimension, a.patch_size, a.context], ['chronos-2', 'small', 'series', 16, 16, 8192]);
    assert.deepEqual(a.warnings, []);
    assert.equal(a.embeddings.length, 3);
    for (const e of a.embeddings) {
      assert.deepEqual(Object.keys(e).sort(), ['embedded_from', 'embedding']);
      assert.equal(e.embedding.length, 16);
      assert.ok(e.embedding.every(Number.isFinite));
    }
    assert.deepEqual(a.embeddings.map((e: any) => e.embedded_from), [0, 3, 0]);
    // the gappy series without its leading nulls, alone: the very same values went to the worker
    const alone = await server.request('POST', '/v1/embeddings', { body: body({ series: [{ target: gappy.slice(3) }] }) });
    assert.equal(alone.status, 200, alone.text);
    assert.equal(alone.body.embeddings[0].embedded_from, 0);
    const [got, wanted] = [a.embeddings[1].embedding, alone.body.embeddings[0].embedding];
    got.forEach((v: number, k: number) => assert.ok(Math.abs(v - wanted[k]) <= 1e-5, `${k}: ${v} vs ${wanted[k]} (batch padding rounds in float32)`));
  });

  it('granularity patch: a vector per patch of 16 (null for a patch without an observed value), the [REG] summary, their mean', async () => {
    const res = await server.request('POST', '/v1/embeddings', { body: body({ granularity: 'patch' }) });
    assert.equal(res.status, 200, res.text);
    const [long, gap, short] = res.body.embeddings;
    assert.deepEqual([long.patches.length, gap.patches.length, short.patches.length], [4, 3, 1]); // ceil(50/16), ceil(40/16), 1
    // the gappy series' 40 embedded values (nulls at 18..37) in patches [-8, 8), [8, 24), [24, 40): each holds an observed value
    assert.ok(gap.patches.every((p: unknown) => p !== null));
    for (const e of [long, gap, short]) {
      assert.equal(e.summary.length, 16);
      assertMeanOf(e.embedding, e.patches);
    }
    // a gap covering a whole patch: its vector is null and left out of the mean
    const holes = [...wave(16), ...Array(16).fill(null), ...wave(16)];
    const holed = await server.request('POST', '/v1/embeddings', { body: body({ granularity: 'patch', series: [{ target: holes }] }) });
    assert.equal(holed.status, 200, holed.text);
    const [one] = holed.body.embeddings;
    assert.deepEqual(one.patches.map((p: unknown) => p === null), [false, true, false]);
    assertMeanOf(one.embedding, one.patches);
    // the series vector is the same with and without patches
    const plain = await server.request('POST', '/v1/embeddings', { body: body() });
    assert.deepEqual(plain.body.embeddings.map((e: any) => e.embedding), [long, gap, short].map((e) => e.embedding));
  });

  it('tirex: one vector per series (its 2 blocks × 64); context cuts each series to its last values, with a warning', async () => {
    const res = await server.request('POST', '/v1/embeddings', { body: { model: 'tirex', series: SERIES, context: 20 } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.model, res.body.dimension, res.body.patch_size, res.body.context], ['tirex', 128, 32, 20]);
    // the gappy series' last 20 values are nulls but its last two (positions 41, 42)
    assert.deepEqual(res.body.embeddings.map((e: any) => e.embedded_from), [30, 41, 0]);
    assert.equal(res.body.warnings.length, 1);
    assert.match(res.body.warnings[0].message, /^2 series are longer than the context 20 of model tirex \(size default\): only the last 20 values/);
    const over = await server.request('POST', '/v1/embeddings', { body: { model: 'tirex', series: SERIES, context: 5000 } });
    assert.equal(over.status, 200, over.text);
    assert.equal(over.body.context, 2016);
    assert.match(over.body.warnings[0].message, /^context 5000 exceeds the max_context 2016 of model tirex/);
  });

  it('422s name the field and, for a model, the models that give embeddings; nothing charged', async () => {
    const { key } = await server.newAccount({ daily: 10, weekly: 100 });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [body({ model: 'chronos-3' }), 'model', /"chronos-3" is not a known model id; did you mean "chronos-2"\?; models that give embeddings: chronos \(not served.*chronos-2 \(served\).*tirex \(served\)/],
      [body({ model: 'naive' }), 'model', /^naive gives no embeddings \(its library has no embedding path\); models that give embeddings: /],
      [body({ model: 'tirex', granularity: 'patch' }), 'granularity', /tirex's library gives one embedding per series, none per patch; models that give them per patch: .*chronos-2 \(served\)/],
      [body({ model_size: 'huge' }), 'model_size', /not a size of model chronos-2.*its sizes: small, base/],
      [body({ granularity: 'value' }), 'granularity', /./],
      [body({ series: [{ target: [null, null] }] }), 'series[0].target', /./],
      [body({ series: [{ target: [1, 1e39] }] }), 'series[0].target[1]', /./],
      [body({ series: [{ target: [1, 2], index: ['2020-01-01', '2020-01-02'] }] }), 'series[0].index', /./],
      [body({ context: 2, series: [{ target: [1, 2, null, null] }] }), 'series[0].target', /its last 2 values \(context 2\) hold no observed value/],
    ];
    for (const [sent, field, reason] of cases) {
      const res = await server.request('POST', '/v1/embeddings', { key, body: sent });
      assert.equal(res.status, 422, `${JSON.stringify(sent).slice(0, 200)}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const error = res.body.errors.find((e: any) => e.field === field);
      assert.ok(error, `${field} in ${res.text}`);
      assert.match(error.reason, reason);
    }
    const quota = await server.request('POST', '/v1/embeddings', { key, body: body() });
    assert.equal(quota.headers.get('x-ratelimit-remaining'), '9', 'the 422s charged nothing');
  });

  it('401 without a key, or with a wrong one', async () => {
    for (const key of [null, 'hzn_not-a-key']) {
      const res = await server.request('POST', '/v1/embeddings', { key, body: body() });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.code, 'unauthorized');
    }
  });

  it('413 use_job_api over the synchronous answer\'s vectors, nothing charged; the same body as a job: 202, then exactly the sync answer', async () => {
    const { key } = await server.newAccount({ daily: 10, weekly: 100 });
    // 10 series of 7,000 values per patch: 10 × (438 patches + vector + summary) vectors > 4,096
    const big = { model: 'chronos-2', model_size: 'small', granularity: 'patch', series: Array.from({ length: 10 }, (_, k) => ({ target: wave(7000, k) })) };
    const refused = await server.request('POST', '/v1/embeddings', { key, body: big });
    assert.equal(refused.status, 413, refused.text);
    assert.equal(refused.body.code, 'use_job_api');
    assert.match(refused.body.detail, new RegExp(`holds 4400 vectors.*over the ${EMBED_SYNC_MAX_VECTORS} a synchronous call may answer; send the same body to POST /v1/embedding-jobs`));
    assert.equal(refused.headers.get('x-ratelimit-remaining'), null, 'refused before the charge');

    const sent = body({ granularity: 'patch' });
    const queued = await server.request('POST', '/v1/embedding-jobs', { key, body: sent });
    assert.equal(queued.status, 202, queued.text);
    assert.deepEqual(Object.keys(queued.body).sort(), ['created_at', 'granularity', 'job_id', 'model', 'model_size', 'status']);
    assert.deepEqual([queued.body.model, queued.body.model_size, queued.body.granularity], ['chronos-2', 'small', 'patch']);
    assert.equal(queued.headers.get('location'), `/v1/embedding-jobs/${queued.body.job_id}`);
    assert.equal(queued.headers.get('x-ratelimit-remaining'), '9');
    const job = await pollUntil('embedding job', async () => (await server.request('GET', `/v1/embedding-jobs/${queued.body.job_id}`, { key })).body,
      (j: any) => ['completed', 'failed', 'cancelled'].includes(j.status), 120_000);
    assert.equal(job.status, 'completed', JSON.stringify(job).slice(0, 500));
    const sync = await server.request('POST', '/v1/embeddings', { key, body: sent });
    assert.deepEqual(job.result, sync.body);

    const list = await server.request('GET', '/v1/embedding-jobs', { key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.jobs.map((j: any) => [j.job_id, j.status, 'result' in j]), [[job.job_id, 'completed', false]]);
    const anomalyJobs = await server.request('GET', '/v1/anomaly-jobs', { key });
    assert.deepEqual(anomalyJobs.body.jobs, [], 'kinds are kept apart');
    const finished = await server.request('DELETE', `/v1/embedding-jobs/${job.job_id}`, { key });
    assert.equal(finished.status, 409, finished.text);
    const other = await server.newAccount();
    const hidden = await server.request('GET', `/v1/embedding-jobs/${job.job_id}`, { key: other.key });
    assert.equal(hidden.status, 404, hidden.text);
    const invalid = await server.request('POST', '/v1/embedding-jobs', { key, body: body({ model: 'naive' }) });
    assert.equal(invalid.status, 422, invalid.text);
  });

  it('TypeScript SDK: embed() and the embedding-job calls answer what the API answers', async () => {
    const h = new Horizon({ baseUrl: server.url, apiKey: server.key });
    const raw = await server.request('POST', '/v1/embeddings', { body: body() });
    assert.deepEqual(await h.embed(body() as Parameters<Horizon['embed']>[0]), raw.body);
    await assert.rejects(h.embed(body({ model: 'naive' }) as Parameters<Horizon['embed']>[0]),
      (error: unknown) => error instanceof HorizonError && error.status === 422 && error.errors[0].field === 'model');
    const accepted = await h.createEmbeddingJob(body() as Parameters<Horizon['createEmbeddingJob']>[0]);
    const done = await h.waitForEmbeddingJob(accepted.job_id, { intervalMs: 50 });
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.result, raw.body);
    assert.equal((await h.listEmbeddingJobs({ pageSize: 1 })).jobs[0].job_id, accepted.job_id);
    assert.equal((await h.getEmbeddingJob(accepted.job_id)).status, 'completed');
    await assert.rejects(h.cancelEmbeddingJob(accepted.job_id), (error: unknown) => error instanceof HorizonError && error.status === 409);
  });

  it('MCP embed_series: the vectors of POST /v1/embeddings and the most alike pair; as_job through job_status', async () => {
    const client = new Client({ name: 'embeddings-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${server.key}` } } }));
    try {
      const named = SERIES.map((s, i) => ({ ...s, name: ['long', 'gappy', 'short'][i] }));
      const r = await client.callTool({ name: 'embed_series', arguments: { model: 'chronos-2', model_size: 'small', series: named } });
      assert.ok(!r.isError, JSON.stringify(r));
      const raw = await server.request('POST', '/v1/embeddings', { body: body() });
      const structured = r.structuredContent as any;
      assert.deepEqual(structured.series.map((s: any) => s.embedding), raw.body.embeddings.map((e: any) => e.embedding));
      assert.deepEqual(structured.series.map((s: any) => s.name), ['long', 'gappy', 'short']);
      const summary = (r.content as { text: string }[])[0].text;
      assert.match(summary, /^chronos-2 \(small\): 3 series embedded in 16 values; most alike: "\w+" and "\w+" \(cosine [-0-9.]+\)$/);
      const refused = await client.callTool({ name: 'embed_series', arguments: { model: 'naive', series: named } });
      assert.ok(refused.isError);
      assert.match((refused.content as { text: string }[])[0].text, /^422 validation_failed: .*\n- model: naive gives no embeddings/);
      const queued = await client.callTool({ name: 'embed_series', arguments: { model: 'chronos-2', model_size: 'small', series: named, as_job: true } });
      const jobId = (queued.structuredContent as any).job_id;
      assert.equal((queued.structuredContent as any).kind, 'embeddings');
      const done = await pollUntil('embed_series job', async () => (await client.callTool({ name: 'job_status', arguments: { job_id: jobId } })).structuredContent as any,
        (j) => j.status === 'completed' || j.status === 'failed', 120_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.kind, 'embeddings');
      assert.deepEqual(done.result.series.map((s: any) => s.embedding), raw.body.embeddings.map((e: any) => e.embedding));
    } finally {
      await client.close();
    }
  });
});
