// The MCP server (issue 21 item 2) with the official SDK's Client against a real server, over both
// transports: `horizon mcp` on stdio (spawned with HORIZON_URL / HORIZON_API_KEY) and Streamable HTTP
// on POST /mcp. The tools' numbers are the API's (compared with direct /v1 calls), refusals are
// isError results naming the field and leave the session usable, jobs are polled with job_status,
// /mcp takes the API keys (401 otherwise) and the quota is charged as over /v1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { monthlyDates, startTestServer, type TestServer } from './helpers.ts';
import { freePort } from './free-port.ts';

const BIN = new URL('../bin/horizon.mjs', import.meta.url).pathname;
// embed_series is tested where the server has weights to embed with: test/api.embeddings.test.ts
const TOOLS = ['cross_validate', 'detect_anomalies', 'embed_series', 'forecast', 'job_status', 'list_models'];

const N = 48;
const target = Array.from({ length: N }, (_, i) => Math.round(100 + 10 * Math.sin((2 * Math.PI * i) / 12) + i + ((i * 7) % 5)));
const index = monthlyDates('2020-01', N);
const other = target.map((v, i) => (i % 5 === 3 ? null : 2 * v - 50));

interface ToolAnswer { isError?: boolean; text: string; summary: string; structured: any }

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text: string }[];
  assert.ok(content.length >= 1 && content.every((c) => c.type === 'text'), JSON.stringify(r));
  const text = content.map((c) => c.text).join('\n');
  if (!r.isError) {
    assert.equal(content.length, 2, 'a summary line, then the JSON');
    assert.deepEqual(JSON.parse(content[1].text), r.structuredContent, 'the text JSON is the structured content');
    assert.ok(!content[0].text.includes('\n'), 'the summary is one line');
  }
  return { isError: r.isError as boolean | undefined, text, summary: content[0].text, structured: r.structuredContent };
}

async function waitForTool(client: Client, jobId: string): Promise<ToolAnswer> {
  for (;;) {
    const r = await call(client, 'job_status', { job_id: jobId });
    assert.ok(!r.isError, r.text);
    if (['completed', 'failed', 'cancelled'].includes(r.structured.status)) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server?.close());

const transports: Record<string, (key: string) => Transport> = {
  stdio: (key) => new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { HORIZON_URL: server.url, HORIZON_API_KEY: key }, stderr: 'pipe' }),
  'Streamable HTTP': (key) => new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
};

for (const [name, transportFor] of Object.entries(transports)) {
  describe(`MCP over ${name}`, () => {
    let client: Client;
    before(async () => {
      client = new Client({ name: 'horizon-test', version: '1.0.0' });
      await client.connect(transportFor(server.key));
    });
    after(async () => client?.close());

    // the SDK alone answered these −32603 Internal error with a zod dump as the message
    it('tools/call without a name or with arguments that are not an object: −32602 Invalid params naming it; the session goes on', async () => {
      const cases: [unknown, RegExp][] = [
        [{ arguments: {} }, /^MCP error -32602: Invalid params: params\.name: required: the tool to call/],
        [{ name: 'forecast', arguments: 'horizon=3' }, /^MCP error -32602: Invalid params: params\.arguments: must be an object .*; got a string$/],
        [{ name: 'forecast', arguments: [{ horizon: 3 }] }, /params\.arguments: .*; got an array$/],
        [{ name: 'forecast', arguments: 3 }, /params\.arguments: .*; got number 3$/],
      ];
      for (const [params, message] of cases) {
        await assert.rejects(client.request({ method: 'tools/call', params } as never, CallToolResultSchema), (error: McpError) => {
          assert.equal(error.code, ErrorCode.InvalidParams, error.message);
          assert.match(error.message, message);
          assert.doesNotMatch(error.message, /\n|invalid_type/);
          return true;
        });
      }
      assert.ok(!(await call(client, 'list_models', {})).isError);
    });

    it('lists the six tools, each with an input schema', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object');
        assert.ok(tool.description && tool.description.length > 40, tool.name);
      }
      const forecast = tools.find((t) => t.name === 'forecast')!;
      assert.deepEqual((forecast.inputSchema.required ?? []).sort(), ['horizon']);
      const models = await call(client, 'list_models', {});
      assert.ok(!models.isError, models.text);
      const raw = await server.request('GET', '/v1/models');
      assert.equal(models.structured.default_model, raw.body.default_model);
      assert.deepEqual(models.structured.models.map((m: any) => [m.model_id, m.available]), raw.body.models.map((m: any) => [m.model_id, m.available]));
      assert.match(models.summary, /models served \(default /);
    });

    it('forecast: the numbers of POST /v1/forecast for the same model, series given by index or by start', async () => {
      const body = { series: [{ target, index }, { target: other, index }], horizon: 6, freq: 'MS', model: 'auto-ets', quantiles: [0.1, 0.5, 0.9] };
      const raw = await server.request('POST', '/v1/forecast', { body });
      assert.equal(raw.status, 200, raw.text);
      const r = await call(client, 'forecast', { model: 'auto-ets', horizon: 6, freq: 'MS', quantiles: [0.1, 0.5, 0.9], series: [{ target, index, name: 'sales' }, { target: other, start: '2020-01-01' }] });
      assert.ok(!r.isError, r.text);
      assert.equal(r.structured.model, 'auto-ets');
      assert.equal(r.structured.model_size, raw.body.model_size);
      assert.equal(r.structured.series.length, 2);
      for (const [i, s] of r.structured.series.entries()) {
        assert.deepEqual(s.prediction, raw.body.series[i][0].prediction, `series ${i}`);
        assert.deepEqual(s.index, raw.body.series[i][0].index);
      }
      assert.equal(r.structured.series[0].name, 'sales');
      assert.deepEqual(r.structured.warnings, raw.body.warnings);
      const p = raw.body.series[0][0].prediction;
      assert.ok(r.summary.startsWith('auto-ets, 2 series, 6 steps: "sales" next '), r.summary);
      assert.match(r.summary, /\(80 % interval .+–.+\) at 2024-01-01/);
      assert.ok(r.summary.includes(String(Number(p.mean[0].toPrecision(4)))), `${r.summary} holds ${p.mean[0]}`);
    });

    it('forecast from a CSV string: columns are series, the frequency inferred from the dates', async () => {
      const csv = ['month,north,south', ...index.map((d, i) => `${d.slice(0, 7)},${target[i]},${other[i] ?? ''}`)].join('\n');
      const r = await call(client, 'forecast', { model: 'seasonal-naive', horizon: 4, csv });
      assert.ok(!r.isError, r.text);
      const raw = await server.request('POST', '/v1/forecast', { body: { series: [{ target, index }, { target: other, index }], horizon: 4, freq: 'MS', model: 'seasonal-naive' } });
      assert.equal(raw.status, 200, raw.text);
      assert.deepEqual(r.structured.series.map((s: any) => s.name), ['north', 'south']);
      assert.deepEqual(r.structured.series.map((s: any) => s.prediction), raw.body.series.map((s: any) => s[0].prediction));
      assert.deepEqual(r.structured.series[1].index, ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01']);
      assert.ok(r.summary.startsWith('seasonal-naive, 2 series, 4 steps: "north" next '), r.summary);
    });

    it('bad input: an isError result naming the field and the reason, and the session goes on', async () => {
      // the API's 422, passed on
      const freq = await call(client, 'forecast', { model: 'naive', horizon: 3, freq: 'M', series: [{ target, index }] });
      assert.equal(freq.isError, true);
      assert.equal(freq.structured.error.status, 422);
      assert.equal(freq.structured.error.code, 'validation_failed');
      const field = freq.structured.error.errors.find((e: any) => e.field === 'freq');
      assert.ok(field, JSON.stringify(freq.structured.error));
      assert.match(field.reason, /did you mean "MS"/);
      assert.match(freq.text, /^422 validation_failed: .*\n- freq: must be one of/);
      // the tool's own check (series[].start needs freq to place the dates) gives the API's hint too (issue 37)
      const fromStart = await call(client, 'forecast', { model: 'naive', horizon: 3, freq: 'M', series: [{ target, start: '2020-01-01' }] });
      assert.equal(fromStart.isError, true);
      assert.match(fromStart.structured.error.errors.find((e: any) => e.field === 'freq')?.reason ?? '', /did you mean "MS"/, JSON.stringify(fromStart.structured));
      assert.match(fromStart.text, /did you mean "MS"/);
      // a per-series reason names the series (and the CSV column it came from)
      const csv = ['month,north,south', ...index.map((d, i) => `${d.slice(0, 7)},${target[i]},${other[i] ?? ''}`)].join('\n');
      const horizon = await call(client, 'forecast', { model: 'naive', horizon: 0, csv });
      assert.equal(horizon.isError, true);
      assert.ok(horizon.structured.error.errors.some((e: any) => e.field === 'horizon'), horizon.text);
      // the tool's own checks, before any request
      const badCsv = await call(client, 'forecast', { horizon: 3, csv: 'month,x\n2020-01,1\nnot a date,2' });
      assert.equal(badCsv.isError, true);
      assert.deepEqual(badCsv.structured.error.errors, [{ field: 'csv', reason: 'row 3: "not a date" is not a date (YYYY-MM, YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS])' }]);
      const noDates = await call(client, 'forecast', { horizon: 3, freq: 'MS', series: [{ target }] });
      assert.equal(noDates.isError, true);
      assert.deepEqual(noDates.structured.error.errors.map((e: any) => [e.series, e.field]), [[0, 'series[0].index']]);
      const badStart = await call(client, 'forecast', { horizon: 3, freq: 'MS', series: [{ target, start: '2023-02-29' }] });
      assert.equal(badStart.isError, true);
      assert.equal(badStart.structured.error.errors[0].field, 'series[0].start');
      // the SDK's schema check: a wrong type or an unknown argument, named
      const type = await call(client, 'forecast', { horizon: '3', freq: 'MS', series: [{ target, index }] });
      assert.equal(type.isError, true);
      assert.match(type.text, /horizon/);
      const unknown = await call(client, 'forecast', { horizon: 3, freq: 'MS', series: [{ target, index }], quantile: [0.5] });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /quantile/);
      const again = await call(client, 'forecast', { model: 'naive', horizon: 2, freq: 'MS', series: [{ target, index }] });
      assert.ok(!again.isError, again.text);
    });

    it('cross_validate: the leaderboard and scores of POST /v1/cross-validation', async () => {
      const body = { series: [{ target, index }, { target: other, index }], horizon: 3, freq: 'MS', n_windows: 2, models: ['naive', 'seasonal-naive'] };
      const raw = await server.request('POST', '/v1/cross-validation', { body });
      assert.equal(raw.status, 200, raw.text);
      const r = await call(client, 'cross_validate', { models: ['naive', 'seasonal-naive'], horizon: 3, freq: 'MS', n_windows: 2, series: [{ target, index }, { target: other, index }] });
      assert.ok(!r.isError, r.text);
      assert.deepEqual(r.structured.leaderboard, raw.body.leaderboard);
      assert.deepEqual(r.structured.models.map((m: any) => m.scores), raw.body.models.map((m: any) => m.scores));
      assert.deepEqual(r.structured.models[0].series_scores, raw.body.models[0].series.map((s: any) => s.scores));
      assert.equal(r.structured.metric, 'wql');
      assert.ok(r.summary.startsWith(`leaderboard by wql (2 windows of 3 steps, 2 series): 1. ${raw.body.leaderboard[0].model} `), r.summary);
    });

    it('detect_anomalies: the flagged timesteps of POST /v1/anomalies', async () => {
      const spiky = target.map((v, i) => (i === 40 ? v + 200 : v));
      const raw = await server.request('POST', '/v1/anomalies', { body: { series: [{ target: spiky, index }], freq: 'MS', model: 'seasonal-naive' } });
      assert.equal(raw.status, 200, raw.text);
      const r = await call(client, 'detect_anomalies', { model: 'seasonal-naive', freq: 'MS', series: [{ target: spiky, index }] });
      assert.ok(!r.isError, r.text);
      const s = raw.body.series[0];
      assert.ok(s.anomalies.includes(40));
      assert.equal(r.structured.n_anomalies, raw.body.n_anomalies);
      assert.deepEqual(r.structured.series[0].anomalies.map((a: any) => a.position), s.anomalies);
      const k = 40 - s.scored_from;
      assert.deepEqual(r.structured.series[0].anomalies.find((a: any) => a.position === 40),
        { position: 40, index: s.index[k], actual: s.actual[k], forecast: s.forecast[k], lo: s.lo[k], hi: s.hi[k], score: s.score[k] });
      assert.match(r.summary, /^seasonal-naive, level 99 %: \d+ anomal(y|ies) in 1 series \(\d+ timesteps scored\): series 0 at /);
    });

    it('job_status: a forecast job, a cross-validation job and an anomaly job, queued with as_job, end with the synchronous answer', async () => {
      const job = await call(client, 'forecast', { model: 'auto-ets', horizon: 5, freq: 'MS', series: [{ target, index }], as_job: true });
      assert.ok(!job.isError, job.text);
      assert.equal(job.structured.kind, 'forecast');
      assert.equal(job.structured.status, 'queued');
      const done = await waitForTool(client, job.structured.job_id);
      assert.equal(done.structured.status, 'completed', done.text);
      assert.equal(done.structured.kind, 'forecast');
      const raw = await server.request('POST', '/v1/forecast', { body: { series: [{ target, index }], horizon: 5, freq: 'MS', model: 'auto-ets' } });
      assert.deepEqual(done.structured.result.series[0].prediction, raw.body.series[0][0].prediction);
      assert.ok(done.summary.startsWith(`forecast job ${job.structured.job_id}: completed — auto-ets, 1 series, 5 steps: series 0 next `), done.summary);

      const cvBody = { models: ['naive', 'seasonal-naive'], horizon: 3, freq: 'MS', series: [{ target, index }] };
      const cvJob = await call(client, 'cross_validate', { ...cvBody, as_job: true });
      assert.ok(!cvJob.isError, cvJob.text);
      assert.equal(cvJob.structured.kind, 'cross_validation');
      const cvDone = await waitForTool(client, cvJob.structured.job_id); // no kind: found as a cross-validation job
      assert.equal(cvDone.structured.status, 'completed', cvDone.text);
      assert.equal(cvDone.structured.kind, 'cross_validation');
      const cvRaw = await server.request('POST', '/v1/cross-validation', { body: cvBody });
      assert.deepEqual(cvDone.structured.result.leaderboard, cvRaw.body.leaderboard);

      const spiky = target.map((v, i) => (i === 40 ? v + 200 : v));
      const anomalyJob = await call(client, 'detect_anomalies', { model: 'seasonal-naive', freq: 'MS', series: [{ target: spiky, index }], as_job: true });
      assert.ok(!anomalyJob.isError, anomalyJob.text);
      assert.equal(anomalyJob.structured.kind, 'anomalies');
      assert.match(anomalyJob.summary, /^anomaly job \S+ queued \(seasonal-naive, mode in-sample, 1 series\); poll it with job_status$/);
      const anomalyDone = await waitForTool(client, anomalyJob.structured.job_id); // no kind: found as an anomaly job
      assert.equal(anomalyDone.structured.status, 'completed', anomalyDone.text);
      assert.equal(anomalyDone.structured.kind, 'anomalies');
      const direct = await call(client, 'detect_anomalies', { model: 'seasonal-naive', freq: 'MS', series: [{ target: spiky, index }] });
      assert.deepEqual(anomalyDone.structured.result, direct.structured, 'the job\'s result as detect_anomalies answers it');
      assert.ok(anomalyDone.summary.startsWith(`anomaly job ${anomalyJob.structured.job_id}: completed — seasonal-naive, level 99 %: `), anomalyDone.summary);

      const missing = await call(client, 'job_status', { job_id: '00000000-0000-4000-8000-000000000000' });
      assert.equal(missing.isError, true);
      assert.equal(missing.structured.error.status, 404);
      assert.match(missing.text, /^404 not_found: no forecast, cross-validation, anomaly or embedding job "00000000-/);
    });

    it('quota: one unit per forecast call and per cross-validated model, as over /v1; list_models and job_status are free; a spent quota is an isError 429', async () => {
      const account = await server.newAccount({ daily: 5, weekly: 100 });
      const own = new Client({ name: 'horizon-test-quota', version: '1.0.0' });
      await own.connect(transportFor(account.key));
      try {
        assert.ok(!(await call(own, 'list_models', {})).isError);
        const f = await call(own, 'forecast', { model: 'naive', horizon: 2, freq: 'MS', series: [{ target, index }] });
        assert.ok(!f.isError, f.text);
        const cv = await call(own, 'cross_validate', { models: ['naive', 'seasonal-naive'], horizon: 2, freq: 'MS', series: [{ target, index }] });
        assert.ok(!cv.isError, cv.text);
        const status = await call(own, 'job_status', { job_id: '00000000-0000-4000-8000-000000000000' });
        assert.equal(status.structured.error.status, 404);
        const direct = await server.request('POST', '/v1/forecast', { key: account.key, body: { series: [{ target, index }], horizon: 2, freq: 'MS', model: 'naive' } });
        assert.equal(direct.status, 200, direct.text);
        assert.equal(direct.headers.get('x-ratelimit-remaining'), '1', 'MCP took 3 units (forecast 1, cross-validation of 2 models 2), this call the 4th');
        assert.ok(!(await call(own, 'forecast', { model: 'naive', horizon: 2, freq: 'MS', series: [{ target, index }] })).isError);
        const spent = await call(own, 'forecast', { model: 'naive', horizon: 2, freq: 'MS', series: [{ target, index }] });
        assert.equal(spent.isError, true);
        assert.equal(spent.structured.error.status, 429);
        assert.equal(spent.structured.error.code, 'quota_exceeded');
      } finally { await own.close(); }
    });
  });
}

describe('POST /mcp authentication and methods', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } } };
  const headers = { accept: 'application/json, text/event-stream' };

  it('a missing or invalid API key is a 401 problem+json, before any MCP handling', async () => {
    for (const key of [null, 'hzn_AAAAAAAAAAAA_notarealkeynotarealkeynotarealkeynotarealkey', 'not-a-key']) {
      const res = await server.request('POST', '/mcp', { key, body: initialize, headers });
      assert.equal(res.status, 401, `${key}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'unauthorized');
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
    const client = new Client({ name: 'horizon-test', version: '1.0.0' });
    await assert.rejects(client.connect(transports['Streamable HTTP']('hzn_AAAAAAAAAAAA_notarealkeynotarealkeynotarealkeynotarealkey')));
  });

  it('with a key: initialize answers JSON (stateless, no session id); GET and DELETE are 405 Allow: POST', async () => {
    const res = await server.request('POST', '/mcp', { body: initialize, headers });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.result.serverInfo.name, 'horizon');
    assert.equal(res.headers.get('mcp-session-id'), null);
    for (const method of ['GET', 'DELETE']) {
      const other = await server.request(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      assert.equal(other.status, 405, other.text);
      assert.equal(other.headers.get('allow'), 'POST');
      assert.equal(other.body.code, 'method_not_allowed');
      const anonymous = await server.request(method, '/mcp', { key: null });
      assert.equal(anonymous.status, 401);
    }
  });

  it('malformed tools/call params over plain HTTP: a JSON-RPC −32602 error in one line', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'Invalid params: params: must be an object {name, arguments}, got none'],
      [{ name: 7 }, 'Invalid params: params.name: must be a string, the tool to call; got number 7'],
      [{ name: 'forecast', arguments: null }, 'Invalid params: params.arguments: must be an object of the tool\'s arguments by name ({} for none); got null'],
    ];
    for (const [params, message] of cases) {
      const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params === undefined ? {} : { params }) };
      const res = await server.request('POST', '/mcp', { body, headers });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { jsonrpc: '2.0', id: 7, error: { code: -32602, message } });
    }
  });

  it('is not in the /v1 OpenAPI document', async () => {
    const doc = await server.request('GET', '/v1/openapi.json', { key: null });
    assert.equal(doc.status, 200);
    assert.ok(!Object.keys(doc.body.paths).some((p) => p.startsWith('/mcp')));
  });
});

describe('horizon mcp (the stdio command)', () => {
  it('without an API key: exit 2 naming HORIZON_API_KEY, nothing on stdout (the protocol\'s channel)', async () => {
    const env = { ...process.env };
    delete env.HORIZON_API_KEY;
    const run = await promisify(execFile)(process.execPath, [BIN, 'mcp'], { env, encoding: 'utf8' }).then(() => null, (e) => e as { code: number; stdout: string; stderr: string });
    assert.ok(run, 'it fails');
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /an API key is needed: --key or HORIZON_API_KEY/);
  });

  it('a server that cannot be reached: each tool call is an isError result, the session stays up', async () => {
    const port = await freePort();
    const client = new Client({ name: 'horizon-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--url', `http://127.0.0.1:${port}`, '--key', 'hzn_x'], stderr: 'pipe' }));
    try {
      for (let k = 0; k < 2; k++) {
        const r = await call(client, 'list_models', {});
        assert.equal(r.isError, true);
        assert.match(r.text, /^the Horizon API could not be reached: /);
      }
    } finally { await client.close(); }
  });
});
