// Wire schemas of fine-tuning (POST /v1/fine-tuning-jobs and its views) and of a private model's
// extra fields in GET /v1/models (docs/fine-tuning.md).
import { Type, type Static } from '@fastify/type-provider-typebox';
import { JobStatus } from './schemas.ts';

/** A private model's name: what `name` (and the SDK's output_model_id) may be. */
export const PRIVATE_MODEL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const FineTuningRequest = Type.Object({
  model: Type.String({ description: 'the base model: a catalog id whose family can be fine-tuned (chronos-2)' }),
  model_size: Type.Optional(Type.String({ description: 'a size of the base; default: its default_size' })),
  series: Type.Array(Type.Ref('InputSeries'), { minItems: 1, description: 'the training series, as in a forecast request (covariates included)' }),
  freq: Type.Union([Type.Literal('MS'), Type.Literal('D'), Type.Literal('W'), Type.Literal('H'), Type.Literal('Q'), Type.Literal('Y')]),
  horizon: Type.Integer({ minimum: 1, description: 'the horizon it is trained (and validated) for; at most the base\'s max_horizon' }),
  steps: Type.Optional(Type.Integer({ minimum: 1, description: 'optimiser steps (default 100; at most HORIZON_FINETUNE_MAX_STEPS); quota: one unit ' +
    'per started 100 steps' })),
  learning_rate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'default 1e-5 (full), 1e-4 (lora)' })),
  mode: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('lora')], { description: 'full fine-tuning (default) or LoRA (peft): a low-rank adapter ' +
    'is trained, then merged into the base weights for the installed private model' })),
  batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096, description: 'series per step (default 256, the library\'s)' })),
  validation_windows: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'the last validation_windows × horizon values of each series are ' +
    'held out of training and validate it (default 1)' })),
  name: Type.Optional(Type.String({ pattern: PRIVATE_MODEL_NAME.source, description: 'the account\'s name for the model (usable as `model`); ' +
    'default: its id ft-…' })),
}, { additionalProperties: false });
export type FineTuningBody = Static<typeof FineTuningRequest>;

export const FineTuningProgress = Type.Object({
  step: Type.Integer(), steps: Type.Integer(),
  loss: Type.Union([Type.Number(), Type.Null()]), validation_loss: Type.Union([Type.Number(), Type.Null()]),
}, { description: 'the training\'s last reported step, training loss and validation loss' });

export const TrainingSummary = Type.Object({
  series: Type.Integer(), steps: Type.Integer(), mode: Type.String(), learning_rate: Type.Number(), horizon: Type.Integer(), validation_windows: Type.Integer(),
  validation_wql_before: Type.Union([Type.Number(), Type.Null()], { description: 'WQL (0.1…0.9) of the base model on the held-out windows' }),
  validation_wql_after: Type.Union([Type.Number(), Type.Null()], { description: 'the same of the fine-tuned model' }),
  final_loss: Type.Union([Type.Number(), Type.Null()]), final_validation_loss: Type.Union([Type.Number(), Type.Null()]),
  train_seconds: Type.Number(), steps_per_second: Type.Union([Type.Number(), Type.Null()]), device: Type.String(),
});

export const FineTuningJob = Type.Object({
  job_id: Type.String(), status: JobStatus,
  model: Type.String({ description: 'the base model' }), model_size: Type.String(),
  model_id: Type.String({ description: 'the private model this job makes (ft-…)' }), name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Optional(Type.String({ format: 'date-time' })), finished_at: Type.Optional(Type.String({ format: 'date-time' })),
  attempts: Type.Integer(),
  progress: Type.Optional(FineTuningProgress),
  error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() })),
  summary: Type.Optional(TrainingSummary),
}, { additionalProperties: false });

export const FineTuningJobList = Type.Object({
  jobs: Type.Array(FineTuningJob),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const ModelIdParams = Type.Object({ id: Type.String() });

/** What GET /v1/models adds to a private model's entry. */
export const PrivateModelInfo = Type.Object({
  model_id: Type.String(), name: Type.String(), base_model: Type.String(), base_size: Type.String(),
  created_at: Type.String({ format: 'date-time' }), job_id: Type.Union([Type.String(), Type.Null()]),
  training: TrainingSummary,
  license: Type.Object({ id: Type.String(), name: Type.String(), commercial: Type.Boolean(), requires_opt_in: Type.Boolean(), accepted: Type.Boolean() }),
  available: Type.Boolean(),
});
