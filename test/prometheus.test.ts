// GET /metrics (issue 15): scraped before and after forecasts, a job, a 422, a 429 and a real worker
// restart; every counter moved by exactly what happened, the worker's own numbers included (they
// start over when its process does), and the text parses with prometheus_client's exposition parser.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { groupPython } from '../src/runtime/supervisor.ts';
import { startTestServer, simpleRequest, waitForJob, type TestServer } from './helpers.ts';

type Sample = [name: string, labels: Record<string, string>, value: number];

const PARSER = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
print(json.dumps([[s.name, s.labels, s.value] for f in text_string_to_metric_families(sys.stdin.read()) for s in f.samples]))
`;

/** Parses an exposition with prometheus_client.parser (the pinned runtime dependency): it raises on malformed text. */
function parseExposition(text: string): Sample[] {
  const types = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]);
  assert.equal(new Set(types).size, types.length, 'every metric family appears once');
  return JSON.parse(execFileSync(groupPython('core'), ['-c', PARSER], { input: text, encoding: 'utf8' })) as Sample[];
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter(([n, l]) => n === name && Object.entries(labels).every(([k, v]) => l[k] === v)).reduce((sum, [, , v]) => sum + v, 0);
}

describe('GET /metrics', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core' }); });
  after(async () => { await server.close(); });

  const scrape = async () => {
    const res = await server.request('GET', '/metrics', { key: null });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers.get('x-ratelimit-limit'), null, 'a scrape is not charged');
    return parseExposition(res.text);
  };

  it('counts forecasts, a job, a 422, a 429 and a worker restart exactly', async () => {
    const { accountId, key } = await server.newAccount({ daily: 3, weekly: 100 });
    const forecast = { method: 'POST', route: '/v1/forecast' };
    const naive = { runtime_group: 'core', model: 'naive', size: 'default' };
    const a = await scrape();

    for (let i = 0; i < 2; i++) assert.equal((await server.request('POST', '/v1/forecast', { key, body: simpleRequest() })).status, 200);
    const job = await server.request('POST', '/v1/forecast-jobs', { key, body: simpleRequest() });
    assert.equal(job.status, 202, job.text);
    assert.equal((await waitForJob(server, job.body.job_id, key, (s) => s === 'completed' || s === 'failed')).status, 'completed');
    const b = await scrape();

    const moved = (name: string, labels: Record<string, string>) => value(b, name, labels) - value(a, name, labels);
    assert.equal(moved('horizon_http_requests_total', { ...forecast, status: '200' }), 2);
    assert.equal(moved('horizon_http_request_duration_seconds_count', forecast), 2);
    assert.equal(moved('horizon_http_requests_total', { method: 'POST', route: '/v1/forecast-jobs', status: '202' }), 1);
    assert.equal(moved('horizon_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), 1);
    assert.ok(value(b, 'horizon_http_requests_total', { method: 'GET', route: '/v1/forecast-jobs/:id', status: '200' }) >= 1);
    assert.ok(!b.some(([, labels]) => Object.values(labels).some((v) => v.includes(job.body.job_id))), 'routes are patterns, never URLs');
    assert.equal(value(b, 'horizon_quota_units_total', { account_id: accountId, outcome: 'charged' }), 3);
    assert.equal(value(b, 'horizon_quota_units_total', { account_id: accountId, outcome: 'refused' }), 0);
    assert.equal(moved('horizon_jobs', { state: 'completed' }), 1);
    assert.equal(value(b, 'horizon_job_queue_depth'), 0);
    // the worker's side: two forecasts and the job, one single-series batch each, one load of naive
    assert.equal(moved('horizon_runtime_infer_requests_total', { ...naive, outcome: 'ok' }), 3);
    assert.equal(moved('horizon_runtime_batch_series_count', naive), 3);
    assert.equal(moved('horizon_runtime_batch_series_sum', naive), 3);
    assert.equal(moved('horizon_runtime_queue_wait_seconds_count', naive), 3);
    assert.equal(moved('horizon_runtime_inference_seconds_count', naive), 3);
    assert.equal(moved('horizon_runtime_model_load_seconds_count', naive), 1);
    assert.equal(value(b, 'horizon_runtime_model_loaded', naive), 1);
    assert.equal(value(b, 'horizon_worker_up', { runtime_group: 'core' }), 1);
    // the Grafana dashboard queries only series that exist
    const dashboard = readFileSync(new URL('../deploy/grafana/horizon.json', import.meta.url), 'utf8');
    const names = new Set(b.map(([name]) => name));
    for (const name of new Set(dashboard.match(/horizon_[a-z_]+/g))) assert.ok(names.has(name), `the dashboard's ${name} is exposed`);

    const invalid = await server.request('POST', '/v1/forecast', { key, body: simpleRequest({ horizon: 0 }) });
    assert.equal(invalid.status, 422, invalid.text);
    const refused = await server.request('POST', '/v1/forecast', { key, body: simpleRequest() });
    assert.equal(refused.status, 429, refused.text);
    // a real crash: SIGKILL of the worker process, then wait for the supervisor's restart
    const pid = server.supervisor.kill('core');
    assert.ok(pid);
    const deadline = Date.now() + 120_000;
    while (!server.supervisor.status().some((w) => w.group === 'core' && w.state === 'ready' && w.pid !== pid)) {
      assert.ok(Date.now() < deadline, 'the core worker came back');
      await new Promise((r) => setTimeout(r, 100));
    }
    const c = await scrape();

    const since = (name: string, labels: Record<string, string>) => value(c, name, labels) - value(b, name, labels);
    assert.equal(since('horizon_http_requests_total', { ...forecast, status: '422' }), 1);
    assert.equal(since('horizon_http_requests_total', { ...forecast, status: '429' }), 1);
    assert.equal(since('horizon_http_requests_total', { ...forecast, status: '200' }), 0);
    assert.equal(since('horizon_http_request_duration_seconds_count', forecast), 2);
    assert.equal(value(c, 'horizon_quota_units_total', { account_id: accountId, outcome: 'charged' }), 3, 'a 422 is not charged');
    assert.equal(value(c, 'horizon_quota_units_total', { account_id: accountId, outcome: 'refused' }), 1);
    assert.equal(since('horizon_worker_restarts_total', { runtime_group: 'core' }), 1);
    assert.equal(value(c, 'horizon_worker_up', { runtime_group: 'core' }), 1);
    // a new worker process: its counters start over and nothing is loaded yet
    assert.equal(value(c, 'horizon_runtime_infer_requests_total', naive), 0);
    assert.equal(value(c, 'horizon_runtime_model_loaded', naive), 0);
  });
});
