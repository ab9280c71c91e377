// The inference client's mapping of the worker protocol (docs/runtime-protocol.md) to the error
// registry. The worker side is a small real HTTP server answering each protocol error, because a
// statistical model cannot be made to raise each of them on demand.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { InferenceClient } from '../src/runtime/inference.ts';
import { HorizonError } from '../src/errors.ts';
import { decodeFloat32, decodeFloat64, decodeInferResponse, encodeFloat64, encodeInferRequest } from '../src/runtime/wire.ts';

const answers: Record<string, [number, unknown]> = {
  unknown_model: [404, { error: { code: 'unknown_model', detail: 'no model x' } }],
  model_unavailable: [409, { error: { code: 'model_unavailable', detail: 'chronos is not installed' } }],
  weights_missing: [424, { error: { code: 'weights_missing', detail: 'chronos-2/base: looked in /models/chronos-2/base and the HF cache' } }],
  inference_failed: [500, { error: { code: 'inference_failed', detail: 'LinAlgError: singular matrix' } }],
  shutting_down: [503, { error: { code: 'shutting_down', detail: 'the worker is shutting down' } }],
  garbage: [502, 'Bad Gateway'],
};

let server: Server;
let baseUrl: string;
before(async () => {
  server = createServer((req, res) => {
    const code = req.url!.slice(1);
    if (code === 'slow') { setTimeout(() => res.end('{}'), 2_000); return; }
    const [status, body] = answers[req.headers['x-answer'] as string] ?? [200, {}];
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

/** A client whose requests ask the stand-in worker (x-answer header) for one protocol answer. */
function clientAnswering(code: string, timeoutMs = 5_000): InferenceClient {
  const client = new InferenceClient(() => baseUrl, timeoutMs);
  const pool = (client as unknown as { pool(u: string): { request: (o: Record<string, unknown>) => Promise<unknown> } }).pool(baseUrl);
  const original = pool.request.bind(pool);
  pool.request = (o) => original({ ...o, headers: { ...(o.headers as object), 'x-answer': code } });
  return client;
}

const body = { model: 'x', size: 'default', freq: 'D', horizon: 1, quantiles: [0.5], series: [] };

describe('InferenceClient error mapping', () => {
  const expected: Record<string, [string, number]> = {
    unknown_model: ['model_unavailable', 503], model_unavailable: ['model_unavailable', 503], weights_missing: ['weights_missing', 503],
    inference_failed: ['inference_failed', 500], shutting_down: ['no_worker', 503], garbage: ['no_worker', 503],
  };
  for (const [answer, [code, status]] of Object.entries(expected)) {
    it(`worker ${answer} → ${status} ${code}`, async () => {
      const client = clientAnswering(answer);
      try {
        await assert.rejects(client.infer('core', body), (error: unknown) => {
          assert.ok(error instanceof HorizonError);
          assert.equal(error.code, code);
          assert.equal(error.status, status);
          if (code === 'no_worker') assert.equal(error.headers?.['retry-after'], '2', 'a retryable 503 says when');
          const detail = answer === 'garbage' ? undefined : (answers[answer][1] as { error: { detail: string } }).error.detail;
          if (answer === 'weights_missing') {
            assert.match(error.message, /not installed on this deployment/);
            assert.doesNotMatch(error.message, /\/models\//, 'no server paths for API clients');
            assert.equal((error.cause as Error).message, detail, 'the full detail stays for the log');
          } else if (detail) assert.match(error.message, new RegExp(detail.split(':')[0]));
          return true;
        });
      } finally { await client.close(); }
    });
  }

  it('no worker → 503 with Retry-After; a timeout → 504', async () => {
    const down = new InferenceClient(() => undefined, 1_000);
    await assert.rejects(down.infer('core', body), (e: HorizonError) => e.status === 503 && e.headers?.['retry-after'] !== undefined);
    const refused = new InferenceClient(() => 'http://127.0.0.1:1', 1_000);
    await assert.rejects(refused.infer('core', body), (e: HorizonError) => e.code === 'no_worker');
    await refused.close();
    const slow = new InferenceClient(() => baseUrl, 200);
    const pool = (slow as unknown as { pool(u: string): { request: (o: Record<string, unknown>) => Promise<unknown> } }).pool(baseUrl);
    const original = pool.request.bind(pool);
    pool.request = (o) => original({ ...o, path: '/slow' });
    await assert.rejects(slow.infer('core', body), (e: HorizonError) => e.status === 504 && e.code === 'inference_timeout');
    await slow.close();
  });
});

describe('the /infer wire encoding (base64 float64)', () => {
  it('carries every float64 exactly, null as NaN', () => {
    const values = [0.1, -0, 1e-300, 123456.789, Number.MAX_VALUE, -2.5, null];
    const decoded = decodeFloat64(encodeFloat64(values));
    assert.deepEqual(decoded.slice(0, -1), values.slice(0, -1));
    assert.ok(Object.is(decoded[1], -0) && Number.isNaN(decoded[6]));
    assert.equal(encodeFloat64([1]), Buffer.from([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]).toString('base64'), 'little-endian IEEE 754');
    assert.throws(() => decodeFloat64(Buffer.from([1, 2, 3]).toString('base64')), /3 bytes/);
  });

  it('encodes the value arrays of a request and decodes the answer; dates and the rest stay as they are', () => {
    const request = {
      model: 'tabpfn-ts', size: 'default', freq: 'MS', horizon: 1, quantiles: [0.5],
      series: [{ target: [1, null], past_covariates: { p: [3, 4] }, future_covariates: { p: [5] }, static_covariates: { s: 2 }, index: ['2020-01-01', '2020-02-01'], forecast_index: ['2020-03-01'] }],
    };
    const wire = encodeInferRequest(request) as { encoding: string; series: Record<string, unknown>[] };
    assert.equal(wire.encoding, 'base64');
    const [s] = wire.series;
    assert.equal(typeof s.target, 'string');
    assert.deepEqual(decodeFloat64((s.past_covariates as Record<string, string>).p), [3, 4]);
    assert.deepEqual(decodeFloat64((s.future_covariates as Record<string, string>).p), [5]);
    assert.deepEqual([s.static_covariates, s.index, s.forecast_index], [{ s: 2 }, ['2020-01-01', '2020-02-01'], ['2020-03-01']]);
    const answer = decodeInferResponse({ model: 'm', size: 'default', warnings: [], timing: {}, predictions: [{ mean: encodeFloat64([7.25]), quantiles: { '0.5': encodeFloat64([7.25]) } }] });
    assert.deepEqual(answer.predictions, [{ mean: [7.25], quantiles: { '0.5': [7.25] } }]);
  });
});

describe('float32 answers on the wire', () => {
  it('decodes a float32 answer to the doubles of its float64 form, and says which dtype it asked for', () => {
    const values = [0.1, -2.5, 3e-5, 1234567].map(Math.fround);
    const f32 = Buffer.from(new Float32Array(values).buffer).toString('base64');
    const answer = (dtype: string | undefined, text: string) => decodeInferResponse({ model: 'm', size: 's', warnings: [], timing: {}, ...(dtype ? { dtype } : {}), predictions: [{ mean: text, quantiles: { '0.5': text } }] });
    const narrow = answer('float32', f32).predictions[0];
    const wide = answer('float64', encodeFloat64(values)).predictions[0];
    assert.deepStrictEqual(narrow, wide);
    assert.deepStrictEqual(answer(undefined, encodeFloat64(values)).predictions[0], wide, 'no dtype: float64');
    assert.ok(!('dtype' in answer('float32', f32)));
    assert.throws(() => answer('float16', f32), /dtype "float16"/);
    assert.throws(() => decodeFloat32(Buffer.from([1, 2, 3]).toString('base64')), /3 bytes/);
    const request = { model: 'x', size: 'default', freq: 'D', horizon: 1, quantiles: [0.5], series: [] };
    assert.equal(encodeInferRequest(request).float32, true);
    assert.equal(encodeInferRequest(request, false).float32, false);
  });
});
