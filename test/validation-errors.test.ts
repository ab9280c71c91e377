// One clear reason per field in 422s, and "did you mean" hints: unit level (did-you-mean.ts,
// validation-errors.ts) and through the real server.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { closest, editDistance, modelHint, suggestFreq } from '../src/forecasting/did-you-mean.ts';
import { startTestServer, type TestServer, forecastErrors } from './helpers.ts';

describe('did-you-mean', () => {
  test('edit distance counts a swap of neighbours as one edit', () => {
    assert.equal(editDistance('horizon', 'horizon'), 0);
    assert.equal(editDistance('horizn', 'horizon'), 1);
    assert.equal(editDistance('hroizon', 'horizon'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  test('closest: case-insensitive match, one best within a third of the length, else null', () => {
    const fields = ['series', 'horizon', 'freq', 'model', 'model_size', 'context', 'quantiles', 'evaluation'];
    assert.equal(closest('horizn', fields), 'horizon');
    assert.equal(closest('Horizon', fields), 'horizon');
    assert.equal(closest('quantile', fields), 'quantiles');
    assert.equal(closest('modelsize', fields), 'model_size');
    assert.equal(closest('values', fields), null);
    assert.equal(closest('x', fields), null);
  });

  test('freq: pandas aliases, case, leading 1 and anchors map to the contract freq', () => {
    const cases: [string, string | null][] = [['M', 'MS'], ['ME', 'MS'], ['m', 'MS'], ['ms', 'MS'], ['h', 'H'], ['1H', 'H'], ['1h', 'H'], ['hourly', 'H'],
      ['d', 'D'], ['1D', 'D'], ['W-SUN', 'W'], ['QS', 'Q'], ['Q-DEC', 'Q'], ['A', 'Y'], ['YS', 'Y'], ['A-DEC', 'Y'], ['monthly', 'MS'], ['T', null], ['5min', null]];
    for (const [value, expected] of cases) assert.equal(suggestFreq(value), expected, value);
  });

  test('model ids: other libraries\' names map to Horizon\'s, a model Horizon lacks names what it has instead (issue 37)', () => {
    const ids = ['naive', 'seasonal-naive', 'auto-ets', 'auto-arima', 'auto-theta', 'mstl', 'chronos-2', 'toto-2', 'tirex', 'tirex-2'];
    const cases: [string, string][] = [['arima', '; did you mean "auto-arima"?'], ['ARIMA', '; did you mean "auto-arima"?'], ['AutoARIMA', '; did you mean "auto-arima"?'],
      ['auto_arima', '; did you mean "auto-arima"?'], ['ets', '; did you mean "auto-ets"?'], ['SeasonalNaive', '; did you mean "seasonal-naive"?'], ['toto', '; did you mean "toto-2"?'],
      ['TiRex2', '; did you mean "tirex-2"?'], ['tirex_2', '; did you mean "tirex-2"?'],
      ['autoets', '; did you mean "auto-ets"?'], ['naiv', '; did you mean "naive"?'], ['xgboost', '']];
    for (const [value, hint] of cases) assert.equal(modelHint(value, ids), hint, value);
    assert.equal(modelHint('prophet', ids), '; Horizon has no Prophet: for a trend with yearly and weekly seasonality, did you mean "mstl" or "auto"?');
    // only what this deployment has is suggested
    assert.equal(modelHint('prophet', ['naive']), '; Horizon has no Prophet: for a trend with yearly and weekly seasonality, did you mean "auto"?');
    assert.equal(modelHint('arima', ['naive']), '');
  });
});

describe('422 reasons through the server', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => { await server.close(); });

  const errorsFor = (mutate: (body: any) => void) => forecastErrors(server, mutate);

  test('a numeric string in target: one item, one sentence naming what was sent', async () => {
    const errors = await errorsFor((b) => { b.series[0].target[3] = '12'; });
    assert.deepEqual(errors, [{ series: 0, field: 'series[0].target[3]', reason: 'must be a number or null, got string "12"' }]);
  });

  test('a target value beyond ±1e100: the bound, not "must be null"', async () => {
    const errors = await errorsFor((b) => { b.series[0].target[2] = 2.2e261; });
    assert.deepEqual(errors, [{ series: 0, field: 'series[0].target[2]', reason: 'must be <= 1e+100, got number 2.2e+261' }]);
  });

  test('all-null target and a malformed date: plain reasons', async () => {
    const errors = await errorsFor((b) => { b.series[0].target = b.series[0].target.map(() => null); b.series[0].index[4] = '2020/05/01'; });
    assert.deepEqual(errors.find((e) => e.field === 'series[0].target'), { series: 0, field: 'series[0].target', reason: 'no observed values — at least one number is needed; nulls are missing values (all 48 values are null)' });
    assert.match(errors.find((e) => e.field === 'series[0].index[4]')!.reason, /^"2020\/05\/01" is neither a date YYYY-MM-DD nor a date-time YYYY-MM-DDTHH:MM\[:SS\]/);
  });

  test('wrong types elsewhere: one sentence each', async () => {
    const errors = await errorsFor((b) => { b.horizon = '6'; b.series[0].static_variables = { store: true }; });
    assert.deepEqual(errors.find((e) => e.field === 'horizon'), { field: 'horizon', reason: 'must be an integer, got string "6"' });
    assert.deepEqual(errors.find((e) => e.field === 'series[0].static_variables.store'), { series: 0, field: 'series[0].static_variables.store', reason: 'must be a number, got boolean true' });
    assert.equal(errors.length, 2, JSON.stringify(errors));
  });

  test('near-miss freq values get a hint; a far one lists the values only', async () => {
    for (const [freq, hint] of [['M', 'MS'], ['h', 'H'], ['1H', 'H'], ['daily', 'D']]) {
      const errors = await errorsFor((b) => { b.freq = freq; });
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0].field, 'freq');
      assert.equal(errors[0].reason, `must be one of MS, D, W, H, Q, Y, got string ${JSON.stringify(freq)}; did you mean "${hint}"?`);
    }
    const far = await errorsFor((b) => { b.freq = '5min'; });
    assert.equal(far[0].reason, 'must be one of MS, D, W, H, Q, Y, got string "5min"');
  });

  test('unknown field names get the closest known field', async () => {
    const top = await errorsFor((b) => { b.horizn = b.horizon; delete b.horizon; });
    assert.deepEqual(top.find((e) => e.field === 'horizn'), { field: 'horizn', reason: 'unknown field (not part of the API); did you mean "horizon"?' });
    const nested = await errorsFor((b) => { b.series[0].hist_variable = {}; });
    assert.deepEqual(nested, [{ series: 0, field: 'series[0].hist_variable', reason: 'unknown field (not part of the API); did you mean "hist_variables"?' }]);
    const evaluation = await errorsFor((b) => { b.evaluation = { holdot: 3 }; });
    assert.match(evaluation[0].reason, /did you mean "holdout"\?/);
    const none = await errorsFor((b) => { b.series[0].values = [1]; });
    assert.equal(none[0].reason, 'unknown field (not part of the API; check the spelling)');
  });

  test('near-miss model ids and sizes get a hint', async () => {
    const model = await errorsFor((b) => { b.model = 'naiv'; });
    assert.match(model[0].reason, /^model "naiv" is not a known model id; did you mean "naive"\?; valid ids: /);
    const arima = await errorsFor((b) => { b.model = 'arima'; });
    assert.match(arima[0].reason, /^model "arima" is not a known model id; did you mean "auto-arima"\?; valid ids: /);
    const prophet = await errorsFor((b) => { b.model = 'prophet'; });
    assert.match(prophet[0].reason, /^model "prophet" is not a known model id; Horizon has no Prophet: for a trend with yearly and weekly seasonality, did you mean "mstl" or "auto"\?; valid ids: /);
    const size = await errorsFor((b) => { b.model = 'auto-ets'; b.model_size = 'Default'; });
    assert.match(size[0].reason, /did you mean "default"\?/);
  });

  test('a series with one observed value: a 422 naming it, for a model, prism and a job; two values forecast (issue 37)', async () => {
    const reason = 'series 1 has 1 observed value; a forecast needs at least 2: from one value no model can estimate a step or a spread, and its interval would have zero width';
    for (const model of ['naive', 'auto-ets', 'prism']) {
      const errors = await errorsFor((b) => { b.model = model; b.series.push({ index: [b.series[0].index[0], b.series[0].index[1]], target: [null, 7] }); });
      assert.deepEqual(errors, [{ series: 1, field: 'series[1].target', reason }], model);
    }
    const body = { model: 'naive', freq: 'MS', horizon: 2, series: [{ index: ['2024-01-01', '2024-02-01'], target: [5, 7] }, { index: ['2024-01-01'], target: [3] }] };
    const job = await server.request('POST', '/v1/forecast-jobs', { body });
    assert.equal(job.status, 422, job.text);
    assert.deepEqual(job.body.errors, [{ series: 1, field: 'series[1].target', reason }]);
    const two = await server.request('POST', '/v1/forecast', { body: { ...body, series: [body.series[0]], quantiles: [0.1, 0.9] } });
    assert.equal(two.status, 200, two.text);
    assert.ok(two.body.series[0][0].prediction['0.9'][0] > two.body.series[0][0].prediction['0.1'][0], 'two values give an interval of some width');
  });
});

