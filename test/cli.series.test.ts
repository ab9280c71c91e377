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
    // one row: no step to infer the frequency from, so the stored series' own (D) is used; the API refuses the value
    for (const args of [['append', conflicting], ['append', conflicting, '--freq', 'D']]) {
      const refused = await cli(args);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /422 validation_failed[\s\S]*series\[0\]\.target\[0\]: "2024-01-04" is already stored as 13, not 99/);
    }
    const unknown = await cli(['append', join(dir, 'first.csv').replace('first', 'nope')]);
    assert.equal(unknown.code, 2);
    const accuracy = await cli(['accuracy', 'shop-a']);
    assert.equal(accuracy.code, 0, accuracy.stderr);
    assert.match(accuracy.stdout, /^shop-a: no scored forecast yet/);
    assert.equal(JSON.parse((await cli(['accuracy', 'shop-a', '--json'])).stdout).overall.forecasts, 0);
    const typo = await cli(['append', first, '--creat']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^horizon: unknown option --creat; did you mean --create\?\n\nusage: horizon series append/);
    const usage = await cli(['frobnicate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: horizon series append/);
  });

  it('one new row a day: appends with the stored series\' freq (hourly too), and accuracy as a table (issue 37)', async () => {
    const days = ['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04', '2024-03-05', '2024-03-06'];
    const history = join(dir, 'history.csv');
    writeFileSync(history, `date,daily\n${days.slice(0, 4).map((d, i) => `${d},${10 + i * 2}`).join('\n')}\n`);
    assert.equal((await cli(['append', history, '--create'])).code, 0);
    const kept = await server.request('POST', '/v1/forecast', { body: { series_ids: ['daily'], horizon: 2, model: 'naive', quantiles: [0.1, 0.9], store: true } });
    assert.equal(kept.status, 200, kept.text);
    for (const [k, day] of days.slice(4).entries()) {
      const one = join(dir, `day-${k}.csv`);
      writeFileSync(one, `date,daily\n${day},${17 + k}\n`);
      const run = await cli(['append', one]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^daily: 1 appended, 0 already stored; ${5 + k} points, last ${day}`));
    }
    // an hourly series: one row "2024-03-01 05:00" goes as the API's date-time
    await server.request('PUT', '/v1/series/hourly', { body: { freq: 'H', index: ['2024-03-01T03:00', '2024-03-01T04:00'], target: [1, 2] } });
    const hour = join(dir, 'hour.csv');
    writeFileSync(hour, 'time,hourly\n2024-03-01 05:00,3\n');
    const hourly = await cli(['append', hour]);
    assert.equal(hourly.code, 0, hourly.stderr);
    assert.match(hourly.stdout, /^hourly: 1 appended, 0 already stored; 3 points, last 2024-03-01T05:00/);
    // a new series from one row: no freq to create it with
    const fresh = join(dir, 'fresh.csv');
    writeFileSync(fresh, 'date,brand-new\n2024-03-01,1\n');
    const create = await cli(['append', fresh, '--create']);
    assert.equal(create.code, 2);
    assert.match(create.stderr, /series brand-new does not exist yet and its frequency cannot be inferred from one date; pass --freq to create it/);

    const json = await cli(['accuracy', 'daily', '--json']);
    const answer = JSON.parse(json.stdout);
    assert.equal(answer.overall.forecasts, 1);
    const table = await cli(['accuracy', 'daily']);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split('\n');
    assert.match(lines[0], /^daily: rolling accuracy of the latest 1 scored forecasts \(window 100\)$/);
    assert.match(lines[2], /^model\s+forecasts\s+MASE\s+WQL\s+sMAPE\s+cover 80%$/);
    const cell = (v: number | null) => (v === null ? '—' : v.toFixed(3));
    assert.deepEqual(lines[3].split(/\s{2,}/), ['all models', '1', cell(answer.overall.mase), cell(answer.overall.wql), cell(answer.overall.smape), answer.overall.coverage['80'].toFixed(2)]);
    assert.deepEqual(lines[4].split(/\s{2,}/).slice(0, 2), ['naive', '1']);
    assert.ok(lines.includes('by horizon step (all models):'), table.stdout);
    assert.ok(table.stdout.split('\n').length < 20, 'a screenful, not the JSON');
  });
});
