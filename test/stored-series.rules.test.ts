// The stored-series rules that the routes call (forecasting/stored-series.ts, issue 37 moved them out of
// http/routes): the append rule with the size limit, a bulk append's all-or-nothing decisions, which settings
// of a PUT go together, and which scheduled forecasts an append makes due. The routes' own behaviour over
// HTTP is test/api.series.test.ts's and test/series.drift.test.ts's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HorizonError } from '../src/errors.ts';
import { parseIndex, type Grid } from '../src/forecasting/calendar.ts';
import { RequestValidationError } from '../src/forecasting/normalize.ts';
import { checkDistinctSeries, decideAppend, decideAppends, dueScheduledForecasts, storedSchedule } from '../src/forecasting/stored-series.ts';

const parsed = parseIndex('D', ['2024-01-01', '2024-01-02', '2024-01-03']);
assert.ok(parsed.ok);
const grid: Grid = parsed.index.grid;
const stored = [1, 2, 3];
const limits = (maxPoints: number) => ({ maxSeries: 0, maxPoints });

test('decideAppend: a retry of stored dates is a no-op, a gap is null, and past maxPoints it is a 409 series_limit naming the series', () => {
  const retried = decideAppend(grid, stored, { index: ['2024-01-03', '2024-01-05'], target: [3, 5] }, limits(5));
  assert.deepEqual(retried, { append: [null, 5], appended: 1, unchanged: 1 });
  const over = () => decideAppend(grid, stored, { index: ['2024-01-06'], target: [6] }, limits(5), { id: 'a', position: 2 });
  assert.throws(over, (e: unknown) => e instanceof HorizonError && e.code === 'series_limit'
    && /^series "a" \(series\[2\]\) would hold 6 grid steps, more than its limit of 5 \(HORIZON_SERIES_MAX_POINTS\)/.test(e.message));
  assert.throws(() => decideAppend(grid, stored, { index: ['2024-01-06'], target: [6] }, limits(5), { id: 'a' }),
    (e: unknown) => e instanceof HorizonError && e.message.startsWith('series "a" would hold 6 grid steps') && e.message.endsWith('(PUT /v1/series/{id})'));
  assert.doesNotThrow(() => decideAppend(grid, stored, { index: ['2024-01-06'], target: [6] }, limits(0)), 'maxPoints 0: no limit');
  assert.throws(() => decideAppend(grid, stored, { index: ['2024-01-02'], target: [9] }, limits(0)),
    (e: unknown) => e instanceof RequestValidationError && e.errors[0].field === 'target[0]' && /never changes them/.test(e.errors[0].reason));
});

test('a bulk append: 404 for an unknown id, every series\' 422 at once named series[i], an id only once', () => {
  const found = new Map([['a', { grid, target: stored }], ['b', { grid, target: stored }]]);
  const items = [{ series_id: 'a', index: ['2024-01-04'], target: [4] }, { series_id: 'b', index: ['2024-01-01'], target: [7] }];
  assert.throws(() => decideAppends([...items, { series_id: 'c', index: [], target: [] }], found, limits(0)),
    (e: unknown) => e instanceof HorizonError && e.code === 'not_found' && /"c".*series\[2\]/.test(e.message));
  const bad = [items[0], items[1], { series_id: 'a', index: ['x'], target: [1] }];
  assert.throws(() => decideAppends(bad, new Map([...found]), limits(0)), (e: unknown) => e instanceof RequestValidationError
    && JSON.stringify(e.errors.map((x) => x.field)) === JSON.stringify(['series[1].target[0]', 'series[2].index[0]']));
  assert.deepEqual(decideAppends([items[0]], found, limits(0)).map((d) => d.appended), [1]);
  assert.throws(() => checkDistinctSeries(bad), (e: unknown) => e instanceof RequestValidationError && e.errors[0].field === 'series[2].series_id');
});

test('a PUT\'s settings: schedule and forecast_every together, max_mase_ratio needs evaluation, a webhook needs drift', () => {
  const field = (body: Parameters<typeof storedSchedule>[0]) => {
    try { storedSchedule(body); return undefined; } catch (e) { return (e as RequestValidationError).errors[0].field; }
  };
  assert.equal(field({ forecast_every: 2 }), 'forecast_every');
  assert.equal(field({ schedule: { horizon: 3 } }), 'schedule');
  assert.equal(field({ schedule: { horizon: 3 }, forecast_every: 1, drift: { max_mase_ratio: 2 } }), 'drift.max_mase_ratio');
  assert.equal(field({ webhook: { url: 'https://example.com' } }), 'webhook');
  const schedule = storedSchedule({ schedule: { horizon: 3, evaluation: {} }, forecast_every: 2, drift: { max_mase_ratio: 2 } });
  assert.deepEqual(schedule, { every: 2, horizon: 3, evaluation: {} });
  assert.equal(storedSchedule({}), null);
});

test('scheduled forecasts: due when `every` steps past the latest stored forecast (or none), one request per schedule', () => {
  const weekly = { every: 7, horizon: 7 };
  const grown = [
    { id: 'a', schedule: weekly, points: 30 }, { id: 'b', schedule: weekly, points: 30 }, { id: 'c', schedule: { every: 1, horizon: 2 }, points: 5 },
    { id: 'd', schedule: null, points: 9 },
  ];
  const latest = new Map([['a', 23], ['b', 24], ['c', 4]]);
  assert.deepEqual(dueScheduledForecasts(grown, latest), [
    { ids: ['a'], request: { horizon: 7, series_ids: ['a'], store: true } },
    { ids: ['c'], request: { horizon: 2, series_ids: ['c'], store: true } },
  ]);
  assert.deepEqual(dueScheduledForecasts(grown, new Map()).map((g) => g.ids), [['a', 'b'], ['c']], 'no stored forecast yet: due');
});
