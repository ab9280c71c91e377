// A large forecast as a job against the same forecast made synchronously, in the same run: what
// storing the request before the 202, the queue hop and storing the result cost on top.
//
//   node bench/job-latency.ts        # --series 256 --length 512 --horizon 64 --rounds 6
//
// Model `naive` (a few ms per series), 9 levels, daily series; the service runs in this process on the
// embedded store (PGlite) unless HORIZON_DATABASE_URL points at PostgreSQL. Each round: one sync
// POST /v1/forecast, then one POST /v1/forecast-jobs and GET polls every 10 ms until it completes;
// medians over the rounds after the first (warm-up). Measures and reports; never asserts.
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService } from '../eval/service.ts';
import { dailyIndex, seriesValues } from './series.ts';

const { values: args } = parseArgs({ options: {
  series: { type: 'string', default: '256' }, length: { type: 'string', default: '512' },
  horizon: { type: 'string', default: '64' }, rounds: { type: 'string', default: '6' },
} });
const [S, L, H, ROUNDS] = [args.series, args.length, args.horizon, args.rounds].map(Number);
const index = dailyIndex(L);
const body = JSON.stringify({ model: 'naive', horizon: H, freq: 'D', quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], series: Array.from({ length: S }, (_, i) => ({ index, target: seriesValues(i, L) })) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

const loadBefore = loadavg()[0];
const service = await startService();
try {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  async function call(method: 'GET' | 'POST', path: string, payload?: string): Promise<{ ms: number; status: number; json: { job_id?: string; status?: string } }> {
    const t = performance.now();
    const res = await request(`${service.url}${path}`, { method, headers, body: payload });
    const text = await res.body.text();
    const ms = performance.now() - t;
    if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return { ms, status: res.statusCode, json: JSON.parse(text) };
  }
  const rows: { sync: number; accepted: number; completed: number; firstGet: number; lastGet: number; polls: number }[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const sync = (await call('POST', '/v1/forecast', body)).ms;
    const t0 = performance.now();
    const created = await call('POST', '/v1/forecast-jobs', body);
    let polls = 0, last, firstGet = NaN;
    do {
      if (polls > 0) await new Promise((r) => setTimeout(r, 10));
      last = await call('GET', `/v1/forecast-jobs/${created.json.job_id}`);
      if (polls === 0 && last.json.status !== 'completed') firstGet = last.ms; // a poll of an unfinished job
      polls++;
    } while (last.json.status === 'queued' || last.json.status === 'running');
    if (last.json.status !== 'completed') throw new Error(`job ${created.json.job_id} ended ${last.json.status}`);
    if (round > 0) rows.push({ sync, accepted: created.ms, completed: performance.now() - t0, firstGet, lastGet: last.ms, polls });
  }
  const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]).filter((x) => !Number.isNaN(x)));
  console.log(`POST /v1/forecast vs POST /v1/forecast-jobs + polling — naive, ${S} series × ${L} D points, h ${H}, 9 levels; median of ${rows.length} rounds after one warm-up`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run; store ${process.env.HORIZON_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`);
  console.log(`sync forecast ${m('sync').toFixed(0)} ms | job: 202 after ${m('accepted').toFixed(0)} ms, completed (seen) after ${m('completed').toFixed(0)} ms; a GET of the unfinished job ${m('firstGet').toFixed(1)} ms, of the completed one ${m('lastGet').toFixed(0)} ms; ${m('polls')} polls`);
  console.log(`job ÷ sync, time to the result: ${(m('completed') / m('sync')).toFixed(2)}`);
} finally {
  await service.close();
}
