// The inference client's mapping of the worker protocol (docs/runtime-protocol.md) to the error
// registry. The worker side is a small real HTTP server answering each protocol error, because a
// statistical model cannot be made to raise each of them on demand.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { InferenceClient } from '../src/runtime/inference.ts';
import { HorizonError } from '../src/errors.ts';

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
    inference_failed: ['inference_failed', 500], shutting_down: ['no_worker', 503], garbage: ['internal_error', 500],
  };
  for (const [answer, [code, status]] of Object.entries(expected)) {
    it(`worker ${answer} → ${status} ${code}`, async () => {
      const client = clientAnswering(answer);
      try {
        await assert.rejects(client.infer('core', body), (error: unknown) => {
          assert.ok(error instanceof HorizonError);
          assert.equal(error.code, code);
          assert.equal(error.status, status);
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
