// Inline fine-tuning of one forecast request (`finetune_steps` on POST /v1/forecast, TimeGPT's pattern):
// the model is fine-tuned on the request's own series (all of their history: nothing is held out), the
// trained pipeline forecasts them in the same fine-tuning process, and nothing is kept — no model
// directory, no row, nothing loaded in a worker. The answer is shaped by the forecast's own code
// (runForecast with the fine-tuning process's predictions in place of a worker's).
// Two layers, one feature: this module is the rules and the run (forecasting); the route's branch that
// validates, charges and answers is src/http/inline-fine-tuning.ts.
import { randomBytes } from 'node:crypto';
import { HorizonError, type FieldError } from '../errors.ts';
import { findModel } from '../runtime/catalog.ts';
import type { FineTuner } from '../runtime/fine-tuning.ts';
import type { InferenceClient, InferRequest, InferResponse } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { runForecast, type ForecastPlan, type ForecastResult } from './forecast.ts';

/** The families whose library fine-tunes (docs/fine-tuning.md). */
export const FINE_TUNABLE_ADAPTERS = new Set(['chronos-2']);
/** Training steps per quota unit (fine-tuning jobs and inline fine-tuning alike). */
export const STEPS_PER_UNIT = 100;

/** 422s of `finetune_steps` on a planned forecast (every one before anything is charged). */
export function checkInlineFineTuning(plan: ForecastPlan, steps: number, maxSteps: number, registry: ModelRegistry): void {
  const errors: FieldError[] = [];
  const model = findModel(registry.catalog, plan.model);
  if (!model || !FINE_TUNABLE_ADAPTERS.has(model.adapter)) {
    errors.push({ field: 'finetune_steps', reason: `${plan.model} cannot be fine-tuned (docs/fine-tuning.md); ` +
      `fine-tunable: ${registry.catalog.models.filter((m) => FINE_TUNABLE_ADAPTERS.has(m.adapter) && !m.id.startsWith('ft-')).map((m) => m.id).join(', ')}` });
  }
  if (steps > maxSteps) errors.push({ field: 'finetune_steps', reason: `at most ${maxSteps} steps inline (HORIZON_FINETUNE_INLINE_MAX_STEPS); more: POST ` +
    `/v1/fine-tuning-jobs, got ${steps}` });
  if (plan.backtest) errors.push({ field: 'evaluation', reason: 'evaluation and finetune_steps do not go together (the backtest would score a model trained ' +
    'on its own hold-out)' });
  for (const [i, s] of plan.series.entries()) {
    if (s.target.length < 2 * plan.horizon) errors.push({ series: i, field: 'target', reason: `series ${i}: ${s.target.length} observations; fine-tuning for ` +
      `horizon ${plan.horizon} needs at least ${2 * plan.horizon} (a context and a target of one horizon each)` });
  }
  if (errors.length) throw new HorizonError('validation_failed', errors.map((e) => e.reason).join('; '), { errors });
}

/** Fine-tunes on the plan's series, forecasts them with the result, keeps nothing. `signal`: the client went away. */
export async function runInlineFineTuned(
  plan: ForecastPlan,
  options: { steps: number; learningRate?: number; mode?: 'full' | 'lora'; tuner: FineTuner; registry: ModelRegistry; requestId: string; signal: AbortSignal },
): Promise<ForecastResult> {
  const levels = [...new Set(plan.quantiles)].sort((a, b) => a - b);
  const summary = await options.tuner.run(options.requestId, {
    model: plan.model, size: plan.size, model_id: `ft-${randomBytes(12).toString('hex')}`, horizon: plan.horizon, steps: options.steps,
    // the defaults of a fine-tuning job's modes (POST /v1/fine-tuning-jobs)
    learning_rate: options.learningRate ?? (options.mode === 'lora' ? 1e-4 : 1e-5), mode: options.mode ?? 'full',
    validation_windows: 0, install: false, forecast_quantiles: levels,
    series: plan.series.map((s) => ({
      target: s.target, past_covariates: s.past_covariates, known_covariates: Object.keys(s.future_covariates),
      static_covariates: s.static_covariates, future_covariates: s.future_covariates,
    })),
  }, () => undefined, options.signal, { wait: false });
  const predictions = summary.predictions ?? [];
  const answer: InferResponse = {
    model: plan.model, size: plan.size,
    predictions: predictions.map((p) => ({ mean: p.mean, quantiles: Object.fromEntries(levels.map((q, row) => [String(q), p.quantiles[row]])) })),
    warnings: predictions.flatMap((p, i) => p.warnings.map((w) => `series ${i}: ${w}`)),
    timing: { train_ms: Math.round(summary.train_seconds * 1e3) },
  };
  // the forecast's own shaping (contract, quantiles, dates, warnings) on the fine-tuning process's answer
  const fromFineTuning = { infer: async (_group: string, _request: InferRequest) => answer } as unknown as InferenceClient;
  const result = await runForecast(fromFineTuning, options.registry, plan);
  return { ...result, warnings: [...result.warnings, { field: 'finetune_steps', message: `${plan.model} was fine-tuned on this request's series ` +
    `for ${options.steps} steps (final training loss ${summary.final_loss ?? 'not reported'}); nothing was kept` }] };
}
