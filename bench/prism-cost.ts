// What model choice costs (issue 26): prism and model "auto" against the single forecasts of the models
// they combine or choose from, on the same request, in the same run —
//   members      POST /v1/forecast with each member (prism) / candidate (auto) alone, one after the other;
//                their times summed: what the answer would cost if each model were fitted once
//   prism, auto  the same request with model prism / auto, on a service with the defaults (prism's
//                validation from one fit: HORIZON_PRISM_BACKTEST=forward; auto's windows fitted in the form
//                of one whole-history fit: HORIZON_AUTO_REFIT unset = form) and, as the baseline, on one
//                that refits at every origin (=refit / =1: prism v3, and auto before session 16)
// ratio = prism (or auto) ÷ Σ members (goal ≤ 1.5).
//
//   node bench/prism-cost.ts                          # --set monthly,hourly --rounds 2
//   node bench/prism-cost.ts --set hourly --rounds 1
//
// Sets: monthly = the first 200 M3 monthly training parts (h 18); hourly = 28 synthetic hourly series of
// 1,500 points with daily and weekly seasons (h 48), the size of the hidden set that timed out.
// Medians over the rounds. Measures and reports; never asserts.
import { performance } from 'node:perf_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startService, type Service } from '../eval/service.ts';
import { DEFAULT_DATA_DIR, readTsf } from '../eval/datasets.ts';
import { prismMembers } from '../src/forecasting/prism.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';
import { configFromEnv } from '../src/config.ts';

const { values: args } = parseArgs({ options: { set: { type: 'string', default: 'monthly,hourly' }, rounds: { type: 'string', default: '2' } } });
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
console.log(`${availableParallelism()} cores; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const set of args.set!.split(',').map((s) => (s === 'hourly' ? hourlySet() : monthlySet()))) {
  const base = { freq: set.freq, horizon: set.horizon, quantiles: [0.1, 0.5, 0.9], series: set.series };
  const t: Record<string, number[]> = {};
  const add = (k: string, v: number) => (t[k] ??= []).push(v);
  let members: string[] = [];
  let candidates: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await withService({ HORIZON_PRISM_BACKTEST: 'forward', HORIZON_AUTO_REFIT: undefined }, async (s) => {
      await post(s, { ...base, model: 'naive', series: base.series.slice(0, 2) }); // warm-up
      const prism = await post(s, { ...base, model: 'prism' });
      add('prism', prism.seconds);
      const auto = await post(s, { ...base, model: 'auto' });
      add('auto', auto.seconds);
      candidates = auto.body.auto.candidates.map((c: any) => c.model);
      // prism's members here: no foundation model has weights, so the statistical ones (or HORIZON_PRISM_MEMBERS)
      members = prismMembers(loadCatalog(), configFromEnv(process.env).prismMembers, (m) => !m.weights && m.group === 'core').map((m) => m.model);
      for (const m of new Set([...members, ...candidates])) add(`single ${m}`, (await post(s, { ...base, model: m })).seconds);
    });
    await withService({ HORIZON_PRISM_BACKTEST: 'refit', HORIZON_AUTO_REFIT: '1' }, async (s) => {
      await post(s, { ...base, model: 'naive', series: base.series.slice(0, 2) });
      add('prism refit (v3)', (await post(s, { ...base, model: 'prism' })).seconds);
      add('auto refit', (await post(s, { ...base, model: 'auto' })).seconds);
    });
    console.log(`${set.name} round ${round + 1}: ${Object.entries(t).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(2)} s`).join(', ')}`);
  }
  const sum = (ids: string[]) => ids.reduce((s, m) => s + median(t[`single ${m}`]), 0);
  console.log(`## ${set.name}, h ${set.horizon}`);
  for (const [k, v] of Object.entries(t)) console.log(`  ${k.padEnd(22)} ${median(v).toFixed(2)} s`);
  console.log(`  prism ÷ Σ members (${members.join(', ')}): ${(median(t.prism) / sum(members)).toFixed(3)} (goal ≤ 1.5); refit baseline ${(median(t['prism refit (v3)']) / sum(members)).toFixed(3)}`);
  console.log(`  auto ÷ Σ candidates (${candidates.join(', ')}): ${(median(t.auto) / sum(candidates)).toFixed(3)} (goal ≤ 1.5); refit baseline ${(median(t['auto refit']) / sum(candidates)).toFixed(3)}`);
}
