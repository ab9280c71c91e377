// The forecast metrics (src/forecasting/metrics.ts, shared by the service's backtests and eval/) on hand-computed cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mase, seasonalScale, smape, quantileLoss, wql, mean } from '../src/forecasting/metrics.ts';

test('seasonal scale and MASE follow the M4 definition', () => {
  const train = [1, 2, 3, 5, 4, 6]; // m = 2: |3-1|,|5-2|,|4-3|,|6-5| → mean 7/4
  assert.equal(seasonalScale(train, 2), 1.75);
  assert.equal(mase([10, 12], [9, 14], train, 2), 1.5 / 1.75); // mean |y-ŷ| = 1.5
  assert.throws(() => seasonalScale([1, 2], 2));
});

test('sMAPE is in percent and 0/0 counts as 0', () => {
  assert.equal(smape([100, 0], [50, 0]), (200 * 50 / 150) / 2);
  assert.equal(smape([1, 2], [1, 2]), 0);
});

test('quantile loss and WQL weight over the whole dataset', () => {
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);
  close(quantileLoss([10], [8], 0.9), 1.8); // under-forecast by 2 costs 2·q
  close(quantileLoss([10], [12], 0.9), 0.2); // over-forecast by 2 costs 2·(1 − q)
  const items = [
    { actual: [10], quantiles: new Map([[0.5, [8]], [0.9, [12]]]) },
    { actual: [30], quantiles: new Map([[0.5, [30]], [0.9, [30]]]) },
  ];
  // q 0.5: 2·(1 + 0)/40 = 0.05; q 0.9: 2·(0.2 + 0)/40 = 0.01 → mean 0.03
  close(wql(items, [0.5, 0.9]), 0.03);
  assert.equal(mean([1, 2, 3]), 2);
});
