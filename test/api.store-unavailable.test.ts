// The database out of reach (PostgreSQL restarting, a network cut): requests get a 503 store_unavailable
// with Retry-After, not a 500 "unexpected error", and the service answers again once it is back. The cut
// is real: the server reaches PostgreSQL through a TCP relay that the test closes (refusing new
// connections and cutting the open ones) and opens again on the same port.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { createPostgresDatabase, simpleRequest, startTestServer, type TestServer } from './helpers.ts';
import { isStoreUnreachable } from '../src/store/database.ts';

/** A TCP relay from 127.0.0.1:`port` to `target`; close() refuses and cuts, open() listens again. */
function relay(port: number, target: URL) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    async open() {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}); }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      const closed = new Promise((resolve) => server?.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describe('the database out of reach', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => { for (const c of cleanups.reverse()) await c(); });

  it('a request gets 503 store_unavailable with Retry-After while PostgreSQL cannot be reached, 200 once it can', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const port = await freePort();
    const cut = relay(port, new URL(database.url));
    await cut.open();
    cleanups.push(() => cut.close());
    const viaRelay = new URL(database.url);
    viaRelay.host = `127.0.0.1:${port}`;
    const server: TestServer = await startTestServer({ HORIZON_DATABASE_URL: viaRelay.toString() });
    cleanups.push(() => server.close());
    const { key } = await server.newAccount({ daily: 100, weekly: 100 });
    const ok = await server.request('POST', '/v1/forecast', { key, body: simpleRequest() });
    assert.equal(ok.status, 200, ok.text);

    await cut.close();
    for (const path of ['/v1/forecast', '/v1/forecast-jobs']) {
      const res = await server.request('POST', path, { key, body: simpleRequest() });
      assert.equal(res.status, 503, `${path}: ${res.text}`);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(res.body.code, 'store_unavailable');
      assert.match(res.body.detail, /database cannot be reached/);
      assert.equal(res.headers.get('retry-after'), '2');
    }

    await cut.open();
    const deadline = Date.now() + 30_000;
    let back = await server.request('POST', '/v1/forecast', { key, body: simpleRequest() });
    while (back.status !== 200 && Date.now() < deadline) {
      assert.equal(back.status, 503, back.text); // never a 500 while it comes back
      await new Promise((r) => setTimeout(r, 200));
      back = await server.request('POST', '/v1/forecast', { key, body: simpleRequest() });
    }
    assert.equal(back.status, 200, back.text);
  });

  it('isStoreUnreachable: refused and terminated connections are, a failed query is not', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const refused = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    const refusal = await refused.connect().then(() => undefined, (e: unknown) => e);
    assert.ok(isStoreUnreachable(refusal), String(refusal));
    const client = new pg.Client({ connectionString: database.url });
    client.on('error', () => {});
    await client.connect();
    const syntax = await client.query('SELEC 1').then(() => undefined, (e: unknown) => e);
    assert.equal(isStoreUnreachable(syntax), false, 'a query error is the query\'s');
    const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const terminated = client.query('SELECT pg_sleep(5)').then(() => undefined, (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    const error = await terminated;
    assert.ok(isStoreUnreachable(error), String(error));
    await client.end().catch(() => undefined);
  });
});
