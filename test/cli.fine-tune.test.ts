// `horizon fine-tune data.csv --model chronos-2 --steps N --horizon H` (src/cli/fine-tune.ts) against a
// real server with the tiny random-weight chronos-2 checkpoint: the job runs to completion with progress
// lines on stderr, stdout is the private model's id, `horizon forecast --model <name>` then forecasts with
// it (the raw API's numbers), and usage/API errors exit 2/1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';

const BIN = new URL('../bin/horizon.mjs', import.meta.url).pathname;

describe('horizon fine-tune (CLI) against the real server', () => {
  let server: TestServer;
  let dir: string;
  let weights: string;
  let csv: string;
  const cli = async (args: string[]) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
        env: { ...process.env, HORIZON_URL: server.url, HORIZON_API_KEY: server.key }, encoding: 'utf8', timeout: 600_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  before(async () => {
    weights = writeFixtures(['chronos-2']);
    server = await startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_DEVICE: 'cpu' });
    dir = mkdtempSync(join(tmpdir(), 'horizon-cli-ft-'));
    // two monthly series, 60 months
    const lines = ['month,north,south'];
    for (let t = 0; t < 60; t++) lines.push(`${2010 + Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')},${(50 + 8 * Math.sin((2 * Math.PI * t) / 12)).toFixed(3)},${(70 + 5 * Math.cos((2 * Math.PI * t) / 12)).toFixed(3)}`);
    csv = join(dir, 'sales.csv');
    writeFileSync(csv, `${lines.join('\n')}\n`);
  });
  after(async () => { await server?.close(); rmSync(dir, { recursive: true, force: true }); rmSync(weights, { recursive: true, force: true }); });

  it('fine-tunes into a private model, prints its id, and forecast --model <name> uses it', async () => {
    const run = await cli(['fine-tune', csv, '--model', 'chronos-2', '--model-size', 'small', '--steps', '20', '--horizon', '6', '--learning-rate', '0.001', '--name', 'cli-sales']);
    assert.equal(run.code, 0, run.stderr);
    const id = run.stdout.trim();
    assert.match(id, /^ft-[0-9a-f]{24}$/);
    assert.match(run.stderr, /queued: model ft-[0-9a-f]{24} \("cli-sales"\)/);
    assert.match(run.stderr, /step 20\/20/);
    assert.match(run.stderr, /validation WQL \d\.\d{4} → \d\.\d{4}; forecast with --model cli-sales/);
    const models = await server.request('GET', '/v1/models');
    assert.equal(models.body.models.find((m: any) => m.model_id === id)?.name, 'cli-sales');
    const forecast = await cli(['forecast', csv, '--horizon', '6', '--model', 'cli-sales', '--model-size', 'small']);
    assert.equal(forecast.code, 0, forecast.stderr);
    const raw = await server.request('POST', '/v1/forecast', { body: { model: id, model_size: 'small', freq: 'MS', horizon: 6, series: [0, 1].map((c) => ({
      index: Array.from({ length: 60 }, (_, t) => `${2010 + Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`),
      target: Array.from({ length: 60 }, (_, t) => Number((c === 0 ? 50 + 8 * Math.sin((2 * Math.PI * t) / 12) : 70 + 5 * Math.cos((2 * Math.PI * t) / 12)).toFixed(3))),
    })) } });
    assert.equal(raw.status, 200, raw.text);
    const means = forecast.stdout.trim().split('\n').slice(1).map((line) => Number(line.split(',')[2]));
    assert.deepEqual(means, raw.body.series.flatMap((s: any) => s[0].prediction.mean));
  });

  it('usage errors exit 2, API errors exit 1 with the problem\'s fields', async () => {
    const usage = await cli(['fine-tune', csv]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--horizon N is required/);
    assert.match(usage.stderr, /usage: horizon fine-tune/);
    const api = await cli(['fine-tune', csv, '--model', 'auto-ets', '--horizon', '6']);
    assert.equal(api.code, 1);
    assert.match(api.stderr, /422 validation_failed: .*cannot be fine-tuned/);
  });
});
