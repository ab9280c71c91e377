import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Catalog, CatalogModel, Covariates } from '../src/runtime/catalog.ts';
import { loadCatalog } from '../src/runtime/catalog.ts';
import type { FieldError, ForecastRequestBody, InputSeries } from '../src/forecasting/normalize.ts';
import { normalizeForecastRequest, RequestValidationError } from '../src/forecasting/normalize.ts';

const NONE: Covariates = { past: false, future: false, static: false };

function fixtureModel(id: string, covariates: Covariates, sizes: CatalogModel['sizes'] = { default: { max_context: 6, max_horizon: 4 } }): CatalogModel {
  return {
    id, name: id, description: id, adapter: id, group: 'core', default_size: Object.keys(sizes)[0], sizes, covariates,
    license: { id: 'MIT', name: 'MIT', commercial: true, requires_opt_in: false },
  };
}

// Small caps keep context and horizon cases short; one model per covariate combination.
const CATALOG: Catalog = {
  season_length: { H: 24, D: 7, W: 52, MS: 12, Q: 4, Y: 1 },
  default_model: 'plain',
  groups: { core: { description: 'fixture' } },
  models: [
    fixtureModel('plain', NONE),
    fixtureModel('sized', { past: true, future: true, static: true }, {
      small: { max_context: 5, max_horizon: 3 },
      large: { max_context: 10, max_horizon: 8 },
    }),
    fixtureModel('past-only', { past: true, future: false, static: false }),
    fixtureModel('future-only', { past: false, future: true, static: false }),
    fixtureModel('past-future', { past: true, future: true, static: false }),
  ],
};

const DAYS = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'];

function series(overrides: Partial<InputSeries> = {}): InputSeries {
  return { target: [1, 2, 3, 4], index: [...DAYS], ...overrides };
}

function request(overrides: Partial<ForecastRequestBody> = {}): ForecastRequestBody {
  return { series: [series()], horizon: 2, freq: 'D', ...overrides };
}

function normalize(body: ForecastRequestBody) {
  return normalizeForecastRequest(body, CATALOG, 'plain');
}

function errorsOf(body: ForecastRequestBody): FieldError[] {
  try {
    normalize(body);
  } catch (error) {
    assert.ok(error instanceof RequestValidationError, `expected a RequestValidationError, got ${error}`);
    return error.errors;
  }
  return assert.fail('expected the request to be rejected');
}

/** [series, field] of every error, in order. */
function locations(body: ForecastRequestBody): [number | undefined, string][] {
  return errorsOf(body).map((e) => [e.series, e.field]);
}

function onlyError(body: ForecastRequestBody): FieldError {
  const errors = errorsOf(body);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  return errors[0];
}

const FUTURE = ['2024-01-05', '2024-01-06'];

describe('happy path and defaults', () => {
  test('defaults: model, size, quantiles, context; forecast dates; empty covariates', () => {
    assert.deepEqual(normalize(request()), {
      model: 'plain', size: 'default', freq: 'D', horizon: 2, quantiles: [0.1, 0.5, 0.9], context: 6,
      series: [{ target: [1, 2, 3, 4], past_covariates: {}, future_covariates: {}, static_covariates: {} }],
      forecastIndex: [['2024-01-05', '2024-01-06']],
      warnings: [],
    });
  });

  test('the default model is the deployment\'s', () => {
    const result = normalizeForecastRequest(request(), CATALOG, 'past-only');
    assert.equal(result.model, 'past-only');
  });

  test('a default model missing from the catalog is a server error, not a 422', () => {
    assert.throws(() => normalizeForecastRequest(request(), CATALOG, 'gone'), (error) => !(error instanceof RequestValidationError) && /default model "gone"/.test(String(error)));
  });

  test('model_size picks the caps; omitted means default_size', () => {
    assert.equal(normalize(request({ model: 'sized' })).size, 'small');
    const large = normalize(request({ model: 'sized', model_size: 'large', horizon: 8 }));
    assert.deepEqual([large.size, large.context, large.forecastIndex[0].length], ['large', 10, 8]);
  });

  test('quantiles are kept in the caller\'s order; [] asks for the mean only', () => {
    assert.deepEqual(normalize(request({ quantiles: [0.9, 0.05, 0.5] })).quantiles, [0.9, 0.05, 0.5]);
    assert.deepEqual(normalize(request({ quantiles: [] })).quantiles, []);
  });

  test('several series keep their order; each gets its own forecast index', () => {
    const result = normalize(request({
      series: [series(), { target: [7, 8], index: ['2024-03-01', '2024-03-02'] }],
    }));
    assert.deepEqual(result.series.map((s) => s.target), [[1, 2, 3, 4], [7, 8]]);
    assert.deepEqual(result.forecastIndex, [['2024-01-05', '2024-01-06'], ['2024-03-03', '2024-03-04']]);
  });

  test('series sharing an index (parsed once) each get its dates; a same-length index that differs is its own', () => {
    const shifted = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];
    const result = normalize(request({ series: [series(), series({ target: [5, 6, 7, 8] }), series({ index: shifted }), series()] }));
    assert.deepEqual(result.forecastIndex, [FUTURE, FUTURE, ['2024-01-06', '2024-01-07'], FUTURE]);
    assert.deepEqual(result.series.map((s) => s.target), [[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [1, 2, 3, 4]]);
  });

  test('a bad index shared by several series is an error for each of them', () => {
    const bad = ['2024-01-01', '2024-01-03', '2024-01-02', '2024-01-04'];
    assert.deepEqual(locations(request({ series: [series({ index: bad }), series({ index: [...bad] }), series()] })),
      [[0, 'series[0].index[2]'], [1, 'series[1].index[2]']]);
  });

  test('H forecast dates are date-times, with Z when the input had it', () => {
    const result = normalize(request({ freq: 'H', series: [{ target: [1, 2], index: ['2024-02-28T23:00Z', '2024-02-29T00:00Z'] }] }));
    assert.deepEqual(result.forecastIndex, [['2024-02-29T01:00:00Z', '2024-02-29T02:00:00Z']]);
  });

  test('monthly forecast continues the last-day grid', () => {
    const result = normalize(request({ freq: 'MS', series: [{ target: [1, 2], index: ['2023-12-31', '2024-01-31'] }] }));
    assert.deepEqual(result.forecastIndex, [['2024-02-29', '2024-03-31']]);
  });

  test('nulls in the target pass through', () => {
    assert.deepEqual(normalize(request({ series: [series({ target: [null, 2, null, 4] })] })).series[0].target, [null, 2, null, 4]);
  });
});

describe('freq, model, size', () => {
  test('freq outside the enum', () => {
    const error = onlyError(request({ freq: 'M' }));
    assert.deepEqual([error.series, error.field], [undefined, 'freq']);
    assert.match(error.reason, /freq "M" is not one of MS, D, W, H, Q, Y/);
  });

  test('unknown model lists the valid ids', () => {
    const error = onlyError(request({ model: 'gpt' }));
    assert.equal(error.field, 'model');
    assert.match(error.reason, /model "gpt" is not a known model id; valid ids: plain, sized, past-only, future-only, past-future/);
  });

  test('unknown size lists the model\'s sizes', () => {
    const error = onlyError(request({ model: 'sized', model_size: 'huge' }));
    assert.equal(error.field, 'model_size');
    assert.match(error.reason, /model_size "huge" is not a size of model sized; its sizes: small, large/);
  });

  test('a size of another model is unknown too', () => {
    assert.deepEqual(locations(request({ model: 'plain', model_size: 'small' })), [[undefined, 'model_size']]);
  });
});

describe('horizon', () => {
  test('must be an integer of at least 1', () => {
    for (const horizon of [0, -1, 1.5]) {
      const error = onlyError(request({ horizon }));
      assert.equal(error.field, 'horizon');
      assert.match(error.reason, new RegExp(`horizon ${horizon} is not an integer of at least 1`));
    }
  });

  test('at most the size\'s max_horizon', () => {
    assert.equal(normalize(request({ horizon: 4 })).horizon, 4);
    const error = onlyError(request({ horizon: 5 }));
    assert.equal(error.field, 'horizon');
    assert.match(error.reason, /horizon 5 exceeds the max_horizon 4 of model plain \(size default\)/);
    assert.deepEqual(locations(request({ model: 'sized', horizon: 4 })), [[undefined, 'horizon']]);
  });

  test('a forecast past the year 9999 is named per series', () => {
    const body = request({ freq: 'Y', horizon: 3, series: [{ target: [1], index: ['2020-01-01'] }, { target: [1], index: ['9997-01-01'] }] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [1, 'horizon']);
    assert.match(error.reason, /run past the year 9999/);
  });

  test('the real catalog: tirex forecasts at most 512 steps from 2016 (contract A.7)', () => {
    const catalog = loadCatalog();
    const long = { target: Array.from({ length: 3000 }, (_, i) => i), index: Array.from({ length: 3000 }, (_, i) => new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10)) };
    const result = normalizeForecastRequest({ series: [long], horizon: 512, freq: 'D', model: 'tirex' }, catalog, catalog.default_model);
    assert.deepEqual([result.context, result.series[0].target.length, result.series[0].target[0]], [2016, 2016, 984]);
    assert.throws(() => normalizeForecastRequest({ series: [long], horizon: 513, freq: 'D', model: 'tirex' }, catalog, catalog.default_model), RequestValidationError);
  });
});

describe('context', () => {
  test('must be an integer of at least 1', () => {
    for (const context of [0, 2.5]) {
      const error = onlyError(request({ context }));
      assert.equal(error.field, 'context');
      assert.match(error.reason, new RegExp(`context ${context} is not an integer of at least 1`));
    }
  });

  test('keeps the last context observations', () => {
    const result = normalize(request({ context: 2 }));
    assert.deepEqual([result.context, result.series[0].target], [2, [3, 4]]);
  });

  test('a series shorter than context is sent whole', () => {
    assert.deepEqual(normalize(request({ context: 6 })).series[0].target, [1, 2, 3, 4]);
  });

  test('above max_context it is capped, with a warning', () => {
    const result = normalize(request({ series: [series({ target: [1, 2, 3, 4, 5, 6, 7, 8], index: Array.from({ length: 8 }, (_, i) => `2024-01-0${i + 1}`) })], context: 100 }));
    assert.equal(result.context, 6);
    assert.deepEqual(result.series[0].target, [3, 4, 5, 6, 7, 8]);
    assert.deepEqual(result.warnings, [{ field: 'context', message: 'context 100 exceeds the max_context 6 of model plain (size default); using 6' }]);
  });

  test('counts grid steps after gap filling, not observations', () => {
    const result = normalize(request({ series: [series({ index: ['2024-01-01', '2024-01-02', '2024-01-05', '2024-01-06'] })], context: 3 }));
    assert.deepEqual(result.series[0].target, [null, 3, 4]);
  });

  test('a window holding only null is an error naming context and the series', () => {
    const body = request({ series: [series(), series({ target: [1, 2, null, null] })], context: 2 });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [1, 'context']);
    assert.match(error.reason, /the last 2 steps of series 1 \(context 2\) hold no observed target value/);
  });

  test('a window that gap filling left empty is an error too', () => {
    const body = request({ series: [series({ target: [1, 2], index: ['2024-01-01', '2024-01-09'] })], context: 1 });
    assert.deepEqual(normalize(body).series[0].target, [2]);
    const gapOnly = request({ series: [series({ target: [1, null], index: ['2024-01-01', '2024-01-09'] })], context: 3 });
    assert.deepEqual(locations(gapOnly), [[0, 'context']]);
  });
});

describe('quantiles', () => {
  test('each strictly between 0 and 1', () => {
    assert.deepEqual(locations(request({ quantiles: [0, 0.5, 1, -0.1, 1.5] })), [
      [undefined, 'quantiles[0]'], [undefined, 'quantiles[2]'], [undefined, 'quantiles[3]'], [undefined, 'quantiles[4]'],
    ]);
    assert.match(errorsOf(request({ quantiles: [1] }))[0].reason, /quantile level 1 is not strictly between 0 and 1/);
  });

  test('no duplicates', () => {
    const error = onlyError(request({ quantiles: [0.5, 0.1, 0.5] }));
    assert.equal(error.field, 'quantiles[2]');
    assert.match(error.reason, /quantile level 0.5 repeats quantiles\[0\]/);
  });

  test('at most 99 levels', () => {
    const levels = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) / (n + 1));
    assert.equal(normalize(request({ quantiles: levels(99) })).quantiles.length, 99);
    const error = onlyError(request({ quantiles: levels(100) }));
    assert.equal(error.field, 'quantiles');
    assert.match(error.reason, /100 quantile levels requested; at most 99/);
  });
});

describe('series, target and index', () => {
  test('series must not be empty', () => {
    const error = onlyError(request({ series: [] }));
    assert.deepEqual([error.series, error.field], [undefined, 'series']);
  });

  test('index and target of different lengths', () => {
    const error = onlyError(request({ series: [series(), series({ target: [1, 2, 3] })] }));
    assert.deepEqual([error.series, error.field], [1, 'series[1].index']);
    assert.match(error.reason, /index has 4 dates but target has 3 values/);
  });

  test('at least one non-null target value', () => {
    const error = onlyError(request({ series: [series({ target: [null, null, null, null] })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].target']);
    assert.match(error.reason, /target of series 0 holds only null \(4 values\)/);
  });

  test('an empty target and index', () => {
    const error = onlyError(request({ series: [series(), series({ target: [], index: [] })] }));
    assert.deepEqual([error.series, error.field], [1, 'series[1].target']);
    assert.match(error.reason, /is empty/);
  });

  test('target values must be finite numbers or null', () => {
    const error = onlyError(request({ series: [series({ target: [1, 2, Number.NaN, Infinity] })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].target[2]']);
    assert.match(error.reason, /NaN is not a finite number or null \(2 values of series\[0\]\.target are not\)/);
  });

  test('dates not ascending', () => {
    const error = onlyError(request({ series: [series(), series({ index: ['2024-01-01', '2024-01-03', '2024-01-02', '2024-01-04'] })] }));
    assert.deepEqual([error.series, error.field], [1, 'series[1].index[2]']);
    assert.match(error.reason, /"2024-01-02" comes before the previous date "2024-01-03"/);
  });

  test('duplicate dates', () => {
    const error = onlyError(request({ series: [series({ index: ['2024-01-01', '2024-01-02', '2024-01-02', '2024-01-03'] })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].index[2]']);
    assert.match(error.reason, /repeats the previous date/);
  });

  test('a date off the grid names the series and the date', () => {
    const body = request({ freq: 'W', series: [series({ index: ['2024-01-01', '2024-01-08', '2024-01-16', '2024-01-22'] })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].index[2]']);
    assert.match(error.reason, /"2024-01-16" is off the W grid/);
  });

  test('a badly formatted date', () => {
    const error = onlyError(request({ series: [series({ index: ['2024-01-01', '2024-01-02', '2024-02-30', '2024-01-04'] })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].index[2]']);
    assert.match(error.reason, /"2024-02-30" is not a real date/);
  });

  test('gaps are filled with null and reported per series', () => {
    const result = normalize(request({
      model: 'sized', model_size: 'large',
      series: [series(), series({ target: [1, 2, 3, 4], index: ['2024-01-01', '2024-01-03', '2024-01-04', '2024-01-07'] })],
    }));
    assert.deepEqual(result.series[1].target, [1, null, 2, 3, null, null, 4]);
    assert.deepEqual(result.warnings, [{
      series: 1, field: 'series[1].index',
      message: 'series 1 misses 3 step(s) of the D grid (first 2024-01-02); they were filled with null',
    }]);
    assert.deepEqual(result.forecastIndex[1], ['2024-01-08', '2024-01-09']);
  });
});

describe('covariate validation', () => {
  const model = 'sized';

  test('hist_variables must have the length of index', () => {
    const error = onlyError(request({ model, series: [series({ hist_variables: { price: [1, 2, 3] } })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].hist_variables.price']);
    assert.match(error.reason, /hist variable "price" has 3 values but index has 4 dates/);
  });

  test('hist values are finite or null', () => {
    assert.deepEqual(normalize(request({ model, series: [series({ hist_variables: { price: [1, null, 3, 4] } })] })).series[0].past_covariates, { price: [1, null, 3, 4] });
    const error = onlyError(request({ model, series: [series({ hist_variables: { price: [1, Number.NaN, 3, 4] } })] }));
    assert.deepEqual([error.series, error.field], [0, 'series[0].hist_variables.price[1]']);
  });

  test('a name that is not an identifier is quoted in the path', () => {
    const error = onlyError(request({ model, series: [series({ hist_variables: { 'unit price': [1] } })] }));
    assert.equal(error.field, 'series[0].hist_variables["unit price"]');
  });

  test('a future variable must also be a historical one', () => {
    const body = request({ model, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { promo: [1, 0] }, future_variables_index: FUTURE })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].future_variables.promo']);
    assert.match(error.reason, /future variable "promo" has no history in hist_variables/);
  });

  test('future_variables must have the length of future_variables_index', () => {
    const body = request({ model, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { price: [5, 6, 7] }, future_variables_index: FUTURE })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].future_variables.price']);
    assert.match(error.reason, /has 3 values but future_variables_index has 2 dates/);
  });

  test('future values must be finite numbers, not null', () => {
    const body = request({ model, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { price: [5, null as unknown as number] }, future_variables_index: FUTURE })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].future_variables.price[1]']);
    assert.match(error.reason, /null is not a finite number/);
  });

  test('future_variables need future_variables_index', () => {
    const body = request({ model, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { price: [5, 6] } })] });
    assert.deepEqual(locations(body), [[0, 'series[0].future_variables_index']]);
  });

  test('future_variables_index must cover the horizon', () => {
    const body = request({ model, horizon: 3, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { price: [5, 6] }, future_variables_index: FUTURE })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].future_variables_index']);
    assert.match(error.reason, /has 2 dates but horizon is 3/);
  });

  test('future_variables_index must start right after the last index date', () => {
    const body = request({ model, series: [series({ hist_variables: { price: [1, 2, 3, 4] }, future_variables: { price: [5, 6] }, future_variables_index: ['2024-01-06', '2024-01-07'] })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].future_variables_index[0]']);
    assert.match(error.reason, /step 1 after the last index date 2024-01-04 is 2024-01-05/);
  });

  test('future_variables_index must not skip a step', () => {
    const body = request({ model, series: [series({ future_variables_index: ['2024-01-05', '2024-01-07'] })] });
    assert.deepEqual(locations(body), [[0, 'series[0].future_variables_index[1]']]);
  });

  test('a bad future date is named even when the index is broken', () => {
    const body = request({ model, series: [series({ index: ['2024-01-01', '2024-01-01', '2024-01-02', '2024-01-03'], future_variables_index: ['2024-01-04', 'soon'] })] });
    assert.deepEqual(locations(body), [[0, 'series[0].index[1]'], [0, 'series[0].future_variables_index[1]']]);
  });

  test('static values must be finite numbers', () => {
    const body = request({ model, series: [series({ static_variables: { store: 3, region: Infinity } })] });
    const error = onlyError(body);
    assert.deepEqual([error.series, error.field], [0, 'series[0].static_variables.region']);
    assert.match(error.reason, /static variable "region" is Infinity, not a finite number/);
  });

  test('covariates are validated even for a model that ignores them', () => {
    assert.deepEqual(locations(request({ model: 'plain', series: [series({ hist_variables: { price: [1] } })] })), [[0, 'series[0].hist_variables.price']]);
  });
});

describe('covariate routing by model flags', () => {
  const withCovariates = series({
    target: [1, 2, 3, 4],
    index: ['2024-01-01', '2024-01-02', '2024-01-04', '2024-01-05'],
    hist_variables: { price: [10, 11, 12, 13], temp: [20, null, 22, 23] },
    future_variables: { price: [14, 15, 16] },
    future_variables_index: ['2024-01-06', '2024-01-07', '2024-01-08'],
    static_variables: { store: 3 },
  });

  test('a model with every kind gets them all: past gap-filled and cut to context, future cut to horizon', () => {
    const result = normalize(request({ model: 'sized', model_size: 'small', context: 4, series: [withCovariates] }));
    assert.deepEqual(result.series[0], {
      target: [2, null, 3, 4],
      past_covariates: { price: [11, null, 12, 13], temp: [null, null, 22, 23] },
      future_covariates: { price: [14, 15] },
      static_covariates: { store: 3 },
    });
    assert.deepEqual(result.warnings.map((w) => w.field), ['series[0].index']);
  });

  test('past-only: future values dropped with a warning', () => {
    const result = normalize(request({ model: 'past-only', series: [withCovariates] }));
    assert.deepEqual(Object.keys(result.series[0].past_covariates), ['price', 'temp']);
    assert.deepEqual([result.series[0].future_covariates, result.series[0].static_covariates], [{}, {}]);
    assert.deepEqual(result.warnings.slice(1), [
      { series: 0, field: 'series[0].future_variables', message: 'model past-only does not use future covariates; ignored future_variables of series 0: price' },
      { series: 0, field: 'series[0].static_variables', message: 'model past-only does not use static covariates; ignored static_variables of series 0: store' },
    ]);
  });

  test('future-only: known-future variables keep their history, past-only ones are dropped', () => {
    const result = normalize(request({ model: 'future-only', series: [withCovariates] }));
    assert.deepEqual(result.series[0].past_covariates, { price: [10, 11, null, 12, 13] });
    assert.deepEqual(result.series[0].future_covariates, { price: [14, 15] });
    assert.deepEqual(result.warnings.slice(1).map((w) => w.message), [
      'model future-only uses historical values only of variables that also have future values; ignored hist_variables of series 0: temp',
      'model future-only does not use static covariates; ignored static_variables of series 0: store',
    ]);
  });

  test('past and future but no static', () => {
    const result = normalize(request({ model: 'past-future', series: [withCovariates] }));
    assert.deepEqual(Object.keys(result.series[0].past_covariates), ['price', 'temp']);
    assert.deepEqual(result.series[0].static_covariates, {});
    assert.deepEqual(result.warnings.slice(1).map((w) => w.field), ['series[0].static_variables']);
  });

  test('a model without covariates ignores them all and says so', () => {
    const result = normalize(request({ model: 'plain', series: [series(), withCovariates] }));
    assert.deepEqual(result.series[1], { target: [1, 2, null, 3, 4], past_covariates: {}, future_covariates: {}, static_covariates: {} });
    assert.deepEqual(result.warnings.filter((w) => w.series === 1).map((w) => w.message), [
      'series 1 misses 1 step(s) of the D grid (first 2024-01-03); they were filled with null',
      'model plain does not use historical covariates; ignored hist_variables of series 1: price, temp',
      'model plain does not use future covariates; ignored future_variables of series 1: price',
      'model plain does not use static covariates; ignored static_variables of series 1: store',
    ]);
    assert.equal(result.warnings.some((w) => w.series === 0), false);
  });

  test('a variable called __proto__ stays a plain key', () => {
    const hist = JSON.parse('{"__proto__": [1, 2, 3, 4]}') as Record<string, number[]>;
    const past = normalize(request({ model: 'sized', series: [series({ hist_variables: hist })] })).series[0].past_covariates;
    assert.deepEqual(Object.keys(past), ['__proto__']);
    assert.equal(Object.getPrototypeOf(past), Object.prototype);
  });
});

describe('collecting every error', () => {
  test('all fields and series are reported in one go', () => {
    const body = request({
      freq: 'D', model: 'sized', model_size: 'small', horizon: 0, context: -1, quantiles: [0.5, 2],
      series: [
        series({ target: [1, 2, 3] }),
        series({ index: ['2024-01-01', '2024-01-02', '2024-01-02', '2024-01-03'], static_variables: { s: Number.NaN } }),
      ],
    });
    assert.deepEqual(locations(body), [
      [undefined, 'horizon'],
      [undefined, 'context'],
      [undefined, 'quantiles[1]'],
      [0, 'series[0].index'],
      [1, 'series[1].index[2]'],
      [1, 'series[1].static_variables.s'],
    ]);
  });

  test('an unknown model still gets its series checked', () => {
    assert.deepEqual(locations(request({ model: 'nope', series: [series({ target: [null, null, null, null] })] })), [
      [undefined, 'model'],
      [0, 'series[0].target'],
    ]);
  });

  test('the error message summarises the first error and counts the rest', () => {
    try {
      normalize(request({ freq: 'X', horizon: 0 }));
      assert.fail('expected a rejection');
    } catch (error) {
      assert.ok(error instanceof RequestValidationError);
      assert.ok(error instanceof Error);
      assert.equal(error.message, 'freq: freq "X" is not one of MS, D, W, H, Q, Y (and 1 more)');
    }
  });
});
