// Issue 34 parts 3 and 5 through the API: POST /v1/forecast with `multivariate: true` (a joint forecast) and with
// `samples` (sample paths), the real control plane and worker on tiny random-weight checkpoints, against the libraries'
// own joint call and draws (runtime/tests/joint_samples_reference.py); as a job the same; precise 422s elsewhere.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, monthlyDates, pollUntil, waitForJob, type TestServer } from './helpers.ts';
import { assertClose, reference, seriesSeeds, wave, writeFixtures, HORIZON } from './parity.ts';

let server: TestServer;
let weights: string;
const PARITY = { rel: 1e-4, floor: 1e-4 };
const targets = [wave(60), wave(60, 1.3).map((v) => 2 * v - 50), wave(60, 2.1).map((v) => v / 3)];
const series = targets.map((target) => ({ target, index: monthlyDates('2019-01', 60) }));
const body = (extra: Record<string, unknown>) => ({ freq: 'MS', horizon: HORIZON, quantiles: [0.1, 0.5, 0.9], series, ...extra });

before(async () => {
  weights = writeFixtures(['chronos', 'chronos-2']);
  server = await startTestServer({ HORIZON_MODEL_DIR: weights });
});
after(async () => {
  await server?.close();
  rmSync(weights, { recursive: true, force: true });
});

async function forecast(extra: Record<string, unknown>): Promise<any> {
  const res = await server.request('POST', '/v1/forecast', { body: body(extra) });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function errors(extra: Record<string, unknown>): Promise<{ field: string; reason: string }[]> {
  const res = await server.request('POST', '/v1/forecast', { body: body(extra) });
  assert.equal(res.status, 422, res.text);
  return res.body.errors;
}

describe('multivariate: a joint forecast', () => {
  it('equals Chronos2Pipeline.predict_quantiles(cross_learning=True) and differs from the independent forecast', async () => {
    const joint = await forecast({ model: 'chronos-2', model_size: 'small', multivariate: true });
    const alone = await forecast({ model: 'chronos-2', model_size: 'small' });
    const [wanted] = reference('joint_samples_reference.py', [{
      weights: join(weights, 'chronos-2', 'small'), model: 'chronos-2', horizon: HORIZON, quantiles: [0.1, 0.5, 0.9], kind: 'joint', series: targets.map((target) => ({ target })),
    }]);
    joint.series.forEach((s: any, i: number) => {
      assertClose(s[0].prediction.mean, wanted[i].mean, `series ${i} mean`, PARITY);
      assertClose(s[0].prediction['0.9'], wanted[i].quantiles['0.9'], `series ${i} q0.9`, PARITY);
    });
    assert.ok(joint.series.some((s: any, i: number) => s[0].prediction.mean.some((v: number, t: number) => v !== alone.series[i][0].prediction.mean[t])));
  });

  it('as a job: the synchronous answer', async () => {
    const res = await server.request('POST', '/v1/forecast-jobs', { body: body({ model: 'chronos-2', model_size: 'small', multivariate: true }) });
    assert.equal(res.status, 202, res.text);
    const job = await waitForJob(server, res.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    const sync = await forecast({ model: 'chronos-2', model_size: 'small', multivariate: true });
    assert.deepEqual(job.series, sync.series);
  });

  it('a fine-tuned chronos-2 (the account\'s private model) forecasts jointly as its base does', async () => {
    const res = await server.request('POST', '/v1/fine-tuning-jobs', { body: { model: 'chronos-2', model_size: 'small', series, freq: 'MS', horizon: HORIZON, steps: 3, name: 'joint-ft' } });
    assert.equal(res.status, 202, res.text);
    const done = await pollUntil('the fine-tuning job', async () => (await server.request('GET', `/v1/fine-tuning-jobs/${res.body.job_id}`)).body,
      (job) => ['completed', 'failed'].includes(job.status), 240_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const joint = await forecast({ model: 'joint-ft', multivariate: true });
    const alone = await forecast({ model: 'joint-ft' });
    assert.ok(joint.series.some((s: any, i: number) => s[0].prediction.mean.some((v: number, t: number) => v !== alone.series[i][0].prediction.mean[t])));
  });

  it('is a 422 naming the models that forecast jointly, for any other model or with auto', async () => {
    const [e] = await errors({ model: 'auto-ets', multivariate: true });
    assert.equal(e.field, 'multivariate');
    assert.match(e.reason, /auto-ets forecasts each series on its own .* chronos-2 \(served\), timesfm-3 \(not served/);
    assert.match((await errors({ model: 'auto', multivariate: true }))[0].reason, /model "auto" picks among models that may not/);
    const withSamples = await errors({ model: 'chronos-2', model_size: 'small', multivariate: true, samples: 3 });
    assert.deepEqual(withSamples.map((x) => x.field), ['samples']);
  });
});

describe('samples: sample paths', () => {
  it('chronos: the pipeline\'s own draws, seeded from each series\' values', async () => {
    const long = [wave(128), wave(128, 0.7)]; // a multiple of the adapter's 64-value padding: the very context the pipeline sees
    const res = await server.request('POST', '/v1/forecast', { body: { freq: 'MS', horizon: 6, model: 'chronos', model_size: 'tiny', samples: 5, series: long.map((target) => ({ target, index: monthlyDates('2010-01', 128) })) } });
    assert.equal(res.status, 200, res.text);
    const seeds = seriesSeeds('chronos', long);
    const [wanted] = reference('joint_samples_reference.py', [{
      weights: join(weights, 'chronos', 'tiny'), model: 'chronos', horizon: 6, kind: 'samples', samples: 5, series: long.map((target, i) => ({ target, seed: seeds[i] })),
    }]) as unknown as { samples: number[][] }[][];
    res.body.series.forEach((s: any, i: number) => assert.deepEqual(s[0].samples, wanted[i].samples));
  });

  it('auto-ets: statsforecast\'s simulate, the same paths every time, others with another seed, and as a job', async () => {
    const first = await forecast({ model: 'auto-ets', samples: 4, seed: 3 });
    assert.equal(first.series[0][0].samples.length, 4);
    assert.ok(first.series[0][0].samples.every((path: number[]) => path.length === HORIZON));
    assert.deepEqual((await forecast({ model: 'auto-ets', samples: 4, seed: 3 })).series, first.series);
    assert.notDeepEqual((await forecast({ model: 'auto-ets', samples: 4, seed: 4 })).series[0][0].samples, first.series[0][0].samples);
    const res = await server.request('POST', '/v1/forecast-jobs', { body: body({ model: 'auto-ets', samples: 4, seed: 3 }) });
    const job = await waitForJob(server, res.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    assert.deepEqual(job.series, first.series);
  });

  it('is a 422 naming the models that draw paths, and bounded', async () => {
    const [e] = await errors({ model: 'chronos-2', model_size: 'small', samples: 3 });
    assert.equal(e.field, 'samples');
    assert.match(e.reason, /chronos-2 predicts quantiles, it draws no sample paths; .*chronos \(served\).*auto-ets \(served\)/);
    assert.match((await errors({ model: 'mstl', samples: 3 }))[0].reason, /mstl predicts quantiles/);
    assert.match((await errors({ model: 'auto-ets', samples: 10000, horizon: 100 }))[0].reason, /over the 2000000 a request may draw/);
    assert.deepEqual((await errors({ model: 'auto-ets', seed: 3 })).map((x) => x.field), ['seed']);
    assert.match((await errors({ model: 'auto', samples: 3 }))[0].reason, /model "auto" picks among models that may not/);
  });
});
