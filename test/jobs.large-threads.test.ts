// Large forecast jobs off the event loop (issue 32): a large POST /v1/forecast-jobs body is read and planned in
// a forecast thread, its plan and result are stored in parts (store/job-payloads.ts), the job runs from the
// thread's encoded requests (jobs/threaded-job.ts) and GET writes the result in a thread. What a client sees
// must be what the event loop's path gives: the same result bytes, the same 422s.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { capturedLogLines, dailyDates, storeDatabases, waitForJob, type TestServer, startTestServer } from './helpers.ts';
import { JsonText, PART_BYTES, PARTS_OVER_BYTES, readPayload, writePayload } from '../src/store/job-payloads.ts';
import { createAccount } from '../src/store/accounts.ts';
import { cancelAccountJob, deleteExpiredJobs, finishJob, getAccountJob, getJob, insertJob } from '../src/store/jobs.ts';

const partsOf = async (server: TestServer, jobId: string) =>
  (await server.database.db.selectFrom('job_payload_parts').select('payload').where('job_id', '=', jobId).execute()).length;

describe('large forecast jobs in forecast threads', () => {
  let threaded: TestServer;
  let loop: TestServer;
  before(async () => {
    const common = { HORIZON_RUNTIME_GROUPS: 'core', HORIZON_PRISM_MEMBERS: 'naive,seasonal-naive' };
    [threaded, loop] = await Promise.all([
      startTestServer({ ...common, HORIZON_ANSWER_THREADS: '1', HORIZON_REQUEST_THREAD_MIN_BYTES: '2000' }),
      startTestServer({ ...common, HORIZON_ANSWER_THREADS: '0' }),
    ]);
  });
  after(async () => { await Promise.all([threaded?.close(), loop?.close()]); });

  const index = dailyDates('2024-01-01', 60);
  const body = (series: number, extra: Record<string, unknown> = {}) => ({
    model: 'seasonal-naive', freq: 'D', horizon: 7, quantiles: [0.1, 0.5, 0.9],
    // each series misses one date of its grid (a warning each, which the result must carry: the chunks' warnings
    // renumbered) and has one null value
    series: Array.from({ length: series }, (_, s) => {
      const kept = index.map((date, i) => ({ date, i })).filter(({ i }) => i !== 20 + (s % 30));
      const value = (i: number) => (i === 5 + (s % 10) ? null : Math.round((40 + (s % 13) + 6 * Math.sin(i / 2 + s)) * 1000) / 1000);
      return { index: kept.map((d) => d.date), target: kept.map(({ i }) => value(i)) };
    }),
    ...extra,
  });
  /** submits to both servers, waits for both jobs; the GET answers' texts and the job ids */
  const both = async (payload: unknown) => {
    const run = async (server: TestServer) => {
      const accepted = await server.request('POST', '/v1/forecast-jobs', { body: payload });
      assert.equal(accepted.status, 202, accepted.text);
      await waitForJob(server, accepted.body.job_id, undefined, (s) => s === 'completed' || s === 'failed', 240_000);
      const res = await server.request('GET', `/v1/forecast-jobs/${accepted.body.job_id}`);
      assert.equal(res.status, 200);
      return { id: accepted.body.job_id as string, accepted, res };
    };
    return Promise.all([run(threaded), run(loop)]);
  };
  // job_id, created_at, started_at and finished_at differ between the servers; everything from model_size on is the result
  const resultText = (text: string) => text.slice(text.indexOf(',"model_size"'));
  const logLines = () => capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const logLine = (message: string, jobId: string) => logLines().find((l) => l.msg === message && l.job_id === jobId);

  it('a large job (plan and result in parts) gives the loop\'s result, byte for byte', async () => {
    // 2,500 series × 60 points: a 2.4 MB body, a plan and a result each over PARTS_OVER_BYTES
    const [a, b] = await both(body(2_500));
    assert.equal(a.res.body.status, 'completed', a.res.text.slice(0, 500));
    assert.equal(b.res.body.status, 'completed', b.res.text.slice(0, 500));
    assert.ok(a.res.text.length > PARTS_OVER_BYTES, `the result is ${a.res.text.length} bytes`);
    assert.equal(resultText(a.res.text), resultText(b.res.text));
    assert.equal(a.res.body.series.length, 2_500);
    assert.equal(a.res.body.warnings.length, 2_500, 'every series names its missing date');
    assert.match(a.res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
    const { job_id: _a, created_at: _c, started_at: _s, finished_at: _f, series: _r, warnings: _w, ...headA } = a.res.body;
    const { job_id: _b, created_at: _d, started_at: _t, finished_at: _g, series: _q, warnings: _v, ...headB } = b.res.body;
    assert.deepEqual(headA, headB);
    // the threaded server planned, stored, ran and stored it as described; the loop server did none of it
    const submitted = (res: { headers: Headers }) => logLines()
      .find((l) => l.request_id === res.headers.get('x-request-id') && l.route === '/v1/forecast-jobs' && l.status !== undefined);
    assert.equal(submitted(a.accepted)?.request, 'thread');
    assert.equal(submitted(b.accepted)?.request, undefined);
    assert.equal(logLine('job attempt completed', a.id)?.request, 'thread');
    assert.equal(logLine('job attempt completed', b.id)?.request, undefined);
    assert.ok(await partsOf(threaded, a.id) >= 2 * Math.ceil(PARTS_OVER_BYTES / PART_BYTES), 'plan and result are stored in parts');
    assert.ok(await partsOf(loop, b.id) >= 1, 'the loop server\'s large result is stored in parts too');
    assert.deepEqual(a.accepted.body.model, b.accepted.body.model);
    assert.ok(a.accepted.headers.get('x-ratelimit-remaining'), 'the submission is charged as on the loop');
  });

  it('prism, auto, a backtest and the default model give the loop\'s results', async () => {
    const auto = { model: 'auto', auto_candidates: ['naive', 'seasonal-naive'] };
    for (const extra of [{ model: undefined }, { model: 'prism' }, auto, { evaluation: { holdout: 7 } }]) {
      const [a, b] = await both(body(12, extra));
      assert.equal(a.res.body.status, 'completed', `${JSON.stringify(extra)}: ${a.res.text.slice(0, 300)}`);
      assert.equal(resultText(a.res.text), resultText(b.res.text), JSON.stringify(extra));
    }
  });

  it('the 422s and 400s are the loop\'s', async () => {
    const sameProblem = (a: { text: string }, b: { text: string }) => {
      const strip = (t: string) => { const { request_id: _r, ...rest } = JSON.parse(t); return rest; };
      assert.deepEqual(strip(a.text), strip(b.text));
    };
    const cases: [string, unknown][] = [
      ['schema', body(12, { horizon: '7' })],
      ['unknown field', body(12, { horizont: 7 })],
      ['normalisation', { ...body(12), series: [{ index: ['2024-01-01', 'yesterday', ...index.slice(2)], target: index.map(() => 1) }, ...body(12).series] }],
      ['auto fields', body(12, { auto_scope: 'series' })],
      ['unknown model', body(12, { model: 'timesfm-9' })],
      ['size', body(12, { model_size: 'huge' })],
      ['finetune_steps', body(12, { finetune_steps: 10 })],
    ];
    const send = (server: TestServer, options: Parameters<TestServer['request']>[2]) => server.request('POST', '/v1/forecast-jobs', options);
    for (const [what, payload] of cases) {
      const [a, b] = await Promise.all([send(threaded, { body: payload }), send(loop, { body: payload })]);
      assert.equal(a.status, b.status, `${what}: ${a.text}`);
      assert.ok(a.status >= 400 && a.status < 500, `${what}: ${a.status}`);
      sameProblem(a, b);
    }
    const text = JSON.stringify(body(12));
    for (const [what, raw] of [['bad JSON', `${text.slice(0, -1)},}`], ['__proto__', `{"__proto__": {"x": 1}, ${text.slice(1)}`]] as const) {
      const options = { raw, headers: { 'content-type': 'application/json' } };
      const [a, b] = await Promise.all([send(threaded, options), send(loop, options)]);
      assert.equal(a.status, 400, `${what}: ${a.text}`);
      assert.equal(b.status, 400);
      sameProblem(a, b);
    }
  });
});

describe('job payloads in parts (store/job-payloads.ts)', () => {
  it('pieces never cut a character: UTF-8 bytes and UTF-16 strings', () => {
    const text = JSON.stringify({ w: 'é€😀'.repeat(5000), n: 'x'.repeat(777) });
    for (const value of [text, new TextEncoder().encode(text)]) {
      for (const size of [1, 2, 3, 5, 1024]) {
        const pieces = [...new JsonText(value).pieces(size)];
        assert.equal(pieces.join(''), text, `${typeof value} in pieces of ${size}`);
        assert.ok(pieces.every((p) => p.length > 0 && !p.includes('\ufffd')));
      }
    }
  });

  for (const store of storeDatabases) {
    it(`${store.name}: a large payload round-trips in parts; cancelled results and gone jobs leave none behind`, async () => {
      const { database, cleanup } = await store.open();
      try {
        const { db } = database;
        const account = await createAccount(db, { name: 'payloads', dailyQuota: 0, weeklyQuota: 0 });
        const plan = JSON.stringify({ model: 'naive', series: Array.from({ length: 30_000 }, (_, i) => ({ target: [i, i + 0.5], name: `série ${i} 😀` })) });
        assert.ok(plan.length > PARTS_OVER_BYTES);
        const ids = [crypto.randomUUID(), crypto.randomUUID()];
        for (const id of ids) {
          const request = new JsonText(await writePayload(db, id, new JsonText(new TextEncoder().encode(plan))));
          await insertJob(db, { id, accountId: account.id, model: 'naive', request });
        }
        const row = await getJob(db, ids[0]);
        assert.ok(row?.request instanceof JsonText);
        assert.equal((row.request as JsonText).text(), plan);
        // a completed job's large result: parsed for a caller that wants the object, text for one with a thread
        const result = { status: 'completed', series: Array.from({ length: 20_000 }, (_, i) => [{ prediction: { mean: [i / 3] }, index: ['2024-01-01'] }]) };
        assert.ok(await finishJob(db, ids[0], { status: 'completed', result }, 60));
        assert.deepEqual((await getAccountJob(db, account.id, ids[0]))?.result, result);
        const asText = (await getAccountJob(db, account.id, ids[0], 'forecast', { resultAsText: true }))?.result;
        assert.ok(asText instanceof JsonText);
        assert.equal(asText.text(), JSON.stringify(result));
        // a result written for a job cancelled meanwhile is deleted at once
        await cancelAccountJob(db, account.id, ids[1], 60);
        const before = (await db.selectFrom('job_payload_parts').select('payload').where('job_id', '=', ids[1]).execute()).length;
        assert.equal(await finishJob(db, ids[1], { status: 'completed', result }, 60), false);
        assert.equal((await db.selectFrom('job_payload_parts').select('payload').where('job_id', '=', ids[1]).execute()).length, before);
        // parts of a written payload round-trip, and go once their job is gone (after the orphan grace time)
        const ref = JSON.parse(await writePayload(db, crypto.randomUUID(), new JsonText(plan)));
        assert.equal((await readPayload(db, ref)).text(), plan);
        await deleteExpiredJobs(db, new Date(Date.now() + 3_600_000 + 120_000));
        assert.equal((await db.selectFrom('job_payload_parts').select('payload').execute()).length, 0, 'expired jobs\' parts and orphans are deleted');
      } finally {
        await cleanup();
      }
    });
  }
});
