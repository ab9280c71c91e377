// The rough edges a new user hit in the first hour (issue 23), each through the real server or CLI:
// an all-null or empty target is one series-level problem; a text/plain body is a 415 naming
// application/json; hints say ./horizon, not npx horizon.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestServer, simpleRequest, type TestServer, forecastErrors } from './helpers.ts';

const run = promisify(execFile);
const entry = fileURLToPath(new URL('../horizon', import.meta.url));

/** `./horizon …` as the operator types it, in another process, against the test server's data dir. */
async function horizon(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(entry, args, { env: { ...process.env, HORIZON_DATA_DIR: dataDir } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('first hour: answers a new user gets', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const errorsFor = (mutate: (body: any) => void) => forecastErrors(server, mutate);

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

describe('first hour: every operator command works while the server holds the embedded store', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  test('accounts create, keys create/list/revoke go through the running server, and their keys work at once', async () => {
    const account = await horizon(server.dataDir, 'accounts', 'create', 'first-hour', '--daily-quota', '7', '--json');
    assert.equal(account.code, 0, account.stderr);
    assert.deepEqual({ ...JSON.parse(account.stdout), id: undefined, created_at: undefined }, { id: undefined, name: 'first-hour', daily_quota: 7, weekly_quota: 1000, created_at: undefined });
    const again = await horizon(server.dataDir, 'accounts', 'create', 'first-hour');
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists/);

    const created = await horizon(server.dataDir, 'keys', 'create', '--account', 'first-hour', '--name', 'ci', '--json');
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.match(key.key, /^hzn_/);
    const used = await server.request('POST', '/v1/forecast', { key: key.key, body: simpleRequest({ model: 'naive' }) });
    assert.notEqual(used.status, 401, 'the new key authenticates at once');
    assert.equal(used.headers.get('x-ratelimit-limit'), '7', 'and is charged to the new account');
    const duplicate = await horizon(server.dataDir, 'keys', 'create', '--account', 'first-hour', '--name', 'ci');
    assert.equal(duplicate.code, 2);
    assert.match(duplicate.stderr, /ci/);

    const listed = await horizon(server.dataDir, 'keys', 'list', '--account', 'first-hour', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout).keys.map((k: any) => [k.id, k.name, k.revoked_at]), [[key.id, 'ci', null]]);
    assert.ok(!listed.stdout.includes(key.key), 'a list never shows the secret');
    const text = await horizon(server.dataDir, 'keys', 'list', '--account', 'first-hour');
    assert.match(text.stdout, new RegExp(`${key.id}\\s+${key.prefix}\\s+active\\s+ci`));

    const revoked = await horizon(server.dataDir, 'keys', 'revoke', '--account', 'first-hour', '--id', key.id, '--json');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(JSON.parse(revoked.stdout).revoked_at);
    assert.equal((await server.request('POST', '/v1/forecast', { key: key.key, body: simpleRequest({ model: 'naive' }) })).status, 401, 'revoked at once');
    const twice = await horizon(server.dataDir, 'keys', 'revoke', '--account', 'first-hour', '--id', key.id);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /no active key/);
    const nobody = await horizon(server.dataDir, 'keys', 'list', '--account', 'nobody');
    assert.equal(nobody.code, 2);
    assert.match(nobody.stderr, /no account named "nobody"/);
  });
});

test('./horizon models pull: a near-miss model id or size gets a did-you-mean, as the API gives', async () => {
  const dataDir = '/nonexistent/first-hour'; // refused before anything is read or written
  const model = await horizon(dataDir, 'models', 'pull', 'chronos-3');
  assert.equal(model.code, 2, model.stderr);
  assert.match(model.stderr, /^horizon: unknown model "chronos-3"; did you mean "chronos-2"\?; models with weights: .*chronos-2/);
  const size = await horizon(dataDir, 'models', 'pull', 'chronos', '--size', 'smal');
  assert.equal(size.code, 2, size.stderr);
  assert.match(size.stderr, /has no size "smal"; did you mean "small"\?/);
  const far = await horizon(dataDir, 'models', 'pull', 'prophet');
  assert.doesNotMatch(far.stderr, /did you mean/);
});
