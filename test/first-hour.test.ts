// The rough edges a new user hit in the first hour (issue 23), each through the real server or CLI:
// an all-null or empty target is one series-level problem; a text/plain body is a 415 naming
// application/json; hints say ./horizon, not npx horizon.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, simpleRequest, type TestServer } from './helpers.ts';

describe('first hour: answers a new user gets', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  async function errorsFor(mutate: (body: any) => void): Promise<{ series?: number; field: string; reason: string }[]> {
    const body = structuredClone(simpleRequest()) as any;
    mutate(body);
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 422, res.text);
    return res.body.errors;
  }

  test('an all-null target: one series-level problem, not one per value', async () => {
    const errors = await errorsFor((b) => { b.series[0].target = b.series[0].target.map(() => null); });
    assert.deepEqual(errors, [{ series: 0, field: 'series[0].target', reason: 'no observed values — at least one number is needed; nulls are missing values (all 48 values are null)' }]);
  });

  test('an empty target: the same problem, saying it is empty', async () => {
    const errors = await errorsFor((b) => { b.series[0].target = []; });
    assert.deepEqual(errors, [{ series: 0, field: 'series[0].target', reason: 'no observed values — at least one number is needed; nulls are missing values (it is empty)' }]);
  });

  test('real type errors in a target still get one item per value, and no "all null" reason', async () => {
    const errors = await errorsFor((b) => { b.series[0].target = b.series[0].target.map((_: unknown, i: number) => (i === 3 ? '12' : i === 5 ? [1] : null)); });
    assert.deepEqual(errors, [
      { series: 0, field: 'series[0].target[3]', reason: 'must be a number or null, got string "12"' },
      { series: 0, field: 'series[0].target[5]', reason: 'must be a number or null, got an array of 1' },
    ]);
  });

  test('a text/plain body: 415 problem+json naming Content-Type: application/json', async () => {
    const raw = JSON.stringify(simpleRequest());
    for (const type of ['text/plain', 'text/plain;charset=UTF-8']) {
      const res = await server.request('POST', '/v1/forecast', { raw, headers: { 'content-type': type } });
      assert.equal(res.status, 415, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'unsupported_media_type');
      assert.match(res.body.detail, /Content-Type: application\/json/);
    }
    // the same body as JSON is answered (the 415 is about the header only)
    const ok = await server.request('POST', '/v1/forecast', { raw, headers: { 'content-type': 'application/json' } });
    assert.notEqual(ok.status, 415);
  });
});
