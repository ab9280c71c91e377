// The TypeScript SDK's stored-series calls (clients/typescript, h.series.*) against a real server:
// put with Date indexes, append (idempotent), appendMany, forecast by reference equal to the SDK's
// inline forecast, store: true scored once the actuals arrive, list, accuracy, delete → 404.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { Horizon, HorizonError } from '../clients/typescript/src/index.ts';

describe('TypeScript SDK: stored series', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_SERIES_SWEEP_MS: '300' }); });
  after(async () => { await server.close(); });

  it('put, append, forecast by reference with store, accuracy, list, delete', async () => {
    const h = new Horizon({ baseUrl: server.url, apiKey: server.key });
    const day = (k: number) => new Date(Date.UTC(2024, 0, 1 + k));
    const values = Array.from({ length: 40 }, (_, k) => 50 + (k % 7) * 2 + k * 0.25);
    const created = await h.series.put('sdk-a', { freq: 'D', index: values.slice(0, 30).map((_, k) => day(k)), target: values.slice(0, 30) });
    assert.equal(created.points, 30);
    assert.equal(created.last_date, '2024-01-30');
    const appended = await h.series.append('sdk-a', { index: [day(29), day(30)], target: [values[29], values[30]] });
    assert.deepEqual([appended.appended, appended.unchanged, appended.points], [1, 1, 31]);
    await h.series.put('sdk-b', { freq: 'D', index: [day(0), day(1)], target: [1, 2] });
    const many = await h.series.appendMany([{ series_id: 'sdk-a', index: [day(31)], target: [values[31]] }, { series_id: 'sdk-b', index: [day(2)], target: [3] }]);
    assert.deepEqual(many.map((s) => s.points), [32, 3]);

    const byRef = await h.series.forecast(['sdk-a'], { horizon: 3, model: 'seasonal-naive', store: true });
    const inline = await h.forecast({ series: [{ index: values.slice(0, 32).map((_, k) => day(k)), target: values.slice(0, 32) }], freq: 'D', horizon: 3, model: 'seasonal-naive' });
    assert.deepEqual(byRef.series, inline.series);
    await h.series.append('sdk-a', { index: [day(32), day(33), day(34)], target: values.slice(32, 35) });
    const deadline = Date.now() + 60_000;
    let accuracy = await h.series.accuracy('sdk-a');
    while (accuracy.overall.forecasts !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      accuracy = await h.series.accuracy('sdk-a');
    }
    assert.equal(accuracy.overall.forecasts, 1);
    assert.equal((await h.series.modelAccuracy('seasonal-naive')).overall.forecasts, 1);
    const view = await h.series.get('sdk-a', { tail: 2 });
    assert.deepEqual(view.target, values.slice(33, 35));
    assert.ok(view.forecasts?.[0].scored_at);
    const page = await h.series.list({ limit: 1 });
    assert.deepEqual(page.series.map((s) => s.series_id), ['sdk-a']);
    assert.deepEqual((await h.series.list({ cursor: page.next_cursor! })).series.map((s) => s.series_id), ['sdk-b']);
    await h.series.delete('sdk-b');
    await assert.rejects(h.series.get('sdk-b'), (error) => error instanceof HorizonError && error.status === 404);
  });
});
