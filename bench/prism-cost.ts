// What model choice costs (issue 26): prism and model "auto" against the single forecasts of the models
// they combine or choose from, on the same request, in the same run —
//   members      POST /v1/forecast with each member (prism) / candidate (auto) alone, one after the other;
//                their times summed: what the answer would cost if each model were fitted once
//   prism, auto  the same request with model prism / auto, on a service with the defaults (prism's
//                validation from one fit: HORIZON_PRISM_BACKTEST=forward; auto's windows fitted in the form
//                of one whole-history fit: HORIZON_AUTO_REFIT unset = form) and, as the baseline, on one
//                that refits at every origin (=refit / =1: prism v3, and auto before session 16)
// ratio = prism (or auto) ÷ Σ members (goal ≤ 1.5), each round's ratio from that round's own times; the
// figure is the median of the rounds' ratios. Within a round the runs go in an order rotated by the round
// (prism first in one, a member first in another), after a 2-series warm-up, so no run always meets a cold
// or a warm worker.
//
//   node bench/prism-cost.ts                          # --set monthly,hourly --rounds 3
//   node bench/prism-cost.ts --set hourly --rounds 1
//
// Sets: monthly = the first 200 M3 monthly training parts (h 18); hourly = 28 synthetic hourly series of
// 1,500 points with daily and weekly seasons (h 48), the size of the hidden set that timed out.
// True medians over the rounds (the mean of the two middle values for an even count). prism's members and
// auto's candidates are read from their answers (`prism.members`, `auto.candidates`: the pools sized by the
// request's cost, issue 35), one untimed run of each before the first round. Measures and reports; never asserts.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService, type Service } from '../eval/service.ts';
import { DEFAULT_DATA_DIR, readTsf } from '../eval/datasets.ts';

const { values: args } = parseArgs({ options: { set: { type: 'string', default: 'monthly,hourly' }, rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(args.rounds);

interface Set { name: string; freq: string; horizon: number; series: { target: number[]; index: string[] }[] }
function monthlySet(): Set {
  const tsf = readTsf(join(DEFAULT_DATA_DIR, 'monash', 'm3_monthly_dataset.tsf'));
  const series = tsf.series.slice(0, 200).map((s) => {
    const target = s.values.slice(0, -18);
    return { target, index: target.map((_, i) => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`) };
  });
  return { name: 'monthly (200 M3 monthly)', freq: 'MS', horizon: 18, series };
}
function hourlySet(): Set {
  const n = 1500;
  const start = Date.parse('2024-01-01T00:00:00Z');
  const index = Array.from({ length: n }, (_, i) => new Date(start + i * 3_600_000).toISOString().replace('.000Z', 'Z'));
  const series = Array.from({ length: 28 }, (_, k) => {
    let seed = 1 + k;
    const noise = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    const target = Array.from({ length: n }, (_, t) => 100 + 10 * k + 0.01 * t + 20 * Math.sin((2 * Math.PI * t) / 24) + 8 * Math.sin((2 * Math.PI * t) / 168) + 6 * noise());
    return { target: target.map((v) => Math.round(v * 100) / 100), index };
  });
  return { name: 'hourly (28 × 1,500 synthetic)', freq: 'H', horizon: 48, series };
}

async function post(service: Service, payload: unknown): Promise<{ seconds: number; body: any }> {
  const started = performance.now();
  const res = await request(`${service.url}/v1/forecast`, { method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: JSON.stringify(payload), headersTimeout: 0, bodyTimeout: 0 });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${text.slice(0, 300)}`);
  return { seconds: (performance.now() - started) / 1000, body: JSON.parse(text) };
}

async function withService<T>(env: Record<string, string | undefined>, run: (s: Service) => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, { HORIZON_SYNC_BUDGET_MS: '3600000' }, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  const service = await startService({ inferenceTimeoutMs: 3_600_000 });
  try { return await run(service); } finally {
    await service.close();
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

/** the median: the middle value, or the mean of the two middle ones */
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
/** `runs` in an order rotated by `round` */
const rotated = <T>(runs: T[], round: number) => runs.map((_, k) => runs[(k + round) % runs.length]);
console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const set of args.set!.split(',').map((s) => (s === 'hourly' ? hourlySet() : monthlySet()))) {
  const base = { freq: set.freq, horizon: set.horizon, quantiles: [0.1, 0.5, 0.9], series: set.series };
  const t: Record<string, number[]> = {};
  const add = (k: string, v: number) => (t[k] ??= []).push(v);
  let members: string[] = [];
  let candidates: string[] = [];
  const ratios: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const times: Record<string, number> = {};
    await withService({ HORIZON_PRISM_BACKTEST: 'forward', HORIZON_AUTO_REFIT: undefined }, async (s) => {
      await post(s, { ...base, model: 'naive', series: base.series.slice(0, 2) }); // warm-up
      // prism's members and auto's candidates come from their own answers on this request: one untimed run each before the first round
      if (round === 0) {
        members = (await post(s, { ...base, model: 'prism' })).body.prism.members.map((m: { model: string }) => m.model);
        candidates = (await post(s, { ...base, model: 'auto' })).body.auto.candidates.map((c: { model: string }) => c.model);
      }
      const singles = [...new Set([...members, ...candidates])];
      const runs = ['auto', 'prism', ...singles.map((m) => `single ${m}`)];
      for (const run of rotated(runs, round)) times[run] = (await post(s, { ...base, model: run.replace(/^single /, '') })).seconds;
    });
    await withService({ HORIZON_PRISM_BACKTEST: 'refit', HORIZON_AUTO_REFIT: '1' }, async (s) => {
      await post(s, { ...base, model: 'naive', series: base.series.slice(0, 2) });
      for (const run of rotated(['prism refit (v3)', 'auto refit'], round)) times[run] = (await post(s, { ...base, model: run.startsWith('prism') ? 'prism' : 'auto' })).seconds;
    });
    for (const [k, v] of Object.entries(times)) add(k, v);
    // this round's ratios, from this round's own times
    const sum = (ids: string[]) => ids.reduce((total, m) => total + times[`single ${m}`], 0);
    const ratio = (k: string, v: number) => (ratios[k] ??= []).push(v);
    ratio('prism', times.prism / sum(members));
    ratio('prism refit (v3)', times['prism refit (v3)'] / sum(members));
    ratio('auto', times.auto / sum(candidates));
    ratio('auto refit', times['auto refit'] / sum(candidates));
    console.log(`${set.name} round ${round + 1}: ${Object.entries(times).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ')}`);
  }
  console.log(`## ${set.name}, h ${set.horizon}; medians of ${ROUNDS} rounds`);
  for (const [k, v] of Object.entries(t)) console.log(`  ${k.padEnd(22)} ${median(v).toFixed(2)} s`);
  const show = (k: string) => `${median(ratios[k]).toFixed(3)} (rounds ${ratios[k].map((r) => r.toFixed(2)).join(', ')})`;
  console.log(`  prism ÷ Σ members (${members.join(', ')}): ${show('prism')} (goal ≤ 1.5); refit baseline ${show('prism refit (v3)')}`);
  console.log(`  auto ÷ Σ candidates (${candidates.join(', ')}): ${show('auto')} (goal ≤ 1.5); refit baseline ${show('auto refit')}`);
}
