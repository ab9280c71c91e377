// The rules of a fine-tuning job's request (POST /v1/fine-tuning-jobs; the Nixtla SDK's finetune goes through
// it): a base whose family fine-tunes, the step cap, a name that is no model id and not the account's already,
// enough history per series for the held-out windows, and the forecast's own checks (planForecast). What the
// job then stores is planned here too; the route only charges, stores and answers. The job that runs it is
// jobs/fine-tuning-job.ts; inline fine-tuning of one forecast request (nothing kept) is inline-fine-tuning.ts.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { HorizonError, type FieldError } from '../errors.ts';
import { findModel } from '../runtime/catalog.ts';
import type { FineTuneSpec } from '../runtime/fine-tuning.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { Schema } from '../store/database.ts';
import { getPrivateModel } from '../store/private-models.ts';
import { planForecast } from './forecast.ts';
import { FINE_TUNABLE_ADAPTERS, STEPS_PER_UNIT } from './inline-fine-tuning.ts';
import type { ForecastRequestBody } from './normalize.ts';

const DEFAULT_STEPS = 100;
/** HORIZON_FINETUNE_MAX_STEPS when the deployment sets none. */
export const DEFAULT_MAX_STEPS = 10_000;

/** POST /v1/fine-tuning-jobs' body (its schema: http/fine-tuning-schemas.ts). */
export interface FineTuningJobBody extends Pick<ForecastRequestBody, 'freq' | 'horizon' | 'model_size'> {
  model: string;
  /** InputSeries, as the route's schema checks them (its $ref leaves them unknown to TypeScript) */
  series: unknown[];
  steps?: number;
  learning_rate?: number;
  mode?: 'full' | 'lora';
  batch_size?: number;
  validation_windows?: number;
  name?: string;
}

/** What the job stores (jobs/fine-tuning-job.ts's FineTuningJobRequest) and what it is charged. */
export interface FineTuningJobPlan {
  spec: FineTuneSpec;
  /** the account's name for the model: the body's, else its id ft-… */
  name: string;
  freq: string;
  /** quota units: one per started STEPS_PER_UNIT steps */
  units: number;
}

/** Every 422 of the body at once (before anything is stored or charged), then the job's spec with a new model id. */
export function planFineTuningJob(body: FineTuningJobBody, registry: ModelRegistry, maxSteps = DEFAULT_MAX_STEPS): FineTuningJobPlan {
  const steps = body.steps ?? DEFAULT_STEPS;
  throwIfAny(requestErrors(body, steps, registry, maxSteps));
  // the forecast's own checks: model and size served (a missing base is a 422 naming `horizon models pull`), freq grid, series, covariates
  const series = body.series as ForecastRequestBody['series'];
  const forecast = { model: body.model, model_size: body.model_size, series, freq: body.freq, horizon: body.horizon };
  const plan = planForecast(forecast, registry, { mode: 'sync' });
  const windows = body.validation_windows ?? 1;
  const needed = (windows + 2) * plan.horizon;
  throwIfAny(plan.series.flatMap((s, i): FieldError[] => s.target.length >= needed ? [] : [{
    series: i, field: 'target',
    reason: `series ${i}: ${s.target.length} observations; fine-tuning for horizon ${plan.horizon} with ${windows} validation window(s) needs at least `
      + `${needed} ((validation_windows + 2) × horizon: the held-out windows, then a context and a target of one horizon each to train on)`,
  }]));
  const modelId = `ft-${randomBytes(12).toString('hex')}`;
  const mode = body.mode ?? 'full';
  const spec: FineTuneSpec = {
    model: plan.model, size: plan.size, model_id: modelId, horizon: plan.horizon, steps, mode,
    learning_rate: body.learning_rate ?? (mode === 'lora' ? 1e-4 : 1e-5), validation_windows: windows, batch_size: body.batch_size,
    series: plan.series.map((s) => ({
      target: s.target, past_covariates: s.past_covariates, known_covariates: Object.keys(s.future_covariates), static_covariates: s.static_covariates,
    })),
  };
  return { spec, name: body.name ?? modelId, freq: plan.freq, units: Math.ceil(steps / STEPS_PER_UNIT) };
}

/** 409 model_name_taken when the account has a model of that name already. */
export async function checkModelNameFree(db: Kysely<Schema>, accountId: string, name: string | undefined): Promise<void> {
  if (name === undefined || !await getPrivateModel(db, accountId, name)) return;
  throw new HorizonError('model_name_taken', `this account has a model named "${name}" already: delete it (DELETE /v1/models/{id}) or choose another name`);
}

function requestErrors(body: FineTuningJobBody, steps: number, registry: ModelRegistry, maxSteps: number): FieldError[] {
  const errors: FieldError[] = [];
  const base = findModel(registry.catalog, body.model);
  if (base && !FINE_TUNABLE_ADAPTERS.has(base.adapter)) {
    const supported = registry.catalog.models.filter((m) => FINE_TUNABLE_ADAPTERS.has(m.adapter) && !m.id.startsWith('ft-')).map((m) => m.id);
    const reason = `${body.model} cannot be fine-tuned (its library has no fine-tuning API; docs/fine-tuning.md); fine-tunable: ${supported.join(', ')}`;
    errors.push({ field: 'model', reason });
  }
  if (steps > maxSteps) errors.push({ field: 'steps', reason: `at most ${maxSteps} steps (HORIZON_FINETUNE_MAX_STEPS), got ${steps}` });
  if (body.name !== undefined && (findModel(registry.catalog, body.name) || body.name.startsWith('ft-') || body.name === 'auto')) {
    errors.push({ field: 'name', reason: `"${body.name}" is a model id already (catalog ids, "auto" and ft-… are reserved); choose another name` });
  }
  return errors;
}

function throwIfAny(errors: FieldError[]): void {
  if (errors.length) throw new HorizonError('validation_failed', errors.map((e) => e.reason).join('; '), { errors });
}
