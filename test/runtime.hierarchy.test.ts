// src/runtime/hierarchy.ts against a real core worker (docs/runtime-protocol.md "Hierarchies"): the aggregate and reconcile
// calls through the inference client, base64 both ways, nulls kept, a fallback's warning, a protocol error mapped.
// The reconciled numbers' parity with hierarchicalforecast is runtime/tests/test_hierarchy.py's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Supervisor } from '../src/runtime/supervisor.ts';
import { InferenceClient } from '../src/runtime/inference.ts';
import { aggregateHierarchy, reconcileHierarchy, type HierarchyForecast } from '../src/runtime/hierarchy.ts';
import { HorizonError } from '../src/errors.ts';

let supervisor: Supervisor;
let client: InferenceClient;
before(async () => {
  supervisor = new Supervisor({ groups: ['core'] });
  await supervisor.start();
  client = new InferenceClient(() => supervisor.endpoint('core'), 120_000);
});
after(async () => {
  await client.close();
  await supervisor.stop();
});

const labels = [{ region: 'north', store: 'n1' }, { region: 'north', store: 'n2' }, { region: 'south', store: 's1' }];

describe('runtime/hierarchy.ts', () => {
  it('aggregateHierarchy: the nodes, their summed targets (null where no series has a value), S and tags', async () => {
    const answer = await aggregateHierarchy(client, {
      series: [{ target: [1, 2, null, 4] }, { target: [10, 20, 30, 40] }, { target: [0.5, null], start: 2 }],
      labels, levels: [['region'], ['region', 'store']],
    });
    assert.deepEqual(answer.nodes.map((n) => [n.id, n.level, n.parent, n.series]), [
      ['total', 'total', null, [0, 1, 2]], ['north', 'region', 'total', [0, 1]], ['south', 'region', 'total', [2]],
      ['north/n1', 'region/store', 'north', [0]], ['north/n2', 'region/store', 'north', [1]], ['south/s1', 'region/store', 'south', [2]],
    ]);
    assert.deepEqual(answer.nodes.map((n) => [n.start, n.target]), [
      [0, [11, 22, 30.5, 44]], [0, [11, 22, 30, 44]], [2, [0.5, null]], [0, [1, 2, null, 4]], [0, [10, 20, 30, 40]], [2, [0.5, null]],
    ]);
    assert.deepEqual(answer.S, [[1, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert.deepEqual(answer.tags, { total: ['total'], region: ['north', 'south'], 'region/store': ['north/n1', 'north/n2', 'south/s1'] });
  });

  it('reconcileHierarchy: coherent means, the requested quantiles, and the fallback said in warnings', async () => {
    const S = [[1, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]];
    const bottom = [[1.25, 2.5], [10.125, 20.75], [0.5, 0.375]];
    const noisy = (row: number[], k: number): HierarchyForecast => {
      const mean = bottom[0].map((_, t) => row.reduce((acc, w, i) => acc + w * bottom[i][t], 0) + (k < 3 ? 0.3 * (k + 1) : 0));
      return { mean, quantiles: { '0.1': mean.map((v) => v - 1 - k / 10), '0.5': mean, '0.9': mean.map((v) => v + 1 + k / 10) } };
    };
    const request = {
      node_ids: ['total', 'north', 'south', 'north/n1', 'north/n2', 'south/s1'], S,
      tags: { total: ['total'], region: ['north', 'south'], 'region/store': ['north/n1', 'north/n2', 'south/s1'] },
      quantiles: [0.1, 0.5, 0.9], base: S.map(noisy), in_sample: null,
    };
    const up = await reconcileHierarchy(client, { ...request, method: 'bottom_up', intervals: 'normality' });
    assert.equal(up.method, 'bottom_up');
    assert.deepEqual(up.warnings, []);
    // bottom-up: the bottom forecasts unchanged, every parent their sum (exact: the worker's float64 back through base64)
    assert.deepEqual(up.reconciled.slice(3).map((r) => r.mean), bottom);
    assert.deepEqual(up.reconciled[1].mean, bottom[0].map((v, t) => v + bottom[1][t]));
    for (const r of up.reconciled) {
      assert.deepEqual(Object.keys(r.quantiles), ['0.1', '0.5', '0.9']);
      r.mean.forEach((m, t) => assert.ok(r.quantiles['0.1'][t] <= m && m <= r.quantiles['0.9'][t]));
    }
    const shrink = await reconcileHierarchy(client, { ...request, method: 'mint_shrink', intervals: 'bootstrap' });
    assert.equal(shrink.method, 'wls_struct');
    assert.equal(shrink.intervals, 'normality');
    assert.match(shrink.warnings.join('\n'), /mint_shrink needs in-sample residuals and the model gave no in-sample fitted values/);
    shrink.reconciled.forEach((r, k) => r.mean.forEach((m, t) => {
      const sum = S[k].reduce((acc, w, i) => acc + w * shrink.reconciled[3 + i].mean[t], 0);
      assert.ok(Math.abs(m - sum) < 1e-9, `node ${k} step ${t}: ${m} is the sum of its series ${sum}`);
    }));
    await assert.rejects(reconcileHierarchy(client, { ...request, method: 'magic' }), (error: unknown) => {
      assert.ok(error instanceof HorizonError && error.code === 'internal_error' && /bad_request.*'method'/.test(error.message), String(error));
      return true;
    });
  });
});
