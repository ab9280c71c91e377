// TypeBox schemas: they validate requests (Ajv, unknown fields rejected) and generate the OpenAPI
// document at /v1/openapi.json — one definition for both.
import { Type, type Static, type TSchema } from '@fastify/type-provider-typebox';
import {
  AutoInfo, BacktestMetrics, ForecastResponse, HierarchyInfo, ModelInfo, PrismInfo, SeriesPrediction, UnavailableReason, Warning,
} from '../contract/schemas.ts';

// The answer shapes the layers below http use (forecasting, runtime) live in src/contract; the
// routes and the OpenAPI document keep taking them from here.
export { AutoInfo, BacktestMetrics, ForecastResponse, HierarchyInfo, ModelInfo, PrismInfo, SeriesPrediction, UnavailableReason, Warning };

const NumberOrNull = Type.Union([Type.Number(), Type.Null()]);
/** Variable names: `__proto__` is refused by the JSON parser (prototype pollution guard) with a 400. */
const VARIABLE_NAMES = { propertyNames: { not: { const: '__proto__' } } };
/** Target values: beyond ±1e100 the statistical models' variance sums overflow to Infinity (a 500). */
export const MAX_TARGET_MAGNITUDE = 1e100;
const TargetValue = Type.Union([Type.Number({ minimum: -MAX_TARGET_MAGNITUDE, maximum: MAX_TARGET_MAGNITUDE }), Type.Null()]);

/** The spellings calendar.ts parses (real dates and times are checked there: 2023-02-29 is a 422). */
export const INDEX_DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ' +
  ']([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.0{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):?[0-5][0-9])?)?$';
const IndexDate = Type.String({
  pattern: INDEX_DATE_PATTERN,
  description: 'YYYY-MM-DD; a date-time YYYY-MM-DDTHH:MM[:SS] (T or a space, as pandas writes it) with an optional Z or UTC offset ±HH:MM, normalised to ' +
    'UTC. Times other than midnight only for freq H. A day that does not exist (2023-02-29) is a 422.',
});

export const InputSeries = Type.Object({
  target: Type.Array(TargetValue, { minItems: 1, contains: Type.Number(), description: 'observed values, one per index date, ascending time; null = missing; ' +
    'at least one number; each within ±1e100' }),
  index: Type.Array(IndexDate, { minItems: 1, description: 'the dates of `target` (same length), strictly ascending on the `freq` grid (D +1 day, W +7 days, ' +
    'H +1 hour, MS/Q/Y +1/3/12 months keeping one day-of-month position); a missing step is filled with null and reported in `warnings`' }),
  hist_variables: Type.Optional(
    Type.Record(Type.String(), Type.Array(NumberOrNull), { ...VARIABLE_NAMES, description: 'past covariates, one value per index date' }),
  ),
  future_variables: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Number()), { ...VARIABLE_NAMES, description: 'known-future covariates, one ' +
    'value per future_variables_index date; each also a hist variable' })),
  future_variables_index: Type.Optional(Type.Array(IndexDate, { description: 'dates continuing the grid right after the last index date, covering at ' +
    'least horizon steps' })),
  static_variables: Type.Optional(Type.Record(Type.String(), Type.Number(), { ...VARIABLE_NAMES, description: 'one value per static variable' })),
}, { additionalProperties: false, $id: 'InputSeries' });

/** A model in a list field (auto_candidates, prism_members, cross-validation models): an id or {model, model_size}. */
const ModelRef = Type.Union([
  Type.String({ minLength: 1, description: 'a model id, at its default size' }),
  Type.Object({ model: Type.String({ minLength: 1 }), model_size: Type.Optional(Type.String()) }, { additionalProperties: false }),
]);

const LabelName = Type.String({ minLength: 1, maxLength: 200 });
/** `hierarchy`, `reconcile`, `reconcile_intervals`, `reconcile_level`: POST /v1/forecast, /v1/forecast-jobs, /v1/cross-validation (docs/api.md#hierarchies). */
const HierarchyFields = {
  hierarchy: Type.Optional(Type.Object({
    labels: Type.Optional(Type.Array(Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 200 }), VARIABLE_NAMES), {
      minItems: 1, description: 'one object per series (same order as series / series_ids): label name → value, e.g. {"region": "north", "store": "n1"}',
    })),
    levels: Type.Optional(Type.Array(Type.Array(LabelName, { minItems: 1 }), {
      minItems: 1, maxItems: 20, description: 'the aggregation levels from the top down, each a list of label names extending the one above (nested); a ' +
        '"total" node over every series is added on top; the last level must place each series in a node of its own',
    })),
    aggregates: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1 }), {
      ...VARIABLE_NAMES, description: 'instead of labels and levels: node name → the indices of the series it sums (e.g. {"north": [0, 1], "south": [2]}); ' +
        'a "total" over every series is added unless one is given',
    })),
    names: Type.Optional(Type.Array(LabelName, { minItems: 1, description: 'with aggregates: the bottom nodes\' ids, one per series (default "series[i]")' })),
    temporal: Type.Optional(Type.Array(Type.Union([Type.Literal('D'), Type.Literal('W'), Type.Literal('Q'), Type.Literal('Y')]), {
      minItems: 1, maxItems: 2, uniqueItems: true,
      description: 'instead of labels or aggregates, POST /v1/forecast and /v1/forecast-jobs: coarser periods each series is summed to and reconciled ' +
        'with (freq H: D, W; D: W; MS: Q, Y; Q: Y), counted back from its last step; the horizon must cover whole periods of each',
    })),
  }, {
    additionalProperties: false,
    description: 'forecast a hierarchy: the series are its bottom, every aggregate (their sums) is forecast with the same model, and the forecasts are ' +
      'reconciled so that every parent is the sum of its children (`series[i]` is then input series i\'s reconciled forecast; the answer\'s ' +
      '`hierarchy` holds every node\'s base and reconciled forecast). The series must end on the same date; no covariates',
  })),
  reconcile: Type.Optional(Type.Union([
    'bottom_up', 'top_down_forecast_proportions', 'top_down_average_proportions', 'top_down_proportion_averages', 'middle_out',
    'ols', 'wls_struct', 'wls_var', 'mint_shrink', 'mint_cov', 'erm',
  ].map((m) => Type.Literal(m)), {
    description: 'with hierarchy: the reconciliation (hierarchicalforecast\'s BottomUp, TopDown, MiddleOut, MinTrace, ERM); default wls_var. wls_var, ' +
      'mint_shrink, mint_cov and erm weigh by the model\'s in-sample residuals: with a model that has none (foundation models, prism, auto) or a singular ' +
      'covariance, wls_struct is used instead, with a warning',
  })),
  reconcile_intervals: Type.Optional(Type.Union([Type.Literal('normality'), Type.Literal('bootstrap'), Type.Literal('permbu')], {
    description: 'with hierarchy: how the quantiles are reconciled (hierarchicalforecast\'s Normality, Bootstrap, PERMBU); default normality; bootstrap ' +
      'and permbu resample in-sample residuals (normality without them, with a warning)',
  })),
  reconcile_level: Type.Optional(Type.String({ description: 'with reconcile middle_out: the level it starts from (a level\'s label names joined with "/")' })),
};

export const ForecastRequest = Type.Object({
  series: Type.Optional(Type.Array(Type.Ref('InputSeries'), { minItems: 1, description: 'the series to forecast; required unless series_ids names ' +
    'stored series instead' })),
  series_ids: Type.Optional(
    Type.Array(
      Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' }),
      {
        minItems: 1, maxItems: 100000, uniqueItems: true,
        description: 'instead of series: ids of the account\'s stored series (PUT /v1/series/{id}), forecast from their whole stored history; the answer is ' +
          'the same as for the same series inline. freq may then be left out (it is theirs); an unknown id is 404',
      },
    ),
  ),
  store: Type.Optional(Type.Boolean({ description: 'with series_ids: keep each series\' forecast (issue time, model, request) and score it once the appended ' +
    'actuals cover it (GET /v1/series/{id}/accuracy)' })),
  horizon: Type.Integer({ minimum: 1, description: 'steps to predict; at most the model\'s max_horizon' }),
  freq: Type.Union([Type.Literal('MS'), Type.Literal('D'), Type.Literal('W'), Type.Literal('H'), Type.Literal('Q'), Type.Literal('Y')]),
  model: Type.Optional(Type.String({ description: 'model id (GET /v1/models); default: the deployment default_model' })),
  model_size: Type.Optional(Type.String({ description: 'a size of the model; default: its default_size' })),
  context: Type.Optional(Type.Integer({ minimum: 1, description: 'use at most the last `context` observations (capped at max_context)' })),
  quantiles: Type.Optional(Type.Array(
    Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
    { maxItems: 99, uniqueItems: true, description: 'levels to return, each once; default [0.1, 0.5, 0.9]' },
  )),
  evaluation: Type.Optional(Type.Object({
    holdout: Type.Optional(Type.Integer({ minimum: 1, description: 'steps held out at the end of each series; default: horizon' })),
    season_length: Type.Optional(Type.Integer({ minimum: 1, description: 'MASE seasonality m; default from freq (H 24, D 7, W 52, MS 12, Q 4, Y 1), 1 when ' +
      'the history is too short' })),
  }, { additionalProperties: false, description: 'asks for a backtest: `metrics` then holds MASE, WQL (over the requested quantiles) and sMAPE per ' +
    'series and in aggregate' })),
  auto_candidates: Type.Optional(Type.Array(ModelRef, { minItems: 1, maxItems: 6, description: 'model "auto" only: the models it cross-validates; default: ' +
    'the operator\'s HORIZON_AUTO_CANDIDATES (`pool`: the statistical pool sized by the request\'s cost, HORIZON_POOL_BUDGET_MS), else the served ' +
    'foundation models then auto-ets, auto-theta, seasonal-naive (and mstl where the freq has several seasons or one longer than AutoETS models: ' +
    'H, D, W), at most 4; ' +
    '`auto.pool` names where they came from' })),
  auto_scope: Type.Optional(Type.Union([Type.Literal('series'), Type.Literal('request')], { description: 'model "auto" only: `request` (default) one model ' +
    'for every series, the best score pooled over the request; `series` a model per series: its own cross-validation winner when that beats the request\'s ' +
    'winner on it by 20 % (else the request\'s winner)' })),
  auto_metric: Type.Optional(Type.Union([Type.Literal('wql'), Type.Literal('mase'), Type.Literal('smape')], { description: 'model "auto" only: the ' +
    'cross-validation score that picks (default mase, ties by MASE)' })),
  prism_members: Type.Optional(Type.Array(ModelRef, { minItems: 2, maxItems: 6, description: 'model "prism" only: the models it combines instead of the ' +
    'deployment\'s (HORIZON_PRISM_MEMBERS, else the served foundation models, else the statistical pool sized by the request\'s cost: ' +
    'HORIZON_POOL_BUDGET_MS; the answer\'s `prism` names them); any model id this account may forecast with (catalog ids, its own private models by id or ' +
    'name), each checked as `model` would be; not prism or auto' })),
  finetune_steps: Type.Optional(Type.Integer({ minimum: 0, description: 'POST /v1/forecast only: fine-tune the model (chronos-2) on this request\'s own ' +
    'series for this many steps first, forecast with the result and keep nothing (0: none; at most HORIZON_FINETUNE_INLINE_MAX_STEPS; quota: one more unit ' +
    'per started 100 steps; docs/fine-tuning.md). A model to keep: POST /v1/fine-tuning-jobs' })),
  explain: Type.Optional(Type.Boolean({
    description: 'POST /v1/forecast only: also each covariate\'s contribution to the mean forecast, per step (`series[i][0].contributions`: SHAP values, '
      + 'base + Σ features = mean; the base is the forecast without covariates). For one model that uses covariates; 2^M forecasts per series of M '
      + 'covariates (at most 10), at most 4,096 per call (413 use_job_api above; docs/api.md#explanations)',
  })),
  multivariate: Type.Optional(Type.Boolean({
    description: 'true: forecast the request\'s series jointly, as one group, with the model\'s own multivariate mode (chronos-2: cross-learning '
      + 'group attention; toto-2: the series as variates of one item; timesfm-3: the series as target variates, at most 32, without covariates; '
      + 'tirex-2: the series as the target variates of one item, at most 64, without covariates); '
      + 'each series\' forecast then depends on the others. Other models: 422 naming these (docs/api.md#joint-forecasts-and-sample-paths)',
  })),
  samples: Type.Optional(Type.Integer({
    minimum: 1, maximum: 10000,
    description: 'sample paths per series, drawn with the model\'s own sampling (`series[i][0].samples`: samples arrays of horizon values): chronos '
      + '(Chronos-T5\'s token sampling) and the statistical models whose statsforecast class has simulate (naive, seasonal-naive, auto-ets, damped-ets, '
      + 'auto-arima, auto-theta, ces); others: 422 naming these. At most 2,000,000 values per request (series × samples × horizon)',
  })),
  seed: Type.Optional(Type.Integer({
    minimum: -9007199254740991, maximum: 9007199254740991,
    description: 'with samples: mixed into each series\' sampling seed (which is derived from its values: the same request always draws the same paths)',
  })),
  finetune_learning_rate: Type.Optional(Type.Number({
    exclusiveMinimum: 0, maximum: 1, description: 'with finetune_steps: the learning rate (default 1e-5; lora 1e-4)',
  })),
  finetune_mode: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('lora')], {
    description: 'with finetune_steps: `full` (default) trains every weight, `lora` a low-rank adapter (peft), as a fine-tuning job\'s `mode`',
  })),
  ...HierarchyFields,
}, { additionalProperties: false, $id: 'ForecastRequest' });
export type ForecastRequestBody = Static<typeof ForecastRequest>;

export const FieldErrorSchema = Type.Object({
  series: Type.Optional(Type.Integer()),
  field: Type.String(),
  reason: Type.String(),
});

export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String(),
  errors: Type.Optional(Type.Array(FieldErrorSchema)),
  unavailable_reason: Type.Optional(UnavailableReason),
  request_id: Type.String(),
}, { $id: 'Problem', description: 'application/problem+json' });

const ProblemRef = Type.Ref('Problem');

const Nullable = Type.Union([Type.Number(), Type.Null()]);
const CvScores = Type.Object({
  mase: Nullable, wql: Nullable, smape: Type.Number(),
  coverage: Type.Record(Type.String(), Type.Number(), { description: 'per central interval, keyed by its level in percent ("80" for quantiles 0.1 and 0.9): ' +
    'the fraction of actuals inside it' }),
}, { description: 'MASE and sMAPE: means over windows; WQL: weighted over all windows; null when undefined (zero scale, or no quantiles)' });
const CvModelRef = ModelRef;

export const CrossValidationRequest = Type.Object({
  series: Type.Array(Type.Ref('InputSeries'), { minItems: 1 }),
  horizon: Type.Integer({ minimum: 1, description: 'steps forecast at each window; at most each model\'s max_horizon' }),
  freq: Type.Union([Type.Literal('MS'), Type.Literal('D'), Type.Literal('W'), Type.Literal('H'), Type.Literal('Q'), Type.Literal('Y')]),
  models: Type.Array(CvModelRef, { minItems: 1, maxItems: 10, description: 'the models compared (each charged one request)' }),
  n_windows: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'rolling origins; default 1' })),
  step: Type.Optional(Type.Integer({ minimum: 1, description: 'steps between consecutive origins; default: horizon' })),
  refit: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('form')], { description: 'default true: every window\'s model is fitted on the history ' +
    'before its cutoff. false: a statistical model (refit_free_backtest in GET /v1/models) is fitted once per series on its whole history and applied to the ' +
    'history before each cutoff (statsforecast\'s cross_validation(refit=False)): one fit instead of n_windows, but the fit has seen the windows, so scores ' +
    'are optimistic. "form" (what model "auto" uses): the same one fit per series, then each window fitted on the history before its cutoff with the form ' +
    'that fit chose (AutoETS\'s components and damping, AutoTheta\'s variant; a non-seasonal fit searches again): the window\'s parameters never saw it, at ' +
    'a fraction of a full model search; mstl keeps that fit\'s decomposition cut at the cutoff and fits its trend model\'s form again. Foundation models ' +
    'are never fitted, so it changes nothing for them' })),
  metric: Type.Optional(
    Type.Union([Type.Literal('wql'), Type.Literal('mase'), Type.Literal('smape')], { description: 'ranks the leaderboard; default wql (ties by MASE)' }),
  ),
  season_length: Type.Optional(Type.Integer({ minimum: 1, description: 'MASE seasonality m; default from freq' })),
  context: Type.Optional(Type.Integer({ minimum: 1, description: 'use at most the last `context` observations before each cutoff' })),
  quantiles: Type.Optional(Type.Array(
    Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
    { maxItems: 99, uniqueItems: true, description: 'levels to return, each once; default [0.1, 0.5, 0.9]' },
  )),
  ...HierarchyFields,
}, { additionalProperties: false });

const CvWindow = Type.Object({
  window: Type.Integer({ description: '0 = the latest origin' }),
  cutoff: Type.Integer({ description: 'position (0-based, in the series as sent) of the first forecast step: len - horizon - window*step' }),
  index: Type.Array(Type.String(), { description: 'forecast dates' }),
  prediction: Type.Record(Type.String(), Type.Array(Type.Number()), { description: '"mean" plus one array per quantile level' }),
  actual: Type.Array(Type.Number(), { description: 'the observed values at those dates' }),
  scores: CvScores,
});

const BaseVsReconciled = (scores: TSchema, what: string) => Type.Object({ base: scores, reconciled: scores }, { description: what });
const NullableCvScores = Type.Union([CvScores, Type.Null()]);
const CvHierarchy = Type.Object({
  method: Type.String({ description: 'the reconciliation used (windows that fell back add theirs: "mint_shrink, wls_struct"; see warnings)' }),
  intervals: Type.String(),
  warnings: Type.Array(Type.String(), { description: 'fallbacks and windows not reconciled, with the reasons' }),
  levels: Type.Array(Type.Object({
    level: Type.String(), nodes: Type.Integer({ description: 'nodes of this level' }),
    scores: BaseVsReconciled(NullableCvScores, 'pooled over the level\'s nodes and windows'),
  }), { description: 'per level, top-down ("total" first, the input series last): base vs reconciled scores' }),
  nodes: Type.Array(Type.Object({
    id: Type.String(), level: Type.String(), parent: Type.Union([Type.String(), Type.Null()]), series: Type.Array(Type.Integer()),
    scores: BaseVsReconciled(NullableCvScores, 'pooled over the node\'s windows'),
    windows: Type.Array(Type.Object({
      window: Type.Integer(), cutoff: Type.Integer({ description: 'position of the first forecast step in the node\'s own series' }),
      index: Type.Array(Type.String()), actual: Type.Array(Type.Number()),
      base: Type.Record(Type.String(), Type.Array(Type.Number())), reconciled: Type.Record(Type.String(), Type.Array(Type.Number())),
      scores: BaseVsReconciled(CvScores, 'the window\'s'),
    })),
  }), { description: 'every node as in a forecast\'s `hierarchy.nodes`, with its windows: base and reconciled forecasts and scores' }),
}, { description: 'with `hierarchy` only: the windows every node has, reconciled across the nodes; `series[i]` then holds input series i\'s reconciled ' +
  'windows, and `scores` and the leaderboard are theirs' });

export const CrossValidationResponse = Type.Object({
  horizon: Type.Integer(),
  n_windows: Type.Integer(),
  step: Type.Integer(),
  refit: Type.Union([Type.Boolean(), Type.Literal('form')], { description: 'as asked (default true)' }),
  season_length: Type.Integer(),
  quantiles: Type.Array(Type.Number()),
  metric: Type.String({ description: 'the leaderboard\'s ranking metric' }),
  leaderboard: Type.Array(
    Type.Object({ rank: Type.Integer(), model: Type.String(), model_size: Type.String(), score: Nullable }),
    { description: 'models, best first (null scores last)' },
  ),
  models: Type.Array(Type.Object({
    model: Type.String(), model_size: Type.String(),
    scores: CvScores,
    series: Type.Array(
      Type.Object({ scores: Type.Union([CvScores, Type.Null()], { description: 'null when no window of this series fits' }), windows: Type.Array(CvWindow) }),
      { description: 'series[i]: input series i' },
    ),
    hierarchy: Type.Optional(CvHierarchy),
  })),
  warnings: Type.Array(Warning, { description: 'windows left out (and why), and the forecast warnings' }),
});

export const AnomaliesRequest = Type.Object({
  series: Type.Array(Type.Ref('InputSeries'), { minItems: 1, description: 'the histories to score, every timestep from `scored_from` on (summed over series: ' +
    'at most 20,000 in mode windows, one rolling window each; 200,000 in mode in-sample)' }),
  freq: Type.Union([Type.Literal('MS'), Type.Literal('D'), Type.Literal('W'), Type.Literal('H'), Type.Literal('Q'), Type.Literal('Y')]),
  model: Type.Optional(Type.String({ description: 'model id (GET /v1/models), or "auto": per series the statistical candidate whose in-sample fit is closest ' +
    'to the history (mode in-sample); default: the deployment default_model' })),
  model_size: Type.Optional(Type.String({ description: 'a size of the model; default: its default_size' })),
  mode: Type.Optional(Type.Union([Type.Literal('in-sample'), Type.Literal('windows')], { description: '"in-sample": ONE fit per series; its in-sample ' +
    'one-step-ahead fitted values and their interval at `level` (statsforecast\'s fitted values) score the whole history — only a statistical model ' +
    '(refit_free_backtest in GET /v1/models) at step 1. "windows": each timestep forecast `step` steps ahead from the `context` values before it, a fit per ' +
    'window — strictly out of sample, any model, any step. Default: in-sample where it is possible, else windows; in-sample asked for where it is not ' +
    'possible is a 422 naming `mode`' })),
  level: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 99.99, description: 'the central prediction interval, in percent (above 0, at most ' +
    '99.99), outside which an observation is an anomaly; default 99 (quantiles 0.005 and 0.995)' })),
  step: Type.Optional(Type.Integer({ minimum: 1, description: 'each timestep is forecast `step` steps ahead (from the values up to `step` before it); ' +
    'default 1; at most the model\'s max_horizon' })),
  context: Type.Optional(Type.Integer({ minimum: 1, description: 'mode windows: values of history each window\'s forecast uses (the last ones before its ' +
    'cutoff); default 128, capped at max_context. Mode in-sample fits each whole history (at most max_context values) and ignores it, with a warning' })),
  min_history: Type.Optional(Type.Integer({ minimum: 1, description: 'values before the first window\'s cutoff: positions before min_history + step - 1 are ' +
    'not scored; default two seasons of `freq` (H 48, D 14, W 104, MS 24, Q 8, Y 8), at least 8' })),
  detection_size: Type.Optional(Type.Integer({ minimum: 1, description: 'online detection: score only the last detection_size positions of each series ' +
    '(default: every position from min_history + step - 1 on). Mode windows forecasts only their windows, each from the history before it; mode in-sample ' +
    'fits each series once as without it and scores only those positions. A series with fewer than min_history + step - 1 + detection_size ' +
    'values is a 422 naming it' })),
}, { additionalProperties: false });

const NumberColumn = (description: string) => Type.Array(Type.Union([Type.Number(), Type.Null()]), { description });

export const AnomaliesResponse = Type.Object({
  model: Type.String(),
  model_size: Type.String(),
  mode: Type.Union([Type.Literal('in-sample'), Type.Literal('windows')], { description: 'how the timesteps were scored: "in-sample" (one fit per series, its ' +
    'in-sample fitted values and interval) or "windows" (one forecast per timestep from the values before it)' }),
  level: Type.Number({ description: 'the band\'s central interval in percent' }),
  step: Type.Integer(),
  context: Type.Integer({ description: 'mode windows: the history each window used (after the max_context cap); mode in-sample: the most history one ' +
    'fit saw (max_context)' }),
  min_history: Type.Integer(),
  detection_size: Type.Optional(Type.Integer({ description: 'as sent: only the last detection_size positions of each series were scored' })),
  quantiles: Type.Array(Type.Number(), { description: '[lo, 0.5, hi]: the quantile levels of the band and of the median' }),
  n_windows: Type.Integer({ description: 'timesteps given a band, over all series: windows forecast (mode windows, all in one model call) or in-sample ' +
    'fitted positions (mode in-sample)' }),
  n_anomalies: Type.Integer(),
  series: Type.Array(Type.Object({
    scored_from: Type.Integer({ description: 'position (0-based, in the series as sent) of the first scored timestep: min_history + step - 1, or with ' +
      'detection_size the series length - detection_size (the series length when nothing is scored). Positions before it are not scored; every array below ' +
      'has one element per position from it to the end' }),
    index: Type.Array(Type.String(), { description: 'the dates (as sent) of the scored positions' }),
    actual: NumberColumn('the observations (null = missing: never flagged)'),
    forecast: NumberColumn('the point forecast (mean) made `step` steps ahead (mode in-sample: the fitted value); null where the timestep could not be ' +
      'forecast (see warnings)'),
    median: NumberColumn('the 0.5 quantile: the centre of the score'),
    lo: NumberColumn('the band\'s lower bound, quantile (100 - level) / 200'),
    hi: NumberColumn('the band\'s upper bound, quantile 1 - (100 - level) / 200'),
    anomaly: Type.Array(Type.Boolean(), { description: 'true when the observation lies outside [lo, hi] (strictly); false for a missing observation ' +
      'or one not forecast' }),
    score: NumberColumn('(actual - median) / (hi - median) above the median, (actual - median) / (median - lo) below it: signed, in units of the band\'s ' +
      'half on that side, so |score| > 1 exactly when outside; 0 on the median; null when the observation is missing, not forecast, or that half of the ' +
      'band has zero width'),
    anomalies: Type.Array(Type.Integer(), { description: 'positions (as sent) flagged as anomalies, ascending' }),
  }), { description: 'series[i]: input series i' }),
  auto: Type.Optional(Type.Object({
    candidates: Type.Array(Type.Object({ model: Type.String(), model_size: Type.String() }), { description: 'the statistical models fitted to every series' }),
    series: Type.Array(Type.Object({
      model: Type.String(), model_size: Type.String(),
      mae: Nullable,
    }), { description: 'series[i]: the candidate that scored input series i, the one whose in-sample fitted values lie closest to the observations (mean ' +
      'absolute error over the scored positions every candidate fits; null: none, the first candidate)' }),
  }, { description: 'model "auto" only: its candidates and the pick per series' })),
  warnings: Type.Array(Warning, { description: 'series with nothing to score, timesteps whose window could not be forecast or that the in-sample fit does ' +
    'not cover, and the forecast warnings (e.g. band levels outside what the model predicts)' }),
});

export const JobStatus = Type.Union(
  [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')],
);

export const JobAccepted = Type.Object({
  job_id: Type.String(),
  status: Type.Literal('queued'),
  model: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

/** A chunked job's progress (src/jobs/chunks.ts); absent on a job small enough for one model call per step. */
export const JobProgress = Type.Object({
  chunks_done: Type.Integer({ minimum: 0, description: 'chunks whose result is stored (a restarted job does not run them again)' }),
  chunks_total: Type.Integer({ minimum: 0, description: 'chunks of the model calls made so far; with model "auto" it grows once the cross-validation has ' +
    'picked the models (their forecasts are chunked then)' }),
}, { additionalProperties: false, description: 'present on a job whose estimated model time is over HORIZON_JOB_CHUNK_BUDGET_MS: it runs in chunks of series ' +
  'that each fit one worker call; set once it starts running, kept when it finishes' });

/** The lifecycle fields of every forecast, cross-validation and anomaly job (in this order). */
export const JobLifecycle = {
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Optional(Type.String({ format: 'date-time' })),
  finished_at: Type.Optional(Type.String({ format: 'date-time' })),
  attempts: Type.Integer(),
  progress: Type.Optional(JobProgress),
  error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() })),
};

export const Job = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  model: Type.String(),
  ...JobLifecycle,
  model_size: Type.Optional(Type.String()),
  series: Type.Optional(Type.Array(Type.Array(SeriesPrediction))),
  metrics: Type.Optional(Type.Union([BacktestMetrics, Type.Null()])),
  warnings: Type.Optional(Type.Array(Warning)),
  auto: Type.Optional(AutoInfo),
  prism: Type.Optional(PrismInfo),
  hierarchy: Type.Optional(HierarchyInfo),
}, { additionalProperties: false });

export const JobList = Type.Object({
  jobs: Type.Array(Job),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as ?cursor= for the next page; null on the last page' }),
});

export const JobIdParams = Type.Object({ id: Type.String() });

const CvJobModels = Type.Array(
  Type.Object({ model: Type.String(), model_size: Type.String() }), { description: 'the models compared, with the size each runs at' },
);

export const CrossValidationJobAccepted = Type.Object({
  job_id: Type.String(),
  status: Type.Literal('queued'),
  models: CvJobModels,
  created_at: Type.String({ format: 'date-time' }),
});

export const CrossValidationJob = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  models: CvJobModels,
  ...JobLifecycle,
  // once completed: exactly what POST /v1/cross-validation answers for the same body
  result: Type.Optional(CrossValidationResponse),
}, { additionalProperties: false });

export const CrossValidationJobList = Type.Object({
  jobs: Type.Array(CrossValidationJob, { description: 'without `result` (GET the job for it)' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as ?cursor= for the next page; null on the last page' }),
});

export const JobListQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^0*([1-9][0-9]?|100)$', description: 'page size, 1–100 (default 20)' })),
  cursor: Type.Optional(Type.String()),
  status: Type.Optional(JobStatus),
}, { additionalProperties: false });

export const ModelList = Type.Object({
  models: Type.Array(ModelInfo),
  default_model: Type.String(),
});

export const WarmupQuery = Type.Object({
  model: Type.Optional(Type.String()),
  model_size: Type.Optional(Type.String()),
}, { additionalProperties: false });

export const WarmupResponse = Type.Object({
  model: Type.String(),
  model_size: Type.String(),
  status: Type.Literal('warm'),
  load_ms: Type.Number(),
  device: Type.String(),
});

export const WarmupPulling = Type.Object({
  model: Type.String(),
  model_size: Type.String(),
  status: Type.Literal('pulling'),
  bytes_done: Type.Integer({ description: 'bytes of the weights downloaded so far' }),
  bytes_total: Type.Union([Type.Integer(), Type.Null()], { description: 'null until the repository is resolved' }),
  files_done: Type.Integer(),
  files_total: Type.Union([Type.Integer(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
}, { description: 'HORIZON_AUTO_PULL=1 and the weights are missing: their pull is under way (ask again; Retry-After says when)' });

export const StatusResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  store: Type.String(),
  workers: Type.Array(Type.Object({ group: Type.String(), state: Type.String(), restarts: Type.Integer() })),
});

export const ApiKeyCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9 _.\\-]+$', description: '1–64 letters, digits, space, _ . -' }),
}, { additionalProperties: false });

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CreatedApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String({ description: 'the secret, shown only in this response' }),
  prefix: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKey) });

/** What each error status means on this API; the OpenAPI response descriptions. */
const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'The body is not valid JSON (NaN and Infinity are not JSON)',
  401: 'Missing or invalid API key (WWW-Authenticate says which)',
  403: 'The model\'s licence has not been accepted by the operator (HORIZON_ACCEPT_LICENSES)',
  404: 'No such resource for this account',
  405: 'Method not allowed on this path; the Allow header lists the methods it has',
  409: 'Conflicts with the current state (see `code`)',
  413: 'The body is larger than the configured byte limit (payload_too_large, naming it), or the request is larger than a synchronous call may be ' +
    '(use_job_api: more series, points or estimated model time than the caps; `detail` names the cap and the job route)',
  415: 'The body is not sent as Content-Type: application/json',
  422: 'Invalid input: `errors[]` names each field (and series) with the reason',
  429: 'Quota exceeded (quota_exceeded; X-RateLimit-Reset says when to retry), or too many of this account\'s model requests in flight (too_many_inflight, ' +
    'naming HORIZON_ACCOUNT_MAX_INFLIGHT; Retry-After)',
  500: 'Inference failed, or an unexpected error; `detail` describes it',
  502: 'Pulling the model weights failed',
  503: 'Model or worker not available right now (weights missing, being pulled, worker restarting), or the database cannot be reached (store_unavailable); ' +
    'Retry-After says when to retry',
  504: 'Inference timed out (HORIZON_INFERENCE_TIMEOUT_MS); `detail` names the job API, which runs large requests in chunks that each fit one call',
};

export interface DocumentedResponse { description: string; content: Record<string, { schema: unknown }> }

/**
 * Error responses of an operation, documented as they are sent: `application/problem+json` bodies of
 * the shared Problem schema, one description per status. Every route lists the statuses it can answer
 * (401 for every keyed route), so the document states what the server does (test/openapi.test.ts).
 */
export function problemResponses(...statuses: number[]): Record<number, DocumentedResponse> {
  return Object.fromEntries(statuses.map((s) => {
    const description = PROBLEM_DESCRIPTIONS[s];
    if (!description) throw new Error(`problemResponses: no description for status ${s}; add it to PROBLEM_DESCRIPTIONS`);
    return [s, { description, content: { 'application/problem+json': { schema: ProblemRef } } }];
  }));
}

/** The 413 of a synchronous operation that a job route also serves: the body limit, or the estimate over
 * the synchronous budget (use_job_api, src/forecasting/cost.ts). Spread after problemResponses(…, 413, …). */
export function syncOnlyResponses(jobPath: string): Record<number, DocumentedResponse> {
  return {
    413: problemAnswer(`The body is larger than the configured limit (code payload_too_large), or the request's estimated model time is over the synchronous ` +
      `budget (code use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged): send the same body to POST ${jobPath}, whose job runs it in chunks`),
  };
}

/** A success response with its description (the document's `responses[status].description`). */
export function jsonResponse(schema: unknown, description: string): DocumentedResponse {
  return { description, content: { 'application/json': { schema } } };
}

export const SHARED_SCHEMAS = [InputSeries, ForecastRequest, Problem, ForecastResponse];

/** A documented problem+json answer (the media type every error is sent with, contract B.8). */
export function problemAnswer(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemRef } } };
}

export const AdminAccount = Type.Object({
  id: Type.String(),
  name: Type.String(),
  daily_quota: Type.Integer({ minimum: 0, description: 'requests per UTC day; 0 = unlimited' }),
  weekly_quota: Type.Integer({ minimum: 0, description: 'requests per ISO week (Monday 00:00 UTC); 0 = unlimited' }),
  disabled: Type.Boolean({ description: 'a disabled account\'s keys get 403 account_disabled' }),
  disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  used_today: Type.Integer({ description: 'units charged in the current UTC day' }),
  used_this_week: Type.Integer({ description: 'units charged in the current ISO week' }),
  created_at: Type.String({ format: 'date-time' }),
}, { examples: [{
  id: '0b9f3c52-5d1e-4a57-9a43-2f0c1f7e8a10', name: 'default', daily_quota: 200, weekly_quota: 1000, disabled: false, disabled_at: null, used_today: 12,
  used_this_week: 80, created_at: '2026-11-20T09:00:00.000Z',
}] });

export const AdminAccountList = Type.Object({ accounts: Type.Array(AdminAccount) });

export const AdminAccountParams = Type.Object(
  { name: Type.String({ minLength: 1, description: 'the account name (as in `horizon accounts create <name>`)' }) },
);

export const AdminAccountCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'a new account\'s name' }),
  daily_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'requests per UTC day; 0 = unlimited; default 200' })),
  weekly_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'requests per ISO week; 0 = unlimited; default 1000' })),
}, { additionalProperties: false, examples: [{ name: 'acme', daily_quota: 500 }] });

export const AdminKeyParams = Type.Object({
  name: Type.String({ minLength: 1, description: 'the account name' }),
  id: Type.String({ description: 'the key id (as listed)' }),
});

export const AdminAccountUpdate = Type.Object({
  daily_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'requests per UTC day; 0 = unlimited' })),
  weekly_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'requests per ISO week; 0 = unlimited' })),
  disabled: Type.Optional(Type.Boolean({ description: 'true: the account\'s keys get 403 at once; false: enabled again' })),
}, { additionalProperties: false, minProperties: 1, examples: [{ daily_quota: 1000, weekly_quota: 5000 }], description: 'the fields to change; at least one' });
