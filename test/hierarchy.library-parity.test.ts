// Hierarchies (issue 39) against hierarchicalforecast 1.5.3 itself, sharing no code with Horizon: the references are
// computed by small Python scripts in this file, run in runtime/.venv-core's Python (JSON on stdin), that import the
// library, statsforecast and pandas only — nothing from horizon_runtime.
// (a) The control plane sums the aggregates itself (forecasting/hierarchy-series.ts, not through the library): on a
//     tricky bottom frame (series starting on different dates, nulls inside, a date left out of an index, a step where
//     every series is null) its nodes, S, levels and each node's series equal `hierarchicalforecast.utils.aggregate`'s.
// (b) Through a real server: POST /v1/forecast with a hierarchy, per method; the reference builds Y_hat_df from the
//     answer's hierarchy.nodes[].base, S_df and tags by hand from the request's labels, the in-sample fitted values
//     with statsforecast's AutoETS (what the statistical adapter fits for auto-ets), and calls
//     HierarchicalReconciliation(...).reconcile; for every method offered, the answer's reconciled means (and normality
//     intervals) equal it to 1e-8 relative (measured here: at most 1.4e-10 on a quiet machine, erm's intervals 1.04e-9 on a
//     heavily loaded one: its closed form's pseudo-inverse rounds differently across processes; the same reference with
//     AutoETS(season_length=1) fitted values misses by 1-60% on the residual methods, so they do read the in-sample values).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hierarchyStructure, levelTags, summingMatrix } from '../src/forecasting/hierarchy-spec.ts';
import { nodeSeries } from '../src/forecasting/hierarchy-series.ts';
import type { InputSeries } from '../src/forecasting/normalize.ts';
import { dailyDates, monthlyDates, startTestServer, type TestServer } from './helpers.ts';

const PYTHON = fileURLToPath(new URL('../runtime/.venv-core/bin/python', import.meta.url));

/** Runs `script` in runtime/.venv-core's Python with `input` as JSON on stdin; its stdout's JSON. */
function python(script: string, input: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONHASHSEED: '0' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) { reject(new Error(`python exited ${code}: ${err.slice(-3000)}`)); return; }
      try { resolve(JSON.parse(out)); } catch (e) {
        reject(new Error(`python's output is not JSON (${(e as Error).message}): ${out.slice(0, 500)}; ${err.slice(-1000)}`));
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** The library's node ids with the "total" column it was given dropped: "total/north/n1" → "north/n1" (the docs' ids). */
const dropTotal = (id: string) => (id === 'total' ? id : id.replace(/^total\//, ''));
const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

// ---- (a) the aggregates ------------------------------------------------------------------------------------------

// The bottom frame of `aggregate`: one row per series and date with a value (its input has no missing values: a null
// or a date left out of an index is no row); "total" a constant column so that it names the top node as Horizon does.
const AGGREGATE = String.raw`
import json, sys
import pandas as pd
from hierarchicalforecast.utils import aggregate

req = json.load(sys.stdin)
rows = [{"total": "total", **s["labels"], "ds": pd.Timestamp(ds), "y": float(y)}
        for s in req["series"] for ds, y in zip(s["index"], s["target"]) if y is not None]
spec = [["total"]] + [["total", *level] for level in req["levels"]]
Y_df, S_df, tags = aggregate(pd.DataFrame(rows), spec)
bottom = [c for c in S_df.columns if c != "unique_id"]
print(json.dumps({
    "series": {uid: {"ds": [d.strftime("%Y-%m-%d") for d in g["ds"]], "y": g["y"].tolist()} for uid, g in Y_df.groupby("unique_id", sort=False)},
    "S": {row["unique_id"]: [b for b in bottom if row[b] == 1] for _, row in S_df.iterrows()},
    "tags": {level: list(ids) for level, ids in tags.items()},
}))
`;

describe('the control plane\'s aggregates equal hierarchicalforecast\'s aggregate', () => {
  const d = dailyDates('2024-01-01', 14);
  // n1: all 14 days, nulls on the 3rd and 11th; n2 starts on the 4th, nulls on the 6th, 11th and 12th; s1 has no
  // 9 January in its index and a null on the 11th; s2 starts on the 7th with a null, then nulls on the 10th and 11th.
  // On 11 January every series is null (the total is missing there); south has only s2 on the 9th.
  const series: (InputSeries & { labels: Record<string, string> })[] = [
    { labels: { region: 'north', store: 'n1' }, index: d, target: [10.1, 11.2, null, 12.3, 13.4, 9.5, 8.6, 10.7, 11.8, 12.9, null, 13.1, 12.2, 11.3] },
    { labels: { region: 'north', store: 'n2' }, index: d.slice(3), target: [5.5, 6.6, null, 7.7, 8.8, 9.9, 4.4, null, null, 6.1, 7.2] },
    { labels: { region: 'south', store: 's1' }, index: d.filter((x) => x !== '2024-01-09'),
      target: [20.2, 21.3, 22.4, 23.5, 24.6, 25.7, 26.8, 27.9, 28.1, null, 29.2, 30.3, 31.4] },
    { labels: { region: 'south', store: 's2' }, index: d.slice(6), target: [null, 3.3, 4.4, null, null, 5.5, 6.6, 7.7] },
    { labels: { region: 'east', store: 'e1' }, index: d.slice(1), target: [1.25, 2.5, 3.75, 5, 6.25, 7.5, 8.75, 10, 11.25, null, 12.5, 13.75, 15] },
  ];
  const levels = [['region'], ['region', 'store']];

  it('node ids, levels (tags), S and every node\'s series (the dates with a value and their sums)', async () => {
    const structure = hierarchyStructure({ labels: series.map((s) => s.labels), levels }, series.length);
    const ours = nodeSeries(series.map(({ target, index }) => ({ target, index })), 'D', 3, structure);
    const lib = await python(AGGREGATE, { series, levels });

    const libSeries = new Map(Object.entries(lib.series as Record<string, { ds: string[]; y: number[] }>)
      .map(([id, s]) => [dropTotal(id), s]));
    assert.deepEqual(structure.nodes.map((n) => n.id).sort(), [...libSeries.keys()].sort(), 'the same nodes');

    // levels: the library's tag keys carry the total column too ("total/region")
    const libTags = Object.fromEntries(Object.entries(lib.tags as Record<string, string[]>)
      .map(([level, ids]) => [dropTotal(level), ids.map(dropTotal).sort()]));
    const ourTags = Object.fromEntries(Object.entries(levelTags(structure)).map(([level, ids]) => [level, [...ids].sort()]));
    assert.deepEqual(ourTags, libTags, 'the same levels, each with the same nodes');

    // S: per node, the bottom nodes it sums (the library orders its rows and columns by id, Horizon by first appearance)
    const bottomIds = structure.nodes.slice(-structure.seriesCount).map((n) => n.id);
    const ourS = Object.fromEntries(summingMatrix(structure).map((row, k) => [structure.nodes[k].id, bottomIds.filter((_, i) => row[i] === 1).sort()]));
    const libS = Object.fromEntries(Object.entries(lib.S as Record<string, string[]>).map(([id, cols]) => [dropTotal(id), cols.map(dropTotal).sort()]));
    assert.deepEqual(ourS, libS, 'the same summing matrix');

    // each node's series: the control plane's dates with a value (a null is no value) and the library's rows
    const differences: string[] = [];
    structure.nodes.forEach((node, k) => {
      const mine = new Map<string, number>();
      ours[k].index.forEach((date, t) => { const v = ours[k].target[t]; if (v !== null) mine.set(date.slice(0, 10), v); });
      const theirs = libSeries.get(node.id)!;
      const libMap = new Map(theirs.ds.map((date, t) => [date, theirs.y[t]]));
      for (const date of new Set([...mine.keys(), ...libMap.keys()])) {
        const [a, b] = [mine.get(date), libMap.get(date)];
        if (a === undefined || b === undefined || !sameNumber(a, b)) {
          differences.push(`${node.id} ${date}: control plane ${a ?? 'missing'}, aggregate ${b ?? 'no row'}`);
        }
      }
      // the common grid's end: every node ends on the last date
      assert.equal(ours[k].index.at(-1)!.slice(0, 10), '2024-01-14', `${node.id} ends on the series' last date`);
    });
    assert.deepEqual(differences, [], `the control plane's sums differ from aggregate's:\n${differences.join('\n')}`);

    // the tricky dates are really there: the total is missing on 11 January and south is s2 alone on the 9th
    const total = ours[structure.nodes.findIndex((n) => n.id === 'total')];
    assert.equal(total.target[total.index.findIndex((x) => x.startsWith('2024-01-11'))], null);
    assert.ok(!libSeries.get('total')!.ds.includes('2024-01-11'));
    const south = ours[structure.nodes.findIndex((n) => n.id === 'south')];
    assert.equal(south.target[south.index.findIndex((x) => x.startsWith('2024-01-09'))], 4.4);
  });
});

// ---- (b) the reconciled forecasts -------------------------------------------------------------------------------

// Per method: the library's reconciliation of the answer's base forecasts. Node histories from `aggregate` (part (a)
// checks it against Horizon's sums); S_df and tags by hand from the labels (ids "total", "<region>", "<region>/<store>",
// the bottom in the request's order); in-sample fitted values from statsforecast's AutoETS(season_length) on each
// node's history (one-step, `forecast(fitted=True)`); Y_df with them as the model's column.
const RECONCILE = String.raw`
import json, sys
import numpy as np
import pandas as pd
from hierarchicalforecast.core import HierarchicalReconciliation
from hierarchicalforecast.methods import ERM, BottomUp, MiddleOut, MinTrace, TopDown
from hierarchicalforecast.utils import aggregate
from statsforecast.models import AutoETS

req = json.load(sys.stdin)
labels, levels = req["labels"], req["levels"]
MODEL = "AutoETS"

# S_df and tags by hand: the total, then each level's nodes in first appearance, the bottom last in the request's order
ids_of = lambda level: list(dict.fromkeys("/".join(l[name] for name in level) for l in labels))
tags = {"total": ["total"], **{"/".join(level): ids_of(level) for level in levels}}
node_ids = [i for ids in tags.values() for i in ids]
bottom = tags["/".join(levels[-1])]
member = lambda node, b: node == "total" or b == node or b.startswith(node + "/")
S_df = pd.DataFrame([[1.0 if member(n, b) else 0.0 for b in bottom] for n in node_ids], columns=bottom)
S_df.insert(0, "unique_id", node_ids)
tags = {k: np.asarray(v, dtype=object) for k, v in tags.items()}

# the nodes' histories and the model's in-sample fitted values
rows = [{"total": "total", **l, "ds": pd.Timestamp(ds), "y": float(y)}
        for l, s in zip(labels, req["series"]) for ds, y in zip(s["index"], s["target"]) if y is not None]
Y_df, _, _ = aggregate(pd.DataFrame(rows), [["total"]] + [["total", *level] for level in levels])
Y_df["unique_id"] = [u if u == "total" else u[len("total/"):] for u in Y_df["unique_id"]]
Y_df[MODEL] = np.nan
for uid, g in Y_df.groupby("unique_id"):
    fit = AutoETS(season_length=req["season_length"]).forecast(y=g["y"].to_numpy(dtype=np.float64), h=req["horizon"], fitted=True)
    Y_df.loc[g.index, MODEL] = fit["fitted"]

def reconciler(method):
    if method == "bottom_up":
        return BottomUp()
    if method.startswith("top_down_"):
        return TopDown(method=method[len("top_down_"):])
    if method == "middle_out":
        return MiddleOut(middle_level=req["middle_level"], top_down_method="forecast_proportions")
    if method == "erm":
        return ERM(method="closed")
    return MinTrace(method=method)

out = {}
for method, case in req["cases"].items():
    nodes = case["nodes"]
    Y_hat = pd.DataFrame({
        "unique_id": [n["id"] for n in nodes for _ in n["index"]],
        "ds": [pd.Timestamp(d) for n in nodes for d in n["index"]],
        MODEL: [v for n in nodes for v in n["base"]["mean"]],
        MODEL + "-lo-80": [v for n in nodes for v in n["base"]["0.1"]],
        MODEL + "-hi-80": [v for n in nodes for v in n["base"]["0.9"]],
    })
    level = [80] if case["intervals"] else None
    hrec = HierarchicalReconciliation([reconciler(method)])
    rec = hrec.reconcile(Y_hat_df=Y_hat, tags=tags, S_df=S_df, Y_df=Y_df, level=level, intervals_method="normality")
    name = next(iter(hrec.execution_times))
    out[method] = {uid: {"mean": g[name].tolist(), **({"lo": g[name + "-lo-80"].tolist(), "hi": g[name + "-hi-80"].tolist()} if level else {})}
                   for uid, g in rec.groupby("unique_id", sort=False)}
print(json.dumps(out))
`;

describe('POST /v1/forecast with a hierarchy equals HierarchicalReconciliation.reconcile on the answer\'s base forecasts', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ HORIZON_RUNTIME_GROUPS: 'core' }); });
  after(async () => server?.close());

  const N = 36;
  const wave = (level: number, phase: number, trend: number) => Array.from(
    { length: N }, (_, t) => level + trend * t + level * 0.2 * Math.sin((2 * Math.PI * (t + phase)) / 12) + ((t * 7 + phase) % 5) + 0.37 * ((t * t) % 3),
  );
  const index = monthlyDates('2021-01', N);
  // n1, n2 (north), s1, s2 (south); s2 starts a year later (24 months: still two seasons, so seasonal like the others)
  const series = [
    { target: wave(50, 0, 0.5), index },
    { target: wave(30, 3, 0.2), index },
    { target: wave(80, 1, -0.3), index },
    { target: wave(20, 5, 0.1).slice(12), index: index.slice(12) },
  ];
  const labels = [
    { region: 'north', store: 'n1' }, { region: 'north', store: 'n2' }, { region: 'south', store: 's1' }, { region: 'south', store: 's2' },
  ];
  const levels = [['region'], ['region', 'store']];
  const horizon = 6;
  // every method offered: those that need no in-sample values, then those weighing by the in-sample residuals (or, the
  // top-down historical proportions, reading the histories). `intervals`: the normality intervals are compared too (the
  // top-down and middle-out methods reconcile intervals by bootstrap only: their means are compared)
  const cases: { method: string; intervals: boolean; extra?: Record<string, unknown> }[] = [
    { method: 'bottom_up', intervals: true },
    { method: 'top_down_forecast_proportions', intervals: false },
    { method: 'middle_out', intervals: false, extra: { reconcile_level: 'region' } },
    { method: 'ols', intervals: true },
    { method: 'wls_struct', intervals: true },
    { method: 'wls_var', intervals: true },
    { method: 'mint_shrink', intervals: true },
    { method: 'mint_cov', intervals: true },
    { method: 'erm', intervals: true },
    { method: 'top_down_average_proportions', intervals: false },
    { method: 'top_down_proportion_averages', intervals: false },
  ];
  type Node = { id: string; index: string[]; base: Record<string, number[]>; reconciled: Record<string, number[]> };
  const answers = new Map<string, { method: string; intervals: string; warnings: string[]; nodes: Node[] }>();
  let reference: Record<string, Record<string, { mean: number[]; lo?: number[]; hi?: number[] }>>;

  before(async () => {
    for (const c of cases) {
      const body = {
        series, freq: 'MS', horizon, quantiles: [0.1, 0.5, 0.9], model: 'auto-ets', hierarchy: { labels, levels }, reconcile: c.method, ...c.extra,
      };
      const res = await server.request('POST', '/v1/forecast', { body });
      assert.equal(res.status, 200, `${c.method}: ${res.text}`);
      answers.set(c.method, res.body.hierarchy);
    }
    reference = await python(RECONCILE, {
      labels, levels, series, horizon, season_length: 12, middle_level: 'region',
      cases: Object.fromEntries(cases.map((c) => [c.method, { intervals: c.intervals, nodes: answers.get(c.method)!.nodes }])),
    });
  });

  const close = (what: string, a: number[], b: number[]) => {
    assert.equal(a.length, b.length, what);
    a.forEach((v, t) => assert.ok(Math.abs(v - b[t]) <= 1e-8 * Math.max(1, Math.abs(b[t])), `${what} step ${t}: Horizon ${v}, hierarchicalforecast ${b[t]}`));
  };

  for (const c of cases) {
    it(`${c.method}: the reconciled means${c.intervals ? ' and normality intervals (0.1, 0.9: level 80)' : ''} equal the library's`, () => {
      const h = answers.get(c.method)!;
      assert.equal(h.method, c.method, `no fallback: ${JSON.stringify(h.warnings)}`);
      if (c.intervals) assert.equal(h.intervals, 'normality');
      const ref = reference[c.method];
      assert.deepEqual(h.nodes.map((n) => n.id).sort(), Object.keys(ref).sort());
      for (const node of h.nodes) {
        close(`${node.id} mean`, node.reconciled.mean, ref[node.id].mean);
        if (!c.intervals) continue;
        close(`${node.id} 0.1`, node.reconciled['0.1'], ref[node.id].lo!);
        close(`${node.id} 0.9`, node.reconciled['0.9'], ref[node.id].hi!);
        close(`${node.id} 0.5`, node.reconciled['0.5'], ref[node.id].mean);
      }
      // not trivially so: the base forecasts of auto-ets do not add up, and the reconciliation changed them
      assert.ok(h.nodes.some((n) => n.reconciled.mean.some((v, t) => Math.abs(v - n.base.mean[t]) > 1e-6 * Math.abs(v))), 'reconciled ≠ base somewhere');
    });
  }
});
