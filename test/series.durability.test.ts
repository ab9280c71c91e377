// Stored forecasts survive restarts and kill -9, and each is scored exactly once (issue 25), on both
// stores: a server process (horizon serve) is killed with a stored forecast waiting for actuals, and
// again right after the append that covers another one; the restarted server loses nothing (series,
// appends, forecasts) and counts every forecast once.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { createPostgresDatabase, monthlyDates, serveProcess } from './helpers.ts';

const values = (n: number) => Array.from({ length: n }, (_, i) => 50 + 8 * Math.sin((2 * Math.PI * i) / 12) + 0.5 * i + ((i * 11) % 7));

for (const store of ['PGlite', 'PostgreSQL'] as const) {
  describe(`stored forecasts across kill -9 on ${store}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'horizon-series-durability-'));
    const children: ChildProcess[] = [];
    let drop: (() => Promise<void>) | undefined;
    after(async () => {
      for (const c of children) c.kill('SIGKILL');
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
      rmSync(dataDir, { recursive: true, force: true });
      await drop?.();
    });

    it('append → forecast (store) → kill -9 → append actuals → kill -9 → every forecast scored once', async () => {
      const env: Record<string, string> = { HORIZON_SERIES_SWEEP_MS: '300' };
      if (store === 'PostgreSQL') {
        const db = await createPostgresDatabase();
        env.HORIZON_DATABASE_URL = db.url;
        drop = db.drop;
      }
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const start = async () => { const p = await serveProcess(dataDir, port, env); children.push(p.child); return p; };
      const kill9 = async (p: { child: ChildProcess }) => { p.child.kill('SIGKILL'); await new Promise((r) => p.child.once('exit', r)); };
      let server = await start();
      const key = /hzn_\S+/.exec(server.output())![0];
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
      };
      const waitFor = async (what: string, check: () => Promise<boolean>) => {
        const deadline = Date.now() + 90_000;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`${what} did not happen`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const y = values(45);
      assert.equal((await call('PUT', '/v1/series/s1', { freq: 'MS', index: monthlyDates('2020-01', 36), target: y.slice(0, 36) })).status, 201);
      const first = await call('POST', '/v1/forecast', { series_ids: ['s1'], horizon: 3, model: 'seasonal-naive', store: true });
      assert.equal(first.status, 200, first.text);

      // kill -9 with a forecast waiting for its actuals: after the restart it is there, unscored
      await kill9(server);
      server = await start();
      let view = await call('GET', '/v1/series/s1');
      assert.equal(view.body.points, 36);
      assert.equal(view.body.forecasts.length, 1);
      assert.equal(view.body.forecasts[0].scored_at, null);
      assert.equal((await call('POST', '/v1/series/s1/observations', { index: monthlyDates('2023-01', 3), target: y.slice(36, 39) })).status, 200);
      await waitFor('the first forecast scored', async () => (await call('GET', '/v1/series/s1/accuracy')).body.overall.forecasts === 1);

      // a second forecast; kill -9 right after the append that covers it (its scoring may or may not have run)
      assert.equal((await call('POST', '/v1/forecast', { series_ids: ['s1'], horizon: 3, model: 'seasonal-naive', store: true })).status, 200);
      assert.equal((await call('POST', '/v1/series/s1/observations', { index: monthlyDates('2023-04', 3), target: y.slice(39, 42) })).status, 200);
      await kill9(server);
      server = await start();
      await waitFor('the second forecast scored', async () => (await call('GET', '/v1/series/s1/accuracy')).body.overall.forecasts === 2);
      // a third, scored, then a graceful restart and a retried append: still each once
      assert.equal((await call('POST', '/v1/forecast', { series_ids: ['s1'], horizon: 3, model: 'seasonal-naive', store: true })).status, 200);
      assert.equal((await call('POST', '/v1/series/s1/observations', { index: monthlyDates('2023-07', 3), target: y.slice(42, 45) })).status, 200);
      await waitFor('the third forecast scored', async () => (await call('GET', '/v1/series/s1/accuracy')).body.overall.forecasts === 3);
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      server = await start();
      const retry = await call('POST', '/v1/series/s1/observations', { index: monthlyDates('2023-07', 3), target: y.slice(42, 45) });
      assert.deepEqual([retry.body.appended, retry.body.unchanged, retry.body.points], [0, 3, 45]);
      view = await call('GET', '/v1/series/s1');
      assert.deepEqual(view.body.target, y, 'no append lost');
      assert.equal(view.body.forecasts.length, 3);
      for (const f of view.body.forecasts) {
        assert.ok(f.scored_at, 'scored');
        const at = (f.index as string[]).map((d) => monthlyDates('2020-01', 45).indexOf(d));
        assert.deepEqual(f.actuals, at.map((k) => y[k]), 'scored against its own dates');
      }
      const accuracy = await call('GET', '/v1/series/s1/accuracy');
      assert.equal(accuracy.body.overall.forecasts, 3, 'no forecast counted twice');
      assert.equal(accuracy.body.overall.by_step[0].forecasts, 3);
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    });
  });
}
