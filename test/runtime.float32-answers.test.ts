// float32 answers (docs/runtime-protocol.md "float32"): the control plane asks the worker for float32
// bytes where every value of an answer is a float32 (HORIZON_INFER_FLOAT32, default on). float32 →
// float64 is exact, so the public API's numbers must be bitwise those of float64 answers: the same tiny
// Chronos-Bolt and Chronos-2 forecasts through a server with float32 answers and one without.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { capturedLogLines, startTestServer, type TestServer } from './helpers.ts';
import { forecastOk, index, target, writeFixtures } from './parity.ts';

let narrow: TestServer;
let wide: TestServer;
let weights: string;

before(async () => {
  weights = writeFixtures(['chronos-bolt', 'chronos-2']);
  [narrow, wide] = await Promise.all([
    startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_RUNTIME_GROUPS: 'core' }),
    startTestServer({ HORIZON_MODEL_DIR: weights, HORIZON_RUNTIME_GROUPS: 'core', HORIZON_INFER_FLOAT32: '0' }),
  ]);
});
after(async () => {
  await Promise.all([narrow?.close(), wide?.close()]);
  rmSync(weights, { recursive: true, force: true });
});

/** the worker's request lines (relayed into the control plane's log) of one model, newest last */
const dtypes = (model: string) => capturedLogLines.map((l) => JSON.parse(l) as Record<string, unknown>)
  .filter((l) => l.url === '/infer' && l.model === model).map((l) => l.dtype);

describe('float32 answers from the worker', () => {
  for (const [model, size] of [['chronos-bolt', 'small'], ['chronos-2', 'small']]) {
    it(`${model}: the forecast with float32 answers is bitwise the forecast with float64 answers`, async () => {
      const body = {
        model, model_size: size, quantiles: [0.1, 0.5, 0.9],
        series: [{ target, index }, { target: target.map((v) => (v === null ? null : v * 1e-3 + 7)), index }],
      };
      const before = dtypes(model).length;
      const [f32, f64] = await Promise.all([forecastOk(narrow, body), forecastOk(wide, body)]);
      const seen = dtypes(model).slice(before);
      assert.deepEqual(seen.toSorted(), ['float32', 'float64'], 'one answer of each dtype reached the control planes');
      // deepStrictEqual compares numbers with Object.is: bitwise, -0 included
      assert.deepStrictEqual(f32.series, f64.series);
    });
  }
});
