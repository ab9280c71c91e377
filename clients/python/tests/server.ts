// Starts the real server for the Python client's tests (test/helpers.ts startTestServer: real PGlite,
// real worker processes) plus a small control endpoint the tests use to make real 429s and 503s:
//   node clients/python/tests/server.ts '{"env": {...}, "fixtures": ["chronos-2"]}'
// prints one JSON line {url, key, control} and runs until stdin closes or SIGTERM.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { startTestServer } from '../../../test/helpers.ts';
import { writeFixtures } from '../../../test/parity.ts';
import { setQuotas } from '../../../src/store/accounts.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as { env?: Record<string, string>; fixtures?: string[] };
const env: Record<string, string> = { ...options.env };
// tiny random-weight checkpoints (runtime/tests/fixtures) for models with covariates
const weights = options.fixtures?.length ? writeFixtures(options.fixtures) : undefined;
if (weights) env.HORIZON_MODEL_DIR = weights;
const server = await startTestServer(env);

const control = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => { raw += c.toString(); });
  req.on('end', () => {
    void (async () => {
      const body = raw ? JSON.parse(raw) : {};
      switch (req.url) {
        case '/account': return server.newAccount(body);
        case '/quota': await setQuotas(server.database.db, body.accountId, body); return {};
        case '/kill-worker': server.supervisor.kill(body.group ?? 'core'); return {};
        case '/worker-ready': return { ready: Boolean(server.supervisor.endpoint(body.group ?? 'core')) };
        default: throw new Error(`unknown control ${req.url}`);
      }
    })().then(
      (out) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(out)); },
      (error: Error) => { res.writeHead(500); res.end(error.message); },
    );
  });
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const port = (control.address() as AddressInfo).port;
process.stdout.write(`${JSON.stringify({ url: server.url, key: server.key, control: `http://127.0.0.1:${port}` })}\n`);

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  control.close();
  await server.close();
  if (weights) rmSync(weights, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
