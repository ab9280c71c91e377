// Scheduled forecasts, drift events and signed webhooks of stored series (issue 25), on both stores:
// forecast_every forecasts after each append; outliers break the drift rule → a drift_raised event in the
// series view, the horizon_series_drifting gauge, and a webhook delivery to a local receiver that fails
// twice (retried with backoff until delivered, the log says so) and whose HMAC signature checks; normal
// values again → drift_cleared, delivered once.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import { monthlyDates, startServerOn, storeBackends, type TestServer, pollUntil } from './helpers.ts';

interface Received { headers: Record<string, string | string[] | undefined>; body: string; answered: number }

for (const backend of storeBackends) {
  describe(`drift and webhooks on ${backend.name}`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    let receiver: Server;
    let receiverUrl: string;
    const received: Received[] = [];
    before(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (d) => { body += d; });
        req.on('end', () => {
          // the first two deliveries fail: the retries must get through
          const answered = received.length < 2 ? 500 : 200;
          received.push({ headers: req.headers, body, answered });
          res.writeHead(answered).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      ({ server, cleanup } = await startServerOn(backend, { HORIZON_WEBHOOK_BACKOFF_MS: '50', HORIZON_SERIES_SWEEP_MS: '300' }));
    });
    after(async () => { await server.close(); await cleanup(); receiver.close(); });

    it('forecast_every forecasts after appends; drift raises an event and a signed, retried webhook; recovery clears it', async () => {
      const secret = 'a-webhook-secret-of-some-length';
      const n = 36;
      const level = (i: number) => 100 + 5 * Math.sin(i / 3);
      const put = await server.request('PUT', '/v1/series/watched', { body: {
        freq: 'MS', index: monthlyDates('2020-01', n), target: Array.from({ length: n }, (_, i) => level(i)),
        forecast_every: 1, schedule: { horizon: 1, model: 'naive', quantiles: [0.1, 0.5, 0.9] },
        drift: { window: 3, min_forecasts: 2, max_mase: 3 }, webhook: { url: receiverUrl, secret },
      } });
      assert.equal(put.status, 201, put.text);
      assert.deepEqual(put.body.webhook, { url: receiverUrl }, 'the secret is never shown');
      const dates = monthlyDates('2020-01', 60);
      let points = n;
      const append = async (value: number) => {
        const res = await server.request('POST', '/v1/series/watched/observations', { body: { index: [dates[points]], target: [value] } });
        assert.equal(res.status, 200, res.text);
        points += 1;
        return res.body;
      };
      const view = () => server.request('GET', '/v1/series/watched').then((r) => r.body);
      // normal values: each append forecasts (scheduled) and scores the previous forecast; no event
      for (let k = 0; k < 3; k++) {
        const appended = await append(level(points));
        assert.deepEqual(appended.scheduled_forecast, { status: 200, forecasts: 1 });
      }
      // the third append's forecast waits for the next value
      await pollUntil('two forecasts scored', () => server.request('GET', '/v1/series/watched/accuracy').then((r) => r.body), (b) => b.overall.forecasts === 2);
      assert.deepEqual((await view()).events, []);
      // outliers: the rolling MASE jumps over 3 → drift_raised, delivered after two failed attempts
      await append(400);
      await append(900);
      const raised = await pollUntil('drift raised', view, (v) => v.events.length === 1);
      assert.equal(raised.events[0].kind, 'drift_raised');
      assert.equal(raised.drifting, true);
      assert.match(raised.events[0].detail.reasons[0], /rolling MASE .* is above 3/);
      const metrics = await server.request('GET', '/metrics', { key: null });
      assert.match(metrics.text, /^horizon_series_drifting 1$/m);
      const delivered = await pollUntil('webhook delivered', view, (v) => v.webhook_deliveries[0]?.status === 'delivered');
      assert.equal(delivered.webhook_deliveries[0].attempts, 3);
      assert.equal(delivered.webhook_deliveries[0].last_status, 200);
      assert.deepEqual(received.slice(0, 3).map((r) => r.answered), [500, 500, 200]);
      for (const r of received.slice(0, 3)) {
        const expected = `sha256=${createHmac('sha256', secret).update(`${r.headers['x-horizon-timestamp']}.${r.body}`).digest('hex')}`;
        assert.equal(r.headers['x-horizon-signature'], expected, 'signed with the webhook secret');
        assert.equal(r.headers['x-horizon-event'], 'drift_raised');
        assert.equal(JSON.parse(r.body).id, raised.events[0].id, 'the same event on every attempt');
      }
      // back to normal: once the window holds only good forecasts again, drift_cleared (delivered first time)
      for (let k = 0; k < 6; k++) await append(level(points));
      const cleared = await pollUntil('drift cleared', view, (v) => v.events[0]?.kind === 'drift_cleared' && v.webhook_deliveries[0]?.status === 'delivered');
      assert.equal(cleared.drifting, false);
      assert.equal(cleared.webhook_deliveries[0].attempts, 1);
      assert.equal(received.length, 4);
      assert.equal(JSON.parse(received[3].body).kind, 'drift_cleared');
    });
  });
}
