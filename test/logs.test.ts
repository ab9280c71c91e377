// Structured logs (issue 15): one request's JSON lines on both sides (control plane and model worker)
// share its request_id and carry account, model, size, series count and error code; the start-up
// summary names every catalog model; a protected /metrics answers 401 without its token; the key
// scan that test/helpers.ts runs over every test file's logs can fail.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, simpleRequest, waitForJob, capturedLogLines, createdKeys, secretsInLogs, type TestServer } from './helpers.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';

type Line = Record<string, any>;
const lines = (): Line[] => capturedLogLines.map((l) => JSON.parse(l) as Line);

describe('structured logs', () => {
  const token = 'metrics-token-for-the-test';
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_METRICS_TOKEN: token }); });
  after(async () => { await server.close(); });

  it('one request_id across the control plane and the worker, with account, model, size and series', async () => {
    const { accountId, key } = await server.newAccount();
    const res = await server.request('POST', '/v1/forecast', { key, body: simpleRequest({ model: 'seasonal-naive', series: [simpleRequest().series as unknown[], simpleRequest().series as unknown[]].flat() }) });
    assert.equal(res.status, 200, res.text);
    const id = res.headers.get('x-request-id')!;
    assert.match(id, /^[0-9a-f-]{36}$/);
    const mine = lines().filter((l) => l.request_id === id);
    const control = mine.find((l) => l.route === '/v1/forecast');
    assert.ok(control, 'the control plane logged the request');
    assert.deepEqual(
      { account_id: control.account_id, model: control.model, size: control.size, series: control.series, status: control.status, level: control.level },
      { account_id: accountId, model: 'seasonal-naive', size: 'default', series: 2, status: 200, level: 30 },
    );
    const worker = mine.find((l) => l.runtime_group === 'core' && l.url === '/infer');
    assert.ok(worker, `the worker logged the request under the same id: ${JSON.stringify(mine)}`);
    assert.deepEqual({ model: worker.model, size: worker.size, series: worker.series, status: worker.status }, { model: 'seasonal-naive', size: 'default', series: 2, status: 200 });
    assert.equal(typeof worker.worker_pid, 'number');
  });

  it('error lines carry the error code; a job is logged on both sides under its job id', async () => {
    const bad = await server.request('POST', '/v1/forecast', { body: simpleRequest({ horizon: 0 }) });
    assert.equal(bad.status, 422);
    const line = lines().find((l) => l.request_id === bad.headers.get('x-request-id') && l.route === '/v1/forecast');
    assert.equal(line?.code, 'validation_failed');
    assert.equal(line?.status, 422);

    const job = await server.request('POST', '/v1/forecast-jobs', { body: simpleRequest() });
    assert.equal(job.status, 202);
    await waitForJob(server, job.body.job_id, undefined, (s) => s === 'completed');
    const jobLines = lines().filter((l) => l.request_id === job.body.job_id);
    assert.ok(jobLines.some((l) => l.job_id === job.body.job_id && l.msg === 'job attempt completed' && l.model === 'naive' && l.series === 1), JSON.stringify(jobLines));
    assert.ok(jobLines.some((l) => l.runtime_group === 'core' && l.url === '/infer' && l.status === 200), JSON.stringify(jobLines));
  });

  it('the start-up summary names every catalog model and why it is or is not served', () => {
    const summary = lines().filter((l) => l.msg === 'catalog model served' || l.msg === 'catalog model not served');
    const models = new Set(summary.map((l) => l.model));
    for (const model of loadCatalog().models) assert.ok(models.has(model.id), `${model.id} is in the summary`);
    assert.ok(summary.some((l) => l.model === 'naive' && l.served === true));
    // the test servers have an empty weights directory: the foundation models lack weights
    const chronos = summary.find((l) => l.model === 'chronos-2');
    assert.equal(chronos?.served, false);
    assert.equal(chronos?.reason, 'weights_missing');
    assert.match(chronos?.fix, /\.\/horizon models pull chronos-2/);
  });

  it('/metrics with HORIZON_METRICS_TOKEN: 401 problem+json without it or with an API key, 200 with it', async () => {
    for (const headers of [{}, { authorization: `Bearer ${server.key}` }, { authorization: `Bearer ${token}x` }] as Record<string, string>[]) {
      const res = await server.request('GET', '/metrics', { key: null, headers });
      assert.equal(res.status, 401, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'unauthorized');
    }
    const ok = await server.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /^horizon_http_requests_total\{/m);
    const doc = await server.request('GET', '/v1/openapi.json', { key: null });
    const op = doc.body.paths['/metrics'].get;
    assert.ok(op.responses['200'].content['text/plain; version=0.0.4']);
    assert.ok(op.responses['401'].content['application/problem+json']);
  });

  it('keys are never logged: a created key is used, and the scan finds a planted one', async () => {
    const created = await server.request('POST', '/v1/api-keys', { body: { name: 'logged-never' } });
    assert.equal(created.status, 201, created.text);
    assert.ok(createdKeys.has(created.body.key));
    assert.equal((await server.request('POST', '/v1/forecast', { key: created.body.key, body: simpleRequest() })).status, 200);
    assert.equal((await server.request('POST', '/v1/forecast', { key: `${created.body.key}x`, body: simpleRequest() })).status, 401);
    assert.deepEqual(secretsInLogs(capturedLogLines, createdKeys), []);
    // the check itself: the whole key, or its secret alone, in a line is found
    const secret = created.body.key.slice('hzn_'.length + 12 + 1);
    assert.equal(secret.length, 43);
    assert.equal(secretsInLogs([`{"msg":"auth ${created.body.key}"}`, `{"secret":"${secret}"}`, '{"msg":"fine"}'], [created.body.key]).length, 2);
  });
});
