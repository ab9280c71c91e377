// Error shapes (issue 24): a 413 names the byte limit, a header block over Node's limit (a 100 kB
// Authorization header) is a problem+json 431 like every other error, and an array as a target value is
// a precise per-value type error without a misleading "all values are null". Issue 32: long path parameters and
// malformed paths are problem+json too, never the router's own body.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, simpleRequest, type TestServer } from './helpers.ts';

/** A raw HTTP/1.1 request (fetch refuses header blocks this large before sending). */
function rawRequest(url: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('error shapes', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_BODY_LIMIT_BYTES: '20000' }); });
  after(async () => { await server.close(); });

  it('413 names the byte limit', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: simpleRequest({}, 2000) });
    assert.equal(res.status, 413, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.body.code, 'payload_too_large');
    assert.match(res.body.detail, /the limit of 20000 bytes \(HORIZON_BODY_LIMIT_BYTES\)/);
  });

  it('a 100 kB Authorization header: 431 problem+json naming the header limit', async () => {
    const res = await rawRequest(`${server.url}/v1/models`, { authorization: `Bearer ${'x'.repeat(100_000)}` });
    assert.equal(res.status, 431);
    assert.match(res.type, /^application\/problem\+json/);
    assert.equal(res.body.code, 'headers_too_large');
    assert.equal(res.body.status, 431);
    assert.equal(res.body.title, 'Request header fields too large');
    assert.match(res.body.detail, new RegExp(`limit of ${http.maxHeaderSize} bytes`));
    assert.match(res.body.request_id, /^[0-9a-f-]{36}$/);
    // the server still answers on a new connection
    assert.equal((await server.request('GET', '/v1/status', { key: null })).status, 200);
  });

  // Fastify's router answered a path parameter over 100 characters with its own 414 body (the whole URL in it) and a
  // malformed percent-encoding with its own 400: every path parameter now reaches its route, which names it
  it('a very long path parameter is the route\'s problem+json (404 for an unknown id, 422 naming a patterned one)', async () => {
    const long = 'j'.repeat(5000);
    const calls: [string, string, number][] = [
      ['GET', `/v1/forecast-jobs/${long}`, 404], ['DELETE', `/v1/forecast-jobs/${long}`, 404], ['GET', `/v1/cross-validation-jobs/${long}`, 404],
      ['GET', `/v1/fine-tuning-jobs/${long}`, 404], ['GET', `/v1/models/${long}`, 404], ['DELETE', `/v1/api-keys/${long}`, 404],
      ['GET', `/v1/series/${long}`, 422], ['GET', `/nixtla/v2/forecast/jobs/${long}`, 404], ['POST', `/nixtla/v2/async/jobs/${long}/cancel`, 404],
    ];
    for (const [method, path, status] of calls) {
      const res = await server.request(method, path);
      const what = `${method} ${path.slice(0, 40)}…`;
      assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
      assert.equal(res.body.request_id, res.headers.get('x-request-id'), what);
      if (status === 422) assert.equal(res.body.errors[0].field, 'id', what);
      assert.doesNotMatch(res.text, /FST_ERR/, what);
    }
  });

  it('a malformed percent-encoding in the path: 400 problem+json', async () => {
    const res = await server.request('GET', '/v1/series/%E0%A4%A');
    assert.equal(res.status, 400, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.body.code, 'bad_request');
    assert.match(res.body.detail, /invalid percent-encoding/);
    assert.match(res.body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.request_id, res.headers.get('x-request-id'));
  });

  it('an array as a target value: one type error for that value, no "all null" reason', async () => {
    const body = simpleRequest({}, 12) as { series: { target: unknown[] }[] };
    body.series[0].target = [[1], ...body.series[0].target.slice(1).map(() => null)];
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.errors, [{ series: 0, field: 'series[0].target[0]', reason: 'must be a number or null, got an array of 1' }]);
    assert.doesNotMatch(res.text, /null \(all|values are null/);
  });
});
