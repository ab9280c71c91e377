// Stored series vs inline (issue 25): 10,000 stored daily series; each round appends one observation to
// every series and forecasts them all by reference (POST /v1/series/observations + POST /v1/forecast with
// series_ids), against sending the same series (history + the new value) inline in one POST /v1/forecast.
// Throughput = series forecast per second of wall time, client serialisation included; the answers of the
// two ways are checked equal every round. Also timed once: the appends as 10,000 single-series requests.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { Pool } from 'undici';
import { dailyIndex, seriesValues } from './series.ts';

const { values: args } = parseArgs({ options: {
  series: { type: 'string', default: '10000' }, length: { type: 'string', default: '100' }, rounds: { type: 'string', default: '3' },
  model: { type: 'string', default: 'naive' }, horizon: { type: 'string', default: '7' }, concurrency: { type: 'string', default: '16' },
} });
const N = Number(args.series);
const L = Number(args.length);
const ROUNDS = Number(args.rounds);
const asked = { model: args.model!, horizon: Number(args.horizon), quantiles: [0.1, 0.5, 0.9] };
// one request carries every series: lift the caps that would send it to the job API
Object.assign(process.env, {
  HORIZON_BODY_LIMIT_BYTES: String(256 * 1024 * 1024), HORIZON_SYNC_BUDGET_MS: '3600000', HORIZON_INFERENCE_TIMEOUT_MS: '3600000',
  HORIZON_SYNC_MAX_SERIES: String(10 * N), HORIZON_SYNC_MAX_POINTS: String(100 * N * (L + ROUNDS + 1)), HORIZON_SERIES_MAX_PER_ACCOUNT: String(2 * N),
});
const { startService } = await import('../eval/service.ts');
const service = await startService();
const pool = new Pool(service.url, { connections: Number(args.concurrency), headersTimeout: 0, bodyTimeout: 0 });
const call = async (method: string, path: string, body?: unknown) => {
  const res = await pool.request({ method: method as 'POST', path, headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
};
const inParallel = async <T>(items: T[], work: (item: T) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(Array.from({ length: Number(args.concurrency) }, async () => { while (next < items.length) await work(items[next++]); }));
};

console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${N} series × ${L} daily points, model ${asked.model}, horizon ${asked.horizon}`);
const ids = Array.from({ length: N }, (_, i) => `s${i}`);
const full = ids.map((_, i) => seriesValues(i, L + ROUNDS + 1));
const dates = dailyIndex(L + ROUNDS + 1);
const results: Record<string, unknown>[] = [];
try {
  let started = performance.now();
  await inParallel(ids.map((id, i) => ({ id, i })), ({ id, i }) => call('PUT', `/v1/series/${id}`, { freq: 'D', index: dates.slice(0, L), target: full[i].slice(0, L) }));
  console.log(`setup: ${N} PUTs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // warm-up: the model and both paths once at full size (not timed; a large body takes the forecast thread's
  // path, which a small warm-up would leave cold for round 0)
  await call('POST', '/v1/forecast', { series_ids: ids, ...asked });
  await call('POST', '/v1/forecast', { series: ids.map((_, i) => ({ index: dates.slice(0, L), target: full[i].slice(0, L) })), freq: 'D', ...asked });

  for (let r = 0; r < ROUNDS; r++) {
    const n = L + r + 1; // points after this round's append
    const byReference = async () => {
      const t0 = performance.now();
      await call('POST', '/v1/series/observations', { series: ids.map((id, i) => ({ series_id: id, index: [dates[n - 1]], target: [full[i][n - 1]] })) });
      const t1 = performance.now();
      const answer = await call('POST', '/v1/forecast', { series_ids: ids, ...asked });
      const t2 = performance.now();
      return { appendMs: t1 - t0, forecastMs: t2 - t1, totalMs: t2 - t0, answer };
    };
    const inline = async () => {
      const t0 = performance.now();
      const answer = await call('POST', '/v1/forecast', { series: ids.map((_, i) => ({ index: dates.slice(0, n), target: full[i].slice(0, n) })), freq: 'D', ...asked });
      return { totalMs: performance.now() - t0, answer };
    };
    // alternate which goes first; the inline request sends the history as it is after this round's append
    let ref; let inl;
    if (r % 2 === 0) { ref = await byReference(); inl = await inline(); } else { inl = await inline(); ref = await byReference(); }
    const same = isDeepStrictEqual(ref.answer, inl.answer);
    const row = {
      round: r, points: n, by_reference_ms: Math.round(ref.totalMs), append_ms: Math.round(ref.appendMs), forecast_by_reference_ms: Math.round(ref.forecastMs),
      inline_ms: Math.round(inl.totalMs), by_reference_series_per_s: Math.round(N / (ref.totalMs / 1000)), inline_series_per_s: Math.round(N / (inl.totalMs / 1000)),
      ratio: Math.round((inl.totalMs / ref.totalMs) * 100) / 100, answers_equal: same,
    };
    results.push(row);
    console.log(JSON.stringify(row));
    if (!same) throw new Error('the by-reference answer differs from the inline one');
  }
  // the same appends as one request per series (what a client without the bulk call does)
  const n = L + ROUNDS + 1;
  started = performance.now();
  await inParallel(ids.map((id, i) => ({ id, i })), ({ id, i }) => call('POST', `/v1/series/${id}/observations`, { index: [dates[n - 1]], target: [full[i][n - 1]] }));
  const singleMs = performance.now() - started;
  console.log(`single-series appends: ${N} requests in ${(singleMs / 1000).toFixed(1)} s (${Math.round(N / (singleMs / 1000))}/s at concurrency ${args.concurrency})`);
  const ratios = results.map((r) => r.ratio as number);
  console.log(`ratio (inline time ÷ by-reference time, = by-reference throughput ÷ inline): ${ratios.join(', ')}; median ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]}`);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/stored-series.json', import.meta.url), JSON.stringify({ args, load: loadavg(), rounds: results, single_appends_ms: Math.round(singleMs) }, null, 2));
} finally {
  await pool.close();
  await service.close();
}
