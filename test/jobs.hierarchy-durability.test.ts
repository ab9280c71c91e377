// A hierarchy's forecast job survives kill -9 of the API process (issue 39, docs/api.md "Hierarchies" — Jobs): the job
// stores the planned hierarchy before its 202; its nodes' model calls run in chunks, each stored as it completes. The
// server is killed once some chunks are stored, started again on the same store: the stored chunks are reused, the
// others computed, the reconciliation runs once after them, the job completes exactly once, and its answer (series
// and hierarchy) equals POST /v1/forecast's for the same body. Embedded PGlite and PostgreSQL; real server processes and
// workers (test/server-kill.ts); no timed assertions.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { monthlyDates } from './helpers.ts';
import { durableStores, killMidJob, type DurableStore } from './server-kill.ts';

/** 30 stores of ~150 months in 3 regions: 34 nodes (total, 3 regions, 30 stores), each an auto-ets fit with its in-sample
 * values (~230 ms estimated), so two or three nodes to a 700 ms chunk: long enough to kill the server between chunks. */
function body(): Record<string, unknown> {
  const n = 30;
  const series = Array.from({ length: n }, (_, k) => {
    const length = 150 - (k % 4) * 6; // stores that opened later: the aggregates' sums start with the first
    const target = Array.from({ length }, (_, t) => 100 + 20 * Math.sin((2 * Math.PI * (t + k)) / 12)
      + 0.5 * t * ((k % 3) - 1) + ((t * 7919 + k * 104729) % 17) / 4);
    return { target, index: monthlyDates('2005-01', 150).slice(150 - length) };
  });
  const labels = series.map((_, k) => ({ region: ['north', 'south', 'east'][k % 3], store: `s${k}` }));
  return {
    freq: 'MS', horizon: 6, model: 'auto-ets', quantiles: [0.1, 0.5, 0.9], series,
    hierarchy: { labels, levels: [['region'], ['region', 'store']] }, reconcile: 'mint_shrink',
  };
}

const env = { HORIZON_JOB_CHUNK_BUDGET_MS: '700', HORIZON_CPU_WORKERS: '1', HORIZON_LOG_LEVEL: 'info', HORIZON_RUNTIME_GROUPS: 'core' };

for (const backend of durableStores) {
  describe(`a hierarchy's forecast job survives kill -9 of the API process (${backend.name})`, () => {
    let store: DurableStore;
    before(async () => { store = await backend.open(); });
    after(async () => store?.close());

    it('the stored chunks reused, the others computed, one attempt completes; the answer equals the sync one, hierarchy included', async () => {
      const sent = body();
      await killMidJob(store, { path: '/v1/forecast-jobs', body: sent }, env, async ({ stored, done, attempts, jobLines, get, call }) => {
        const total = done.progress!.chunks_total;
        assert.ok(stored < total);
        const lines = await attempts();
        assert.equal(lines.length, 1, 'exactly one attempt completed');
        assert.equal(lines[0].chunks_reused, stored, 'every chunk stored before the kill was reused');
        assert.equal(lines[0].chunks_computed, total - stored, 'only the chunks not stored were computed');
        assert.equal(jobLines('job chunk stored').length, total - stored);
        assert.equal((await get()).finished_at, done.finished_at, 'completed once');

        const sync = await call('POST', '/v1/forecast', sent);
        assert.equal(sync.status, 200, sync.text.slice(0, 500));
        const h = sync.body.hierarchy;
        assert.equal(h.method, 'mint_shrink', JSON.stringify(h.warnings));
        assert.equal(h.nodes.length, 34);
        assert.deepEqual(done.series, sync.body.series, 'series: the reconciled forecasts of the input series');
        assert.deepEqual(done.hierarchy, h, 'every node\'s base and reconciled forecast');
      });
    });
  });
}
