// Large statistical requests end to end (issue 26 "no surprise 504s, jobs of any size complete"): what the
// hidden-set reports hit, through the API of a service with the defaults (HORIZON_INFERENCE_TIMEOUT_MS
// 120 s, sync budget 60 s, chunk budget 60 s) —
//   sync prism    POST /v1/forecast, model prism, `--sync-series` M3 monthly series (h 18): a 200, or a 413
//                 use_job_api at once (time to the answer printed; never a 504)
//   job prism     POST /v1/forecast-jobs with the same body and with `--job-series` series (M3 monthly
//                 repeated, each copy scaled, to reach the count), polled until it ends: status, attempts,
//                 progress (chunks done / total) and wall time
//   hourly        model prism and auto on 28 synthetic hourly series × 1,500 points (h 48), sync
//
//   node bench/large-requests.ts                     # --sync-series 600 --job-series 600,5000
//   node bench/large-requests.ts --job-series 600
//
// Reports; never asserts. Not a speed claim (no baseline); the timings say how long each took here.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { DEFAULT_DATA_DIR, readTsf } from '../eval/datasets.ts';

const { values: args } = parseArgs({ options: { 'sync-series': { type: 'string', default: '600' }, 'job-series': { type: 'string', default: '600,5000' }, hourly: { type: 'boolean', default: true } } });
const H = 18;
const m3 = readTsf(join(DEFAULT_DATA_DIR, 'monash', 'm3_monthly_dataset.tsf')).series.map((s) => s.values.slice(0, -H));
const monthly = (n: number) => Array.from({ length: n }, (_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`);
const series = (count: number) => Array.from({ length: count }, (_, i) => {
  const base = m3[i % m3.length];
  const scale = 1 + Math.floor(i / m3.length) * 0.1; // a copy is scaled: no two series are the same
  const target = base.map((v) => Math.round(v * scale * 100) / 100);
  return { target, index: monthly(target.length) };
});

const service = await startService();
const call = async (method: string, path: string, body?: unknown) => {
  const res = await request(`${service.url}${path}`, { method: method as 'GET', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), headersTimeout: 0, bodyTimeout: 0 });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text) };
};
console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
try {
  const syncBody = { model: 'prism', freq: 'MS', horizon: H, quantiles: [0.1, 0.5, 0.9], series: series(Number(args['sync-series'])) };
  let started = performance.now();
  const sync = await call('POST', '/v1/forecast', syncBody);
  console.log(`sync prism ${syncBody.series.length} series: ${sync.status} ${sync.body.code ?? ''} after ${((performance.now() - started) / 1000).toFixed(1)} s${sync.status === 200 ? '' : `: ${String(sync.body.detail).slice(0, 240)}`}`);
  for (const count of args['job-series']!.split(',').map(Number)) {
    started = performance.now();
    const created = await call('POST', '/v1/forecast-jobs', { ...syncBody, series: series(count) });
    if (created.status !== 202) { console.log(`job prism ${count} series: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`); continue; }
    const id = created.body.job_id;
    let last = '';
    for (;;) {
      const job = await call('GET', `/v1/forecast-jobs/${id}`);
      const progress = job.body.progress ? `${job.body.progress.chunks_done}/${job.body.progress.chunks_total} chunks` : 'no progress yet';
      if (progress !== last) { console.log(`  job ${count}: ${job.body.status}, ${progress} at ${((performance.now() - started) / 1000).toFixed(0)} s`); last = progress; }
      if (['completed', 'failed', 'cancelled'].includes(job.body.status)) {
        console.log(`job prism ${count} series: ${job.body.status}, attempts ${job.body.attempts}, ${progress}, ${((performance.now() - started) / 1000).toFixed(1)} s${job.body.error ? `: ${JSON.stringify(job.body.error)}` : `, ${job.body.series.length} forecasts`}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  if (args.hourly) {
    const n = 1500;
    const start = Date.parse('2024-01-01T00:00:00Z');
    const index = Array.from({ length: n }, (_, i) => new Date(start + i * 3_600_000).toISOString().replace('.000Z', 'Z'));
    const hourly = Array.from({ length: 28 }, (_, k) => ({ index, target: Array.from({ length: n }, (_, t) => Math.round((100 + 10 * k + 0.01 * t + 20 * Math.sin((2 * Math.PI * t) / 24) + 8 * Math.sin((2 * Math.PI * t) / 168) + 6 * Math.sin(t * 12.9898 + k)) * 100) / 100) }));
    for (const model of ['auto-ets', 'prism', 'auto']) {
      started = performance.now();
      const res = await call('POST', '/v1/forecast', { model, freq: 'H', horizon: 48, quantiles: [0.1, 0.5, 0.9], series: hourly });
      console.log(`hourly 28 × 1,500 ${model}: ${res.status} ${res.body.code ?? ''} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
} finally {
  await service.close();
}
