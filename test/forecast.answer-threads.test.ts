// Answer threads (src/forecasting/answer-threads.ts): a large forecast's answer is decoded, checked and
// written as JSON in a worker thread. The bytes must be the event loop's, byte for byte; the errors the
// loop would throw must come out of a thread the same; a small answer stays on the loop.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, dailyDates, startTestServer, type TestServer } from './helpers.ts';
import { AnswerThreads } from '../src/forecasting/answer-threads.ts';
import { shapeAnswer, type ContractShape } from '../src/forecasting/contract.ts';
import { encodeFloat64 } from '../src/runtime/wire.ts';
import { HorizonError } from '../src/errors.ts';

describe('answer threads through the server', () => {
  let threaded: TestServer;
  let loop: TestServer;
  before(async () => {
    [threaded, loop] = await Promise.all([
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '1', HORIZON_ANSWER_THREAD_MIN_VALUES: '1000' }),
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '0' }),
    ]);
  });
  after(async () => { await Promise.all([threaded?.close(), loop?.close()]); });

  const requestLine = (requestId: string | null) => capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.request_id === requestId && l.route === '/v1/forecast' && l.status !== undefined);

  it('a large forecast written in a thread is byte for byte the one written on the event loop', async () => {
    const index = dailyDates('2024-01-01', 120);
    // 40 series × horizon 14 × (9 levels + mean) = 5,600 numbers, over the threshold of 1,000
    const body = {
      model: 'seasonal-naive', freq: 'D', horizon: 14, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
      // each series misses one date of its grid (a warning per series) and has one null value
      series: Array.from({ length: 40 }, (_, s) => {
        const kept = index.map((date, i) => ({ date, i })).filter(({ i }) => i !== 20 + s);
        return { index: kept.map((d) => d.date), target: kept.map(({ i }) => (i === 7 + s ? null : Math.round((50 + s + 9 * Math.sin(i / 3) + (i % 7) * 1.3) * 1000) / 1000)) };
      }),
    };
    const [a, b] = await Promise.all([threaded.request('POST', '/v1/forecast', { body }), loop.request('POST', '/v1/forecast', { body })]);
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.equal(a.text, b.text);
    assert.equal(a.body.series.length, 40);
    assert.equal(a.body.warnings.length, 40, 'every series names its missing step'); // the request's warnings come through the thread
    assert.match(a.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(a.headers.get('server-timing') ?? '', /infer;dur=/);
    assert.ok(a.headers.get('x-ratelimit-remaining'), 'the unit is charged as on the loop');
    assert.equal(requestLine(a.headers.get('x-request-id'))?.answer, 'thread');
    assert.equal(requestLine(b.headers.get('x-request-id'))?.answer, undefined);
  });

  it('a small forecast stays on the event loop', async () => {
    const index = dailyDates('2024-01-01', 30);
    const res = await threaded.request('POST', '/v1/forecast', { body: { model: 'naive', freq: 'D', horizon: 3, series: [{ index, target: index.map((_, i) => i) }] } });
    assert.equal(res.status, 200, res.text);
    const line = requestLine(res.headers.get('x-request-id'));
    assert.ok(line, 'the request was logged');
    assert.equal(line.answer, undefined);
  });
});

describe('large request bodies in a forecast thread (issue 26 item 5)', () => {
  let threaded: TestServer;
  let loop: TestServer;
  before(async () => {
    [threaded, loop] = await Promise.all([
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '1', HORIZON_REQUEST_THREAD_MIN_BYTES: '2000', HORIZON_PRISM_MEMBERS: 'naive,seasonal-naive' }),
      startTestServer({ HORIZON_RUNTIME_GROUPS: 'core', HORIZON_ANSWER_THREADS: '0', HORIZON_PRISM_MEMBERS: 'naive,seasonal-naive' }),
    ]);
  });
  after(async () => { await Promise.all([threaded?.close(), loop?.close()]); });

  const requestLine = (requestId: string | null) => capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.request_id === requestId && l.route === '/v1/forecast' && l.status !== undefined);
  const index = dailyDates('2024-01-01', 60);
  const body = (extra: Record<string, unknown> = {}) => ({
    model: 'seasonal-naive', freq: 'D', horizon: 7, quantiles: [0.1, 0.5, 0.9],
    series: Array.from({ length: 12 }, (_, s) => ({ index, target: index.map((_, i) => (i === 5 + s ? null : Math.round((40 + s + 6 * Math.sin(i / 2)) * 1000) / 1000)) })),
    ...extra,
  });
  const both = async (payload: unknown, raw?: string) => {
    const send = (server: TestServer) => server.request('POST', '/v1/forecast', raw === undefined ? { body: payload } : { raw, headers: { 'content-type': 'application/json' } });
    return Promise.all([send(threaded), send(loop)]);
  };
  // the problem's request_id differs between servers; everything else must not
  const sameProblem = (a: { text: string }, b: { text: string }) => {
    const strip = (t: string) => { const { request_id: _r, ...rest } = JSON.parse(t); return rest; };
    assert.deepEqual(strip(a.text), strip(b.text));
  };

  it('a large plain forecast is planned in the thread and answers the loop\'s bytes', async () => {
    const [a, b] = await both(body());
    assert.equal(a.status, 200, a.text);
    assert.equal(a.text, b.text);
    assert.ok(a.headers.get('x-ratelimit-remaining'), 'charged');
    assert.match(a.headers.get('server-timing') ?? '', /infer;dur=/);
    const line = requestLine(a.headers.get('x-request-id'));
    assert.equal(line?.request, 'thread');
    assert.equal(line?.model, 'seasonal-naive');
    assert.equal(line?.series, 12);
    assert.equal(requestLine(b.headers.get('x-request-id'))?.request, undefined);
  });

  it('the default model and size, prism, auto and a backtest give the loop\'s answers', async () => {
    for (const extra of [{ model: undefined }, { model: 'prism' }, { model: 'auto', auto_candidates: ['naive', 'seasonal-naive'] }, { evaluation: { holdout: 7 } }]) {
      const [a, b] = await both(body(extra));
      assert.equal(a.status, 200, `${JSON.stringify(extra)}: ${a.text}`);
      assert.equal(a.text, b.text, JSON.stringify(extra));
    }
  });

  it('the errors are the loop\'s: schema, normalisation, auto fields, unknown model, bad JSON, prototype poisoning', async () => {
    const cases: [string, unknown][] = [
      ['schema', body({ horizon: '7' })],
      ['unknown field', body({ horizont: 7 })],
      ['normalisation', { ...body(), series: [{ index: ['2024-01-01', 'yesterday', ...index.slice(2)], target: index.map(() => 1) }, ...body().series] }],
      ['auto fields', body({ auto_scope: 'series' })],
      ['unknown model', body({ model: 'timesfm-9' })],
      ['size', body({ model_size: 'huge' })],
    ];
    for (const [what, payload] of cases) {
      const [a, b] = await both(payload);
      assert.equal(a.status, b.status, `${what}: ${a.text}`);
      assert.ok(a.status >= 400 && a.status < 500, `${what}: ${a.status}`);
      sameProblem(a, b);
    }
    const text = JSON.stringify(body());
    for (const [what, raw] of [['bad JSON', `${text.slice(0, -1)},}`], ['__proto__', `{"__proto__": {"x": 1}, ${text.slice(1)}`]] as const) {
      const [a, b] = await both(undefined, raw);
      assert.equal(a.status, 400, `${what}: ${a.text}`);
      assert.equal(b.status, 400);
      sameProblem(a, b);
    }
  });
});

describe('AnswerThreads', () => {
  const shape: ContractShape = {
    model: 'm', size: 's', horizon: 3, quantiles: [0.9, 0.1], seriesCount: 2,
    forecastIndex: [['2024-01-01', '2024-01-02', '2024-01-03'], ['2024-02-01', '2024-02-02', '2024-02-03']],
    warnings: [{ series: 1, field: 'series[1].index', message: 'a warning of the request' }],
  };
  const prediction = (k: number) => ({
    mean: encodeFloat64([k, k + 1, k + 2]),
    // crossing levels at step 2: the contract's running maximum must fix them in the thread too
    quantiles: { '0.1': encodeFloat64([k - 1, k, k + 5]), '0.9': encodeFloat64([k + 1, k + 2, k + 3]) },
  });
  const answer = (predictions: unknown[], extra: Record<string, unknown> = {}) => ({
    model: 'm', size: 's', predictions, warnings: ['series 0: from the model'], timing: { infer_ms: 4 }, ...extra,
  });
  const decoded = (k: number) => ({ mean: [k, k + 1, k + 2], quantiles: { '0.1': [k - 1, k, k + 5], '0.9': [k + 1, k + 2, k + 3] } });

  it('writes what shapeAnswer gives on the loop, with the worker timing', async () => {
    const threads = new AnswerThreads(1, 0);
    try {
      const out = await threads.shape(JSON.stringify(answer([prediction(1), prediction(10)])), shape);
      const wanted = shapeAnswer(shape, { model: 'm', size: 's', predictions: [decoded(1), decoded(10)], warnings: ['series 0: from the model'], timing: { infer_ms: 4 } });
      assert.equal(out.body.toString('utf8'), JSON.stringify(wanted));
      assert.deepEqual(JSON.parse(out.body.toString('utf8')).series[0][0].prediction['0.9'], [2, 3, 6]);
      assert.deepEqual(out.timing, { infer_ms: 4 });
      assert.equal(threads.shaped, 1);
    } finally {
      await threads.close();
    }
  });

  it('fails as the loop fails: a HorizonError keeps its code and message, anything else stays a plain error', async () => {
    const threads = new AnswerThreads(2, 0);
    try {
      const short = answer([prediction(1)]);
      const loopError = (() => { try { shapeAnswer(shape, { ...short, predictions: [decoded(1)] } as never); } catch (e) { return e as HorizonError; } })();
      await assert.rejects(threads.shape(JSON.stringify(short), shape), (error: unknown) => {
        assert.ok(error instanceof HorizonError);
        assert.equal(error.code, 'inference_failed');
        assert.equal(error.message, loopError?.message);
        return true;
      });
      await assert.rejects(threads.shape(JSON.stringify(answer([prediction(1), prediction(2)], { dtype: 'int8' })), shape), (error: unknown) => {
        assert.ok(!(error instanceof HorizonError));
        assert.equal((error as Error).message, 'an /infer answer of dtype "int8"');
        return true;
      });
      // not JSON: the loop's JSON.parse throws a SyntaxError (a plain 500); the thread's message is the same
      const parseError = (() => { try { JSON.parse('{"predictions": ['); } catch (e) { return e as Error; } })();
      await assert.rejects(threads.shape('{"predictions": [', shape), (error: unknown) => !(error instanceof HorizonError) && (error as Error).message === parseError?.message);
    } finally {
      await threads.close();
    }
  });

  it('a thread that dies fails its answers with a 500 and is replaced', async () => {
    const threads = new AnswerThreads(1, 0);
    try {
      const big = JSON.stringify(answer(Array.from({ length: 2 }, (_, k) => prediction(k))));
      const pending = threads.shape(big, shape);
      await (threads as unknown as { threads: { worker: { terminate(): Promise<number> } }[] }).threads[0].worker.terminate();
      await assert.rejects(pending, (error: unknown) => error instanceof HorizonError && error.code === 'internal_error' && /answer thread failed/.test(error.message));
      const again = await threads.shape(big, shape);
      assert.equal(JSON.parse(again.body.toString('utf8')).series.length, 2);
    } finally {
      await threads.close();
    }
  });

  it('chunk answers sent one by one as they arrive (shapeChunks) give the bytes of all at once; a failed chunk fails the call', async () => {
    const threads = new AnswerThreads(2, 0);
    try {
      // two chunks of one series each, the second answering first
      const texts = [JSON.stringify(answer([prediction(1)])), JSON.stringify(answer([prediction(10)], { warnings: ['series 0: second chunk'] }))];
      const delays = [30, 0];
      const send = (body: string) => new Promise<string>((resolve) => setTimeout(() => resolve(texts[Number(body)]), delays[Number(body)]));
      const chunked = await threads.shapeChunks(['0', '1'], send, shape, 1);
      const whole = await threads.shape(texts, shape, 1);
      assert.equal(chunked.body.toString('utf8'), whole.body.toString('utf8'));
      assert.match(chunked.body.toString('utf8'), /series 1: second chunk/, 'the second chunk\'s warning renumbered');
      const failing = (body: string) => (body === '1' ? Promise.reject(new HorizonError('no_worker', 'gone')) : send(body));
      await assert.rejects(threads.shapeChunks(['0', '1'], failing, shape, 1), (error: unknown) => error instanceof HorizonError && error.code === 'no_worker');
      assert.equal((await threads.shapeChunks(['1', '0'], send, shape, 1)).body.length > 0, true, 'the pool goes on');
    } finally {
      await threads.close();
    }
  });

  it('closing fails what is still pending instead of leaving it hanging', async () => {
    const threads = new AnswerThreads(1, 0);
    const pending = threads.shape(JSON.stringify(answer([prediction(1), prediction(2)])), shape);
    const outcome = assert.rejects(pending, (error: unknown) => error instanceof HorizonError && error.code === 'internal_error');
    await threads.close();
    await outcome;
    assert.equal(threads.worthIt(1000, 1000, 9), false, 'a closed pool takes no more answers');
  });
});
