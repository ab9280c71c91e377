// The contract's answer shapes (api-contract.md) that the layers below HTTP build or read: a
// forecast's response (forecasting/), a model's listing (runtime/). TypeBox schemas, so the same
// objects validate and document (src/http/schemas.ts re-exports them for the routes and OpenAPI).
import { Type } from '@fastify/type-provider-typebox';

export const UnavailableReason = Type.Object({
  code: Type.Union(
    [Type.Literal('runtime_not_installed'), Type.Literal('license_not_accepted'), Type.Literal('weights_missing'), Type.Literal('members_unavailable')],
  ),
  detail: Type.String({ description: 'what is missing and how the operator enables the model' }),
  command: Type.Optional(Type.String({ description: 'the command that fixes it: weights_missing, the pull of the default size; ' +
    'runtime_not_installed, the setup' })),
  variable: Type.Optional(Type.String({ description: 'license_not_accepted: the variable that accepts the licence (HORIZON_ACCEPT_LICENSES)' })),
  runtime_group: Type.Optional(Type.String({ description: 'runtime_not_installed: the runtime group (virtualenv) that serves the model' })),
}, { additionalProperties: false, description: 'why a catalog model is not served by this deployment' });

export const Warning = Type.Object({
  series: Type.Optional(Type.Integer()),
  field: Type.String(),
  message: Type.String(),
});

export const SeriesPrediction = Type.Object({
  prediction: Type.Record(Type.String(), Type.Array(Type.Number()), { description: '"mean" plus one array per requested quantile level, keyed by ' +
    'the level as a string' }),
  index: Type.Array(Type.String(), { description: 'forecast dates' }),
  samples: Type.Optional(Type.Array(Type.Array(Type.Number()), { description: 'with `samples: N`: N sample paths of horizon values each, drawn with the ' +
    'model\'s own sampling' })),
  contributions: Type.Optional(Type.Object({
    base: Type.Array(Type.Number(), { description: 'per step: the mean forecast without any covariate' }),
    features: Type.Record(Type.String(), Type.Array(Type.Number()), { description: 'per covariate (its name as sent), per step: its Shapley value; base ' +
      '+ Σ features = mean' }),
  }, { description: 'with `explain: true`: each covariate\'s contribution to the mean forecast (SHAP values over every coalition of the ' +
    'series\' covariates)' })),
});

const Scores = { mase: Type.Union([Type.Number(), Type.Null()]), wql: Type.Union([Type.Number(), Type.Null()]), smape: Type.Number() };

export const BacktestMetrics = Type.Object({
  holdout: Type.Integer(),
  season_length: Type.Integer(),
  quantiles: Type.Array(Type.Number()),
  aggregate: Type.Object(Scores, { description: 'mean MASE and sMAPE over series; WQL weighted over all series' }),
  series: Type.Array(Type.Object(Scores), { description: 'series[i] scores input series i' }),
});

export const ModelPool = Type.Object({
  source: Type.Union([Type.Literal('request'), Type.Literal('operator'), Type.Literal('foundation'), Type.Literal('cost'), Type.Literal('default')], {
    description: '`request`: the models the request named; `operator`: the deployment\'s configured list; `foundation`: the served foundation models; ' +
      '`cost`: every served statistical model whose estimated cost per series for this request fits the budget (auto-ets, auto-theta and ' +
      'seasonal-naive always; prism\'s default, auto\'s with HORIZON_AUTO_CANDIDATES=pool); ' +
      '`default`: auto\'s default list (auto-ets, auto-theta, seasonal-naive; and mstl where the freq has several seasons or one longer than ' +
      'AutoETS models: H, D, W)',
  }),
  budget_ms: Type.Optional(Type.Number({ description: '`cost` only: the budget (HORIZON_POOL_BUDGET_MS), estimated ms of one core per series' })),
  left_out: Type.Optional(Type.Array(Type.Object(
    { model: Type.String(), estimate_ms: Type.Number({ description: 'its estimated ms per series on this request' }) },
  ), {
    description: '`cost` only: the served statistical models over the budget on this request',
  })),
}, { description: 'where the models of prism or auto came from, and (sized by cost) what was left out' });

export const PrismInfo = Type.Object({
  members: Type.Array(Type.Object({ model: Type.String(), model_size: Type.String() }), { description: 'the models blended' }),
  pool: ModelPool,
}, { description: 'model "prism" only: the members it blended for this request' });

export const AutoInfo = Type.Object({
  scope: Type.Union([Type.Literal('series'), Type.Literal('request')]),
  metric: Type.String({ description: 'the cross-validation score that picked (wql, mase or smape; ties by MASE)' }),
  n_windows: Type.Integer({ description: 'rolling origins cross-validated per series (fewer for a series too short for them)' }),
  step: Type.Integer({ description: 'steps between origins (= horizon)' }),
  candidates: Type.Array(Type.Object({ model: Type.String(), model_size: Type.String() }), { description: 'the models cross-validated' }),
  pool: Type.Optional(ModelPool),
  leaderboard: Type.Array(
    Type.Object({ rank: Type.Integer(), model: Type.String(), model_size: Type.String(), score: Type.Union([Type.Number(), Type.Null()]) }),
    {
      description: 'the candidates ranked by their score pooled over every series (as POST /v1/cross-validation ranks them); empty when no ' +
        'window fits any series',
    },
  ),
  series: Type.Array(Type.Object({
    model: Type.String({ description: 'the model that forecast this series' }),
    model_size: Type.String(),
    score: Type.Union([Type.Number(), Type.Null()], { description: "that model's cross-validation score on this series (the metric); null for a fallback" }),
    windows: Type.Integer({ description: 'windows of this series scored' }),
    picked_by: Type.Union([Type.Literal('series'), Type.Literal('request'), Type.Literal('fallback')], { description: '`series`: its own cross-validation ' +
      'winner (scope series: when its score beats the request winner\'s on this series by the switch margin, or is that winner); `request`: the request\'s ' +
      'winner (the leaderboard\'s first); `fallback`: no window fits this series, it got the request\'s winner (or the first candidate when no series has a ' +
      'window), with a warning' }),
  }), { description: 'series[i]: what forecast input series i' }),
}, { description: 'model "auto" only: which candidate forecast each series, and why' });

const NodeForecast = (what: string) => Type.Record(Type.String(), Type.Array(Type.Number()), {
  description: `${what}: "mean" plus one array per requested quantile level, as a series' prediction`,
});

export const HierarchyNodeInfo = Type.Object({
  id: Type.String({ description: '"total", then the label values of the node\'s level joined with "/" ("north", "north/n1"); in the explicit form the ' +
    'aggregate\'s name, and a bottom node\'s `names[i]` or "series[i]"' }),
  level: Type.String({ description: '"total", the level\'s label names joined with "/" ("region/store"); explicit form: "aggregates/<depth>", "series"' }),
  parent: Type.Union([Type.String(), Type.Null()], { description: 'the id of the node it is part of; null at the top' }),
  series: Type.Array(Type.Integer(), { description: 'the input series it sums (a bottom node: its own)' }),
  index: Type.Array(Type.String(), { description: 'forecast dates' }),
  base: NodeForecast('the model\'s own forecast of the node'),
  reconciled: NodeForecast('the coherent forecast: a parent\'s mean is the sum of its children\'s'),
});

export const HierarchyInfo = Type.Object({
  method: Type.String({ description: 'the reconciliation used: the requested `reconcile`, or wls_struct where it needed in-sample residuals the model ' +
    'has not (see warnings)' }),
  intervals: Type.String({ description: 'the probabilistic reconciliation used (normality, bootstrap, permbu)' }),
  warnings: Type.Array(Type.String(), { description: 'fallbacks and their reasons' }),
  nodes: Type.Array(HierarchyNodeInfo, { description: 'every node top-down: the aggregates (total first), then one per input series in its order' }),
}, { description: 'with `hierarchy` only: every node\'s base and reconciled forecast (series[i] is input series i\'s reconciled one)' });

export const ForecastResponse = Type.Object({
  status: Type.Literal('completed'),
  model: Type.String({ description: 'the model id; "auto" for model "auto" (then `auto.series[i].model` is the model of series i)' }),
  model_size: Type.String(),
  series: Type.Array(Type.Array(SeriesPrediction), { description: 'series[i] holds the prediction of input series i (with a `hierarchy`: its reconciled ' +
    'forecast)' }),
  metrics: Type.Union([BacktestMetrics, Type.Null()], { description: 'null unless the request has `evaluation`' }),
  warnings: Type.Array(Warning),
  auto: Type.Optional(AutoInfo),
  prism: Type.Optional(PrismInfo),
  hierarchy: Type.Optional(HierarchyInfo),
}, { $id: 'ForecastResponse' });

export const ModelInfo = Type.Object({
  model_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  sizes: Type.Array(Type.String()),
  default_size: Type.String(),
  max_context: Type.Integer({ description: 'of the default size' }),
  max_horizon: Type.Integer({ description: 'of the default size' }),
  size_limits: Type.Record(Type.String(), Type.Object({ max_context: Type.Integer(), max_horizon: Type.Integer() })),
  supports_covariates: Type.Boolean(),
  covariates: Type.Object({ past: Type.Boolean(), future: Type.Boolean(), static: Type.Boolean() }),
  license: Type.Object({ id: Type.String(), name: Type.String(), commercial: Type.Boolean(), requires_opt_in: Type.Boolean(), accepted: Type.Boolean() }),
  available: Type.Boolean({ description: 'whether this deployment serves the model now; when false, unavailable_reason says why and how to enable it' }),
  unavailable_reason: Type.Optional(UnavailableReason),
  loaded: Type.Array(Type.String()),
  // a private (fine-tuned) model's own fields (docs/fine-tuning.md); only its account ever sees it
  private: Type.Optional(Type.Boolean({ description: 'a fine-tuned model of this account (DELETE /v1/models/{id} removes it)' })),
  base_model: Type.Optional(Type.String()),
  base_size: Type.Optional(Type.String()),
  job_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the fine-tuning job that made it' })),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  training: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'the training summary: series, steps, mode, learning_rate, horizon, ' +
    'validation_windows, validation_wql_before, validation_wql_after, losses, train_seconds, steps_per_second, device' })),
});
