// TypeBox schemas of the payloads the Nixtla SDK (nixtla==0.9.0) sends to /nixtla: exactly its fields,
// unknown ones refused (a 422 naming them), so a parameter Horizon cannot honour is never ignored.
import { Type } from '@fastify/type-provider-typebox';

const Num = Type.Union([Type.Number(), Type.Null()]);
const Exog = Type.Array(Type.Array(Type.Union([Type.Number(), Type.String(), Type.Null()])));

export const NixtlaSeries = Type.Object({
  y: Type.Array(Num, { description: 'the values of every series, one after another (series in unique_id order); null = missing' }),
  sizes: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, description: 'values per series' }),
  X: Type.Optional(Type.Union([Exog, Type.Null()], { description: 'exogenous columns, each as long as y: the X_future columns first, then ' +
    'the historical ones' })),
  X_future: Type.Optional(Type.Union([Exog, Type.Null()], { description: 'forecast only: the future values of the first columns of X, h per series' })),
  start_datetime: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the first timestamp of each series (absent for ' +
    'integer time columns)' })),
  categorical_exog: Type.Optional(Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'not supported (422): Horizon\'s models ' +
    'take numeric covariates' })),
}, { additionalProperties: false });

/** What every task sends besides its own fields: TimeGPT's settings, accepted at their defaults only. */
const timegpt = {
  model: Type.String({ description: 'a Horizon model id (GET /nixtla/v2/models), "auto", or a TimeGPT name (timegpt-*, azureai), which means ' +
    'HORIZON_NIXTLA_DEFAULT_MODEL' }),
  freq: Type.String({ description: 'a pandas offset alias: h, D, W(-SUN …), MS/ME, QS/QE(-DEC …), YS/YE(-DEC …)' }),
  clean_ex_first: Type.Optional(Type.Boolean({ description: 'accepted; no effect (Horizon\'s models have no separate exogenous cleaning step)' })),
  finetune_steps: Type.Optional(Type.Integer({ minimum: 0, description: 'forecast: fine-tune on the request\'s own series first (POST /v1/forecast\'s ' +
    'finetune_steps: chronos-2, keeps nothing); 0 elsewhere' })),
  finetune_depth: Type.Optional(Type.Integer({ description: '1 only (Horizon\'s fine-tuning has no depth setting)' })),
  finetune_loss: Type.Optional(Type.String({ description: '"default" only (Horizon\'s fine-tuning trains on its own loss)' })),
  finetuned_model_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'the account\'s fine-tuned model (POST /v1/fine-tuning-jobs) to ' +
    'run instead of `model`' })),
  multivariate: Type.Optional(Type.Boolean({ description: 'forecast: true runs the series jointly (POST /v1/forecast\'s multivariate: chronos-2, toto-2, ' +
    'timesfm-3; a TimeGPT name runs the first served of them); elsewhere false only' })),
  model_parameters: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'null or {} only: TimeGPT settings ' +
    'without a Horizon equivalent' })),
  feature_contributions: Type.Optional(Type.Boolean({ description: 'forecast: each exogenous column\'s SHAP value per step (POST /v1/forecast ' +
    '`explain`); false elsewhere' })),
  feature_contributions_type: Type.Optional(Type.String({ description: '"shapley" only (Horizon\'s explanations are Shapley values)' })),
  job_options: Type.Optional(Type.Object({ timeout_seconds: Type.Optional(Type.Integer()) }, {
    description: 'async job submissions only, without timeout_seconds (a Horizon job has no timeout of its own): any other use is a 422',
    additionalProperties: false,
  })),
};

const Level = Type.Union([Type.Array(Type.Number()), Type.Null()], { description: 'central prediction intervals in percent, [0, 100); null: the mean only' });

export const NixtlaForecastRequest = Type.Object({
  series: NixtlaSeries,
  h: Type.Integer({ minimum: 1, description: 'steps to forecast' }),
  level: Type.Optional(Level),
  ...timegpt,
}, { additionalProperties: false });

export const NixtlaCrossValidationRequest = Type.Object({
  series: NixtlaSeries,
  h: Type.Integer({ minimum: 1 }),
  n_windows: Type.Optional(Type.Integer({ minimum: 1, description: 'rolling windows (Horizon: at most 20)' })),
  step_size: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'steps between windows; default h' })),
  refit: Type.Optional(Type.Boolean({ description: 'Horizon\'s cross-validation `refit`: true (default) fits each window on its history; false fits a ' +
    'statistical model once per series' })),
  hist_exog: Type.Optional(Type.Union([Type.Array(Type.Integer({ minimum: 0 })), Type.Null()], { description: 'the columns of X that are historical only ' +
    '(the others are known in the future)' })),
  full_history: Type.Optional(Type.Boolean({ description: 'forecast(add_history=True): in-sample forecasts over the history; Horizon picks the windows' })),
  level: Type.Optional(Level),
  ...timegpt,
}, { additionalProperties: false });

export const NixtlaAnomaliesRequest = Type.Object({
  series: NixtlaSeries,
  level: Type.Optional(Type.Number({ description: 'the band, in percent (Horizon: above 0, at most 99.99); default 99' })),
  ...timegpt,
}, { additionalProperties: false });

/** detect_anomalies_online() and jobs.detect_anomalies(): the last detection_size values of each series scored. */
export const NixtlaOnlineAnomaliesRequest = Type.Object({
  series: NixtlaSeries,
  h: Type.Integer({ minimum: 1, description: 'the horizon of TimeGPT\'s rolling windows; Horizon scores each value from its freshest forecast, one step ' +
    'before it (docs/nixtla.md)' }),
  detection_size: Type.Integer({ minimum: 1, description: 'values scored at the end of each series: POST /v1/anomalies\' detection_size' }),
  threshold_method: Type.String({ description: '"univariate": each series flagged outside its own band at `level`; "multivariate": a time step flagged ' +
    'across all series from their combined score' }),
  level: Type.Optional(Type.Number({ description: 'the band, in percent (Horizon: above 0, at most 99.99); default 99' })),
  step_size: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'steps between TimeGPT\'s windows (default h); Horizon ' +
    'rolls at every step' })),
  refit: Type.Optional(Type.Boolean({ description: 'fine-tuning per window: Horizon does not fine-tune in anomaly detection ' +
    '(finetune_steps 0), so no effect' })),
  hist_exog: Type.Optional(Type.Union([Type.Array(Type.Integer({ minimum: 0 })), Type.Null()], { description: 'the columns of X that are historical (all of ' +
    'them are, in anomaly detection)' })),
  ...timegpt,
}, { additionalProperties: false });

export const ModelParamsQuery = Type.Object({
  model: Type.String(),
  freq: Type.Optional(Type.String()),
}, { additionalProperties: false });

export const ModelParams = Type.Object({
  detail: Type.Object({
    input_size: Type.Integer({ description: 'values of history the model reads (the SDK sends at most this many, more with level)' }),
    horizon: Type.Integer({ description: 'the model\'s max_horizon' }),
  }),
  model: Type.String({ description: 'the Horizon model this name runs' }),
});

const Intervals = Type.Union([Type.Record(Type.String(), Type.Array(Num)), Type.Null()], { description: '"lo-<level>" and "hi-<level>" per level' });
const Warnings = Type.Array(Type.Unknown(), { description: 'Horizon\'s warnings (the SDK does not show them)' });

const FeatureContributions = Type.Union([Type.Array(Type.Array(Num)), Type.Null()], {
  description: 'with feature_contributions: per exogenous column (X\'s order) then the base value, one value per forecast row (series × h); null otherwise',
});

export const NixtlaForecastResponse = Type.Object({
  mean: Type.Array(Num), intervals: Intervals, weights_x: Type.Null(), feature_contributions: FeatureContributions,
  model: Type.String({ description: 'the Horizon model that forecast' }), warnings: Warnings,
});

export const NixtlaCrossValidationResponse = Type.Object({
  idxs: Type.Optional(Type.Array(Type.Integer(), { description: 'cross-validation: the position in y of each forecast value' })),
  sizes: Type.Array(Type.Integer(), { description: 'forecast values per series (in-sample: the tail of each series covered)' }),
  mean: Type.Array(Num), intervals: Intervals, weights_x: Type.Null(), feature_contributions: Type.Null(),
  model: Type.String(), warnings: Warnings,
});

export const NixtlaAnomaliesResponse = Type.Object({
  sizes: Type.Array(Type.Integer(), { description: 'scored values per series: the tail of each series' }),
  mean: Type.Array(Num), intervals: Intervals, anomaly: Type.Array(Type.Boolean()), weights_x: Type.Null(),
  model: Type.String(), warnings: Warnings,
});

export const NixtlaOnlineAnomaliesResponse = Type.Object({
  idxs: Type.Array(Type.Integer(), { description: 'the position in y of each scored value' }),
  sizes: Type.Array(Type.Integer(), { description: 'scored values per series: detection_size' }),
  mean: Type.Array(Num), anomaly: Type.Array(Type.Boolean()),
  anomaly_score: Type.Array(Num, { description: 'the standardised residual: (y - median) / σ, σ the band\'s half-width on that side ÷ z(level)' }),
  accumulated_anomaly_score: Type.Optional(Type.Array(Num, { description: 'multivariate: the time step\'s sum of squared anomaly scores over the ' +
    'series observed there' })),
  intervals: Intervals, weights_x: Type.Null(), model: Type.String(), warnings: Warnings,
});

/** NixtlaClient.finetune() / jobs.finetune(): the series (no exogenous columns), the base and TimeGPT's settings. */
export const NixtlaFinetuneRequest = Type.Object({
  series: NixtlaSeries,
  model: Type.String({ description: 'the base: a TimeGPT name (the fine-tunable model this deployment serves, chronos-2) or a Horizon model id' }),
  freq: timegpt.freq,
  finetune_steps: Type.Integer({ minimum: 0, description: 'optimiser steps (a fine-tuning job\'s `steps`; at least 1)' }),
  finetune_depth: Type.Optional(Type.Integer({ description: '1: LoRA (a low-rank adapter), 5: every weight (full); 2-4 have no equivalent (422)' })),
  finetune_loss: Type.Optional(Type.String({ description: '"default" only: Chronos-2 trains on its own quantile loss' })),
  output_model_id: Type.Optional(Type.Union([Type.String(), Type.Null()], {
    description: 'the private model\'s name (a fine-tuning job\'s `name`); default its id ft-…',
  })),
  finetuned_model_id: Type.Optional(Type.Union([Type.String(), Type.Null()], {
    description: 'null only: Horizon fine-tunes a catalog base, not a fine-tuned model',
  })),
  job_options: timegpt.job_options,
}, { additionalProperties: false });

export const NixtlaFinetuned = Type.Object({
  finetuned_model_id: Type.String({ description: 'the private model\'s name (its id ft-… unless output_model_id named it): usable as finetuned_model_id' }),
});

export const NixtlaFinetunedModel = Type.Object({
  id: Type.String({ description: 'the private model\'s name, as finetune() answered it' }),
  created_at: Type.String({ format: 'date-time' }),
  created_by: Type.String({ description: 'the account that owns it' }),
  base_model_id: Type.String({ description: 'the base model (chronos-2)' }),
  steps: Type.Integer(), depth: Type.Integer({ description: '1 (LoRA) or 5 (full)' }), loss: Type.Literal('default'),
  model: Type.String({ description: 'the base model' }),
  freq: Type.String({ description: 'the frequency it was trained on (empty for models made before it was recorded)' }),
  horizon_model_id: Type.String({ description: 'its Horizon id, ft-…' }),
  base_size: Type.String(),
}, { additionalProperties: false });

export const NixtlaFinetunedModels = Type.Object({ finetuned_models: Type.Array(NixtlaFinetunedModel) });

export const NixtlaJobAccepted = Type.Object({ job_id: Type.String(), status: Type.Literal('pending') });

export const NixtlaJob = Type.Object({
  job_id: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')]),
  result: Type.Union([Type.Unknown(), Type.Null()], { description: 'once succeeded: what the synchronous call answers' }),
  error: Type.Union([Type.Object({ code: Type.String(), detail: Type.String() }), Type.Null()]),
});

export const NixtlaJobParams = Type.Object({ id: Type.String() });
