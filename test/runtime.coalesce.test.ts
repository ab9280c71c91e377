// The control plane's coalescing of concurrent model calls (src/runtime/inference.ts): calls of one
// event-loop turn with one batch key go to the REAL worker as one /infer call, and every caller gets
// exactly what its own call would have answered.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { InferenceClient, type InferRequest } from '../src/runtime/inference.ts';
import { startTestServer, capturedLogLines, type TestServer } from './helpers.ts';
import { runInContext } from '../src/http/request-context.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.close(); });

const workerUrl = () => server.supervisor.endpoint('core')!;
const inferCalls = async (model: string) => {
  const text = (await server.request('GET', '/metrics', { key: null })).text;
  const line = text.split('\n').find((l) => l.startsWith('horizon_runtime_infer_requests_total{') && l.includes(`model="${model}"`) && l.includes('outcome="ok"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
};
const plain = (target: (number | null)[]) => ({ target, past_covariates: {}, future_covariates: {}, static_covariates: {} });
const request = (model: string, targets: (number | null)[][], horizon = 3): InferRequest => ({ model, size: 'default', freq: 'MS', horizon, quantiles: [0.1, 0.5, 0.9], series: targets.map(plain) });
const target = (k: number, n = 30) => Array.from({ length: n }, (_, i) => 10 + k + ((i * (k + 3)) % 7));

describe('coalesced model calls', () => {
  it('calls of one turn with one batch key are ONE worker call; each caller gets its own answer, equal to calling alone', async () => {
    const alone = new InferenceClient(workerUrl, 30_000, { coalesce: false });
    const together = new InferenceClient(workerUrl, 30_000);
    try {
      const requests = [request('auto-ets', [target(0)]), request('auto-ets', [target(1), target(2)]), request('auto-ets', [target(3)])];
      const expected = [];
      for (const r of requests) expected.push(await alone.infer('core', r));
      const before = await inferCalls('auto-ets');
      const answers = await Promise.all(requests.map((r) => together.infer('core', r)));
      assert.equal(await inferCalls('auto-ets') - before, 1, 'three callers, one /infer call');
      assert.deepEqual(answers.map((a) => a.predictions), expected.map((e) => e.predictions), 'bitwise the answers of separate calls');
      assert.deepEqual(answers.map((a) => a.predictions.length), [1, 2, 1]);
    } finally { await alone.close(); await together.close(); }
  });

  it('another batch key, covariates, or a later turn keep their own call', async () => {
    const client = new InferenceClient(workerUrl, 30_000);
    try {
      const before = await inferCalls('naive');
      await Promise.all([client.infer('core', request('naive', [target(0)], 2)), client.infer('core', request('naive', [target(1)], 3))]);
      assert.equal(await inferCalls('naive') - before, 2, 'horizons 2 and 3: two calls');
      const withCovariates = { ...request('naive', [target(2)]), series: [{ ...plain(target(2)), past_covariates: { x: target(5) } }] };
      const mid = await inferCalls('naive');
      await Promise.all([client.infer('core', request('naive', [target(1)])), client.infer('core', withCovariates)]);
      assert.equal(await inferCalls('naive') - mid, 2, 'a call with covariates goes alone');
      const late = await inferCalls('naive');
      await client.infer('core', request('naive', [target(1)]));
      await client.infer('core', request('naive', [target(2)]));
      assert.equal(await inferCalls('naive') - late, 2, 'sequential calls are not held back');
    } finally { await client.close(); }
  });

  it('per-series warnings go to their caller, renumbered; the worker logs the call under every request id', async () => {
    const client = new InferenceClient(workerUrl, 30_000);
    try {
      // a series of one value: auto-ets falls back (a per-series warning from the worker)
      const requests = [request('auto-ets', [target(0)]), request('auto-ets', [target(1), [5]])];
      const expectedWarnings = (await new InferenceClient(workerUrl, 30_000, { coalesce: false }).infer('core', requests[1])).warnings;
      assert.ok(expectedWarnings.some((w) => w.startsWith('series 1: ')), `a fallback warning for series 1: ${JSON.stringify(expectedWarnings)}`);
      const answers = await Promise.all(requests.map((r, k) => runInContext({ requestId: `coalesce-test-${k}`, fields: {} }, () => client.infer('core', r))));
      assert.deepEqual(answers[1].warnings, expectedWarnings, 'renumbered to the caller\'s own series');
      assert.ok(!answers[0].warnings.some((w) => w.startsWith('series ')), 'none of the other caller\'s');
      await new Promise((r) => setTimeout(r, 300)); // the worker's log line is relayed from its stderr
      assert.ok(capturedLogLines.some((l) => l.includes('"request_id":"coalesce-test-0,coalesce-test-1"')), 'one worker line names both requests');
    } finally { await client.close(); }
  });
});
