// POST /v1/forecast through real HTTP, real PGlite and a real Python worker: happy paths, every
// validation rule of contract B.1 (422 naming series, field and reason), and transport errors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, simpleRequest, monthlyDates, dailyDates, type TestServer } from './helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer({ HORIZON_BODY_LIMIT_BYTES: String(256 * 1024) }); });
after(async () => server.close());

function assertMonotone(prediction: Record<string, number[]>, levels: number[]): void {
  const sorted = [...levels].sort((a, b) => a - b);
  for (let l = 1; l < sorted.length; l++) {
    prediction[String(sorted[l])].forEach((v, t) => assert.ok(v >= prediction[String(sorted[l - 1])][t], `quantile ${sorted[l]} < ${sorted[l - 1]} at step ${t}`));
  }
}

describe('POST /v1/forecast — happy paths', () => {
  it('answers the contract shape: one prediction per series, horizon values per array, forecast dates', async () => {
    const body = simpleRequest({ model: 'auto-ets', horizon: 24, quantiles: [0.1, 0.5, 0.9] }, 60);
    (body.series as unknown[]).push({ target: Array.from({ length: 30 }, (_, i) => i % 7), index: monthlyDates('2019-03', 30) });
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'completed');
    assert.equal(res.body.model, 'auto-ets');
    assert.equal(res.body.metrics, null);
    assert.equal(res.body.series.length, 2);
    for (const [i, entry] of res.body.series.entries()) {
      assert.equal(entry.length, 1, `series[${i}] holds one prediction`);
      const { prediction, index } = entry[0];
      assert.deepEqual(Object.keys(prediction).sort(), ['0.1', '0.5', '0.9', 'mean']);
      for (const values of Object.values(prediction) as number[][]) assert.equal(values.length, 24);
      assert.equal(index.length, 24);
      assertMonotone(prediction, [0.1, 0.5, 0.9]);
    }
    assert.equal(res.body.series[0][0].index[0], '2025-01-01');
    assert.equal(res.body.series[1][0].index[0], '2021-09-01');
    assert.equal(res.body.series[1][0].index[23], '2023-08-01');
  });

  it('defaults: model from GET /v1/models, quantiles [0.1, 0.5, 0.9]', async () => {
    const models = await server.request('GET', '/v1/models');
    const body = simpleRequest();
    delete body.model;
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.model, models.body.default_model);
    assert.deepEqual(Object.keys(res.body.series[0][0].prediction).sort(), ['0.1', '0.5', '0.9', 'mean']);
  });

  it('quantile keys are exactly the requested levels, in any order, never crossing', async () => {
    const levels = [0.9, 0.05, 0.5, 0.25];
    const res = await server.request('POST', '/v1/forecast', { body: simpleRequest({ model: 'auto-theta', quantiles: levels }) });
    assert.equal(res.status, 200, res.text);
    const { prediction } = res.body.series[0][0];
    assert.deepEqual(Object.keys(prediction).filter((k) => k !== 'mean').sort(), ['0.05', '0.25', '0.5', '0.9']);
    assertMonotone(prediction, levels);
  });

  it('quantiles: [] returns the mean only', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: simpleRequest({ model: 'auto-ets', quantiles: [] }) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body.series[0][0].prediction), ['mean']);
  });

  it('naive repeats the last value; seasonal-naive repeats the last season', async () => {
    const target = Array.from({ length: 36 }, (_, i) => (i % 12) * 10 + 5);
    const base = { series: [{ target, index: monthlyDates('2020-01', 36) }], horizon: 12, freq: 'MS' };
    const naive = await server.request('POST', '/v1/forecast', { body: { ...base, model: 'naive' } });
    assert.deepEqual(naive.body.series[0][0].prediction.mean, Array(12).fill(target.at(-1)));
    const seasonal = await server.request('POST', '/v1/forecast', { body: { ...base, model: 'seasonal-naive' } });
    assert.deepEqual(seasonal.body.series[0][0].prediction.mean, target.slice(-12));
  });

  it('hourly: date-time index across midnight, forecast stamps continue the grid', async () => {
    const index = Array.from({ length: 72 }, (_, i) => new Date(Date.UTC(2024, 1, 27, 0) + i * 3_600_000).toISOString().slice(0, 16) + 'Z');
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target: index.map((_, i) => i % 24), index }], horizon: 3, freq: 'H', model: 'seasonal-naive' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.series[0][0].index, ['2024-03-01T00:00:00Z', '2024-03-01T01:00:00Z', '2024-03-01T02:00:00Z']);
    assert.deepEqual(res.body.series[0][0].prediction.mean, [0, 1, 2]);
  });

  it('gaps are filled and reported in warnings; null targets are accepted', async () => {
    const index = dailyDates('2024-01-01', 40).filter((_, i) => i !== 10 && i !== 11);
    const target: (number | null)[] = index.map((_, i) => i);
    target[3] = null;
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target, index }], horizon: 5, freq: 'D', model: 'auto-ets' } });
    assert.equal(res.status, 200, res.text);
    const gap = res.body.warnings.find((w: { series?: number; message: string }) => w.series === 0 && /2024-01-11/.test(w.message));
    assert.ok(gap, JSON.stringify(res.body.warnings));
    assert.deepEqual(res.body.series[0][0].index, dailyDates('2024-02-10', 5));
  });

  it('covariates sent to a model without covariate support are ignored with a warning', async () => {
    const n = 24;
    const body = simpleRequest({ horizon: 3 }, n);
    const series = (body.series as Record<string, unknown>[])[0];
    series.hist_variables = { price: Array(n).fill(1) };
    series.future_variables = { price: [1, 1, 1] };
    series.future_variables_index = monthlyDates('2022-01', 3);
    series.static_variables = { store: 4 };
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 200, res.text);
    const text = JSON.stringify(res.body.warnings);
    assert.match(text, /price/);
    assert.match(text, /store/);
  });

  it('context keeps only the last observations', async () => {
    const body = simpleRequest({ model: 'naive', context: 1 });
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 200, res.text);
    const target = (body.series as { target: number[] }[])[0].target;
    assert.equal(res.body.series[0][0].prediction.mean[0], target.at(-1));
  });
});

// Each case: a mutation of a valid request → the field (and series) the 422 must name.
const invalid: { name: string; mutate(b: any): void; field: RegExp; series?: number; reason?: RegExp }[] = [
  { name: 'unknown model lists valid ids', mutate: (b) => { b.model = 'gpt-cast'; }, field: /^model$/, reason: /naive.*auto-ets|auto-ets.*naive/ },
  { name: 'unknown size lists the sizes', mutate: (b) => { b.model = 'auto-ets'; b.model_size = 'huge'; }, field: /^model_size$/, reason: /default/ },
  { name: 'invalid freq', mutate: (b) => { b.freq = 'M'; }, field: /^freq$/, reason: /MS, D, W, H, Q, Y/ },
  { name: 'index and target lengths differ', mutate: (b) => { b.series[0].index.pop(); }, field: /^series\[0\]\.(index|target)$/, series: 0 },
  { name: 'date not ascending', mutate: (b) => { [b.series[0].index[3], b.series[0].index[4]] = [b.series[0].index[4], b.series[0].index[3]]; }, field: /^series\[0\]\.index\[\d+\]$/, series: 0 },
  { name: 'duplicate date', mutate: (b) => { b.series[0].index[5] = b.series[0].index[4]; }, field: /^series\[0\]\.index\[5\]$/, series: 0 },
  { name: 'date off the grid', mutate: (b) => { b.series[0].index[7] = '2020-08-15'; }, field: /^series\[0\]\.index\[7\]$/, series: 0, reason: /2020-08-15/ },
  { name: 'malformed date', mutate: (b) => { b.series[0].index[2] = '03/01/2020'; }, field: /^series\[0\]\.index\[2\]$/, series: 0 },
  { name: 'impossible date', mutate: (b) => { b.freq = 'D'; b.series[0].index = dailyDates('2023-02-20', 48).map((d: string, i: number) => (i === 9 ? '2023-02-29' : d)); }, field: /^series\[0\]\.index\[9\]$/, series: 0 },
  { name: 'all targets null', mutate: (b) => { b.series[0].target = b.series[0].target.map(() => null); }, field: /^series\[0\]\.target$/, series: 0 },
  { name: 'target not a number', mutate: (b) => { b.series[0].target[3] = '12'; }, field: /^series\[0\]\.target\[3\]$/, series: 0 },
  { name: 'horizon 0', mutate: (b) => { b.horizon = 0; }, field: /^horizon$/ },
  { name: 'horizon over max_horizon', mutate: (b) => { b.model = 'auto-ets'; b.horizon = 2001; }, field: /^horizon$/, reason: /2000/ },
  { name: 'horizon not an integer', mutate: (b) => { b.horizon = 2.5; }, field: /^horizon$/ },
  { name: 'context 0', mutate: (b) => { b.context = 0; }, field: /^context$/ },
  { name: 'quantile 1', mutate: (b) => { b.quantiles = [0.5, 1]; }, field: /^quantiles\[1\]$/ },
  { name: 'quantile 0', mutate: (b) => { b.quantiles = [0]; }, field: /^quantiles\[0\]$/ },
  { name: 'duplicate quantiles', mutate: (b) => { b.quantiles = [0.1, 0.5, 0.1]; }, field: /^quantiles/ },
  { name: 'too many quantiles', mutate: (b) => { b.quantiles = Array.from({ length: 100 }, (_, i) => (i + 1) / 101); }, field: /^quantiles$/ },
  { name: 'unknown top-level field', mutate: (b) => { b.horizn = 3; }, field: /^horizn$/, reason: /unknown field/ },
  { name: 'unknown series field', mutate: (b) => { b.series[0].values = [1]; }, field: /^series\[0\]\.values$/, series: 0, reason: /unknown field/ },
  { name: 'missing horizon', mutate: (b) => { delete b.horizon; }, field: /^horizon$/, reason: /required/ },
  { name: 'empty series list', mutate: (b) => { b.series = []; }, field: /^series$/ },
  { name: 'hist variable of the wrong length', mutate: (b) => { b.series[0].hist_variables = { price: [1, 2] }; }, field: /^series\[0\]\.hist_variables\.price$/, series: 0 },
  { name: 'future variable without a hist variable', mutate: (b) => { b.series[0].future_variables = { promo: Array(6).fill(1) }; b.series[0].future_variables_index = monthlyDates('2024-01', 6); }, field: /^series\[0\]\.future_variables\.promo$/, series: 0 },
  { name: 'future index not continuing the grid', mutate: (b) => { b.series[0].hist_variables = { price: Array(48).fill(1) }; b.series[0].future_variables = { price: Array(6).fill(1) }; b.series[0].future_variables_index = monthlyDates('2024-03', 6); }, field: /^series\[0\]\.future_variables_index/, series: 0 },
  { name: 'future index shorter than the horizon', mutate: (b) => { b.series[0].hist_variables = { price: Array(48).fill(1) }; b.series[0].future_variables = { price: [1, 1] }; b.series[0].future_variables_index = monthlyDates('2024-01', 2); }, field: /^series\[0\]\.future_variables_index$/, series: 0 },
  { name: 'future values length differs from its index', mutate: (b) => { b.series[0].hist_variables = { price: Array(48).fill(1) }; b.series[0].future_variables = { price: [1, 1, 1] }; b.series[0].future_variables_index = monthlyDates('2024-01', 6); }, field: /^series\[0\]\.future_variables\.price$/, series: 0 },
  { name: 'static variable not a number', mutate: (b) => { b.series[0].static_variables = { store: 'x' }; }, field: /^series\[0\]\.static_variables\.store$/, series: 0 },
  { name: 'the second series is named', mutate: (b) => { b.series.push({ target: [1, 2, 3], index: ['2020-01-01', '2020-02-01', '2020-02-02'] }); }, field: /^series\[1\]\.index\[2\]$/, series: 1 },
];

describe('POST /v1/forecast — 422 for every invalid input, naming series, field and reason', () => {
  for (const c of invalid) {
    it(c.name, async () => {
      const body = structuredClone(simpleRequest());
      c.mutate(body);
      const before = await server.request('GET', '/v1/api-keys');
      const res = await server.request('POST', '/v1/forecast', { body });
      assert.equal(res.status, 422, res.text);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(res.body.detail.length > 0);
      assert.ok(res.body.request_id);
      const match = res.body.errors.find((e: { field: string }) => c.field.test(e.field));
      assert.ok(match, `no error for ${c.field}: ${JSON.stringify(res.body.errors)}`);
      if (c.series !== undefined) assert.equal(match.series, c.series);
      if (c.reason) assert.match(match.reason, c.reason);
      assert.equal(res.headers.get('x-ratelimit-remaining'), null, 'a 422 is not charged');
      assert.equal(before.status, 200);
    });
  }
});

describe('POST /v1/forecast — transport errors', () => {
  it('400 for unreadable JSON and for NaN', async () => {
    for (const raw of ['{"series": [', '{"series":[{"target":[NaN],"index":["2020-01-01"]}],"horizon":1,"freq":"D"}']) {
      const res = await server.request('POST', '/v1/forecast', { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'bad_json');
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
    }
  });

  it('415 for a body that is not JSON', async () => {
    const res = await server.request('POST', '/v1/forecast', { raw: 'horizon=3', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415, res.text);
    assert.equal(res.body.code, 'unsupported_media_type');
  });

  it('413 for a body over the limit', async () => {
    const n = 40_000;
    const body = { series: [{ target: Array(n).fill(123456.789), index: dailyDates('1900-01-01', n) }], horizon: 1, freq: 'D' };
    const res = await server.request('POST', '/v1/forecast', { body });
    assert.equal(res.status, 413, res.text);
    assert.equal(res.body.code, 'payload_too_large');
  });

  it('unversioned paths are 404 pointing at /v1', async () => {
    const res = await server.request('POST', '/forecast', { body: simpleRequest() });
    assert.equal(res.status, 404);
    assert.match(res.body.detail, /\/v1\/forecast/);
  });

  it('serves the OpenAPI 3.1 document and a docs page', async () => {
    const res = await server.request('GET', '/v1/openapi.json', { key: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    for (const path of ['/v1/forecast', '/v1/forecast-jobs', '/v1/forecast-jobs/{id}', '/v1/models', '/v1/warmup', '/v1/status', '/v1/api-keys', '/v1/api-keys/{id}']) {
      assert.ok(res.body.paths[path], `OpenAPI lists ${path}`);
    }
    const docs = await fetch(`${server.url}/v1/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
