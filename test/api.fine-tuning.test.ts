// Fine-tuning through the real API (issue 22): POST /v1/fine-tuning-jobs on the tiny random-weight
// chronos-2 checkpoint (runtime/tests/fixtures), the real fine-tuning process, the real
// worker serving the private model, on PGlite and PostgreSQL. The validation WQL on the held-out
// windows goes down, and the API's own forecasts with the saved model give exactly the WQL the
// training process measured on the pipeline `fit` returned (the saved model is the trained one; the
// bit-for-bit check of the forecasts is runtime/tests/test_finetune.py). Private models exist for
// their account only (404 / unknown model for any other, on every route, as a prism member too); a
// prism member of its owner's (`prism_members`) beside a statistical one; cancel stops the training
// and leaves no model; kill -9 of the fine-tuning process is retried and leaves no partial model; a
// restarted server serves the model again.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, storeBackends, waitForJob as waitForForecastJob, type TestServer } from './helpers.ts';
import { configFromEnv } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { writeFixtures } from './parity.ts';
import { launchChromium } from './browser.ts';

const HORIZON = 8;
const LENGTH = 96;
const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Seasonal monthly series with a level each (as runtime/tests/test_finetune.py): easy to learn, hard for random weights. */
function trainingSeries(n = 6): { target: number[]; index: string[] }[] {
  let seed = 7;
  const noise = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
  const index = Array.from({ length: LENGTH }, (_, t) => `${2000 + Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`);
  return Array.from({ length: n }, (_, i) => ({
    index,
    target: Array.from({ length: LENGTH }, (_, t) => Math.round((50 + 10 * i + 8 * Math.sin((2 * Math.PI * t) / 12 + i) + noise()) * 1e4) / 1e4),
  }));
}

const SERIES = trainingSeries();
const FINE_TUNE = { model: 'chronos-2', model_size: 'small', series: SERIES, freq: 'MS', horizon: HORIZON, steps: 60, learning_rate: 1e-3, batch_size: 32 };

async function waitForJob(server: TestServer, id: string, until: (job: any) => boolean, key?: string): Promise<any> {
  for (;;) {
    const res = await server.request('GET', `/v1/fine-tuning-jobs/${id}`, { key });
    assert.equal(res.status, 200, res.text);
    if (until(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const finished = (job: any) => ['completed', 'failed', 'cancelled'].includes(job.status);

/** WQL of the 0.1…0.9 quantiles over each series' last horizon, pooled, from the API's forecasts of the truncated series. */
async function heldOutWql(server: TestServer, model: string, key?: string): Promise<number> {
  const truncated = SERIES.map((s) => ({ target: s.target.slice(0, LENGTH - HORIZON), index: s.index.slice(0, LENGTH - HORIZON) }));
  const res = await server.request('POST', '/v1/forecast', { key, body: { model, series: truncated, freq: 'MS', horizon: HORIZON, quantiles: LEVELS } });
  assert.equal(res.status, 200, res.text);
  let loss = 0;
  let scale = 0;
  for (const [i, s] of SERIES.entries()) {
    const actual = s.target.slice(LENGTH - HORIZON);
    const prediction = res.body.series[i][0].prediction as Record<string, number[]>;
    for (const [t, y] of actual.entries()) {
      scale += Math.abs(y);
      for (const q of LEVELS) {
        const d = y - prediction[String(q)][t];
        loss += Math.max(q * d, (q - 1) * d);
      }
    }
  }
  return (2 * loss) / (LEVELS.length * scale);
}

/** The temporary (dot) entries under the private models' directory. Every call comes after a private model was
 * stored there, so a read that fails (a wrong path, permissions) fails the test instead of passing as "none left". */
function leftovers(modelDir: string): string[] {
  return readdirSync(join(modelDir, 'private')).filter((n) => n.startsWith('.'));
}

for (const backend of storeBackends) {
  describe(`fine-tuning (${backend.name})`, () => {
    // what does not touch the store (the trainer, the worker, the model's use in other routes) runs once, on PGlite; the
    // store's part (a job, the private model's row, listing, other accounts, a restart, DELETE) runs on both (CI time)
    const once = { skip: backend.name !== 'PGlite' && 'store-independent: on PGlite only' };
    let server: TestServer;
    let weights: string;
    let dataDir: string;
    let cleanup: () => Promise<void>;
    let env: Record<string, string>;
    let job: any;
    let other: { key: string };
    let restarted: RunningServer | undefined;

    before(async () => {
      weights = writeFixtures(['chronos-2']);
      rmSync(join(weights, 'chronos-2', 'base'), { recursive: true, force: true }); // a size whose weights are not installed
      dataDir = mkdtempSync(join(tmpdir(), 'horizon-ft-data-'));
      const made = await backend.env();
      cleanup = made.cleanup;
      env = { ...made.env, HORIZON_MODEL_DIR: weights, HORIZON_DATA_DIR: dataDir, HORIZON_DEVICE: 'cpu', HORIZON_FINETUNE_MAX_STEPS: '100000', HORIZON_DEFAULT_DAILY_QUOTA: '0', HORIZON_DEFAULT_WEEKLY_QUOTA: '0', HORIZON_JOB_CONCURRENCY: '1' };
      server = await startTestServer(env);
      other = await server.newAccount();
    });
    after(async () => {
      await server?.close();
      await restarted?.close();
      await cleanup?.();
      rmSync(weights, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('422s: a family without fine-tuning, a base whose weights are missing (naming horizon models pull), too short series, too many steps, reserved names', once, async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...FINE_TUNE, model: 'auto-ets', model_size: undefined }, /cannot be fine-tuned/],
        [{ ...FINE_TUNE, model_size: 'base' }, /horizon models pull chronos-2 --size base/],
        [{ ...FINE_TUNE, series: [{ target: SERIES[0].target.slice(0, 20), index: SERIES[0].index.slice(0, 20) }] }, /series 0: 20 observations/],
        [{ ...FINE_TUNE, steps: 100001 }, /at most 100000 steps/],
        [{ ...FINE_TUNE, name: 'chronos-2' }, /reserved/],
        [{ ...FINE_TUNE, mode: 'half' }, /mode/],
      ];
      for (const [body, detail] of cases) {
        const res = await server.request('POST', '/v1/fine-tuning-jobs', { body });
        assert.equal(res.status, 422, res.text);
        assert.match(res.text, detail);
      }
    });

    it('a job trains, reports progress, and makes a private model whose held-out WQL is below the base model\'s', async () => {
      const res = await server.request('POST', '/v1/fine-tuning-jobs', { body: { ...FINE_TUNE, name: 'sales' } });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.headers.get('location'), `/v1/fine-tuning-jobs/${res.body.job_id}`);
      assert.match(res.body.model_id, /^ft-[0-9a-f]{24}$/);
      assert.equal(res.body.name, 'sales');
      job = await waitForJob(server, res.body.job_id, finished);
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.deepEqual({ step: job.progress.step, steps: job.progress.steps }, { step: 60, steps: 60 });
      assert.equal(typeof job.progress.loss, 'number');
      assert.equal(typeof job.progress.validation_loss, 'number');
      assert.ok(job.summary.validation_wql_after < job.summary.validation_wql_before, JSON.stringify(job.summary));
      const listed = await server.request('GET', '/v1/fine-tuning-jobs');
      assert.deepEqual(listed.body.jobs.map((j: any) => j.job_id), [job.job_id]);
      // a second job may not take the same name
      const taken = await server.request('POST', '/v1/fine-tuning-jobs', { body: { ...FINE_TUNE, name: 'sales' } });
      assert.equal(taken.status, 409, taken.text);
    });

    it('the owner lists it with base, training summary and licence; forecasts with it by id or name give the WQL the training measured', async () => {
      const models = await server.request('GET', '/v1/models');
      const mine = models.body.models.find((m: any) => m.model_id === job.model_id);
      assert.ok(mine, 'listed for its owner');
      assert.equal(mine.name, 'sales');
      assert.equal(mine.private, true);
      assert.equal(mine.available, true);
      assert.deepEqual([mine.base_model, mine.base_size, mine.sizes], ['chronos-2', 'small', ['small']]);
      assert.equal(mine.license.id, models.body.models.find((m: any) => m.model_id === 'chronos-2').license.id);
      assert.equal(mine.training.validation_wql_after, job.summary.validation_wql_after);
      const base = await heldOutWql(server, 'chronos-2');
      const tuned = await heldOutWql(server, job.model_id);
      const byName = await heldOutWql(server, 'sales');
      assert.ok(tuned < base, `fine-tuned ${tuned} < base ${base}`);
      assert.equal(byName, tuned);
      // the saved model is the trained one: the API's forecasts reproduce the training process's numbers
      assert.ok(Math.abs(tuned - job.summary.validation_wql_after) <= 1e-9 * tuned, `${tuned} vs ${job.summary.validation_wql_after}`);
      assert.ok(Math.abs(base - job.summary.validation_wql_before) <= 1e-9 * base, `${base} vs ${job.summary.validation_wql_before}`);
    });

    it('the playground lists it, by name and base, for its owner only', { skip: backend.name !== 'PGlite' && 'one store is enough for the page' }, async () => {
      const { browser, close } = await launchChromium();
      try {
        const optionsFor = async (key: string) => {
          const page = await browser.newPage();
          await page.goto(`${server.url}/playground`);
          await page.fill('#api-key', key);
          await page.click('#connect');
          await page.waitForSelector('#model option[value="auto-ets"]', { state: 'attached' });
          const options = await page.$$eval('#model option', (els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent })));
          await page.close();
          return options;
        };
        assert.deepEqual((await optionsFor(server.key)).filter((o) => o.value === job.model_id), [{ value: job.model_id, text: 'sales · fine-tuned chronos-2 small' }]);
        assert.ok(!(await optionsFor(other.key)).some((o) => o.value.startsWith('ft-')));
      } finally {
        await close();
      }
    });

    it('usable in forecast jobs, cross-validation and auto by its owner', once, async () => {
      const series = SERIES.slice(0, 2);
      const queued = await server.request('POST', '/v1/forecast-jobs', { body: { model: 'sales', series, freq: 'MS', horizon: HORIZON } });
      assert.equal(queued.status, 202, queued.text);
      const done = await waitForForecastJob(server, queued.body.job_id, undefined, (status) => ['completed', 'failed'].includes(status));
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const sync = await server.request('POST', '/v1/forecast', { body: { model: job.model_id, series, freq: 'MS', horizon: HORIZON } });
      assert.deepEqual(done.series, sync.body.series);
      const cv = await server.request('POST', '/v1/cross-validation', { body: { models: ['sales', 'chronos-2'], series, freq: 'MS', horizon: HORIZON, n_windows: 2 } });
      assert.equal(cv.status, 200, cv.text);
      const auto = await server.request('POST', '/v1/forecast', { body: { model: 'auto', auto_candidates: ['sales', 'seasonal-naive'], series, freq: 'MS', horizon: HORIZON } });
      assert.equal(auto.status, 200, auto.text);
      // the Nixtla SDK's finetuned_model_id runs it through /nixtla (whatever `model` says): the same forecast
      const nixtla = await server.request('POST', '/nixtla/v2/forecast', { body: {
        model: 'timegpt-1', finetuned_model_id: 'sales', freq: 'MS', h: HORIZON,
        series: { y: series.flatMap((s) => s.target), sizes: series.map((s) => s.target.length), X: null, X_future: null },
      } });
      assert.equal(nixtla.status, 200, nixtla.text);
      assert.deepEqual(nixtla.body.mean, sync.body.series.flatMap((s: { prediction: { mean: number[] } }[]) => s[0].prediction.mean));
    });

    it('a prism member of its owner, beside a statistical member (prism_members), by id or name, sync and as a job', once, async () => {
      // a series without a validation window (nothing observed before its last 4 values): prism weighs its
      // members equally, so its answer is exactly the mean of the two members' forecasts (then monotone levels)
      const short = [{ target: [...Array(8).fill(null), ...SERIES[0].target.slice(LENGTH - 4)], index: SERIES[0].index.slice(LENGTH - 12) }];
      const body = (extra: Record<string, unknown>) => ({ series: short, freq: 'MS', horizon: HORIZON, quantiles: [0.1, 0.5, 0.9], ...extra });
      const prism = await server.request('POST', '/v1/forecast', { body: body({ model: 'prism', prism_members: [job.model_id, 'seasonal-naive'] }) });
      assert.equal(prism.status, 200, prism.text);
      assert.equal(prism.body.model, 'prism');
      const [tuned, seasonal] = await Promise.all([job.model_id, 'seasonal-naive'].map(async (model) => (await server.request('POST', '/v1/forecast', { body: body({ model }) })).body.series[0][0].prediction));
      const got = prism.body.series[0][0].prediction;
      for (const key of ['mean', '0.5']) {
        got[key].forEach((v: number, t: number) => assert.ok(Math.abs(v - (tuned[key][t] + seasonal[key][t]) / 2) < 1e-6 * Math.max(1, Math.abs(v)), `${key}[${t}] ${v}: not the mean of ${job.model_id} and seasonal-naive`));
      }
      // by name ({model, model_size} too): the same members; the base model in its place gives another blend
      const byName = await server.request('POST', '/v1/forecast', { body: body({ model: 'prism', prism_members: [{ model: 'sales', model_size: 'small' }, 'seasonal-naive'] }) });
      assert.deepEqual(byName.body.series, prism.body.series);
      const base = await server.request('POST', '/v1/forecast', { body: body({ model: 'prism', prism_members: [{ model: 'chronos-2', model_size: 'small' }, 'seasonal-naive'] }) });
      assert.equal(base.status, 200, base.text);
      assert.notDeepEqual(base.body.series, prism.body.series);
      // series with validation windows, as a forecast job: the job's answer is the sync one
      const series = SERIES.slice(0, 2);
      const members = ['sales', 'seasonal-naive'];
      const sync = await server.request('POST', '/v1/forecast', { body: { model: 'prism', prism_members: members, series, freq: 'MS', horizon: HORIZON } });
      assert.equal(sync.status, 200, sync.text);
      const queued = await server.request('POST', '/v1/forecast-jobs', { body: { model: 'prism', prism_members: members, series, freq: 'MS', horizon: HORIZON } });
      assert.equal(queued.status, 202, queued.text);
      const done = await waitForForecastJob(server, queued.body.job_id, undefined, (status) => ['completed', 'failed'].includes(status));
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual(done.series, sync.body.series);
    });

    it('mode lora: trains an adapter, installs it merged, and the model forecasts with the WQL the training measured', once, async () => {
      const res = await server.request('POST', '/v1/fine-tuning-jobs', { body: { ...FINE_TUNE, steps: 40, mode: 'lora', learning_rate: 1e-2, name: 'sales-lora' } });
      assert.equal(res.status, 202, res.text);
      const lora = await waitForJob(server, res.body.job_id, finished);
      assert.equal(lora.status, 'completed', JSON.stringify(lora));
      assert.equal(lora.summary.mode, 'lora');
      assert.ok(lora.summary.validation_wql_after < lora.summary.validation_wql_before, JSON.stringify(lora.summary));
      const tuned = await heldOutWql(server, 'sales-lora');
      assert.ok(Math.abs(tuned - lora.summary.validation_wql_after) <= 1e-9 * tuned, `${tuned} vs ${lora.summary.validation_wql_after}`);
      assert.deepEqual(leftovers(weights), []);
    });

    it('does not exist for another account, on any route', async () => {
      const key = other.key;
      const id = job.model_id;
      const listed = await server.request('GET', '/v1/models', { key });
      assert.ok(!listed.body.models.some((m: any) => m.model_id === id || m.name === 'sales'));
      assert.equal((await server.request('GET', `/v1/models/${id}`, { key })).status, 404);
      assert.equal((await server.request('DELETE', `/v1/models/${id}`, { key })).status, 404);
      assert.equal((await server.request('GET', `/v1/fine-tuning-jobs/${job.job_id}`, { key })).status, 404);
      assert.equal((await server.request('DELETE', `/v1/fine-tuning-jobs/${job.job_id}`, { key })).status, 404);
      assert.deepEqual((await server.request('GET', '/v1/fine-tuning-jobs', { key })).body.jobs, []);
      assert.equal((await server.request('GET', `/v1/warmup?model=${id}&model_size=small`, { key })).status, 422);
      for (const model of [id, 'sales']) {
        const body = { model, series: SERIES.slice(0, 1), freq: 'MS', horizon: HORIZON };
        for (const path of ['/v1/forecast', '/v1/forecast-jobs']) {
          const res = await server.request('POST', path, { key, body });
          assert.equal(res.status, 422, `${path} ${res.text}`);
          assert.match(res.text, /is not a known model id/);
        }
        const cv = await server.request('POST', '/v1/cross-validation', { key, body: { models: [model], series: SERIES.slice(0, 1), freq: 'MS', horizon: HORIZON } });
        assert.equal(cv.status, 422, cv.text);
        // as a prism member (or an auto candidate): the same unknown model, naming the item
        const lists: [string, Record<string, unknown>][] = [['prism_members', { model: 'prism', prism_members: [model, 'seasonal-naive'] }], ['auto_candidates', { model: 'auto', auto_candidates: [model, 'seasonal-naive'] }]];
        for (const [field, fields] of lists) {
          for (const path of ['/v1/forecast', '/v1/forecast-jobs']) {
            const res = await server.request('POST', path, { key, body: { ...body, ...fields } });
            assert.equal(res.status, 422, `${path} ${field} ${res.text}`);
            assert.equal(res.body.errors[0].field, `${field}[0].model`, res.text);
            assert.match(res.body.errors[0].reason, /is not a known model id/);
          }
        }
      }
    });

    it('inline finetune_steps on /v1/forecast: fine-tunes on the request\'s series, answers, keeps nothing, charges 1 + ceil(steps / 100)', once, async () => {
      const account = await server.newAccount({ daily: 50, weekly: 50 });
      const body = { model: 'chronos-2', model_size: 'small', series: SERIES, freq: 'MS', horizon: HORIZON };
      const privateEntries = () => (existsSync(join(weights, 'private')) ? readdirSync(join(weights, 'private')).sort() : []);
      const privateBefore = privateEntries();
      const base = await server.request('POST', '/v1/forecast', { key: account.key, body });
      const tuned = await server.request('POST', '/v1/forecast', { key: account.key, body: { ...body, finetune_steps: 5, finetune_learning_rate: 1e-3 } });
      assert.equal(tuned.status, 200, tuned.text);
      assert.equal(tuned.headers.get('x-ratelimit-remaining'), String(50 - 1 - 2));
      assert.equal(tuned.body.series.length, SERIES.length);
      assert.notDeepEqual(tuned.body.series, base.body.series);
      assert.ok(tuned.body.warnings.some((w: any) => w.field === 'finetune_steps' && /5 steps/.test(w.message)));
      // finetune_mode "lora" (the Nixtla SDK's finetune_depth=1): a low-rank adapter, another forecast, as a job's mode
      const loraBody = { ...body, finetune_steps: 5, finetune_learning_rate: 1e-3, finetune_mode: 'lora' };
      const lora = await server.request('POST', '/v1/forecast', { key: account.key, body: loraBody });
      assert.equal(lora.status, 200, lora.text);
      assert.notDeepEqual(lora.body.series, tuned.body.series);
      assert.notDeepEqual(lora.body.series, base.body.series);
      for (const [i, s] of tuned.body.series.entries()) assert.deepEqual(s[0].index, base.body.series[i][0].index);
      assert.deepEqual(privateEntries(), privateBefore, 'nothing kept on disk');
      const models = await server.request('GET', '/v1/models', { key: account.key });
      assert.ok(!models.body.models.some((m: any) => m.private));
      const refused: [Record<string, unknown>, string, RegExp][] = [
        [{ ...body, finetune_steps: 201 }, '/v1/forecast', /at most 200 steps inline/],
        [{ ...body, model: 'auto-ets', model_size: undefined, finetune_steps: 5 }, '/v1/forecast', /cannot be fine-tuned/],
        [{ ...body, model: 'auto', model_size: undefined, finetune_steps: 5 }, '/v1/forecast', /needs one fine-tunable model/],
        [{ ...body, series: [{ target: SERIES[0].target.slice(0, 10), index: SERIES[0].index.slice(0, 10) }], finetune_steps: 5 }, '/v1/forecast', /series 0: 10 observations/],
        [{ ...body, finetune_steps: 5 }, '/v1/forecast-jobs', /POST \/v1\/fine-tuning-jobs/],
      ];
      for (const [payload, path, detail] of refused) {
        const res = await server.request('POST', path, { key: account.key, body: payload });
        assert.equal(res.status, 422, `${path} ${res.text}`);
        assert.match(res.text, detail);
      }
    });

    it('cancel stops a running training within seconds and leaves no model', once, async () => {
      const res = await server.request('POST', '/v1/fine-tuning-jobs', { body: { ...FINE_TUNE, steps: 50_000 } });
      assert.equal(res.status, 202, res.text);
      await waitForJob(server, res.body.job_id, (j) => j.status === 'running' && j.progress?.step > 0);
      // the progress is in /metrics too (read from the store)
      const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
      assert.match(metrics, new RegExp(`horizon_fine_tuning_step\\{job_id="${res.body.job_id}"\\} [1-9]`));
      assert.match(metrics, new RegExp(`horizon_fine_tuning_steps\\{job_id="${res.body.job_id}"\\} 50000`));
      const cancelled = await server.request('DELETE', `/v1/fine-tuning-jobs/${res.body.job_id}`);
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.equal(cancelled.body.status, 'cancelled');
      while (server.fineTuning.tuner.pids().has(res.body.job_id)) await new Promise((r) => setTimeout(r, 100));
      assert.ok(!existsSync(join(weights, 'private', res.body.model_id)));
      assert.deepEqual(leftovers(weights), []);
      const after = await waitForJob(server, res.body.job_id, () => true);
      assert.equal(after.status, 'cancelled');
      const models = await server.request('GET', '/v1/models');
      assert.ok(!models.body.models.some((m: any) => m.model_id === res.body.model_id));
    });

    it('kill -9 of the fine-tuning process: the attempt leaves nothing, the job is retried and completes', once, async () => {
      const res = await server.request('POST', '/v1/fine-tuning-jobs', { body: { ...FINE_TUNE, steps: 150, name: 'retried' } });
      assert.equal(res.status, 202, res.text);
      await waitForJob(server, res.body.job_id, (j) => j.status === 'running' && j.progress?.step > 0);
      const pid = server.fineTuning.tuner.pids().get(res.body.job_id)!;
      process.kill(pid, 'SIGKILL');
      while (server.fineTuning.tuner.pids().get(res.body.job_id) === pid) await new Promise((r) => setTimeout(r, 50));
      assert.ok(!existsSync(join(weights, 'private', res.body.model_id)), 'no model from the killed attempt');
      assert.ok(!leftovers(weights).some((n) => n.endsWith(`-${pid}`)), 'no temporary directory of the killed attempt');
      const done = await waitForJob(server, res.body.job_id, finished);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.attempts, 2);
      assert.deepEqual(leftovers(weights), []);
    });

    it('a restarted server (and worker) serves the model again; DELETE removes it', async () => {
      const body = { model: 'sales', series: SERIES.slice(0, 2), freq: 'MS', horizon: HORIZON };
      const before = await server.request('POST', '/v1/forecast', { body });
      const key = server.key;
      await server.close();
      // the same store and model directory (a restart of an existing store prints no new key: the first key still works)
      restarted = await startServer({ ...configFromEnv({ ...env, HORIZON_LOG_LEVEL: 'warn' }), port: 0, host: '127.0.0.1', dataDir }, { print: () => {}, logStream: { write() {} } });
      const call = async (method: string, path: string, payload?: unknown) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (payload !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${restarted!.url}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
        const text = await res.text();
        return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
      };
      const again = await call('POST', '/v1/forecast', body);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body.series, before.body.series);
      // a job accepted while the model existed, deleted before the job runs (HORIZON_JOB_CONCURRENCY 1: it
      // waits behind a seasonal auto-arima job): it fails at once, no retries, naming the model
      const slow = await call('POST', '/v1/forecast-jobs', { model: 'auto-arima', freq: 'MS', horizon: 12, series: SERIES.slice(0, 4) });
      assert.equal(slow.status, 202, slow.text);
      const waiting = await call('POST', '/v1/forecast-jobs', body);
      assert.equal(waiting.status, 202, waiting.text);
      const deleted = await call('DELETE', '/v1/models/sales');
      assert.equal(deleted.status, 204, deleted.text);
      let orphan: any;
      for (let i = 0; i < 600 && !['completed', 'failed'].includes(orphan?.status); i++) {
        await new Promise((r) => setTimeout(r, 200));
        orphan = (await call('GET', `/v1/forecast-jobs/${waiting.body.job_id}`)).body;
      }
      assert.equal((await call('GET', `/v1/forecast-jobs/${slow.body.job_id}`)).body.status, 'completed', 'the job ahead of it ran first');
      assert.equal(orphan.status, 'failed', JSON.stringify(orphan));
      assert.equal(orphan.error.code, 'model_deleted', JSON.stringify(orphan));
      assert.match(orphan.error.detail, new RegExp(`model "${job.model_id}" .*deleted after this job was accepted`), JSON.stringify(orphan));
      assert.ok(!existsSync(join(weights, 'private', job.model_id)));
      assert.equal((await call('GET', `/v1/models/${job.model_id}`)).status, 404);
      const gone = await call('POST', '/v1/forecast', { ...body, series: SERIES.slice(0, 1) });
      assert.equal(gone.status, 422, gone.text);
    });
  });
}
