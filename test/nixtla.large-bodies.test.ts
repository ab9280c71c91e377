// The Nixtla SDK's large forecasts off the event loop (issue 32, src/http/nixtla/large-bodies.ts, thread.ts): a
// large payload is validated and translated in a forecast thread, and a large /v1 answer translated back in one.
// A server that does so must answer exactly what a server without threads answers: the same bytes, headers,
// log fields and errors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, startTestServer, type TestServer } from './helpers.ts';

const defaults = { clean_ex_first: true, finetune_steps: 0, finetune_depth: 1, finetune_loss: 'default', finetuned_model_id: null, multivariate: false };
/** What NixtlaClient.forecast(df, h=6, …) sends for `n` monthly series of 36 points. */
const forecast = (n: number, over: Record<string, unknown> = {}) => {
  const sizes = Array.from({ length: n }, () => 36);
  const y = sizes.flatMap((size, s) => Array.from({ length: size }, (_, i) => Math.round((100 + s + 12 * Math.sin(i / 2 + s)) * 100) / 100));
  const series = { y, sizes, X: null, X_future: null, start_datetime: sizes.map((_, s) => `20${String(10 + (s % 5))}-01-01`) };
  return { series, model: 'naive', h: 6, freq: 'MS', level: [80, 95], feature_contributions: false, ...defaults, ...over };
};

describe('/nixtla: large forecasts in forecast threads', () => {
  let threaded: TestServer;
  let loop: TestServer;
  before(async () => {
    [threaded, loop] = await Promise.all([
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '1', HORIZON_REQUEST_THREAD_MIN_BYTES: '2000' }),
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '0' }),
    ]);
  });
  after(async () => { await Promise.all([threaded?.close(), loop?.close()]); });

  const requestLine = (res: { headers: Headers }) => capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.request_id === res.headers.get('x-request-id') && l.status !== undefined);
  const both = (method: 'GET' | 'POST', path: (server: TestServer) => string, options: Parameters<TestServer['request']>[2] = {}) =>
    Promise.all([threaded, loop].map((server) => server.request(method, path(server), options)));
  const sameProblem = (a: { text: string }, b: { text: string }) => {
    const strip = (t: string) => { const { request_id: _r, ...rest } = JSON.parse(t); return rest; };
    assert.deepEqual(strip(a.text), strip(b.text));
  };

  it('a forecast: the same answer, headers and log fields, read and written in threads', async () => {
    // a TimeGPT name runs HORIZON_NIXTLA_DEFAULT_MODEL (auto: fewer series, it cross-validates)
    for (const [model, n] of [['naive', 300], ['timegpt-1', 60]] as const) {
      const [a, b] = await both('POST', () => '/nixtla/v2/forecast', { body: forecast(n, { model }) });
      assert.equal(a.status, 200, a.text.slice(0, 300));
      assert.equal(a.text, b.text, model);
      assert.equal(a.body.mean.length, n * 6);
      assert.equal(a.headers.get('x-horizon-model'), b.headers.get('x-horizon-model'));
      assert.ok(a.headers.get('x-ratelimit-remaining'));
      const [lineA, lineB] = [requestLine(a), requestLine(b)];
      assert.equal(lineA?.request, 'thread');
      assert.equal(lineA?.answer, 'thread');
      assert.equal(lineB?.request, undefined);
      for (const field of ['nixtla_model', 'model', 'route']) assert.equal(lineA?.[field], lineB?.[field], field);
    }
  });

  it('an async forecast job: submitted through a thread, its large result translated in one', async () => {
    const submitted = await both('POST', () => '/nixtla/v2/forecast/async', { body: forecast(300) });
    for (const res of submitted) assert.equal(res.status, 202, res.text);
    assert.equal(requestLine(submitted[0])?.request, 'thread');
    const poll = async (server: TestServer, id: string) => {
      for (let tries = 0; tries < 600; tries++) {
        const res = await server.request('GET', `/nixtla/v2/forecast/jobs/${id}`);
        if (res.body?.status !== 'pending' && res.body?.status !== 'running') return res;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`job ${id} did not finish`);
    };
    const [a, b] = await Promise.all([poll(threaded, submitted[0].body.job_id), poll(loop, submitted[1].body.job_id)]);
    assert.equal(a.body.status, 'succeeded', a.text.slice(0, 300));
    assert.equal(a.text.replace(submitted[0].body.job_id, ''), b.text.replace(submitted[1].body.job_id, ''));
    assert.equal(a.headers.get('x-horizon-model'), b.headers.get('x-horizon-model'));
    assert.equal(requestLine(a)?.answer, 'thread');
  });

  it('the errors are the loop\'s: schema, TimeGPT settings, the payload\'s shape, Horizon\'s 422s, bad JSON', async () => {
    const base = forecast(40);
    const cases: [string, unknown][] = [
      ['schema', { ...base, h: 'six' }],
      ['unknown field', { ...base, horizon: 6 }],
      ['settings', { ...base, multivariate: true, finetune_depth: 2 }],
      ['freq', { ...base, freq: '2D' }],
      ['sizes', { ...base, series: { ...base.series, sizes: [...base.series.sizes.slice(1), 35] } }],
      ['start', { ...base, series: { ...base.series, start_datetime: ['yesterday', ...base.series.start_datetime.slice(1)] } }],
      ['unknown model', { ...base, model: 'naïve\u000b' }],
      // the registry's state in the thread: which served models use covariates, what a TimeGPT name runs with them
      ['covariates', { ...base, series: { ...base.series, X: [base.series.y.map((v) => v / 2)] } }],
      ['covariates, TimeGPT name', { ...base, model: 'timegpt-1', series: { ...base.series, X: [base.series.y.map((v) => v / 2)] } }],
      ['horizon', { ...base, model: 'naive', h: 100_000 }],
    ];
    for (const path of ['/nixtla/v2/forecast', '/nixtla/v2/forecast/async']) {
      for (const [what, payload] of cases) {
        const [a, b] = await both('POST', () => path, { body: payload });
        assert.equal(a.status, b.status, `${path} ${what}: ${a.text}`);
        assert.ok(a.status >= 400 && a.status < 500, `${path} ${what}: ${a.status}`);
        sameProblem(a, b);
        assert.equal(a.headers.get('x-horizon-model'), b.headers.get('x-horizon-model'), `${path} ${what}`);
      }
      const text = JSON.stringify(base);
      for (const raw of [`${text.slice(0, -1)},}`, `{"__proto__": {"x": 1}, ${text.slice(1)}`]) {
        const [a, b] = await both('POST', () => path, { raw, headers: { 'content-type': 'application/json' } });
        assert.equal(a.status, 400, a.text);
        sameProblem(a, b);
      }
    }
  });
});
