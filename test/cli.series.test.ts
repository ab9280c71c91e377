// `horizon series append data.csv` and `horizon series accuracy <id>` (src/cli/series.ts) through the
// real binary against a real server: --create makes the series, a second CSV appends, a retried CSV
// changes nothing, a bad CSV row is the API's 422 with exit 1, usage mistakes exit 2.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers.ts';

const BIN = new URL('../bin/horizon.mjs', import.meta.url).pathname;

describe('horizon series (CLI) against the real server', () => {
  let server: TestServer;
  let dir: string;
  let cli: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'horizon-cli-series-'));
    cli = async (args) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'series', ...args], {
          env: { ...process.env, HORIZON_URL: server.url, HORIZON_API_KEY: server.key }, encoding: 'utf8', timeout: 120_000,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
  });
  after(async () => { await server?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('append --create, then more rows, a retry, a bad row and accuracy', async () => {
    const first = join(dir, 'first.csv');
    writeFileSync(first, 'date,shop-a,shop-b\n2024-01-01,10,20\n2024-01-02,11,\n2024-01-03,12,22\n');
    const created = await cli(['append', first, '--create']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /created series shop-a \(3 values, freq D\)/);
    assert.match(created.stdout, /shop-b: 0 appended, 2 already stored; 3 points, last 2024-01-03/);
    const view = await server.request('GET', '/v1/series/shop-b');
    assert.deepEqual(view.body.target, [20, null, 22], 'the empty cell is a gap');
    const more = join(dir, 'more.csv');
    writeFileSync(more, 'date,shop-a,shop-b\n2024-01-03,12,22\n2024-01-04,13,23\n');
    const appended = await cli(['append', more]);
    assert.equal(appended.code, 0, appended.stderr);
    assert.match(appended.stdout, /shop-a: 1 appended, 1 already stored; 4 points, last 2024-01-04/);
    const retried = await cli(['append', more]);
    assert.match(retried.stdout, /shop-a: 0 appended, 2 already stored/);
    assert.deepEqual((await server.request('GET', '/v1/series/shop-a')).body.target, [10, 11, 12, 13]);
    const conflicting = join(dir, 'conflict.csv');
    writeFileSync(conflicting, 'date,shop-a\n2024-01-04,99\n');
    // one row: the frequency cannot be inferred (exit 2, usage error); with --freq the API refuses the value
    assert.equal((await cli(['append', conflicting])).code, 2);
    const refused = await cli(['append', conflicting, '--freq', 'D']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /422 validation_failed[\s\S]*series\[0\]\.target\[0\]: "2024-01-04" is already stored as 13, not 99/);
    const unknown = await cli(['append', join(dir, 'first.csv').replace('first', 'nope')]);
    assert.equal(unknown.code, 2);
    const accuracy = await cli(['accuracy', 'shop-a']);
    assert.equal(accuracy.code, 0, accuracy.stderr);
    assert.equal(JSON.parse(accuracy.stdout).overall.forecasts, 0);
    const usage = await cli(['frobnicate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: horizon series append/);
  });
});
