// KServe's time-series protocol (src/http/kserve) on a real server over HTTP: the numbers are POST /v1/forecast's,
// the shapes KServe's (test/kserve validates them with kserve's own pydantic types), errors in KServe's shape with
// Horizon's status, one quota unit per call, 401 without a key.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

const y = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140];
const z = y.map((v) => v / 2 + 7);
const monthly = (n: number) => Array.from({ length: n }, (_, k) => `${1949 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}-01`);

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server?.close(); });

const post = (path: string, body: unknown, key?: string | null) => server.request('POST', path, { body, key });

describe('KServe time-series protocol', () => {
  it('a univariate and a multivariate input: the numbers of POST /v1/forecast, one quota unit', async () => {
    const { key } = await server.newAccount({ daily: 5 });
    const res = await post('/v1/timeseries/forecast', {
      model: 'auto-ets', options: { horizon: 3, quantiles: [0.1, 0.9] }, metadata: { team: 'a' },
      inputs: [
        { type: 'univariate_time_series', name: 'air', series: y, frequency: 'M', start_timestamp: '1949-01-01T00:00:00Z' },
        { type: 'multivariate_time_series', name: 'pair', series: y.map((v, t) => [v, z[t]]), frequency: 'month', start_timestamp: '1949-01-01' },
      ],
    }, key);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '4', 'one quota unit');
    const v1 = await post('/v1/forecast', {
      model: 'auto-ets', freq: 'MS', horizon: 3, quantiles: [0.1, 0.9],
      series: [{ index: monthly(24), target: y }, { index: monthly(24), target: y }, { index: monthly(24), target: z }],
    });
    assert.equal(v1.status, 200, v1.text);
    const [a, b, c] = v1.body.series.map((s: any) => s[0].prediction);
    assert.equal(res.body.status, 'completed');
    assert.equal(res.body.model, 'auto-ets');
    assert.equal(res.body.outputs.length, 2);
    for (const output of res.body.outputs) assert.deepEqual([output.type, output.status], ['time_series_forecast', 'completed']);
    const [air, pair] = res.body.outputs.map((o: any) => o.content[0]);
    assert.deepEqual(air.mean_forecast, a.mean);
    assert.deepEqual(air.quantiles, { '0.1': a['0.1'], '0.9': a['0.9'] });
    assert.equal(air.start_timestamp, '1951-01-01T00:00:00Z');
    assert.equal(air.frequency, 'M');
    assert.equal(air.name, 'air');
    assert.deepEqual(pair.mean_forecast, b.mean.map((v: number, t: number) => [v, c.mean[t]]), 'step t holds one value per variate');
    assert.deepEqual(pair.quantiles['0.9'], b['0.9'].map((v: number, t: number) => [v, c['0.9'][t]]));
    assert.equal(pair.type, 'multivariate_time_series');
    assert.deepEqual(res.body.usage, { prompt_tokens: 72, completion_tokens: 9, total_tokens: 81 });
  });

  it('no start_timestamp: dated from 2000-01-01 on the frequency\'s grid; no quantiles asked, none answered', async () => {
    const res = await post('/v1/timeseries/forecast', {
      model: 'naive', options: { horizon: 2 }, inputs: [{ type: 'univariate_time_series', name: 'h', series: [1, 2, 3, 4], frequency: 'H' }],
    });
    assert.equal(res.status, 200, res.text);
    const content = res.body.outputs[0].content[0];
    assert.equal(content.start_timestamp, '2000-01-01T04:00:00Z');
    assert.deepEqual(content.mean_forecast, [4, 4]);
    assert.equal(content.quantiles, undefined);
  });

  it('errors: KServe\'s shape with Horizon\'s status, naming the input and field', async () => {
    const minute = await post('/v1/timeseries/forecast', {
      model: 'naive', options: { horizon: 2 },
      inputs: [{ type: 'univariate_time_series', name: 'm', series: [1, 2, 3], frequency: 'T' }],
    });
    assert.equal(minute.status, 422, minute.text);
    assert.match(minute.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(minute.body.status, 'error');
    assert.deepEqual(minute.body.outputs, []);
    assert.equal(minute.body.error.code, '422');
    assert.equal(minute.body.error.param, 'inputs[0].frequency');
    assert.equal(minute.body.error.type, 'validation_failed');
    assert.equal(minute.body.request_id, minute.headers.get('x-request-id'));

    const horizon = await post('/v1/timeseries/forecast', {
      model: 'naive', options: { horizon: 2 },
      inputs: [
        { type: 'univariate_time_series', name: 'ok', series: [1, 2, 3], frequency: 'D' },
        { type: 'univariate_time_series', name: 'one', series: [5], frequency: 'D' },
      ],
    });
    assert.equal(horizon.status, 422, horizon.text);
    assert.equal(horizon.body.error.param, 'inputs[1].series', 'the /v1 error on series[1] names input 1');

    const ragged = await post('/v1/timeseries/forecast', {
      model: 'naive', options: { horizon: 2 },
      inputs: [{ type: 'multivariate_time_series', name: 'r', series: [[1, 2], [3]], frequency: 'D' }],
    });
    assert.equal(ragged.status, 422);
    assert.equal(ragged.body.error.param, 'inputs[0].series');
    assert.match(ragged.body.error.message, /step 1 has 1 values but step 0 has 2/);

    const badDate = await post('/v1/timeseries/forecast', {
      model: 'naive', options: { horizon: 2 },
      inputs: [{ type: 'univariate_time_series', name: 'd', series: [1, 2, 3], frequency: 'D', start_timestamp: 'yesterday' }],
    });
    assert.equal(badDate.status, 422);
    assert.equal(badDate.body.error.param, 'inputs[0].start_timestamp');

    const schema = await post('/v1/timeseries/forecast', { model: 'naive', options: { horizon: 0 }, inputs: [] });
    assert.equal(schema.status, 422, schema.text);
    assert.equal(schema.body.status, 'error');

    const unknown = await post('/v1/timeseries/forecast', {
      model: 'no-such-model', options: { horizon: 2 }, inputs: [{ type: 'univariate_time_series', name: 'x', series: [1, 2, 3], frequency: 'D' }],
    });
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.body.error.param, 'model');
  });

  it('401 without a key, in KServe\'s shape; the quota refuses with 429', async () => {
    const body = { model: 'naive', options: { horizon: 1 }, inputs: [{ type: 'univariate_time_series', name: 'x', series: [1, 2], frequency: 'D' }] };
    const res = await post('/v1/timeseries/forecast', body, null);
    assert.equal(res.status, 401);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.error.code, '401');
    assert.equal((await server.request('GET', '/v1/timeseries/models', { key: null })).status, 401);
    const { key } = await server.newAccount({ daily: 1 });
    assert.equal((await post('/v1/timeseries/forecast', body, key)).status, 200);
    const over = await post('/v1/timeseries/forecast', body, key);
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, '429');
    assert.ok(over.headers.get('retry-after'));
  });

  it('GET /v1/timeseries/models: KServe\'s list of names, the served ids and "auto"', async () => {
    const res = await server.request('GET', '/v1/timeseries/models');
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    assert.ok(res.body.includes('naive') && res.body.includes('auto'), res.text);
  });
});
