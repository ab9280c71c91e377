// A by-reference forecast's series sent to a forecast thread as numbers (src/forecasting/stored-payload.ts):
// the body the thread rebuilds is the one the loop builds (inlineSeries), dates, gaps and all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inlineBodyOf, payloadPoints, storedSeriesPayload } from '../src/forecasting/stored-payload.ts';
import { inlineSeries } from '../src/forecasting/stored-series.ts';
import { parseIndex, type Grid } from '../src/forecasting/calendar.ts';
import { encodeTarget } from '../src/store/series.ts';

const gridOf = (freq: 'MS' | 'D' | 'H', dates: string[]): Grid => {
  const parsed = parseIndex(freq, dates);
  assert.ok(parsed.ok);
  return parsed.index.grid;
};

describe('stored series payload', () => {
  const monthly = gridOf('MS', ['2020-01-01', '2020-02-01']);
  const later = gridOf('MS', ['2021-06-01', '2021-07-01']);
  // as the store reads them: the grid's JSON text as its key, the history as stored bytes (NaN = missing)
  const histories = ([
    { grid: monthly, target: [1, null, 3.5, -2] },
    { grid: later, target: [10, 11] },
    { grid: monthly, target: [5, 6, 7, 8] },
    { grid: monthly, target: [0.1] },
  ] as { grid: Grid; target: (number | null)[] }[]).map((h) => ({ ...h, gridKey: JSON.stringify(h.grid), bytes: encodeTarget(h.target) }));
  const body = { model: 'naive', horizon: 2, freq: 'MS' };

  it('rebuilds the inline body the loop would build, missing values as null', () => {
    const payload = storedSeriesPayload(body, histories);
    assert.equal(payloadPoints(payload), 11);
    assert.equal(payload.grids.length, 2);
    const expected = { ...body, series: histories.map((h) => inlineSeries(h.grid, h.target)) };
    assert.deepEqual(inlineBodyOf(payload, false), expected);
    assert.deepEqual(inlineBodyOf(payload, true), expected);
  });

  it('shares one index between series of one grid and length only when asked', () => {
    const payload = storedSeriesPayload(body, histories);
    const shared = inlineBodyOf(payload, true).series;
    assert.equal(shared[0].index, shared[2].index);
    assert.notEqual(shared[0].index, shared[3].index);
    const copied = inlineBodyOf(payload, false).series;
    assert.notEqual(copied[0].index, copied[2].index);
  });

  it('survives structured cloning (a thread message)', () => {
    const payload = structuredClone(storedSeriesPayload(body, histories));
    assert.deepEqual(inlineBodyOf(payload, false).series.map((s) => s.target), histories.map((h) => h.target));
  });

  it('copies bytes that sit at any offset of a larger buffer (Buffer.from(base64) slices a shared pool)', () => {
    const pool = Buffer.alloc(8 * 4 + 3);
    const odd = pool.subarray(3, 3 + 16);
    encodeTarget([2.5, null]).copy(odd);
    const payload = storedSeriesPayload(body, [{ grid: monthly, gridKey: 'm', bytes: odd }]);
    assert.deepEqual(inlineBodyOf(payload, false).series[0].target, [2.5, null]);
  });
});
