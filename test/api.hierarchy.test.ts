// Hierarchies (issue 39): POST /v1/forecast, /v1/forecast-jobs and /v1/cross-validation with a `hierarchy`, on a real
// server with a real core worker (hierarchicalforecast's reconciliation). Every parent's reconciled mean is the sum of its
// children's (1e-9), quantiles never cross, every 422 names its series, field and label and charges nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, monthlyDates, waitForJob, type TestServer } from './helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => server.close());

const N = 36;
const wave = (level: number, phase: number, trend: number) => Array.from(
  { length: N }, (_, t) => level + trend * t + level * 0.2 * Math.sin((2 * Math.PI * (t + phase)) / 12) + ((t * 7 + phase) % 5),
);
const index = monthlyDates('2021-01', N);
// north: n1, n2; south: s1, s2 (s2 starts a year later: before its first date it adds nothing)
const series = [
  { target: wave(50, 0, 0.5), index },
  { target: wave(30, 3, 0.2), index },
  { target: wave(80, 1, -0.3), index },
  { target: wave(20, 5, 0.1).slice(12), index: index.slice(12) },
];
const labels = [
  { region: 'north', store: 'n1' }, { region: 'north', store: 'n2' }, { region: 'south', store: 's1' }, { region: 'south', store: 's2' },
];
const hierarchy = { labels, levels: [['region'], ['region', 'store']] };
const quantiles = [0.1, 0.5, 0.9];
const body = (extra: Record<string, unknown> = {}) => ({ series, freq: 'MS', horizon: 6, quantiles, model: 'auto-ets', hierarchy, ...extra });

type Node = { id: string; level: string; parent: string | null; series: number[]; index: string[]; base: Record<string, number[]>; reconciled: Record<string, number[]> };

/** Every parent's reconciled mean is the sum of its children's (1e-9), and no node's quantiles cross. */
function checkCoherent(nodes: Node[], levels: number[]): void {
  for (const parent of nodes) {
    const children = nodes.filter((n) => n.parent === parent.id);
    if (children.length === 0) continue;
    parent.reconciled.mean.forEach((v, t) => {
      const sum = children.reduce((acc, c) => acc + c.reconciled.mean[t], 0);
      assert.ok(Math.abs(v - sum) <= 1e-9 * Math.max(1, Math.abs(v)), `${parent.id} step ${t}: ${v} ≠ Σ children ${sum}`);
    });
  }
  for (const node of nodes) {
    for (const forecast of [node.base, node.reconciled]) {
      assert.deepEqual(Object.keys(forecast).sort(), ['mean', ...levels.map(String)].sort());
      for (let l = 1; l < levels.length; l++) {
        forecast[String(levels[l])].forEach((v, t) => assert.ok(v >= forecast[String(levels[l - 1])][t], `${node.id}: quantiles cross at step ${t}`));
      }
    }
  }
}

describe('POST /v1/forecast with a hierarchy', () => {
  it('auto-ets, wls_var (default): nodes total, regions, stores; coherent; series[i] = input series i\'s reconciled forecast', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: body() });
    assert.equal(res.status, 200, res.text);
    const h = res.body.hierarchy;
    assert.equal(h.method, 'wls_var');
    assert.equal(h.intervals, 'normality');
    assert.deepEqual(h.nodes.map((n: Node) => n.id), ['total', 'north', 'south', 'north/n1', 'north/n2', 'south/s1', 'south/s2']);
    assert.deepEqual(h.nodes.map((n: Node) => n.parent), [null, 'total', 'total', 'north', 'north', 'south', 'south']);
    assert.deepEqual(h.nodes.map((n: Node) => n.level), ['total', 'region', 'region', 'region/store', 'region/store', 'region/store', 'region/store']);
    assert.deepEqual(h.nodes[1].series, [0, 1]);
    checkCoherent(h.nodes, quantiles);
    assert.equal(res.body.series.length, 4);
    res.body.series.forEach((s: any, i: number) => {
      assert.deepEqual(s[0].prediction, h.nodes[3 + i].reconciled);
      assert.deepEqual(s[0].index, monthlyDates('2024-01', 6));
    });
    // the base forecasts are the model's own: a bottom node's equals the plain forecast of its series
    const plain = await server.request('POST', '/v1/forecast', { body: { series: [series[3]], freq: 'MS', horizon: 6, quantiles, model: 'auto-ets' } });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(h.nodes[6].base, plain.body.series[0][0].prediction);
    // the total's base is the forecast of the sums (s2 adds nothing before its first date)
    const total = index.map((_, t) => series.reduce((acc, s) => acc + (t >= N - s.target.length ? s.target[t - (N - s.target.length)] : 0), 0));
    const totalPlain = await server.request('POST', '/v1/forecast', { body: { series: [{ target: total, index }], freq: 'MS', horizon: 6, quantiles, model: 'auto-ets' } });
    const close = (a: number[], b: number[]) => a.forEach((v, t) => assert.ok(Math.abs(v - b[t]) <= 1e-6 * Math.abs(b[t]), `${v} ≠ ${b[t]}`));
    close(h.nodes[0].base.mean, totalPlain.body.series[0][0].prediction.mean);
  });

  it('prism (no in-sample fitted values): wls_var (default) falls back to wls_struct with a warning; bottom_up is the sum of the bases', async () => {
    const prism = { model: 'prism', prism_members: ['naive', 'seasonal-naive'] };
    const res = await server.request('POST', '/v1/forecast', { body: body({ ...prism, quantiles: [0.2, 0.5] }) });
    assert.equal(res.status, 200, res.text);
    const h = res.body.hierarchy;
    assert.equal(h.method, 'wls_struct');
    assert.ok(h.warnings.some((w: string) => /wls_var.*model prism has no in-sample fitted values.*wls_struct/.test(w)), JSON.stringify(h.warnings));
    checkCoherent(h.nodes, [0.2, 0.5]);
    const up = await server.request('POST', '/v1/forecast', { body: body({ ...prism, reconcile: 'bottom_up' }) });
    assert.equal(up.status, 200, up.text);
    const nodes: Node[] = up.body.hierarchy.nodes;
    assert.equal(up.body.hierarchy.method, 'bottom_up');
    for (const [k, node] of nodes.entries()) {
      if (k >= 3) assert.deepEqual(node.reconciled.mean, node.base.mean);
      else node.reconciled.mean.forEach((v, t) => {
        const sum = node.series.reduce((acc, i) => acc + nodes[3 + i].base.mean[t], 0);
        assert.ok(Math.abs(v - sum) <= 1e-9 * Math.abs(sum));
      });
    }
  });

  it('model auto and series_ids: the stored series forecast as the same series inline', async () => {
    const auto = { model: 'auto', auto_candidates: ['naive', 'seasonal-naive'], reconcile: 'bottom_up' };
    const inline = await server.request('POST', '/v1/forecast', { body: body(auto) });
    assert.equal(inline.status, 200, inline.text);
    assert.equal(inline.body.auto.series.length, 4, 'auto.series: what forecast each input series');
    checkCoherent(inline.body.hierarchy.nodes, quantiles);
    for (const [i, s] of series.entries()) {
      const put = await server.request('PUT', `/v1/series/hier-${i}`, { body: { freq: 'MS', index: s.index, target: s.target } });
      assert.ok(put.status === 200 || put.status === 201, put.text);
    }
    const { series: _s, ...rest } = body(auto);
    const byRef = await server.request('POST', '/v1/forecast', { body: { ...rest, series_ids: series.map((_, i) => `hier-${i}`) } });
    assert.equal(byRef.status, 200, byRef.text);
    assert.deepEqual(byRef.body.series, inline.body.series);
    assert.deepEqual(byRef.body.hierarchy, inline.body.hierarchy);
  });

  it('the explicit form: aggregates by index, bottom nodes named', async () => {
    const explicit = { aggregates: { north: [0, 1], south: [2, 3] }, names: ['n1', 'n2', 's1', 's2'] };
    const res = await server.request('POST', '/v1/forecast', { body: body({ hierarchy: explicit, model: 'seasonal-naive', reconcile: 'ols' }) });
    assert.equal(res.status, 200, res.text);
    const nodes: Node[] = res.body.hierarchy.nodes;
    assert.deepEqual(nodes.map((n) => [n.id, n.parent, n.level]), [
      ['total', null, 'total'], ['north', 'total', 'aggregates/1'], ['south', 'total', 'aggregates/1'],
      ['n1', 'north', 'series'], ['n2', 'north', 'series'], ['s1', 'south', 'series'], ['s2', 'south', 'series'],
    ]);
    checkCoherent(nodes, quantiles);
  });
});

describe('a temporal hierarchy', () => {
  // two daily series of 8 weeks (the second one 6): each reconciled with its weekly sums (periods counted back from its end)
  const daily = (n: number, level: number) => Array.from({ length: n }, (_, t) => level + 10 * Math.sin((2 * Math.PI * t) / 7) + (t % 3) + t * 0.2);
  const days = Array.from({ length: 56 }, (_, t) => new Date(Date.UTC(2024, 0, 1) + t * 86_400_000).toISOString().slice(0, 10));
  const temporal = { series: [{ target: daily(56, 50), index: days }, { target: daily(42, 80), index: days.slice(0, 42) }], freq: 'D', horizon: 14, quantiles };

  it('D → W: every weekly reconciled mean is the sum of its 7 daily ones; series[i] the reconciled days', async () => {
    const res = await server.request('POST', '/v1/forecast', { body: { ...temporal, model: 'auto-ets', hierarchy: { temporal: ['W'] } } });
    assert.equal(res.status, 200, res.text);
    const h = res.body.hierarchy;
    assert.deepEqual(h.nodes.map((n: Node) => [n.id, n.level, n.parent]), [
      ['series[0]/W', 'W', null], ['series[0]', 'series', 'series[0]/W'], ['series[1]/W', 'W', null], ['series[1]', 'series', 'series[1]/W'],
    ]);
    assert.equal(h.method, 'wls_struct', 'the temporal reconciliation takes no in-sample values');
    assert.ok(h.warnings.some((w: string) => /wls_var.*temporal reconciliation takes no in-sample values/.test(w)), JSON.stringify(h.warnings));
    for (const [w, d] of [[0, 1], [2, 3]]) {
      const [week, day] = [h.nodes[w], h.nodes[d]];
      assert.equal(week.reconciled.mean.length, 2);
      assert.equal(day.reconciled.mean.length, 14);
      week.reconciled.mean.forEach((v: number, p: number) => {
        const sum = day.reconciled.mean.slice(7 * p, 7 * p + 7).reduce((a: number, b: number) => a + b, 0);
        assert.ok(Math.abs(v - sum) <= 1e-9 * Math.abs(v), `${week.id} period ${p}: ${v} ≠ ${sum}`);
      });
      for (const node of [week, day]) for (let t = 0; t < node.reconciled.mean.length; t++) {
        assert.ok(node.reconciled['0.1'][t] <= node.reconciled['0.5'][t] && node.reconciled['0.5'][t] <= node.reconciled['0.9'][t]);
      }
    }
    assert.deepEqual(res.body.series[1][0].prediction, h.nodes[3].reconciled);
    assert.equal(h.nodes[2].index[0], '2024-02-18', 'series 1 ends on 2024-02-11: its first forecast week ends a week later');
    // as a job: the same answer
    const accepted = await server.request('POST', '/v1/forecast-jobs', { body: { ...temporal, model: 'auto-ets', hierarchy: { temporal: ['W'] } } });
    assert.equal(accepted.status, 202, accepted.text);
    const job = await waitForJob(server, accepted.body.job_id, undefined, (st) => st === 'completed' || st === 'failed');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(job.hierarchy, h);
  });

  it('422s: a level that is not coarser, a horizon of part of a period, cross-validation', async () => {
    const level = await server.request('POST', '/v1/forecast', { body: { ...temporal, model: 'naive', hierarchy: { temporal: ['Q'] } } });
    assert.equal(level.status, 422, level.text);
    assert.equal(level.body.errors[0].field, 'hierarchy.temporal[0]');
    assert.match(level.body.errors[0].reason, /"Q" is not a coarser period of freq D: its temporal levels are W \(7 steps\)/);
    const horizon = await server.request('POST', '/v1/forecast', { body: { ...temporal, horizon: 10, model: 'naive', hierarchy: { temporal: ['W'] } } });
    assert.equal(horizon.status, 422, horizon.text);
    assert.equal(horizon.body.errors[0].field, 'horizon');
    assert.match(horizon.body.errors[0].reason, /horizon 10 does not cover whole periods of temporal level W/);
    const cv = await server.request('POST', '/v1/cross-validation', { body: { ...temporal, models: ['naive'], hierarchy: { temporal: ['W'] } } });
    assert.equal(cv.status, 422, cv.text);
    assert.equal(cv.body.errors[0].field, 'hierarchy.temporal');
  });
});

describe('422s of a hierarchy: named series, field and label; nothing charged', () => {
  const errorsOf = async (mutate: (b: any) => void) => {
    const account = await server.newAccount({ daily: 1 });
    const b: any = structuredClone(body());
    mutate(b);
    const res = await server.request('POST', '/v1/forecast', { key: account.key, body: b });
    assert.equal(res.status, 422, res.text);
    // nothing charged: the account's one unit is still there
    const ok = await server.request('POST', '/v1/forecast', { key: account.key, body: { series: [series[0]], freq: 'MS', horizon: 2, model: 'naive' } });
    assert.equal(ok.status, 200, `the 422 was charged: ${ok.text}`);
    return res.body.errors as { series?: number; field: string; reason: string }[];
  };
  const cases: [string, (b: any) => void, { series?: number; field: string; reason: RegExp }][] = [
    ['labels length ≠ series', (b) => { b.hierarchy.labels.pop(); }, { field: 'hierarchy.labels', reason: /3 labels for 4 series/ }],
    ['a label missing', (b) => { delete b.hierarchy.labels[3].store; },
      { series: 3, field: 'hierarchy.labels[3].store', reason: /series 3 has no label "store".*not placed/ }],
    ['two series with the same bottom labels', (b) => { b.hierarchy.labels[1].store = 'n1'; },
      { series: 1, field: 'hierarchy.labels[1]', reason: /series 1 and series 0 have the same labels at the bottom level/ }],
    ['levels not nested', (b) => { b.hierarchy.levels = [['region'], ['store']]; },
      { field: 'hierarchy.levels[1]', reason: /levels must be nested.*lacks "region"/ }],
    ['a node named "total"', (b) => { b.hierarchy.labels[0].region = 'total'; b.hierarchy.labels[1].region = 'total'; },
      { series: 0, field: 'hierarchy.labels[0].region', reason: /node id "total".*is the top node's id/ }],
    ['one name at two levels', (b) => { b.hierarchy.labels[2].region = 'north/n1'; b.hierarchy.labels[3].region = 'north/n1'; },
      { series: 0, field: 'hierarchy.labels[0].store', reason: /node id "north\/n1" \(level "region\/store".*also a node of level "region" \(from series 2\)/ }],
    ['series on different end dates', (b) => { b.series[2] = { target: b.series[2].target.slice(0, -1), index: index.slice(0, -1) }; },
      { series: 2, field: 'series[2].index[34]', reason: /series 2 ends on 2023-11-01 and series 0 on 2023-12-01: the series of a hierarchy must end on the same date/ }],
    ['an unknown reconcile method', (b) => { b.reconcile = 'mint_shrunk'; }, { field: 'reconcile', reason: /must be one of .*mint_shrink/ }],
    // found by Schemathesis: 1 - 5e-324 is 1, so the interval the reconciliation reads would have no upper end
    ['a level with no mirror', (b) => { b.quantiles = [0.5, 5e-324]; }, { field: 'quantiles[1]', reason: /mirror 1 - q.*5e-324's is not strictly between 0 and 1/ }],
    ['levels whose mirrors make more than 99', (b) => { b.quantiles = Array.from({ length: 60 }, (_, k) => 0.01 + k * 0.005); },
      { field: 'quantiles', reason: /these 60 levels with their mirrors are 1\d\d; at most 99/ }],
    ['middle_out without reconcile_level', (b) => { b.reconcile = 'middle_out'; }, { field: 'reconcile_level', reason: /required with reconcile "middle_out".*"region"/ }],
    ['labels and aggregates', (b) => { b.hierarchy.aggregates = { north: [0, 1] }; }, { field: 'hierarchy', reason: /either labels and levels or aggregates, not both/ }],
    ['an aggregate of one series', (b) => { b.hierarchy = { aggregates: { north: [0, 1], south: [2] } }; },
      { series: 2, field: 'hierarchy.aggregates["south"]', reason: /sums series 2 alone/ }],
    ['reconcile without a hierarchy', (b) => { delete b.hierarchy; b.reconcile = 'ols'; }, { field: 'reconcile', reason: /applies only with a hierarchy/ }],
    ['covariates', (b) => { b.series[1].static_variables = { size: 3 }; }, { field: 'series[1].static_variables', reason: /not with a hierarchy/ }],
  ];
  for (const [what, mutate, expected] of cases) {
    it(what, async () => {
      const errors = await errorsOf(mutate);
      const match = errors.find((e) => e.field === expected.field);
      assert.ok(match, `no error on ${expected.field}: ${JSON.stringify(errors)}`);
      assert.match(match.reason, expected.reason);
      if (expected.series !== undefined) assert.equal(match.series, expected.series);
    });
  }
});

describe('a forecast job and a cross-validation with a hierarchy', () => {
  it('the job\'s result is the sync answer', async () => {
    const b = body({ model: 'seasonal-naive', reconcile: 'wls_struct' });
    const sync = await server.request('POST', '/v1/forecast', { body: b });
    assert.equal(sync.status, 200, sync.text);
    const accepted = await server.request('POST', '/v1/forecast-jobs', { body: b });
    assert.equal(accepted.status, 202, accepted.text);
    const job = await waitForJob(server, accepted.body.job_id, undefined, (s) => s === 'completed' || s === 'failed');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(job.series, sync.body.series);
    assert.deepEqual(job.hierarchy, sync.body.hierarchy);
    // a job's 422 is the sync one, before anything is stored
    const bad = await server.request('POST', '/v1/forecast-jobs', { body: { ...b, hierarchy: { ...hierarchy, levels: [['region']] } } });
    assert.equal(bad.status, 422, bad.text);
  });

  it('cross-validation: each window reconciled across the nodes; per level and node base vs reconciled; series[i] its reconciled windows', async () => {
    const cvBody = { series, freq: 'MS', horizon: 3, n_windows: 2, quantiles, models: ['auto-ets', 'seasonal-naive'], hierarchy };
    const res = await server.request('POST', '/v1/cross-validation', { body: cvBody });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.models.length, 2);
    for (const model of res.body.models) {
      const h = model.hierarchy;
      assert.deepEqual(h.levels.map((l: any) => [l.level, l.nodes]), [['total', 1], ['region', 2], ['region/store', 4]]);
      for (const l of h.levels) for (const which of ['base', 'reconciled']) assert.ok(Number.isFinite(l.scores[which].mase), JSON.stringify(l));
      for (const w of [0, 1]) {
        const nodes = h.nodes.map((n: any) => ({ ...n, ...n.windows.find((x: any) => x.window === w) }));
        checkCoherent(nodes, quantiles);
        // input series i's window: the reconciled forecast of its bottom node, scored as such
        nodes.slice(3).forEach((n: any, i: number) => {
          const own = model.series[i].windows.find((x: any) => x.window === w);
          assert.deepEqual(own.prediction, n.reconciled);
          assert.deepEqual(own.scores, n.scores.reconciled);
          assert.deepEqual(own.actual, series[i].target.slice(-3 - 3 * w, series[i].target.length - 3 * w));
        });
      }
      assert.equal(h.method, 'wls_var', 'the default method');
    }
    assert.deepEqual(res.body.leaderboard.map((r: any) => r.rank), [1, 2]);
    // the job's result is the same answer
    const accepted = await server.request('POST', '/v1/cross-validation-jobs', { body: cvBody });
    assert.equal(accepted.status, 202, accepted.text);
    let job: any;
    for (;;) {
      job = (await server.request('GET', `/v1/cross-validation-jobs/${accepted.body.job_id}`)).body;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(job.result, res.body);
  });
});
