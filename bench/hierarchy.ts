// Hierarchies (issue 39): what a hierarchical forecast costs through the API, against the libraries called by hand,
// in the same run —
//   api hierarchy   POST /v1/forecast of NN5 daily's 111 series with `hierarchy` (10 groups + total: 122 nodes; the
//                   grouping of eval/hierarchy-data.ts) and `reconcile` (default mint_shrink), model auto-ets, h 56,
//                   quantiles 0.1…0.9. Inside the in-process server the inference client's calls are timed (its
//                   prototype wrapped here, nothing in src/ changes): the model's /infer calls and the worker's
//                   POST /hierarchy/reconcile, so the reconciliation's share of the request is measured, not guessed.
//   api plain       POST /v1/forecast of the same 122 node series (the sums made here) without a hierarchy: the same
//                   model work without the in-sample fitted values, the aggregation and the reconciliation.
//   by hand         bench/hierarchy_direct.py in runtime/.venv-core's Python: hierarchicalforecast's aggregate,
//                   StatsForecast(models=[AutoETS(season_length=7)], freq="D", n_jobs=cores).forecast(h=56, level=[20,40,60,80],
//                   fitted=True) + forecast_fitted_values(), HierarchicalReconciliation([MinTrace("mint_shrink")]).reconcile
//                   (imports and a warm-up untimed; the three steps timed).
// Figures: (a) reconcile ÷ api hierarchy (the worker call's share), and 1 − api plain ÷ api hierarchy (the whole
// hierarchy's overhead); (b) by hand ÷ api hierarchy (time ratio; goal ≥ 0.9: the API at most ~11% slower). Also the
// largest difference between the API's reconciled means and the library's by hand (parity).
//
//   node bench/hierarchy.ts                                   # --rounds 3 --model auto-ets --method mint_shrink
//   node bench/hierarchy.ts --rounds 1 --model seasonal-naive --method bottom_up
//   node bench/hierarchy.ts --dataset hospital --groups 20
//
// Each round runs the three modes (order alternating), on one warm service (its first requests, a small hierarchy and a
// plain forecast, warm the model, the pool and the worker's hierarchicalforecast import). Medians over the rounds.
// Measures and reports; never asserts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { request } from 'undici';
import { InferenceClient } from '../src/runtime/inference.ts';
import { startService, type Service } from '../eval/service.ts';
import { hierarchyBody, loadHierarchy, type EvalHierarchy } from '../eval/hierarchy-data.ts';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'nn5-daily' }, groups: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' },
    model: { type: 'string', default: 'auto-ets' }, method: { type: 'string', default: 'mint_shrink' }, rounds: { type: 'string', default: '3' },
  },
});
const ROUNDS = Number(args.rounds);
const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const SEASON: Record<string, number> = { D: 7, W: 52, MS: 12, H: 24, Q: 4, Y: 1 }; // catalog/models.json season_length
const cores = availableParallelism();
const repo = fileURLToPath(new URL('..', import.meta.url));
const python = join(repo, 'runtime', '.venv-core', 'bin', 'python');

// ---------------------------------------------------------------------------------------------
// the inference client's calls, timed (the in-process server's client is an instance of this class)

type Span = { kind: 'infer' | 'reconcile' | 'other'; start: number; end: number };
const spans: Span[] = [];
function timed<A extends unknown[], R>(name: keyof InferenceClient, kindOf: (...a: A) => Span['kind']): void {
  const proto = InferenceClient.prototype as unknown as Record<string, (...a: A) => Promise<R>>;
  const original = proto[name];
  proto[name] = async function (this: unknown, ...a: A): Promise<R> {
    const start = performance.now();
    try {
      return await original.apply(this, a);
    } finally {
      spans.push({ kind: kindOf(...a), start, end: performance.now() });
    }
  };
}
for (const name of ['infer', 'inferText', 'inferEncodedText'] as const) timed(name, () => 'infer');
timed('post', (_group: unknown, path: unknown) => (path === '/hierarchy/reconcile' ? 'reconcile' : 'other'));

/** The wall time covered by the spans of one kind (parallel calls counted once). */
function covered(kind: Span['kind'], from: number, to: number): number {
  const list = spans.filter((s) => s.kind === kind && s.start >= from && s.end <= to).sort((a, b) => a.start - b.start);
  let total = 0;
  let end = -Infinity;
  for (const s of list) {
    if (s.end <= end) continue;
    total += s.end - Math.max(s.start, end);
    end = s.end;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------

type Answer = { series: { prediction: Record<string, number[]> }[][]; hierarchy?: { method: string; nodes: { id: string; reconciled: { mean: number[] } }[] } };

async function post(service: Service, body: unknown): Promise<Answer> {
  const res = await request(`${service.url}/v1/forecast`, {
    method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body), headersTimeout: 0, bodyTimeout: 0,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Answer;
}

function plainBody(h: EvalHierarchy, model: string, nodes = h.nodes): unknown {
  return { model, freq: h.spec.freq, horizon: h.spec.horizon, quantiles: LEVELS, series: nodes.map((n) => ({ target: n.train, index: h.index })) };
}

interface HierTiming { total: number; infer: number; reconcile: number; before: number; between: number; after: number; answer: Answer }

/** The request's time before the first model call, between the last model call and the reconciliation, and after it. */
function phases(from: number, to: number): { before: number; between: number; after: number } {
  const inside = spans.filter((s) => s.start >= from && s.end <= to);
  const infer = inside.filter((s) => s.kind === 'infer');
  const rec = inside.filter((s) => s.kind === 'reconcile');
  if (!infer.length || !rec.length) return { before: NaN, between: NaN, after: NaN };
  const firstInfer = Math.min(...infer.map((s) => s.start));
  const lastInfer = Math.max(...infer.map((s) => s.end));
  return { before: firstInfer - from, between: Math.min(...rec.map((s) => s.start)) - lastInfer, after: to - Math.max(...rec.map((s) => s.end)) };
}
async function apiHierarchy(service: Service, h: EvalHierarchy): Promise<HierTiming> {
  const body = hierarchyBody(h, args.model!, { quantiles: LEVELS, reconcile: args.method });
  const started = performance.now();
  const answer = await post(service, body);
  const ended = performance.now();
  return { total: ended - started, infer: covered('infer', started, ended), reconcile: covered('reconcile', started, ended), ...phases(started, ended), answer };
}

async function apiPlain(service: Service, h: EvalHierarchy): Promise<number> {
  const started = performance.now();
  await post(service, plainBody(h, args.model!));
  return performance.now() - started;
}

interface Direct { rounds: { aggregate: number; forecast: number; reconcile: number; total: number }[]; mean: Record<string, number[]>; nodes: number }
/** Asynchronous: the in-process server's event loop must keep running (a blocked loop resets its keep-alive connections). */
async function byHand(h: EvalHierarchy): Promise<Direct> {
  const dir = mkdtempSync(join(tmpdir(), 'horizon-hier-direct-'));
  try {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify({
      series: h.bottom.map((s) => s.train), start: h.index[0], freq: h.spec.freq, labels: h.labels, horizon: h.spec.horizon,
      season_length: SEASON[h.spec.freq], model: args.model, levels: [20, 40, 60, 80], method: args.method, n_jobs: cores, rounds: 1,
    }));
    const { stdout: out } = await promisify(execFile)(python, [join(repo, 'bench', 'hierarchy_direct.py'), file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return JSON.parse(out.trim().split('\n').at(-1)!) as Direct;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The largest relative difference between the API's reconciled means and the library's by hand. */
function parity(answer: Answer, direct: Direct): string {
  let worst = 0;
  let missing = 0;
  for (const node of answer.hierarchy!.nodes) {
    const mine = direct.mean[node.id];
    if (!mine) { missing++; continue; }
    node.reconciled.mean.forEach((v, t) => { worst = Math.max(worst, Math.abs(v - mine[t]) / Math.max(1, Math.abs(mine[t]))); });
  }
  return `${worst.toExponential(2)}${missing ? ` (${missing} nodes not matched by id)` : ''}`;
}

// ---------------------------------------------------------------------------------------------

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const h = loadHierarchy(args.dataset!, Number(args.groups), 'random', Number(args.seed));
const small = loadHierarchy(args.dataset!, 2, 'random', Number(args.seed));
small.bottom = small.bottom.slice(0, 4);
small.labels = small.labels.slice(0, 4).map((l, i) => ({ ...l, group: `w${i >> 1}` }));
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${h.spec.title}: ${h.bottom.length} series in ${args.groups} groups + total = ${h.nodes.length} nodes, h ${h.spec.horizon}; `
  + `model ${args.model}, reconcile ${args.method}; ${cores} cores; load ${load()}`);

process.env.HORIZON_SYNC_BUDGET_MS = String(3_600_000); // measure the request, not the sync budget's refusal
const service = await startService({ inferenceTimeoutMs: 3_600_000 });
const rows = { hier: [] as number[], infer: [] as number[], reconcile: [] as number[], rest: [] as number[], before: [] as number[], between: [] as number[],
  after: [] as number[],
  plain: [] as number[], hand: [] as number[],
  handAggregate: [] as number[], handForecast: [] as number[], handReconcile: [] as number[] };
let lastParity = '';
let used = '';
try {
  await post(service, hierarchyBody(small, args.model!, { quantiles: LEVELS, reconcile: args.method }));
  await post(service, plainBody(small, args.model!, small.nodes.slice(0, 4)));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ['hand', 'plain', 'hier'] : ['hier', 'plain', 'hand'];
    let answer: Answer | undefined;
    let direct: Direct | undefined;
    for (const mode of order) {
      if (mode === 'hier') {
        const t = await apiHierarchy(service, h);
        rows.hier.push(t.total); rows.infer.push(t.infer); rows.reconcile.push(t.reconcile); rows.rest.push(t.total - t.infer - t.reconcile);
        rows.before.push(t.before); rows.between.push(t.between); rows.after.push(t.after);
        answer = t.answer;
        used = t.answer.hierarchy!.method;
      } else if (mode === 'plain') {
        rows.plain.push(await apiPlain(service, h));
      } else {
        direct = await byHand(h);
        const d = direct.rounds[0];
        rows.hand.push(d.total * 1000); rows.handAggregate.push(d.aggregate * 1000); rows.handForecast.push(d.forecast * 1000);
        rows.handReconcile.push(d.reconcile * 1000);
      }
    }
    lastParity = parity(answer!, direct!);
    console.log(`round ${round + 1}: api hierarchy ${(rows.hier.at(-1)! / 1000).toFixed(2)} s (model calls ${(rows.infer.at(-1)! / 1000).toFixed(2)} s, `
      + `reconcile ${(rows.reconcile.at(-1)! / 1000).toFixed(3)} s), api plain ${(rows.plain.at(-1)! / 1000).toFixed(2)} s, `
      + `by hand ${(rows.hand.at(-1)! / 1000).toFixed(2)} s; max |API − by hand| of the reconciled means ${lastParity}; load ${load()}`);
  }
} finally {
  await service.close();
}
const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)])) as Record<keyof typeof rows, number>;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`\nmedians over ${ROUNDS} round(s) (method used: ${used}):`);
console.log(`api hierarchy   ${s(m.hier)}  = model calls ${s(m.infer)} + reconcile ${s(m.reconcile)} + the rest ${s(m.rest)} (each a median over the rounds)`);
console.log(`                the rest: before the model calls ${s(m.before)} (parse, validation, the nodes' sums and plans), between them and the `
  + `reconcile call ${s(m.between)}, after it ${s(m.after)} (the answer)`);
console.log(`api plain       ${s(m.plain)}  (the same ${h.nodes.length} series, no hierarchy)`);
console.log(`by hand         ${s(m.hand)}  = aggregate ${s(m.handAggregate)} + forecast (fitted=True) ${s(m.handForecast)} + reconcile ${s(m.handReconcile)}`);
console.log(`(a) reconcile ÷ api hierarchy: ${(m.reconcile / m.hier).toFixed(3)}; 1 − api plain ÷ api hierarchy: ${(1 - m.plain / m.hier).toFixed(3)}`);
const perRound = rows.hand.map((hand, i) => hand / rows.hier[i]);
console.log(`(b) by hand ÷ api hierarchy: ${(m.hand / m.hier).toFixed(3)} (goal ≥ 0.9); per round ${perRound.map((r) => r.toFixed(2)).join(', ')}, `
  + `their median ${median(perRound).toFixed(3)}`);
console.log(`parity (last round): reconciled means differ by at most ${lastParity} (relative)`);
console.log(`load at the end ${load()}`);
