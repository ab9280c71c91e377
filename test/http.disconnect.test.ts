// A synchronous request whose client disconnects stops its work (issue 33): the chunks of its model call still
// waiting at the fair gate are dropped, the call at the worker is cancelled (its batch stops at its next chunk),
// the worker becomes idle without fitting the rest of the request, and the account is not charged. Observed, not
// timed: the worker's series counts and work gauges (its /metrics, merged into the server's), the request's log
// line, and the account's usage; polled until a generous deadline. Forecast, cross-validation and anomalies
// directly, and a forecast through /nixtla (its /v1 call made with app.inject follows the outer client).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { accountOverviewById } from '../src/store/accounts.ts';
import { capturedLogLines, pollUntil, startTestServer, type TestServer } from './helpers.ts';

const N = 16; // series per request: 8 fair chunks of 2
const POINTS = 336; // four weeks of hourly values: an auto-ets fit takes a good fraction of a second

function hourly(i: number): { target: number[]; index: string[] } {
  const index = Array.from({ length: POINTS }, (_, t) => new Date(Date.UTC(2024, 0, 1) + t * 3_600_000).toISOString().slice(0, 13) + ':00');
  const target = index.map((_, t) => 50 + 20 * Math.sin((2 * Math.PI * t) / 24) + 3 * Math.sin(t / 40 + i) + ((t * 7919 + i * 104729) % 13));
  return { target, index };
}

const series = Array.from({ length: N }, (_, i) => hourly(i));
const cases: { name: string; path: string; body: unknown; fits: number }[] = [
  { name: 'forecast', path: '/v1/forecast', body: { series, horizon: 24, freq: 'H', model: 'auto-ets', quantiles: [0.1, 0.5, 0.9] }, fits: N },
  { name: 'cross-validation', path: '/v1/cross-validation', body: { series: series.slice(0, N / 2), horizon: 24, n_windows: 2, freq: 'H', models: ['auto-ets'] }, fits: N },
  { name: 'anomalies', path: '/v1/anomalies', body: { series, freq: 'H', model: 'auto-ets', level: 99 }, fits: N },
  {
    name: 'forecast through /nixtla', path: '/nixtla/v2/forecast', fits: N,
    body: {
      series: { y: series.flatMap((s) => s.target), sizes: series.map(() => POINTS), X: null, X_future: null, start_datetime: series.map(() => '2024-01-01 00:00:00') },
      model: 'auto-ets', h: 24, freq: 'h', level: [80], feature_contributions: false, clean_ex_first: true, finetune_steps: 0, finetune_depth: 1,
      finetune_loss: 'default', finetuned_model_id: null, multivariate: false,
    },
  },
];

/** The worker's auto-ets figures: series fitted and dropped (counters), series waiting and batches running (gauges). */
async function workerWork(server: TestServer): Promise<{ fitted: number; dropped: number; waiting: number; running: number }> {
  const text = (await server.request('GET', '/metrics')).text;
  const sum = (name: string, extra = '') => text.split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes('model="auto-ets"') && line.includes(extra))
    .reduce((n, line) => n + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return {
    fitted: sum('horizon_runtime_series_total', 'outcome="fitted"'),
    dropped: sum('horizon_runtime_series_total', 'outcome="dropped'),
    waiting: sum('horizon_runtime_series_waiting'),
    running: sum('horizon_runtime_batches_running'),
  };
}

/** Sends `body` and resolves once the request is on its way; destroy() closes the connection (the client leaves). */
function openRequest(server: TestServer, path: string, key: string, body: unknown): { destroy(): void; closed: Promise<void> } {
  const payload = Buffer.from(JSON.stringify(body));
  const req = httpRequest(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': payload.length } });
  const closed = new Promise<void>((resolve) => req.on('close', () => resolve()));
  req.on('error', () => undefined); // the socket we destroy
  req.on('response', (res) => { res.resume(); });
  req.end(payload);
  return { destroy: () => req.destroy(), closed };
}

const lines = (route: string, accountId: string, msg = 'request completed') => capturedLogLines
  .map((line) => JSON.parse(line) as { msg?: string; route?: string; status?: number; account_id?: string })
  .filter((l) => l.msg === msg && l.route === route && l.account_id === accountId);

describe('a client that disconnects mid-request', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      // fair chunks of 2 series: a request is 8 worker calls, of which the gate lets 2 go at a time
      HORIZON_FAIR_CHUNK_SERIES_CPU: '2', HORIZON_SYNC_BUDGET_MS: '600000', HORIZON_CPU_WORKERS: '2', HORIZON_LOG_LEVEL: 'warn',
    });
    // the worker's pool processes started and warm (a first fit compiles statsforecast's numba code)
    const warm = await server.request('POST', '/v1/forecast', { body: { series: series.slice(0, 2), horizon: 24, freq: 'H', model: 'auto-ets' } });
    assert.equal(warm.status, 200, warm.text);
  });
  after(async () => { await server.close(); });

  for (const c of cases) {
    it(`${c.name}: leaves no work at the worker, the rest of its series never fitted, and is not charged`, async () => {
      const account = await server.newAccount();
      const start = await workerWork(server);
      const client = openRequest(server, c.path, account.key, c.body);
      // under way: the worker has fitted some of its series
      await pollUntil('the first series fitted', () => workerWork(server), (w) => w.fitted > start.fitted, 120_000);
      client.destroy();
      await client.closed;
      const left = Date.now();
      // through /nixtla, the /v1 call's handler ended with a 499 that no client reads; a request whose own socket
      // closed gets its line from onRequestAbort (app.ts), also 499
      const [line] = c.path.startsWith('/nixtla')
        ? await pollUntil('the /v1 request line', async () => lines('/v1/forecast', account.accountId), (l) => l.length === 1, 60_000)
        : await pollUntil('the aborted request line', async () => lines(c.path, account.accountId, 'request aborted by the client'), (l) => l.length === 1, 60_000);
      assert.equal(line.status, 499);
      // the worker holds nothing of it
      const idle = await pollUntil('the worker idle', () => workerWork(server), (w) => w.waiting === 0 && w.running === 0, 60_000);
      const fitted = idle.fitted - start.fitted;
      console.log(`${c.name}: worker idle ${Date.now() - left} ms after the disconnect; fitted ${fitted} of ${c.fits} series, ${idle.dropped - start.dropped} dropped at the worker`);
      assert.ok(fitted < c.fits, `the worker fitted ${fitted} of ${c.fits} series: the rest were dropped`);
      // not charged: the unit was refunded
      await pollUntil('the refund', async () => (await accountOverviewById(server.database.db, account.accountId))?.used_today, (n) => n === 0, 30_000);

      // nothing of it runs later: the account's next request is answered and is the only work the worker does
      const next = await server.request('POST', '/v1/forecast', { key: account.key, body: { series: series.slice(0, 1), horizon: 24, freq: 'H', model: 'auto-ets' } });
      assert.equal(next.status, 200, next.text);
      const after = await workerWork(server);
      assert.equal(after.fitted - idle.fitted, 1, 'only the next request\'s one series was fitted');
      assert.equal((await accountOverviewById(server.database.db, account.accountId))?.used_today, 1);
    });
  }
});
