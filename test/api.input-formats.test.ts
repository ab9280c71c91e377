// Input as pandas writes it (str(pd.Timestamp): a space before the time, UTC offsets; midnight
// date-times for daily data) gives the same forecast and forecast index as the canonical spelling.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

const n = 48;
const target = Array.from({ length: n }, (_, i) => 50 + 10 * Math.sin((2 * Math.PI * i) / 24) + (i % 5));
const hoursUtc = Array.from({ length: n }, (_, i) => new Date(Date.UTC(2024, 2, 30, 12) + i * 3_600_000).toISOString().slice(0, 19));

/** `2024-03-30 13:00:00+01:00`: the UTC hour written in Europe/Paris (CET, then CEST from 01:00 UTC on 31 March). */
function paris(utc: string): string {
  const t = Date.parse(`${utc}Z`);
  const offset = t >= Date.UTC(2024, 2, 31, 1) ? 2 : 1;
  return `${new Date(t + offset * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')}+0${offset}:00`;
}

describe('pandas-style timestamps through POST /v1/forecast', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  async function forecast(index: string[], freq: string, values = target): Promise<any> {
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target: values, index }], horizon: 4, freq, model: 'seasonal-naive' } });
    assert.equal(res.status, 200, res.text);
    return res.body.series[0][0];
  }

  test('H: str(pd.Timestamp) with a space equals the T spelling', async () => {
    const canonical = await forecast(hoursUtc, 'H');
    const spaced = await forecast(hoursUtc.map((d) => d.replace('T', ' ')), 'H');
    assert.deepEqual(spaced, canonical);
    assert.deepEqual(canonical.index, ['2024-04-01T12:00:00', '2024-04-01T13:00:00', '2024-04-01T14:00:00', '2024-04-01T15:00:00']);
  });

  test('H: UTC offsets (across a daylight-saving change) are normalised to UTC', async () => {
    const zulu = await forecast(hoursUtc.map((d) => `${d}Z`), 'H');
    const local = await forecast(hoursUtc.map(paris), 'H');
    assert.equal(paris(hoursUtc[0]), '2024-03-30 13:00:00+01:00');
    assert.equal(paris(hoursUtc.at(-1)!), '2024-04-01 13:00:00+02:00');
    assert.deepEqual(local, zulu);
    assert.deepEqual(local.index, ['2024-04-01T12:00:00Z', '2024-04-01T13:00:00Z', '2024-04-01T14:00:00Z', '2024-04-01T15:00:00Z']);
  });

  test('D: midnight date-times as pandas writes them equal plain dates', async () => {
    const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2024, 0, 15) + i * 86_400_000).toISOString().slice(0, 10));
    const values = target.slice(0, 30);
    const canonical = await forecast(days, 'D', values);
    assert.deepEqual(await forecast(days.map((d) => `${d} 00:00:00`), 'D', values), canonical);
    assert.deepEqual(await forecast(days.map((d) => `${d}T00:00:00.000Z`), 'D', values), canonical);
    assert.deepEqual(canonical.index, ['2024-02-14', '2024-02-15', '2024-02-16', '2024-02-17']);
  });

  test('D: a time of day is a 422 naming the date and pointing at freq H', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target: [1, 2, 3], index: ['2024-01-01 00:00:00', '2024-01-02 12:00:00', '2024-01-03 00:00:00'] }], horizon: 1, freq: 'D', model: 'naive' } });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.errors, [{ series: 0, field: 'series[0].index[1]', reason: '"2024-01-02 12:00:00" has a time of day; freq D takes dates YYYY-MM-DD (or midnight date-times); times other than midnight are for freq H' }]);
  });

  test('levels next to 0 and 1 give finite quantiles, not a 500 (found by Schemathesis)', async () => {
    for (const model of ['naive', 'seasonal-naive', 'auto-ets']) {
      const res = await server.request('POST', '/v1/forecast', { body: { series: [{ target: target.slice(0, 12), index: hoursUtc.slice(0, 12) }], horizon: 2, freq: 'H', model, quantiles: [1e-16, 0.5, 0.9999999999999999] } });
      assert.equal(res.status, 200, `${model}: ${res.text}`);
      const prediction = res.body.series[0][0].prediction;
      for (const values of Object.values(prediction) as number[][]) assert.ok(values.every(Number.isFinite), `${model}: ${JSON.stringify(prediction)}`);
      assert.ok(prediction['1e-16'][0] <= prediction['0.5'][0] && prediction['0.5'][0] <= prediction['0.9999999999999999'][0]);
    }
  });
});
