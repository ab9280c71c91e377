// Hierarchies (issue 39): base vs reconciled forecasts per level, through Horizon's API.
//
//   node eval/hierarchy.ts                        # nn5-daily, 10 random groups (seed 1), auto-ets, auto-theta, seasonal-naive,
//                                                 # reconcile mint_shrink, bottom_up, ols, wls_struct, wls_var (the default)
//   node eval/hierarchy.ts --dataset hospital --groups 20 --models auto-ets --methods mint_shrink,bottom_up
//   node eval/hierarchy.ts --url http://host:8080 --key hzn_...     # against a running deployment
//
// The hierarchy (eval/hierarchy-data.ts): the dataset's series are the bottom, grouped into --groups groups without
// looking at the data (a seeded permutation, or --grouping blocks), under a total. One POST /v1/forecast per (model,
// method) with `hierarchy` and `reconcile` (a job through /v1/forecast-jobs where the service answers 413), of the
// training parts; the answer's `hierarchy.nodes[]` holds every node's base forecast (the model on that node alone) and
// its reconciled one. Both are scored on the held-out test window (the dataset's official split: the last `horizon`
// values) with src/forecasting/metrics.ts, per level (total, group, bottom): MASE (mean over the level's nodes, of the
// forecast's mean, m as in eval/datasets.ts) and WQL (over the level's nodes, quantiles 0.1…0.9). Writes NAME.md and
// NAME-nodes.csv to --out (eval/results/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { mase, mean, wql, type QuantileForecast } from '../src/forecasting/metrics.ts';
import { DEFAULT_DATA_DIR } from './datasets.ts';
import { HIERARCHY_DATASETS, hierarchyBody, loadHierarchy, type EvalHierarchy, type HierNode } from './hierarchy-data.ts';
import { serviceFromArgs, type Service } from './service.ts';

const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const TIERS = ['total', 'group', 'bottom'] as const;
type Tier = typeof TIERS[number];

type Forecast = Record<string, number[]>;
interface AnswerNode { id: string; level: string; parent: string | null; series: number[]; base: Forecast; reconciled: Forecast }
interface Answer { hierarchy: { method: string; intervals: string; warnings: string[]; nodes: AnswerNode[] }; warnings: { message: string }[] }

interface Scores { mase: number; wql: number }
interface RunResult {
  model: string;
  asked: string;
  used: string;
  intervals: string;
  seconds: number;
  warnings: string[];
  perTier: Record<Tier, { base: Scores; reconciled: Scores; nodes: number }>;
  nodes: { id: string; tier: Tier; baseMase: number; recMase: number; baseWql: number; recWql: number }[];
  base: Map<string, Forecast>;
  error?: string;
}

// ---------------------------------------------------------------------------------------------
// HTTP

async function call<T>(service: Service, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await request(`${service.url}${path}`, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key}` }, headersTimeout: 0, bodyTimeout: 0,
    });
    const text = await res.body.text();
    if (res.statusCode === 503 && attempt < 8) { // no worker right now: wait as told
      await new Promise((r) => setTimeout(r, 1000 * (Number(res.headers['retry-after']) || 2)));
      continue;
    }
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T, text };
  }
}

/** A hierarchical forecast: POST /v1/forecast, or a job where the service says 413 use_job_api. */
async function forecast(service: Service, body: Record<string, unknown>): Promise<Answer> {
  const sync = await call<Answer>(service, 'POST', '/v1/forecast', body);
  if (sync.status === 200) return sync.body;
  if (sync.status !== 413) throw new Error(`POST /v1/forecast answered ${sync.status}: ${sync.text.slice(0, 800)}`);
  const created = await call<{ id: string }>(service, 'POST', '/v1/forecast-jobs', body);
  if (created.status !== 200 && created.status !== 201 && created.status !== 202) {
    throw new Error(`POST /v1/forecast-jobs answered ${created.status}: ${created.text.slice(0, 800)}`);
  }
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const job = await call<Answer & { status: string; error?: unknown }>(service, 'GET', `/v1/forecast-jobs/${created.body.id}`);
    if (job.body.status === 'completed') return job.body;
    if (job.body.status === 'failed' || job.body.status === 'cancelled') throw new Error(`job ${created.body.id} ${job.body.status}: ${job.text.slice(0, 800)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// scoring

function item(node: HierNode, f: Forecast): QuantileForecast {
  return { actual: node.test, quantiles: new Map(LEVELS.map((q) => [q, f[String(q)]])) };
}

export function score(h: EvalHierarchy, answer: Answer): Pick<RunResult, 'perTier' | 'nodes'> {
  const byId = new Map(answer.hierarchy.nodes.map((n) => [n.id, n]));
  const missing = h.nodes.filter((n) => !byId.has(n.id)).map((n) => n.id);
  if (missing.length || byId.size !== h.nodes.length) {
    throw new Error(`the answer's nodes are not the hierarchy's: missing ${missing.slice(0, 5).join(', ')}; ${byId.size} nodes for ${h.nodes.length}`);
  }
  const m = h.spec.m;
  const nodes = h.nodes.map((n) => {
    const a = byId.get(n.id)!;
    const sameSeries = a.series.length === n.series.length && a.series.every((s, i) => s === n.series[i]);
    if (!sameSeries) throw new Error(`node ${n.id}: the answer sums series ${a.series.join(',')}, the eval ${n.series.join(',')}`);
    return {
      id: n.id, tier: n.level as Tier,
      baseMase: mase(n.test, a.base.mean, n.train, m), recMase: mase(n.test, a.reconciled.mean, n.train, m),
      baseWql: wql([item(n, a.base)], LEVELS), recWql: wql([item(n, a.reconciled)], LEVELS),
    };
  });
  const perTier = {} as RunResult['perTier'];
  for (const tier of TIERS) {
    const inTier = h.nodes.filter((n) => n.level === tier);
    const scored = nodes.filter((n) => n.tier === tier);
    perTier[tier] = {
      nodes: inTier.length,
      base: { mase: mean(scored.map((n) => n.baseMase)), wql: wql(inTier.map((n) => item(n, byId.get(n.id)!.base)), LEVELS) },
      reconciled: { mase: mean(scored.map((n) => n.recMase)), wql: wql(inTier.map((n) => item(n, byId.get(n.id)!.reconciled)), LEVELS) },
    };
  }
  return { perTier, nodes };
}

/** The mean over the three levels (each level weighs alike, however many nodes it has). */
function overLevels(r: RunResult, side: 'base' | 'reconciled', metric: keyof Scores): number {
  return mean(TIERS.map((t) => r.perTier[t][side][metric]));
}

// ---------------------------------------------------------------------------------------------
// report

const f4 = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '–');
const pct = (rec: number, base: number) => {
  const d = ((rec - base) / base) * 100;
  return Math.abs(d) < 0.05 ? '±0.0%' : `${d > 0 ? '+' : ''}${d.toFixed(1)}%`;
};

function tables(results: RunResult[]): string[] {
  const ok = results.filter((r) => !r.error);
  const lines = [
    '| model | reconcile (used) | level | nodes | MASE base | MASE reconciled | Δ | WQL base | WQL reconciled | Δ |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of ok) {
    const method = r.used === r.asked ? r.asked : `${r.asked} → **${r.used}**`;
    for (const tier of TIERS) {
      const t = r.perTier[tier];
      lines.push(`| ${r.model} | ${method} | ${tier} | ${t.nodes} | ${f4(t.base.mase)} | ${f4(t.reconciled.mase)} | ${pct(t.reconciled.mase, t.base.mase)} | `
        + `${f4(t.base.wql)} | ${f4(t.reconciled.wql)} | ${pct(t.reconciled.wql, t.base.wql)} |`);
    }
  }
  lines.push('', 'Mean over the three levels (each level weighs alike):', '',
    '| model | reconcile (used) | MASE base | MASE reconciled | Δ | WQL base | WQL reconciled | Δ | reconciled not worse | time s |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of ok) {
    const [bm, rm, bw, rw] = [overLevels(r, 'base', 'mase'), overLevels(r, 'reconciled', 'mase'), overLevels(r, 'base', 'wql'), overLevels(r, 'reconciled', 'wql')];
    const notWorse = (rec: number, base: number) => rec <= base * (1 + 1e-9); // equal up to float noise counts as not worse
    const verdict = notWorse(rm, bm) && notWorse(rw, bw) ? 'yes (both)' : notWorse(rm, bm) ? 'MASE only' : notWorse(rw, bw) ? 'WQL only' : '**no**';
    const method = r.used === r.asked ? r.asked : `${r.asked} → **${r.used}**`;
    lines.push(`| ${r.model} | ${method} | ${f4(bm)} | ${f4(rm)} | ${pct(rm, bm)} | ${f4(bw)} | ${f4(rw)} | ${pct(rw, bw)} | ${verdict} | ${r.seconds.toFixed(1)} |`);
  }
  for (const r of results.filter((x) => x.error)) lines.push('', `${r.model} ${r.asked}: ERROR ${r.error}`);
  return lines;
}

/** The largest difference between two runs' base forecasts of the same model (they should be equal: one model, one data). */
function baseSpread(results: RunResult[]): string[] {
  const out: string[] = [];
  for (const model of [...new Set(results.map((r) => r.model))]) {
    const runs = results.filter((r) => r.model === model && !r.error);
    let worst = 0;
    for (const r of runs.slice(1)) {
      for (const [id, f] of r.base) {
        const ref = runs[0].base.get(id)!;
        for (const key of Object.keys(f)) f[key].forEach((v, t) => { worst = Math.max(worst, Math.abs(v - ref[key][t]) / Math.max(1, Math.abs(ref[key][t]))); });
      }
    }
    out.push(`${model}: base forecasts of the ${runs.length} requests differ by at most ${worst.toExponential(2)} (relative)`);
  }
  return out;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values: a } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'nn5-daily' }, groups: { type: 'string', default: '10' },
      grouping: { type: 'string', default: 'random' }, seed: { type: 'string', default: '1' },
      models: { type: 'string', default: 'auto-ets,auto-theta,seasonal-naive' },
      methods: { type: 'string', default: 'mint_shrink,bottom_up,ols,wls_struct,wls_var' },
      context: { type: 'string' }, data: { type: 'string', default: DEFAULT_DATA_DIR },
      url: { type: 'string' }, key: { type: 'string' }, out: { type: 'string', default: 'eval/results' }, name: { type: 'string' },
    },
  });
  if (!HIERARCHY_DATASETS.includes(a.dataset!)) throw new Error(`--dataset must be one of ${HIERARCHY_DATASETS.join(', ')} (one date grid)`);
  if (a.grouping !== 'random' && a.grouping !== 'blocks') throw new Error('--grouping must be random or blocks');
  const h = loadHierarchy(a.dataset!, Number(a.groups), a.grouping, Number(a.seed), a.data);
  const models = a.models!.split(',');
  const methods = a.methods!.split(',');
  const name = a.name ?? `hierarchy-${a.dataset}`;
  const command = `node eval/hierarchy.ts ${process.argv.slice(2).join(' ')}`.trim();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`${h.spec.title}: ${h.bottom.length} series in ${Number(a.groups)} groups (${h.grouping}) + total = ${h.nodes.length} nodes; `
    + `h ${h.spec.horizon}, MASE m ${h.spec.m}; load ${load}`);
  // the in-process service: measure the models, not the sync budget's refusal (a 413 would go to the job API anyway)
  process.env.HORIZON_SYNC_BUDGET_MS ??= String(6 * 3600_000);
  const service = await serviceFromArgs({ url: a.url, key: a.key }, { inferenceTimeoutMs: 6 * 3600_000 });
  const results: RunResult[] = [];
  const started = performance.now();
  try {
    for (const model of models) {
      await call(service, 'GET', `/v1/warmup?model=${encodeURIComponent(model)}`);
      for (const method of methods) {
        const body = hierarchyBody(h, model, { quantiles: LEVELS, reconcile: method, ...(a.context ? { context: Number(a.context) } : {}) });
        const t0 = performance.now();
        const result: RunResult = {
          model, asked: method, used: method, intervals: '', seconds: 0, warnings: [], perTier: {} as RunResult['perTier'], nodes: [], base: new Map(),
        };
        try {
          const answer = await forecast(service, body);
          result.seconds = (performance.now() - t0) / 1000;
          Object.assign(result, score(h, answer), {
            used: answer.hierarchy.method, intervals: answer.hierarchy.intervals,
            warnings: [...answer.hierarchy.warnings, ...new Set(answer.warnings.map((w) => w.message.replace(/\d+(\.\d+)?/g, 'N')))],
            base: new Map(answer.hierarchy.nodes.map((n) => [n.id, n.base])),
          });
          const t = result.perTier;
          console.log(`${model} ${method}${result.used !== method ? ` (used ${result.used})` : ''}: ${result.seconds.toFixed(1)} s; `
            + TIERS.map((tier) => `${tier} MASE ${f4(t[tier].base.mase)}→${f4(t[tier].reconciled.mase)} WQL ${f4(t[tier].base.wql)}→${f4(t[tier].reconciled.wql)}`).join('; '));
        } catch (error) {
          result.error = (error as Error).message.replace(/\s+/g, ' ').slice(0, 500);
          console.log(`${model} ${method}: ERROR ${result.error}`);
        }
        results.push(result);
      }
    }
  } finally {
    await service.close();
  }
  const total = (performance.now() - started) / 1000;
  const table = tables(results);
  console.log(['', ...table, '', ...baseSpread(results)].join('\n'));
  const warnings = results.flatMap((r) => r.warnings.map((w) => `- ${r.model} ${r.asked}: ${w}`));
  const md = [
    `# Hierarchy eval: ${h.spec.title}`, '',
    `\`${command}\` — commit ${commit()}, ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, `
      + `load average at start ${load}; whole run ${total.toFixed(0)} s`, '',
    `Hierarchy: ${h.bottom.length} series (bottom) in ${Number(a.groups)} groups, ${h.grouping}, + total = ${h.nodes.length} nodes. `
      + `Train = all but the last ${h.spec.horizon} values, test = the last ${h.spec.horizon}; MASE m = ${h.spec.m} (of the forecast's mean), `
      + `WQL over 0.1…0.9; intervals ${[...new Set(results.map((r) => r.intervals).filter(Boolean))].join(', ')}.`, '',
    ...table, '', ...baseSpread(results).map((l) => `- ${l}`), '',
    ...(warnings.length ? ['Warnings:', '', ...new Set(warnings)] : ['No warnings.']), '',
  ];
  const out = resolve(a.out!);
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/${name}.md`, md.join('\n'));
  writeFileSync(`${out}/${name}-nodes.csv`, ['model,reconcile,used,node,level,mase_base,mase_reconciled,wql_base,wql_reconciled',
    ...results.flatMap((r) => r.nodes.map((n) => [r.model, r.asked, r.used, n.id, n.tier, n.baseMase, n.recMase, n.baseWql, n.recWql].join(',')))].join('\n') + '\n');
  console.log(`\nwritten: ${out}/${name}.md, ${name}-nodes.csv (whole run ${total.toFixed(0)} s)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
