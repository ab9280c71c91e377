// The OpenAPI document states what the server does. Rules every operation must follow (a route
// added later passes by following them; see documentationProblems):
//   1. a summary, and a description on every response (no generated "Default Response");
//   2. keyed operations (all but `security: []`) document 401;
//   3. every 4xx/5xx response is `application/problem+json` with the shared Problem schema
//      (src/http/schemas.ts problemResponses()); every 2xx but 204 documents its content type
//      (jsonResponse() for JSON; a text/plain route such as /metrics documents text/plain or is hidden);
//   4. an operation with a JSON request body has named request `examples` (src/http/openapi-examples.ts),
//      and each one, sent to a real server, answers 2xx with the shape of the documented response
//      example.
// Plus: an unsupported method on a known path is 405 with Allow and a problem+json body; /v1/docs is
// branded Horizon.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from './helpers.ts';
import { writeFixtures } from './parity.ts';

type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Everything `operation` breaks of rules 1-4 (static part), as sentences; empty when it is documented. */
export function documentationProblems(document: Json, path: string, method: string): string[] {
  const op = document.paths[path][method];
  const label = `${method.toUpperCase()} ${path}`;
  const problems: string[] = [];
  if (!op.summary) problems.push(`${label}: no summary`);
  const keyed = !(Array.isArray(op.security) && op.security.length === 0);
  if (keyed && !op.responses?.['401']) problems.push(`${label}: keyed but does not document 401`);
  for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
    if (!response.description || response.description === 'Default Response') problems.push(`${label} ${status}: no description`);
    const types = Object.keys(response.content ?? {});
    if (/^[45]/.test(status) && op.tags?.includes('kserve')) {
      // KServe's time-series protocol answers errors in its own shape (src/http/kserve/errors.ts), as KServe clients read them
      if (types.join() !== 'application/json' || response.content['application/json'].schema?.$ref !== '#/components/schemas/KServeError') {
        problems.push(`${label} ${status}: a kserve error not documented as application/json KServeError`);
      }
    } else if (/^[45]/.test(status)) {
      if (types.join() !== 'application/problem+json') problems.push(`${label} ${status}: error documented as ${types.join(', ') || 'no content'}, not application/problem+json`);
      else if (response.content['application/problem+json'].schema?.$ref !== '#/components/schemas/Problem') problems.push(`${label} ${status}: not the shared Problem schema`);
    } else if (/^2/.test(status) && status !== '204' && types.length === 0) {
      problems.push(`${label} ${status}: success documented without a content type`);
    }
  }
  const body = op.requestBody?.content?.['application/json'];
  if (body && Object.keys(body.examples ?? {}).length === 0) problems.push(`${label}: a JSON body without request examples`);
  return problems;
}

/** A raw request (fetch refuses TRACE). */
function send(url: string, method: string, key: string): Promise<{ status: number; headers: Record<string, unknown>; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The structure of a JSON value: numbers, strings … as type names; arrays by their first element. */
function shape(value: Json): Json {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shape(value[k])]));
  return typeof value;
}

describe('OpenAPI document', () => {
  let server: TestServer;
  let document: Json;
  before(async () => {
    // the tiny chronos-2 checkpoint: the fine-tuning example fine-tunes it (openapi-examples.ts)
    server = await startTestServer({ HORIZON_MODEL_DIR: writeFixtures(['chronos-2']) });
    const res = await server.request('GET', '/v1/openapi.json', { key: null });
    assert.equal(res.status, 200);
    document = res.body;
  });
  after(async () => { await server.close(); });

  const operations = () => Object.entries<Json>(document.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })));

  test('is OpenAPI 3.1 with the shared schemas', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.ok(document.components.schemas.Problem);
    assert.ok(operations().length >= 11, `${operations().length} operations`);
  });

  test('every operation documents its responses (rules 1-4)', () => {
    const problems = operations().flatMap(({ path, method }) => documentationProblems(document, path, method));
    assert.deepEqual(problems, []);
  });

  test('the rules catch an undocumented operation', () => {
    const bad = { paths: { '/v1/x': { post: { responses: { 200: { description: 'Default Response', content: { 'application/json': {} } }, 422: { description: 'x', content: { 'application/json': {} } } }, requestBody: { content: { 'application/json': { schema: {} } } } } } } };
    assert.deepEqual(documentationProblems(bad, '/v1/x', 'post'), [
      'POST /v1/x: no summary', 'POST /v1/x: keyed but does not document 401', 'POST /v1/x 200: no description',
      'POST /v1/x 422: error documented as application/json, not application/problem+json', 'POST /v1/x: a JSON body without request examples',
    ]);
  });

  test('the schema states what the server enforces on index dates and target values', () => {
    const series = document.components.schemas.InputSeries.properties;
    assert.ok(series.index.items.pattern, 'index dates have a pattern');
    assert.deepEqual(series.target.contains, { type: 'number' });
    assert.match(series.index.items.description, /UTC offset/);
    for (const date of ['2024-01-01', '2024-01-01T05:00', '2024-01-01 05:00:00+01:00', '2024-01-01T05:00:00.000Z']) assert.match(date, new RegExp(series.index.items.pattern));
    for (const date of ['2024-1-01', '2024-13-01', '2024-01-01T24:00', '01/02/2024']) assert.doesNotMatch(date, new RegExp(series.index.items.pattern));
  });

  test('every request example answers 2xx with the documented response shape', async () => {
    let sent = 0;
    for (const { path, method, op } of operations()) {
      const examples = op.requestBody?.content?.['application/json']?.examples ?? {};
      for (const [name, example] of Object.entries<Json>(examples)) {
        // a path parameter is "example" (the stored-series examples name that series)
        const res = await server.request(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'example'), { body: example.value });
        assert.ok(res.status >= 200 && res.status < 300, `${method.toUpperCase()} ${path} example ${name}: ${res.status} ${res.text}`);
        // the answer documented for this request example: its own named one (a hierarchy's), else the operation's
        const media = op.responses[String(res.status)]?.content?.['application/json'];
        const documented = media?.examples?.[name]?.value ?? media?.example ?? media?.examples?.default?.value;
        assert.ok(documented, `${method.toUpperCase()} ${path}: no response example for ${res.status}`);
        // the backtest and model "auto" examples answer the same shape plus their own fields (metrics, auto)
        if (name !== 'backtest' && name !== 'auto' && name !== 'prism_members' && name !== 'patches') {
          assert.deepEqual(shape(res.body), shape(documented), `${method.toUpperCase()} ${path} example ${name}: the response example's shape`);
        } else if (name === 'backtest') assert.ok(res.body.metrics?.aggregate, 'the backtest example returns metrics');
        else if (name === 'patches') {
          // embeddings with granularity "patch": the same shape plus each series' patch vectors and summary token
          const embeddings = res.body.embeddings.map(({ patches, summary, ...e }: Json) => { assert.ok(patches.length && summary.length); return e; });
          assert.deepEqual(shape({ ...res.body, embeddings }), shape(documented), `${method.toUpperCase()} ${path} example patches: the shape plus patches`);
        }
        else if (name === 'prism_members') {
          // prism's answer names its members and where the pool came from (issue 35)
          const { prism, ...rest } = res.body;
          assert.deepEqual(shape(rest), shape(documented), `${method.toUpperCase()} ${path} example prism_members: the response example's shape plus prism`);
          assert.deepEqual(prism.members.map((m: { model: string }) => m.model).sort(), ['naive', 'seasonal-naive']);
          assert.equal(prism.pool.source, 'request');
        }
        else {
          const { auto, ...rest } = res.body;
          assert.deepEqual(shape(rest), shape(documented), `${method.toUpperCase()} ${path} example auto: the response example's shape plus auto`);
          assert.equal(auto.series.length, rest.series.length, 'the auto example says which model forecast each series');
        }
        sent++;
      }
    }
    assert.ok(sent >= 5, `${sent} examples sent`);
  });

  test('unsupported methods on known paths are 405 with Allow, as problem+json', async () => {
    for (const [method, path, allow] of [['TRACE', '/v1/status', 'GET, HEAD'], ['PUT', '/v1/forecast', 'POST'], ['PATCH', '/v1/forecast-jobs/abc', 'DELETE, GET, HEAD'], ['QUERY', '/v1/models', 'GET, HEAD']]) {
      const res = await send(`${server.url}${path}`, method, server.key);
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.allow, allow, `${method} ${path}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      const body = res.body;
      assert.equal(body.code, 'method_not_allowed');
      assert.match(body.detail, new RegExp(`does not take ${method}`));
    }
    const unknown = await fetch(`${server.url}/v1/nothing-here`, { method: 'PUT' });
    assert.equal(unknown.status, 404, 'an unknown path stays 404');
  });

  test('/v1/docs is branded Horizon (title, logo, favicon), without the Fastify logo', async () => {
    const html = await (await fetch(`${server.url}/v1/docs/`)).text();
    assert.match(html, /<title>Horizon API docs<\/title>/);
    assert.match(html, /rel="icon" type="image\/svg\+xml" href="\.\/static\/theme\/horizon-logo\.svg"/);
    const logo = readFileSync(new URL('../web/horizon-logo.svg', import.meta.url));
    const init = await (await fetch(`${server.url}/v1/docs/static/swagger-initializer.js`)).text();
    assert.ok(init.includes(logo.toString('base64')), 'the initializer shows the Horizon logo');
    const favicon = await fetch(`${server.url}/v1/docs/static/theme/horizon-logo.svg`);
    assert.equal(favicon.status, 200);
    assert.equal(Buffer.from(await favicon.arrayBuffer()).compare(logo), 0);
    assert.doesNotMatch(init + html, /fastify/i);
  });
});
