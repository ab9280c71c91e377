// `horizon forecast data.csv …` (src/cli/forecast.ts) against the real server: the CLI's CSV holds
// exactly the numbers of the raw HTTP answer, multi-column CSVs with an inferred frequency, --job with
// its progress (a bar on a TTY, lines otherwise), --out, and errors with their exit codes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startTestServer, type TestServer } from './helpers.ts';
import { forecastCommand } from '../src/cli/forecast.ts';

const BIN = new URL('../bin/horizon.mjs', import.meta.url).pathname;
const SAMPLES = new URL('../web/samples/', import.meta.url).pathname;

/** The rows of a CSV as cells (header included): the test's own reading, independent of the CLI's. */
const rowsOf = (text: string) => text.split(/\r\n|\r|\n/).filter(Boolean).map((line) => line.split(','));

describe('horizon forecast (CLI) against the real server', () => {
  let server: TestServer;
  let dir: string;
  let cli: (args: string[], env?: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string }>;
  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'horizon-cli-forecast-'));
    cli = async (args, env = {}) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'forecast', ...args], {
          env: { ...process.env, HORIZON_URL: server.url, HORIZON_API_KEY: server.key, ...env }, encoding: 'utf8', timeout: 120_000,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
  });
  after(async () => { await server?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('AirPassengers (the README\'s command): the CSV written holds exactly the raw HTTP answer', async () => {
    const rows = rowsOf(readFileSync(join(SAMPLES, 'airpassengers.csv'), 'utf8')).slice(1);
    const raw = await server.request('POST', '/v1/forecast', { body: {
      series: [{ target: rows.map((r) => Number(r[1])), index: rows.map((r) => `${r[0]}-01`) }],
      horizon: 24, freq: 'MS', model: 'auto-ets',
    } });
    assert.equal(raw.status, 200, raw.text);
    const file = join(dir, 'forecast.csv');
    const run = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '24', '--model', 'auto-ets', '--out', file]);
    assert.equal(run.code, 0, run.stderr);
    const out = rowsOf(readFileSync(file, 'utf8'));
    assert.deepEqual(out[0], ['series', 'date', 'mean', 'q0.1', 'q0.5', 'q0.9'], 'the API\'s default quantiles');
    const p = raw.body.series[0][0];
    assert.equal(p.index.length, 24);
    assert.deepEqual(out.slice(1), p.index.map((date: string, t: number) => ['#Passengers', date, ...['mean', '0.1', '0.5', '0.9'].map((k) => String(p.prediction[k][t]))]));
    // --quantiles reaches the API
    const levels = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '3', '--model', 'naive', '--quantiles', '0.05, 0.95']);
    assert.equal(levels.code, 0, levels.stderr);
    assert.deepEqual(rowsOf(levels.stdout)[0], ['series', 'date', 'mean', 'q0.05', 'q0.95']);
  });

  it('a weekly CSV with three columns: frequency inferred, one block per series, --job --out gives the same file as the sync call', async () => {
    const sync = await cli([join(SAMPLES, 'nn5-weekly.csv'), '--horizon', '4', '--model', 'seasonal-naive']);
    assert.equal(sync.code, 0, sync.stderr);
    const rows = rowsOf(sync.stdout);
    assert.equal(rows.length, 1 + 3 * 4);
    assert.deepEqual([...new Set(rows.slice(1).map((r) => r[0]))], ['T1', 'T2', 'T3']);
    const last = rowsOf(readFileSync(join(SAMPLES, 'nn5-weekly.csv'), 'utf8')).at(-1)![0];
    assert.equal(rows[1][1], new Date(Date.parse(`${last}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10), 'weekly steps after the last date');
    const file = join(dir, 'nn5.csv');
    const job = await cli([join(SAMPLES, 'nn5-weekly.csv'), '--horizon', '4', '--model', 'seasonal-naive', '--job', '--out', file]);
    assert.equal(job.code, 0, job.stderr);
    assert.equal(job.stdout, '');
    assert.equal(readFileSync(file, 'utf8'), sync.stdout);
    // not a TTY: one line per state, ending completed
    assert.match(job.stderr, /^horizon: job [0-9a-f-]{36} queued/m);
    assert.match(job.stderr, /^horizon: job [0-9a-f-]{36} completed/m);
  });

  it('--job on a TTY draws a progress bar that ends full', async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    const stderr = Object.assign(new PassThrough(), { isTTY: true }) as unknown as NodeJS.WriteStream;
    let out = '', err = '';
    (stdout as unknown as PassThrough).on('data', (c) => { out += c; });
    (stderr as unknown as PassThrough).on('data', (c) => { err += c; });
    const code = await forecastCommand([join(SAMPLES, 'etth1-first-14-days.csv'), '--horizon', '24', '--model', 'naive', '--job'],
      { stdout, stderr, env: { HORIZON_URL: server.url, HORIZON_API_KEY: server.key } });
    assert.equal(code, 0, err);
    assert.match(err, /\r\x1b\[2Khorizon: job [0-9a-f]{8} \[#{8}-{16}\] queued/);
    assert.match(err, /\[#{24}\] completed +[\d.]+ s\n$/);
    const rows = rowsOf(out);
    assert.equal(rows.length, 1 + 7 * 24);
    assert.equal(rows[1][1], '2016-07-15T00:00:00', 'hourly: inferred H, the day after the 14 days');
  });

  it('errors: the API\'s 422 names the field (exit 1), 401 (exit 1), unreadable CSV and bad flags (exit 2)', async () => {
    const unknownModel = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '12', '--model', 'no-such-model']);
    assert.equal(unknownModel.code, 1);
    assert.match(unknownModel.stderr, /422 validation_failed: .*no-such-model/);
    assert.match(unknownModel.stderr, /\n {2}model: /);
    const wrongKey = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '12'], { HORIZON_API_KEY: 'hzn_wrong' });
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /401 unauthorized/);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'month,sales\n2024-01,10\n2024-02,eleven\n');
    const badCsv = await cli([bad, '--horizon', '3']);
    assert.equal(badCsv.code, 2);
    assert.match(badCsv.stderr, /row 3, column "sales": "eleven" is not a number/);
    const irregular = join(dir, 'irregular.csv');
    writeFileSync(irregular, 'day,v\n2024-01-01,1\n2024-01-04,2\n2024-01-07,3\n');
    const noFreq = await cli([irregular, '--horizon', '3']);
    assert.equal(noFreq.code, 2);
    assert.match(noFreq.stderr, /pass --freq/);
    const noHorizon = await cli([join(SAMPLES, 'airpassengers.csv')]);
    assert.equal(noHorizon.code, 2);
    assert.match(noHorizon.stderr, /--horizon N is required/);
    const unreachable = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '3', '--url', 'http://127.0.0.1:9']);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('a one-row CSV and a misspelled flag: precise usage errors (exit 2) (issue 37)', async () => {
    const one = join(dir, 'one-row.csv');
    writeFileSync(one, 'month,sales\n2024-01,10\n');
    const oneRow = await cli([one, '--horizon', '3']);
    assert.equal(oneRow.code, 2);
    assert.match(oneRow.stderr, /one-row\.csv has one data row \(2024-01-01\): a forecast needs each series' history, at least 2 dates with values/);
    assert.doesNotMatch(oneRow.stderr, /pass --freq/, 'a frequency is not what it lacks');
    const typo = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizn', '12']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^horizon: unknown option --horizn; did you mean --horizon\?\n\nusage: horizon forecast/);
    const far = await cli([join(SAMPLES, 'airpassengers.csv'), '--horizon', '12', '--zzzzzz']);
    assert.equal(far.code, 2);
    assert.match(far.stderr, /^horizon: unknown option --zzzzzz; the options are --horizon, --model, /);
  });

  it('a body over the server\'s limit: the server\'s 413 payload_too_large, plain and --job, not "cannot reach" (issue 37)', async () => {
    // a server with a 100 kB limit and a CSV of ~8 MB of JSON (as a 23 MB file against the default 10 MiB): the
    // server answers long before the upload ends; closing the connection then made the upload fail with EPIPE
    const small = await startTestServer({ HORIZON_BODY_LIMIT_BYTES: '100000' });
    try {
      const big = join(dir, 'big.csv');
      const days = Array.from({ length: 2000 }, (_, i) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10));
      const names = Array.from({ length: 200 }, (_, c) => `s${c}`);
      writeFileSync(big, [`day,${names.join(',')}`, ...days.map((d, r) => `${d},${names.map((_, c) => (r * 7 + c) % 1000 + 0.25).join(',')}`)].join('\n'));
      for (const job of [[], ['--job']]) {
        const run = await cli([big, '--horizon', '3', '--model', 'naive', ...job], { HORIZON_URL: small.url, HORIZON_API_KEY: small.key });
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /^horizon: 413 payload_too_large: the body is larger than the limit of 100000 bytes \(HORIZON_BODY_LIMIT_BYTES\)/, job.join(' '));
        assert.doesNotMatch(run.stderr, /cannot reach|EPIPE/);
      }
      // the connection stays usable: the next request on the server answers
      assert.equal((await small.request('GET', '/v1/models')).status, 200);
    } finally { await small.close(); }
  });
});
