// ServeCluster (HORIZON_INFERENCE_URL) against a stand-in of Serve's HTTP proxy: which groups it
// serves (404: no such application), the last known lists kept while the cluster is unreachable, and
// the endpoints the inference client gets. The real cluster is in test/ray-serve.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { ServeCluster } from '../src/runtime/serve-cluster.ts';

let server: Server;
let url: string;
let down = false;
const MODELS = { group: 'core', models: [{ model: 'naive', sizes: ['default'], loaded: [] }], missing_weights: [{ model: 'chronos-2', sizes: ['base'] }] };

before(async () => {
  server = createServer((req, res) => {
    if (down) { res.writeHead(503).end('no healthy replica'); return; }
    if (req.url === '/core/models') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MODELS)); return; }
    res.writeHead(404).end(`Path '${req.url}' not found.`); // Serve's proxy: no application at this prefix
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

describe('ServeCluster', () => {
  it('serves the groups the cluster has an application for, at <url>/<group>', async () => {
    const cluster = new ServeCluster(url, ['core', 'timesfm1'], { modelsRefreshMs: 60_000 });
    await cluster.start();
    try {
      assert.equal(cluster.endpoint('core'), `${url}core`);
      assert.equal(cluster.endpoint('timesfm1'), undefined, 'no application: no endpoint (the client answers 503 no_worker)');
      assert.deepEqual(cluster.modelsByGroup().get('core'), MODELS.models);
      assert.deepEqual(cluster.modelsByGroup().get('timesfm1'), []);
      assert.deepEqual(cluster.missingWeightsByGroup().get('core'), MODELS.missing_weights);
      assert.deepEqual(cluster.status(), [{ group: 'core', worker: 0, state: 'ready', restarts: 0, lastError: undefined }]);

      down = true; // replicas restarting: the lists stay, the status says so
      await cluster.refreshAll();
      assert.deepEqual(cluster.modelsByGroup().get('core'), MODELS.models);
      assert.equal(cluster.endpoint('core'), `${url}core`);
      assert.equal(cluster.status()[0].state, 'backoff');
      assert.match(cluster.status()[0].lastError ?? '', /503/);
      down = false;
      await cluster.refreshAll();
      assert.equal(cluster.status()[0].state, 'ready');
    } finally {
      down = false;
      await cluster.stop();
    }
  });

  it('an unreachable cluster leaves every group in backoff', async () => {
    const cluster = new ServeCluster('http://127.0.0.1:1', ['core'], { modelsRefreshMs: 60_000 });
    await cluster.start();
    await cluster.stop();
    assert.equal(cluster.endpoint('core'), undefined);
    assert.equal(cluster.status()[0].state, 'backoff');
  });
});
