// /nixtla, the drop-in for Nixtla's SDK (src/http/nixtla): its error paths and plumbing over raw HTTP on a
// real server (the SDK itself runs in test/nixtla, pytest): zstd bodies (bomb, corrupt, other encodings),
// the 422s of TimeGPT settings and of the payload's shape, Horizon's own 422s in the SDK's terms, the
// model a TimeGPT name runs (header and log line), quota units and headers, 429, 501, 404/405, jobs.
// Plus the pure translation (translate.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { zstdCompressSync } from 'node:zlib';
import { startTestServer, capturedLogLines, type TestServer } from './helpers.ts';
import { bandsOfKeys, horizonFreq, inSampleWindows, levelBands, nixtlaTerms, splitSeries } from '../src/http/nixtla/translate.ts';
import { chiSquaredQuantile, multivariateScores, normalQuantile, univariateScores } from '../src/http/nixtla/threshold-methods.ts';
import { nixtlaApi } from '../src/http/nixtla/index.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';
import { configFromEnv } from '../src/config.ts';

const y = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140];
const defaults = { clean_ex_first: true, finetune_steps: 0, finetune_depth: 1, finetune_loss: 'default', finetuned_model_id: null, multivariate: false };
/** What NixtlaClient.forecast(df, h=3, model=…) sends for one monthly series. */
const forecast = (over: Record<string, unknown> = {}) => ({ series: { y, sizes: [24], X: null, X_future: null, start_datetime: ['1949-01-01'] }, model: 'naive', h: 3, freq: 'MS', level: null, feature_contributions: false, ...defaults, ...over });
const crossValidation = (over: Record<string, unknown> = {}) => ({ series: { y, sizes: [24], X: null, start_datetime: ['1949-01-01'] }, model: 'naive', h: 3, n_windows: 2, step_size: 3, freq: 'MS', hist_exog: null, level: [80], refit: true, ...defaults, ...over });

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server?.close(); });

const post = (path: string, body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}) => server.request('POST', path, { body, ...options });

describe('/nixtla: the calls', () => {
  it('a forecast is one /v1/forecast call: one quota unit, its rate-limit headers, the model in a header and the log line', async () => {
    const { key } = await server.newAccount({ daily: 5 });
    const res = await post('/nixtla/v2/forecast', forecast({ model: 'timegpt-1', level: [80] }), { key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-horizon-model'), 'auto');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '4');
    assert.equal(res.body.mean.length, 3);
    assert.deepEqual(Object.keys(res.body.intervals).sort(), ['hi-80', 'lo-80']);
    assert.equal(res.body.model, 'auto');
    const line = capturedLogLines.map((l) => JSON.parse(l)).find((l) => l.request_id === res.headers.get('x-request-id'));
    assert.equal(line.route, '/nixtla/v2/forecast');
    assert.equal(line.nixtla_model, 'timegpt-1');
    assert.equal(line.model, 'auto');
    const inner = capturedLogLines.map((l) => JSON.parse(l)).find((l) => l.request_id === line.v1_request_id && l.route);
    assert.equal(inner.route, '/v1/forecast', 'the /v1 call it made is logged under its own id');
  });

  it('a TimeGPT name runs HORIZON_DEFAULT_MODEL where "auto" does not apply; "auto" by name there is a 422', async () => {
    const res = await post('/nixtla/v2/cross_validation', crossValidation({ model: 'timegpt-2.1' }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-horizon-model'), 'auto-ets');
    assert.deepEqual(res.body.sizes, [6]);
    assert.deepEqual(res.body.idxs, [18, 19, 20, 21, 22, 23]);
    const auto = await post('/nixtla/v2/cross_validation', crossValidation({ model: 'auto' }));
    assert.equal(auto.status, 422);
    assert.equal(auto.body.errors[0].field, 'model');
  });

  it('the quota is the account\'s: a call over it is 429 with Retry-After', async () => {
    const { key } = await server.newAccount({ daily: 1 });
    assert.equal((await post('/nixtla/v2/forecast', forecast(), { key })).status, 200);
    const refused = await post('/nixtla/v2/forecast', forecast(), { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'quota_exceeded');
    assert.ok(refused.headers.get('retry-after'));
    const usage = await server.request('GET', '/nixtla/usage', { key });
    assert.deepEqual({ limit: usage.body.daily.limit, used: usage.body.daily.used, remaining: usage.body.daily.remaining }, { limit: 1, used: 1, remaining: 0 });
  });

  it('a job: 202 with its id, polled, readable through /v1, not found for another account, cancel of a finished one is 409', async () => {
    const submitted = await post('/nixtla/v2/forecast/async', forecast({ level: [80] }));
    assert.equal(submitted.status, 202, submitted.text);
    let job;
    for (let k = 0; k < 100; k++) {
      job = await server.request('GET', `/nixtla/v2/forecast/jobs/${submitted.body.job_id}`);
      if (job.body.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job!.body.status, 'succeeded');
    const sync = await post('/nixtla/v2/forecast', forecast({ level: [80] }));
    assert.deepEqual({ ...job!.body.result }, sync.body);
    const other = await server.newAccount();
    assert.equal((await server.request('GET', `/nixtla/v2/forecast/jobs/${submitted.body.job_id}`, { key: other.key })).status, 404);
    const cancel = await server.request('POST', `/nixtla/v2/async/jobs/${submitted.body.job_id}/cancel`, { headers: { 'content-type': 'application/json' } });
    assert.equal(cancel.status, 409);
    assert.equal((await server.request('POST', '/nixtla/v2/async/jobs/nope/cancel')).status, 404);
  });

  it('validate_api_key, models, model_params', async () => {
    assert.deepEqual((await server.request('GET', '/nixtla/validate_api_key')).body, { detail: 'API key is valid' });
    const wrong = await server.request('GET', '/nixtla/validate_api_key', { key: 'hzn_AAAAAAAAAAAA_' + 'a'.repeat(43) });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.detail, /not valid/);
    const models = await server.request('GET', '/nixtla/v2/models');
    assert.ok(models.body.models.some((m: { name: string }) => m.name === 'auto-ets'));
    assert.ok(models.body.models.some((m: { name: string }) => m.name === 'auto'));
    const params = await server.request('GET', '/nixtla/model_params?model=auto-ets&freq=MS');
    assert.deepEqual(params.body, { detail: { input_size: 10000, horizon: 2000 }, model: 'auto-ets' });
    const unknown = await server.request('GET', '/nixtla/model_params?model=auto-etz&freq=MS');
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail, /did you mean "auto-ets"/);
  });
});

describe('/nixtla: 422s name the parameter', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    // finetune_steps reaches /v1/forecast's inline fine-tuning, which names the models it can fine-tune
    ['finetune_steps on a model that cannot be fine-tuned', { finetune_steps: 10 }, 'finetune_steps', /naive cannot be fine-tuned .*fine-tunable: chronos-2/],
    ['finetune_depth', { finetune_depth: 3 }, 'finetune_depth', /LoRA adapter \(finetune_depth=1\) or every weight \(finetune_depth=5\); depths 2-4/],
    // finetuned_model_id runs the account's private model: one it does not have is Horizon's unknown model
    ['a finetuned_model_id the account does not have', { finetuned_model_id: 'my-model' }, 'model', /model "my-model" is not a known model id/],
    // feature_contributions is POST /v1/forecast's explain (test/api.explain.test.ts): its 422s name the SDK's parameter
    ['feature_contributions with a model without covariates', { feature_contributions: true }, 'feature_contributions', /model naive uses no covariates/],
    ['feature_contributions_type', { feature_contributions: true, feature_contributions_type: 'granger' }, 'feature_contributions_type', /"shapley" only/],
    ['multivariate', { multivariate: true }, 'multivariate', /each series on its own/],
    ['model_parameters', { model_parameters: { horizon_style: 'x' } }, 'model_parameters', /horizon_style/],
    ['an unknown field', { fine_tune: 1 }, 'fine_tune', /unknown field/],
    ['a frequency Horizon has no grid for', { freq: '15min' }, 'freq', /hourly \(h\), daily/],
    ['a level of 100', { level: [100] }, 'level[0]', /\[0, 100\)/],
    ['sizes that do not add up', { series: { y, sizes: [20], X: null, X_future: null } }, 'series.sizes', /add up to 20/],
    ['categorical features', { series: { y, sizes: [24], X: [y.map((v) => (v > 120 ? 'hi' : 'lo'))], X_future: null } }, 'series.X[0]', /categorical/],
    ['Horizon\'s own 422, in the SDK\'s terms', { h: 20000 }, 'h', /max_horizon/],
    ['a model without covariates', { series: { y, sizes: [24], X: [y], X_future: [[1, 2, 3]] }, model: 'auto-ets' }, 'X_df', /does not use known-future covariates/],
  ];
  for (const [what, over, field, reason] of cases) {
    it(what, async () => {
      const res = await post('/nixtla/v2/forecast', forecast(over));
      assert.equal(res.status, 422, res.text);
      const error = res.body.errors.find((e: { field: string }) => e.field === field);
      assert.ok(error, `${field} in ${JSON.stringify(res.body.errors)}`);
      assert.match(error.reason, reason);
      assert.match(res.body.detail, reason);
    });
  }

  it('finetune_steps on cross-validation fine-tunes each window; what has no equivalent is a 422 naming finetune()', async () => {
    // each window is /v1/forecast's inline fine-tuning: a model that cannot be fine-tuned is its 422
    const res = await post('/nixtla/v2/cross_validation', crossValidation({ finetune_steps: 5 }));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.errors[0].field, 'finetune_steps');
    assert.match(res.body.errors[0].reason, /naive cannot be fine-tuned/);
    const keep = /finetune\(\) once, then cross_validation\(finetuned_model_id=<its id>\)/;
    const cases: [string, unknown, string][] = [
      ['/nixtla/v2/cross_validation', crossValidation({ model: 'chronos-2', finetune_steps: 5, refit: false }), 'refit'],
      ['/nixtla/v2/cross_validation', crossValidation({ model: 'chronos-2', finetune_steps: 5, full_history: true }), 'finetune_steps'],
      ['/nixtla/v2/cross_validation/async', crossValidation({ model: 'chronos-2', finetune_steps: 5 }), 'finetune_steps'],
    ];
    for (const [path, body, field] of cases) {
      const refused = await post(path, body);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.errors[0].field, field, path);
      assert.match(refused.body.errors[0].reason, keep);
    }
    const short = await post('/nixtla/v2/cross_validation', crossValidation({ model: 'chronos-2', finetune_steps: 5, h: 6, n_windows: 3, step_size: 6 }));
    assert.equal(short.status, 422, short.text);
    assert.match(short.body.errors[0].reason, /^window 2 has 6 values before its cutoff; fine-tuning for h 6 needs 12/);
    const detect = { series: { y, sizes: [24], X: null }, model: 'naive', freq: 'MS', ...defaults, finetune_steps: 5 };
    const anomalies = await post('/nixtla/v2/anomaly_detection', detect);
    assert.equal(anomalies.status, 422, anomalies.text);
    assert.match(anomalies.body.errors[0].reason, /inline fine-tuning is for forecast and cross_validation/);
  });

  it('job_options (job_timeout_seconds) on a job', async () => {
    const res = await post('/nixtla/v2/forecast/async', forecast({ job_options: { timeout_seconds: 60 } }));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].field, 'job_options.timeout_seconds');
    assert.match(res.body.errors[0].reason, /^60: a Horizon job has no timeout of its own/);
  });

  // the SDK sends job_options with async jobs only; on a synchronous call the 422 names job_options, as sent, and
  // not a timeout_seconds that was never sent
  it('job_options on a synchronous call, even empty; an empty one on a job asks for nothing', async () => {
    const calls = [
      ['/nixtla/v2/forecast', forecast({ job_options: {} })], ['/nixtla/v2/cross_validation', crossValidation({ job_options: { timeout_seconds: 60 } })],
    ] as const;
    for (const [path, body] of calls) {
      const res = await post(path, body);
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['job_options'], path);
      assert.match(res.body.errors[0].reason, /^\{("timeout_seconds":60)?\}: job options are for async job submissions \(POST \/nixtla\/v2\/forecast\/async/);
      assert.doesNotMatch(res.text, /job_options\.timeout_seconds/);
    }
    const job = await post('/nixtla/v2/forecast/async', forecast({ job_options: {} }));
    assert.equal(job.status, 202, job.text);
  });
});

// Covariates are used or refused, never dropped (issue 34): under a TimeGPT name (model "auto", or one model for
// cross-validation and anomalies) with no served model that uses them (this server serves no foundation model), a 422
// naming the user's columns as the SDK user knows them (it sends positions, not names) and the pull that would serve one.
describe('/nixtla: covariates under a TimeGPT name are used or refused', () => {
  const X = [y.map((v) => v % 7), y.map((v) => v / 2)];
  const start = ['1949-01-01'];
  const reasons = (res: { body: any }) => Object.fromEntries(res.body.errors.map((e: { field: string; reason: string }) => [e.field, e.reason]));

  it('forecast with X_df and hist_exog_list: a 422 on each, naming X_df column #1 and hist_exog_list[0], the pull of a model that uses them', async () => {
    const series = { y, sizes: [24], X, X_future: [[1, 2, 3]], start_datetime: start };
    const res = await post('/nixtla/v2/forecast', forecast({ model: 'timegpt-2.1', series }));
    assert.equal(res.status, 422, res.text);
    const byField = reasons(res);
    assert.deepEqual(Object.keys(byField).sort(), ['X_df', 'hist_exog_list']);
    assert.match(byField.X_df, /^X_df column #1 \(X_df column #k: the k-th of X_df's columns after the id and time columns; the SDK sends columns by position/);
    assert.match(byField.hist_exog_list, /^hist_exog_list\[0\]: /);
    for (const reason of Object.values(byField) as string[]) {
      assert.match(reason, /model "auto", what the TimeGPT name runs here, forecasts only with models that use historical and known-future covariates/);
      assert.match(reason, /and never drops them/);
      assert.match(reason, /chronos-2 \(`\.\/horizon models pull chronos-2 --size \w+`\)/);
      assert.doesNotMatch(reason, /\bx[01]\b/, 'never Horizon\'s internal names');
    }
    // model="auto" by name: the same rule
    const auto = await post('/nixtla/v2/forecast', forecast({ model: 'auto', series: { y, sizes: [24], X: [X[0]], X_future: null, start_datetime: start } }));
    assert.equal(auto.status, 422, auto.text);
    assert.match(reasons(auto).hist_exog_list, /^hist_exog_list\[0\]: model "auto" forecasts only with models that use historical covariates/);
  });

  it('cross-validation and anomaly detection (one model) with covariates: the same 422, in their own terms', async () => {
    const series = { y, sizes: [24], X, start_datetime: start };
    const cv = await post('/nixtla/v2/cross_validation', crossValidation({ model: 'timegpt-1', series, hist_exog: [1] }));
    assert.equal(cv.status, 422, cv.text);
    const byField = reasons(cv);
    assert.match(byField.df, /^df exogenous column #1 \(.*: model auto-ets, what the TimeGPT name runs here, does not use known-future covariates/);
    assert.match(byField.df, /\(no served model uses them; models that use them: chronos-2/);
    assert.match(byField.hist_exog_list, /^hist_exog_list\[0\]: model auto-ets, what the TimeGPT name runs here, does not use historical covariates/);
    const body = { series: { y, sizes: [24], X: [X[0]] }, model: 'timegpt-1', freq: 'MS', level: 99, ...defaults };
    const anomalies = await post('/nixtla/v2/anomaly_detection', body);
    assert.equal(anomalies.status, 422, anomalies.text);
    assert.match(reasons(anomalies).df, /^df exogenous column #1 .*does not use historical covariates .*\.\/horizon models pull chronos-2/);
  });
});

// Fine-tuning through the SDK (issue 34): finetune() is a fine-tuning job, the account's private models are its
// finetuned_models; here no fine-tunable model is served, so a TimeGPT name's fine-tuning is a 422 naming the pull
// (the training itself: test/nixtla on the tiny chronos-2 checkpoint).
describe('/nixtla: fine-tuning without a fine-tunable model served', () => {
  const finetune = (over: Record<string, unknown> = {}) => ({
    series: { y: [...y, ...y], sizes: [48], start_datetime: ['1949-01-01'] }, model: 'timegpt-2.1', freq: 'MS',
    finetune_steps: 10, finetune_depth: 1, finetune_loss: 'default', output_model_id: null, finetuned_model_id: null, ...over,
  });

  it('finetune() and finetune_steps (forecast, cross-validation) under a TimeGPT name: a 422 naming the pull of chronos-2', async () => {
    for (const [path, body, field] of [['/nixtla/v2/finetune', finetune(), 'model'], ['/nixtla/v2/finetune/async', finetune(), 'model'],
      ['/nixtla/v2/forecast', forecast({ model: 'timegpt-1', finetune_steps: 10 }), 'finetune_steps'],
      ['/nixtla/v2/cross_validation', crossValidation({ model: 'timegpt-1', finetune_steps: 10 }), 'finetune_steps']] as const) {
      const res = await post(path, body);
      assert.equal(res.status, 422, `${path}: ${res.text}`);
      assert.equal(res.body.errors[0].field, field, path);
      assert.match(res.body.errors[0].reason, /fine-tunes Horizon's fine-tunable model, which this deployment does not serve/);
      assert.match(res.body.errors[0].reason, /\(chronos-2: `\.\/horizon models pull chronos-2/);
    }
  });

  it('finetune(): what has no equivalent is a 422 naming the parameter, before anything is charged', async () => {
    const { key } = await server.newAccount({ daily: 5 });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ finetune_depth: 3 }, 'finetune_depth', /depths 2-4 have no equivalent/],
      [{ finetune_loss: 'mae' }, 'finetune_loss', /Chronos-2's own quantile loss/],
      [{ finetune_steps: 0 }, 'finetune_steps', /at least 1 step/],
      [{ finetuned_model_id: 'ft-0123456789abcdef01234567' }, 'finetuned_model_id', /fine-tunes a catalog base/],
      [{ job_options: { timeout_seconds: 60 } }, 'job_options', /jobs\.finetune\(\)/],
    ];
    for (const [over, field, reason] of cases) {
      const res = await post('/nixtla/v2/finetune', finetune({ model: 'chronos-2', ...over }), { key });
      assert.equal(res.status, 422, `${field}: ${res.text}`);
      const error = res.body.errors.find((e: { field: string }) => e.field === field);
      assert.ok(error, `${field} in ${JSON.stringify(res.body.errors)}`);
      assert.match(error.reason, reason);
    }
    // Horizon's own 422s (here its name's pattern) come back on the SDK's field
    const base = await post('/nixtla/v2/finetune', finetune({ model: 'chronos-2', output_model_id: 'Not A Name' }), { key });
    assert.equal(base.status, 422, base.text);
    assert.ok(base.body.errors.some((e: { field: string }) => e.field === 'output_model_id'), base.text);
    // a NUL in the name (the store's text cannot hold it) is the same 422, not a 500 from the name lookup (found by Schemathesis)
    for (const path of ['/nixtla/v2/finetune', '/nixtla/v2/finetune/async']) {
      const nul = await post(path, finetune({ model: 'chronos-2', output_model_id: 'a\u0000b' }), { key });
      assert.equal(nul.status, 422, nul.text);
      assert.ok(nul.body.errors.some((e: { field: string }) => e.field === 'output_model_id'), nul.text);
    }
    assert.equal((await server.request('GET', '/nixtla/usage', { key })).body.daily.used, 0);
  });

  it('finetuned_models, finetuned_model, delete_finetuned_model: the account\'s private models (none here), 404 for another id', async () => {
    const list = await server.request('GET', '/nixtla/v2/finetuned_models');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body, { finetuned_models: [] });
    for (const method of ['GET', 'DELETE']) {
      for (const id of ['ft-0123456789abcdef01234567', 'chronos-2']) {
        const res = await server.request(method, `/nixtla/v2/finetuned_models/${id}`, { headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 404, `${method} ${id}: ${res.text}`);
      }
    }
    assert.equal((await server.request('GET', '/nixtla/v2/finetuned_models', { key: null })).status, 401);
  });
});

// A model name is echoed in x-horizon-model only when it is a model the request can run (the tests above see it for
// known ones): a control character there made Node refuse the answer (Fastify's own {"code":"ERR_INVALID_CHAR"} body,
// no problem+json, no request id), and non-ASCII went out as Latin-1 bytes. Such a name is the /v1 unknown-model 422.
describe('/nixtla: request text never goes into a header', () => {
  const anomalies = (over: Record<string, unknown> = {}) => ({
    series: { y, sizes: [24], X: null }, model: 'naive', freq: 'MS', level: 99, ...defaults, ...over,
  });
  const calls: [string, (over: Record<string, unknown>) => unknown][] = [
    ['/nixtla/v2/forecast', forecast], ['/nixtla/v2/cross_validation', crossValidation], ['/nixtla/v2/anomaly_detection', anomalies],
    ['/nixtla/v2/forecast/async', forecast], ['/nixtla/v2/cross_validation/async', crossValidation],
  ];
  const names = ['naive\u000b', 'naive\r\nx-evil: 1', 'naïve', 'naive中'];

  const assertProblem = (res: { status: number; text: string; body: any; headers: Headers }, what: string) => {
    assert.equal(res.status, 422, `${what}: ${res.text}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
    assert.equal(res.body.code, 'validation_failed', what);
    assert.match(res.body.request_id, /^[0-9a-f-]{36}$/, what);
    assert.equal(res.body.request_id, res.headers.get('x-request-id'), what);
    assert.equal(res.headers.get('x-horizon-model'), null, what);
    assert.equal(res.headers.get('x-evil'), null, what);
  };

  for (const model of names) {
    it(`model ${JSON.stringify(model)}: a problem+json 422 on model from every call that says the model, and no header`, async () => {
      for (const [path, body] of calls) {
        const res = await post(path, body({ model }));
        assertProblem(res, path);
        const error = res.body.errors.find((e: { field: string }) => e.field === 'model');
        assert.ok(error, `${path}: ${JSON.stringify(res.body.errors)}`);
        assert.match(error.reason, /is not a known model id/, path);
        // finetuned_model_id runs instead of model: the same rule
        assertProblem(await post(path, body({ finetuned_model_id: model })), `${path} finetuned_model_id`);
      }
      assertProblem(await server.request('GET', `/nixtla/model_params?model=${encodeURIComponent(model)}&freq=MS`), 'model_params');
    });
  }
});

describe('/nixtla: bodies, routes and what is not built', () => {
  const headers = { 'content-type': 'application/json', 'content-encoding': 'zstd' };

  it('a zstd body is read like a plain one', async () => {
    const res = await server.request('POST', '/nixtla/v2/forecast', { raw: zstdCompressSync(JSON.stringify(forecast())) as unknown as string, headers });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, (await post('/nixtla/v2/forecast', forecast())).body);
  });

  it('a zstd bomb is 413 at the body limit; a corrupt one 400; another encoding 415', async () => {
    const bomb = zstdCompressSync(Buffer.alloc(64 << 20, 0x20));
    assert.ok(bomb.length < 64 << 10, `${bomb.length} bytes on the wire`);
    const big = await server.request('POST', '/nixtla/v2/forecast', { raw: bomb as unknown as string, headers });
    assert.equal(big.status, 413);
    assert.match(big.body.detail, /decompresses to more than the limit of 10485760 bytes/);
    const corrupt = await server.request('POST', '/nixtla/v2/forecast', { raw: 'not zstd', headers });
    assert.equal(corrupt.status, 400);
    assert.equal(corrupt.body.code, 'bad_content_encoding');
    const gzip = await server.request('POST', '/nixtla/v2/forecast', { raw: '{}', headers: { ...headers, 'content-encoding': 'gzip' } });
    assert.equal(gzip.status, 415);
  });

  it('explain is 501 naming why; simulate is built (test/nixtla/test_multivariate_simulate.py); keyed like every call', async () => {
    const paths = ['/nixtla/v2/explain/async'];
    for (const [method, path] of paths.map((p) => ['POST', p])) {
      const res = await server.request(method, path, method === 'POST' ? { body: {} } : {});
      assert.equal(res.status, 501, `${method} ${path}`);
      assert.equal(res.body.code, 'not_implemented');
      assert.ok(res.body.detail.length > 40);
    }
    assert.equal((await server.request('POST', '/nixtla/v2/simulate', { key: null, body: {} })).status, 401);
    assert.equal((await server.request('POST', '/nixtla/v2/explain/async', { key: null, body: {} })).status, 401);
  });

  it('jobs.execute_step uploads Arrow bytes: still the 501 naming why, not a 415', async () => {
    const res = await server.request('POST', '/nixtla/v2/execute_step/async', { raw: 'ARROW1', headers: { 'content-type': 'application/vnd.apache.arrow.stream' } });
    assert.equal(res.status, 501, res.text);
    assert.match(res.body.detail, /no Horizon equivalent/);
  });

  it('404 and 405 under /nixtla name this surface', async () => {
    const missing = await server.request('GET', '/nixtla/v2/nothing');
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /Nixtla SDK/);
    const method = await server.request('PUT', '/nixtla/v2/forecast', { body: {} });
    assert.equal(method.status, 405);
    assert.equal(method.headers.get('allow'), 'POST');
  });
});

describe('/nixtla: the translation', () => {
  it('online anomaly detection\'s threshold methods: scores in standard deviations, the chi-squared threshold of the combined score', () => {
    // reference values: scipy.stats norm.ppf and chi2.ppf
    for (const [p, q] of [[0.995, 2.5758293035489004], [0.975, 1.959963984540054], [0.9, 1.2815515655446004]]) assert.ok(Math.abs(normalQuantile(p) - q) < 1e-8, `${p}`);
    for (const [p, k, q] of [[0.99, 1, 6.634896601021214], [0.95, 2, 5.991464547107979], [0.99, 30, 50.89218131151707], [0.9999, 1, 15.136705226623606]]) {
      assert.ok(Math.abs(chiSquaredQuantile(p, k) - q) < 1e-9 * q, `${p}, ${k}: ${chiSquaredQuantile(p, k)}`);
    }
    const z99 = normalQuantile(0.995);
    const tails = [
      { actual: [1, 2, null, 4], anomaly: [false, false, false, true], score: [0.5, -0.9, null, 1.2] },
      { actual: [1, 2, 3, 4], anomaly: [false, false, false, false], score: [0.2, -0.95, 0.1, 0.3] },
    ];
    assert.deepEqual(univariateScores(tails, 99).anomaly, [false, false, false, true, false, false, false, false]);
    assert.deepEqual(univariateScores(tails, 99).anomaly_score, [0.5 * z99, -0.9 * z99, null, 1.2 * z99, 0.2 * z99, -0.95 * z99, 0.1 * z99, 0.3 * z99]);
    const multi = multivariateScores(tails, 99);
    // step 1: (0.9² + 0.95²)·z² = 11.3 > chi2(0.99, 2) = 9.21, neither alone outside; step 3: 1.2² + 0.3² = 1.53 → 10.1 > 9.21;
    // step 2: only series 1 observed, 0.1² · z² = 0.07 < chi2(0.99, 1): not flagged, and the missing value never is
    assert.deepEqual(multi.anomaly, [false, true, false, true, false, true, false, true]);
    const combined = [0.29, 0.9 ** 2 + 0.95 ** 2, 0.01, 1.2 ** 2 + 0.3 ** 2].map((v) => v * z99 * z99);
    multi.accumulated_anomaly_score.forEach((v, k) => assert.ok(Math.abs(v! - combined[k % 4]) < 1e-9, `${k}: ${v}`));
  });

  it('pandas aliases → Horizon freqs', () => {
    const table: [string, string | undefined][] = [
      ['MS', 'MS'], ['ME', 'MS'], ['M', 'MS'], ['h', 'H'], ['H', 'H'], ['1h', 'H'], ['D', 'D'], ['W', 'W'], ['W-SUN', 'W'], ['W-MON', 'W'],
      ['QS', 'Q'], ['QS-OCT', 'Q'], ['QE-DEC', 'Q'], ['Q', 'Q'], ['YS', 'Y'], ['YS-JAN', 'Y'], ['YE-DEC', 'Y'], ['A-DEC', 'Y'],
      ['2D', undefined], ['15min', undefined], ['B', undefined], ['min', undefined], ['SMS', undefined], ['ms', undefined],
    ];
    for (const [pandas, freq] of table) assert.equal(horizonFreq(pandas), freq, pandas);
  });

  it('levels → quantiles and back', () => {
    const errors: never[] = [];
    const { bands, quantiles } = levelBands([80, 95, 80, 0], errors);
    assert.deepEqual(quantiles, [0.1, 0.9, 0.025, 0.975, 0.5]);
    assert.deepEqual(bands.map((b) => b.key), ['80', '95', '0']);
    assert.deepEqual(bandsOfKeys(['mean', '0.1', '0.9', '0.025', '0.975']).map((b) => [b.key, b.lo, b.hi]), [['80', 0.1, 0.9], ['95', 0.025, 0.975]]);
    assert.deepEqual(levelBands([99.5], []).quantiles, [0.0025, 0.9975]);
  });

  it('series: dates from start_datetime on the grid (month ends stay month ends), synthetic without one, X and X_future by position', () => {
    const errors: never[] = [];
    const [a, b] = splitSeries({ y: [1, 2, 3, 4, 5], sizes: [3, 2], X: [[9, 8, 7, 6, 5]], X_future: [[1, 1, 2, 2]], start_datetime: ['2020-01-31', '2021-06-30T00:00:00'] }, { freq: 'MS', h: 2, futureColumns: new Set([0]) }, errors);
    assert.deepEqual(errors, []);
    assert.deepEqual(a.index, ['2020-01-31', '2020-02-29', '2020-03-31']);
    assert.deepEqual(a.future_variables_index, ['2020-04-30', '2020-05-31']);
    assert.deepEqual(b.target, [4, 5]);
    assert.deepEqual(b.hist_variables, { x0: [6, 5] });
    assert.deepEqual(b.future_variables, { x0: [2, 2] });
    const [c] = splitSeries({ y: [1, 2], sizes: [2] }, { freq: 'H', futureColumns: new Set() }, errors);
    assert.deepEqual(c.index, ['2000-01-01T00:00:00', '2000-01-01T01:00:00']);
  });

  it('in-sample windows tile the history (at most 20, each at most max_horizon)', () => {
    assert.deepEqual(inSampleWindows([144, 100], 12, 2000), { horizon: 7, n_windows: 19 });
    assert.deepEqual(inSampleWindows([144], 12, 4), { horizon: 4, n_windows: 20 });
    assert.deepEqual(inSampleWindows([3], 12, 64), { horizon: 1, n_windows: 1 });
  });

  it('Horizon field names in the SDK\'s terms', () => {
    assert.equal(nixtlaTerms('series[2].target[5]'), 'series[2].y[5]');
    assert.equal(nixtlaTerms('series[0].hist_variables.x1'), 'series[0].X[1]');
    assert.equal(nixtlaTerms('series[0].future_variables.x0[3]'), 'series[0].X_future[0][3]');
    assert.equal(nixtlaTerms('models[0].model'), 'model');
    assert.equal(nixtlaTerms('horizon'), 'h');
  });

  it('HORIZON_NIXTLA_DEFAULT_MODEL: "auto" by default; a name that is no model stops the start', () => {
    assert.equal(configFromEnv({}).nixtlaDefaultModel, 'auto');
    assert.equal(configFromEnv({ HORIZON_NIXTLA_DEFAULT_MODEL: 'auto-ets' }).nixtlaDefaultModel, 'auto-ets');
    const catalog = loadCatalog();
    assert.throws(() => nixtlaApi({ config: { nixtlaDefaultModel: 'timegpt' }, registry: { catalog } } as never), /HORIZON_NIXTLA_DEFAULT_MODEL "timegpt" is neither "auto" nor a model id/);
    assert.doesNotThrow(() => nixtlaApi({ config: { nixtlaDefaultModel: 'auto-ets' }, registry: { catalog } } as never));
  });
});
