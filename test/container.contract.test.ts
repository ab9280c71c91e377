// The contract's main paths over real HTTP against a server this process did not start: the container
// image (deploy/container.sh test starts it and passes its URL and first key). Skipped, with the reason
// shown, when HORIZON_TEST_BASE_URL / HORIZON_TEST_API_KEY are unset, so the normal suite is unaffected.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { simpleRequest } from './helpers.ts';

const baseUrl = process.env.HORIZON_TEST_BASE_URL;
const apiKey = process.env.HORIZON_TEST_API_KEY;
const skip = baseUrl && apiKey ? false : 'HORIZON_TEST_BASE_URL and HORIZON_TEST_API_KEY unset (deploy/container.sh test sets them)';

interface Res { status: number; headers: Headers; body: any; text: string }

async function request(method: string, path: string, options: { key?: string | null; body?: unknown } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  const bearer = options.key === undefined ? apiKey : options.key;
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  let body: unknown;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: res.status, headers: res.headers, body, text };
}

const STATISTICAL = ['naive', 'seasonal-naive', 'auto-ets', 'auto-arima', 'auto-theta'];

describe('contract against a running deployment', { skip }, () => {
  before(async () => {
    // the workers may still be starting when the log shows the key
    const deadline = Date.now() + 180_000;
    for (;;) {
      const res = await request('GET', '/v1/status', { key: null });
      if (res.status === 200 && res.body.status === 'ok') return;
      if (Date.now() > deadline) throw new Error(`not healthy: ${res.status} ${res.text}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  it('GET /v1/status without a key: ok, every worker ready', async () => {
    const res = await request('GET', '/v1/status', { key: null });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'ok');
    assert.ok(res.body.workers.length > 0 && res.body.workers.every((w: { state: string }) => w.state === 'ready'), res.text);
  });

  it('401 problem+json without a key and with a wrong key', async () => {
    for (const key of [null, 'hzn_notakey_0000000000000000000000']) {
      const res = await request('GET', '/v1/models', { key });
      assert.equal(res.status, 401, res.text);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(res.body.code, 'unauthorized');
    }
  });

  it('GET /v1/models lists the statistical models and the default', async () => {
    const res = await request('GET', '/v1/models');
    assert.equal(res.status, 200, res.text);
    const ids = res.body.models.map((m: { model_id: string }) => m.model_id);
    for (const id of STATISTICAL) assert.ok(ids.includes(id), `${id} in ${ids}`);
    assert.ok(ids.includes(res.body.default_model));
  });

  it('POST /v1/forecast with every statistical model: contract shape, one quota unit each', async () => {
    let remaining: number | undefined;
    for (const model of STATISTICAL) {
      const res = await request('POST', '/v1/forecast', { body: simpleRequest({ model, quantiles: [0.1, 0.5, 0.9] }) });
      assert.equal(res.status, 200, `${model}: ${res.text}`);
      assert.equal(res.body.model, model);
      const { prediction, index } = res.body.series[0][0];
      assert.deepEqual(Object.keys(prediction).sort(), ['0.1', '0.5', '0.9', 'mean']);
      for (const values of Object.values(prediction) as number[][]) assert.equal(values.length, 6);
      assert.equal(index[0], '2024-01-01', 'the month after the last of 48 from 2020-01');
      assert.ok(Number(res.headers.get('x-ratelimit-limit')) > 0);
      const now = Number(res.headers.get('x-ratelimit-remaining'));
      if (remaining !== undefined) assert.equal(now, remaining - 1, 'one unit per forecast');
      remaining = now;
    }
  });

  it('422 names the field and is not charged', async () => {
    const res = await request('POST', '/v1/forecast', { body: simpleRequest({ horizon: 0 }) });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'validation_failed');
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === 'horizon'), res.text);
    assert.equal(res.headers.get('x-ratelimit-remaining'), null);
  });

  it('forecast job: 202 + Location, polled to completed with the sync result', async () => {
    const body = simpleRequest({ model: 'auto-ets' });
    const created = await request('POST', '/v1/forecast-jobs', { body });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.headers.get('location'), `/v1/forecast-jobs/${created.body.job_id}`);
    const deadline = Date.now() + 120_000;
    let job: any;
    for (;;) {
      const res = await request('GET', created.headers.get('location')!);
      assert.equal(res.status, 200, res.text);
      job = res.body;
      if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
      assert.ok(Date.now() < deadline, `job still ${job.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    const sync = await request('POST', '/v1/forecast', { body });
    assert.deepEqual(job.series, sync.body.series);
  });

  it('API keys: create (secret once), list without secrets, use, revoke → 401', async () => {
    const created = await request('POST', '/v1/api-keys', { body: { name: `container-${Date.now()}` } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.key, /^hzn_/);
    const list = await request('GET', '/v1/api-keys');
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(created.body.key));
    assert.equal((await request('GET', '/v1/models', { key: created.body.key })).status, 200);
    assert.equal((await request('DELETE', `/v1/api-keys/${created.body.id}`)).status, 200);
    assert.equal((await request('GET', '/v1/models', { key: created.body.key })).status, 401);
  });

  it('serves the OpenAPI document', async () => {
    const res = await request('GET', '/v1/openapi.json', { key: null });
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\.1/);
  });
});
