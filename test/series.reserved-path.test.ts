// POST /v1/series/observations (bulk append) sits beside /v1/series/{id}: "observations" is no series id, and
// the other methods on that path are 405 naming what it takes — not a 422 about the id, nor an Allow header
// listing the parameter route's GET/PUT/DELETE (schemathesis ST204/ST205 found both).
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.close(); });

it('PUT/GET/DELETE /v1/series/observations are 405 naming POST; OPTIONS lists POST only', async () => {
  for (const method of ['PUT', 'GET', 'DELETE', 'OPTIONS'] as const) {
    const res = await server.request(method, '/v1/series/observations', method === 'PUT' ? { body: { freq: 'MS', index: ['2020-01-01'], target: [1] } } : {});
    assert.equal(res.status, 405, `${method}: ${res.text}`);
    assert.equal(res.headers.get('allow'), 'POST', method);
    assert.equal(res.body.code, 'method_not_allowed');
  }
  // a real series id still works on the parameter route
  const put = await server.request('PUT', '/v1/series/observation', { body: { freq: 'MS', index: ['2020-01-01'], target: [1] } });
  assert.equal(put.status, 201, put.text);
});
