// Fair queueing of model calls between accounts (issue 24), against a stand-in worker that holds each
// /infer until the test lets it answer, so the order in which calls reach the worker is observed exactly
// (order, not timing). Without the gate, every chunk of account A's large call would reach the worker
// before account B's small call; with it, B's call goes at the first free slot.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { InferenceClient, FairGate, type InferRequest } from '../src/runtime/inference.ts';
import { encodeFloat64 } from '../src/runtime/wire.ts';
import { runInContext } from '../src/http/request-context.ts';

interface Held { series: { target: string }[]; requestId: string; flow: string | undefined; answer(): void }
let server: Server;
let baseUrl: string;
const received: Held[] = [];
let arrived: () => void = () => {};

before(async () => {
  server = createServer((req, res: ServerResponse) => {
    let text = '';
    req.on('data', (d) => { text += d; });
    req.on('end', () => {
      const body = JSON.parse(text) as { series: { target: string }[] };
      received.push({
        series: body.series, requestId: String(req.headers['x-request-id']), flow: req.headers['x-horizon-flow'] as string | undefined,
        // each prediction's mean is the first target value of its series: the test can see which series it was
        answer: () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          model: 'naive', size: 'default', warnings: ['series 0: a warning'], timing: { infer_ms: 1 },
          predictions: body.series.map((s) => ({ mean: encodeFloat64([Buffer.from(s.target, 'base64').readDoubleLE(0)]), quantiles: {} })),
        })),
      });
      arrived();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const callsReceived = async (n: number) => { while (received.length < n) await new Promise<void>((r) => { arrived = r; }); };
const request = (n: number, first = 0): InferRequest => ({
  model: 'naive', size: 'default', freq: 'D', horizon: 1, quantiles: [],
  series: Array.from({ length: n }, (_, i) => ({ target: [first + i], past_covariates: {}, future_covariates: {}, static_covariates: {} })),
});

describe('fair queueing of model calls', () => {
  it('a large call is cut into chunks; another account\'s call goes at once, ahead of the large call\'s other chunks', async () => {
    const client = new InferenceClient(() => baseUrl, 10_000, { chunkSeries: 10, coalesce: false });
    const large = runInContext({ requestId: 'req-a', fields: {}, accountId: 'account-a' }, () => client.infer('core', request(100)));
    await callsReceived(2); // the gate's 2 slots (one worker): two of A's ten chunks
    // B has nothing at the worker: it takes the one slot over the limit and goes before any chunk of A answers
    const small = runInContext({ requestId: 'req-b', fields: {}, accountId: 'account-b' }, () => client.infer('core', request(1, 1000)));
    await callsReceived(3);
    assert.equal(received[2].requestId, 'req-b');
    assert.deepEqual(client.gate('core').waiting(), { 'account-a': 8 });
    // only one call over the limit: C, arriving now, waits for a turn (and gets the first one)
    const third = runInContext({ requestId: 'req-c', fields: {}, accountId: 'account-c' }, () => client.infer('core', request(1, 2000)));
    assert.deepEqual(client.gate('core').waiting(), { 'account-a': 8, 'account-c': 1 });
    received[2].answer();
    const b = await small;
    assert.deepEqual(b.predictions.map((p) => p.mean[0]), [1000]);
    received[0].answer(); // a slot frees: C's turn, not A's third chunk
    await callsReceived(4);
    assert.equal(received[3].requestId, 'req-c');
    received[3].answer();
    assert.deepEqual((await third).predictions.map((p) => p.mean[0]), [2000]);
    // the rest of A's chunks, one slot at a time
    for (const k of [1, 4, 5, 6, 7, 8, 9, 10, 11]) {
      await callsReceived(k + 1);
      received[k].answer();
    }
    const a = await large;
    assert.deepEqual(a.predictions.map((p) => p.mean[0]), Array.from({ length: 100 }, (_, i) => i), 'chunks joined in order');
    assert.deepEqual(a.warnings.slice(0, 3), ['series 0: a warning', 'series 10: a warning', 'series 20: a warning'], 'per-series warnings renumbered');
    assert.equal(received.filter((r) => r.requestId === 'req-a').every((r) => r.series.length === 10), true);
    // each call names its flow to the worker, whose batcher is fair between flows too (runtime batcher.py)
    assert.deepEqual([...new Set(received.map((r) => `${r.requestId} ${r.flow}`))].sort(), ['req-a account-a', 'req-b account-b', 'req-c account-c']);
    await client.close();
  });

  it('a CPU model\'s call is cut into its own, smaller chunks; a foundation model\'s into one worker batch each', async () => {
    const client = new InferenceClient(() => baseUrl, 10_000, { chunkSeries: 256, cpuChunkSeries: 50, isCpuModel: (m) => m === 'naive', coalesce: false });
    assert.equal(client.chunkSeriesFor('naive'), 50);
    assert.equal(client.chunkSeriesFor('chronos-2'), 256);
    const start = received.length;
    const cpu = client.infer('core', request(120));
    for (let k = 0; k < 3; k++) { await callsReceived(start + k + 1); received[start + k].answer(); }
    assert.deepEqual(received.slice(start).map((r) => r.series.length), [50, 50, 20]);
    assert.deepEqual((await cpu).predictions.map((p) => p.mean[0]), Array.from({ length: 120 }, (_, i) => i), 'chunks joined in order');
    const gpu = client.infer('core', { ...request(256), model: 'chronos-2' });
    await callsReceived(start + 4);
    received[start + 3].answer();
    assert.equal((await gpu).predictions.length, 256);
    assert.equal(received.length, start + 4, 'a 256-series call of a foundation model goes as one call');
    assert.equal(received[start + 3].series.length, 256);
    await client.close();
  });

  it('work-conserving: one flow alone fills whole batches from its waiting calls', async () => {
    const client = new InferenceClient(() => baseUrl, 10_000, { chunkSeries: 256, cpuChunkSeries: 10, isCpuModel: (m) => m === 'naive' });
    const start = received.length;
    const inA = <T>(fn: () => T) => runInContext({ requestId: 'req-a', fields: {}, accountId: 'account-a' }, fn);
    const turn = () => new Promise<void>((r) => setImmediate(r));
    const calls: Promise<{ predictions: { mean: ArrayLike<number> }[] }>[] = [];
    // two calls take the gate's two slots (one worker), each alone
    calls.push(inA(() => client.infer('core', request(1, 0)))); await callsReceived(start + 1);
    calls.push(inA(() => client.infer('core', request(1, 1)))); await callsReceived(start + 2);
    // 25 more, each in a turn of its own: they wait, and each freed slot takes as many as one batch holds (10)
    for (let i = 2; i < 27; i++) { calls.push(inA(() => client.infer('core', request(1, i)))); await turn(); }
    assert.deepEqual(client.gate('core').waiting(), { 'account-a': 25 });
    for (let k = 0; k < 5; k++) { await callsReceived(start + k + 1); received[start + k].answer(); }
    const answers = await Promise.all(calls);
    assert.deepEqual(received.slice(start).map((r) => r.series.length), [1, 1, 10, 10, 5], 'whole batches, not one call per turn');
    assert.deepEqual(answers.map((a) => a.predictions.map((p) => p.mean[0])), Array.from({ length: 27 }, (_, i) => [i]), 'each caller its own series');
    await client.close();
  });

  it('work-conserving: two flows share each batch, round robin', async () => {
    const client = new InferenceClient(() => baseUrl, 10_000, { chunkSeries: 256, cpuChunkSeries: 10, isCpuModel: (m) => m === 'naive' });
    const start = received.length;
    const as = (account: string) => <T>(fn: () => T) => runInContext({ requestId: `req-${account}`, fields: {}, accountId: account }, fn);
    const [inA, inB] = [as('account-a'), as('account-b')];
    const turn = () => new Promise<void>((r) => setImmediate(r));
    const calls: Promise<unknown>[] = [];
    // A holds both slots; B, a newcomer, the one over the limit
    calls.push(inA(() => client.infer('core', request(1, 0)))); await callsReceived(start + 1);
    calls.push(inA(() => client.infer('core', request(1, 1)))); await callsReceived(start + 2);
    calls.push(inB(() => client.infer('core', request(1, 1000)))); await callsReceived(start + 3);
    // A queues 12 calls before B queues 12: arrival order alone would give A the whole next batch
    for (let i = 0; i < 12; i++) { calls.push(inA(() => client.infer('core', request(1, 100 + i)))); await turn(); }
    for (let i = 0; i < 12; i++) { calls.push(inB(() => client.infer('core', request(1, 2000 + i)))); await turn(); }
    // A's two calls answer: B's (over the limit) still holds one of the two slots, so one batch goes
    received[start].answer();
    received[start + 1].answer();
    await callsReceived(start + 4);
    const batch = received[start + 3].series.map((s) => Buffer.from(s.target, 'base64').readDoubleLE(0));
    assert.equal(batch.length, 10);
    assert.deepEqual(batch.filter((v) => v < 1000), [100, 101, 102, 103, 104], 'A\'s share, in its own order');
    assert.deepEqual(batch.filter((v) => v >= 1000), [2000, 2001, 2002, 2003, 2004], 'B\'s share, in its own order');
    // the rest answered as it comes
    let done = false;
    void Promise.all(calls).then(() => { done = true; });
    for (let k = start + 2; !done;) { if (received.length > k) received[k++].answer(); else await turn(); }
    await Promise.all(calls);
    await client.close();
  });

  it('FairGate: turns go round robin between flows, each flow in its own order', async () => {
    const gate = new FairGate(() => 1);
    const order: string[] = [];
    const first = await gate.acquire('a');
    // each turn ends as soon as it starts: the next is chosen then
    const waits = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((name) => gate.acquire(name[0]).then((release) => { order.push(name); release(); }));
    first();
    await Promise.all(waits);
    // b1 went at once (b had nothing at the worker: the one slot over the limit); then turns round robin
    assert.deepEqual(order, ['b1', 'a1', 'b2', 'c1', 'a2', 'a3']);
  });
});
