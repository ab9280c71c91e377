import { randomBytes, randomUUID } from 'node:crypto';
import type { Route } from '../app-types.ts';
import { problemResponses, jsonResponse } from '../schemas.ts';
import { FineTuningRequest, FineTuningJob, type FineTuningBody } from '../fine-tuning-schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeUnits, withRefundOn5xx } from '../charge.ts';
import { HorizonError, type FieldError } from '../../errors.ts';
import { insertJob } from '../../store/jobs.ts';
import { planForecast } from '../../forecasting/forecast.ts';
import { findModel } from '../../runtime/catalog.ts';
import { FINE_TUNABLE_ADAPTERS, type FineTuningJobRequest } from '../../jobs/fine-tuning-job.ts';
// a fine-tuning job is charged one unit per started STEPS_PER_UNIT (100) steps (docs/fine-tuning.md)
import { STEPS_PER_UNIT } from '../../forecasting/inline-fine-tuning.ts';
import { getPrivateModel } from '../../store/private-models.ts';
import { fineTuningJobView } from './fine-tuning-job-view.ts';

const DEFAULT_STEPS = 100;

/** POST /v1/fine-tuning-jobs — validates like a forecast (every 4xx before anything is stored or charged),
 * charges ceil(steps / 100) units, stores the job, then answers 202. The model it makes is the account's. */
export const fineTuningJobsCreate: Route = (app, deps) => {
  app.post('/v1/fine-tuning-jobs', {
    schema: {
      summary: 'Queue a fine-tuning job', tags: ['fine-tuning'],
      body: FineTuningRequest,
      response: { 202: { ...jsonResponse(FineTuningJob, 'Queued; poll the job at the Location header'), headers: { location: { type: 'string', description: '/v1/fine-tuning-jobs/{job_id}' } } }, ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429, 500) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as FineTuningBody;
    const maxSteps = deps.config.fineTuneMaxSteps ?? 10_000;
    const steps = body.steps ?? DEFAULT_STEPS;
    const errors: FieldError[] = [];
    const base = findModel(deps.registry.catalog, body.model);
    if (base && !FINE_TUNABLE_ADAPTERS.has(base.adapter)) {
      const supported = deps.registry.catalog.models.filter((m) => FINE_TUNABLE_ADAPTERS.has(m.adapter) && !m.id.startsWith('ft-')).map((m) => m.id);
      errors.push({ field: 'model', reason: `${body.model} cannot be fine-tuned (its library has no fine-tuning API; docs/fine-tuning.md); fine-tunable: ${supported.join(', ')}` });
    }
    if (steps > maxSteps) errors.push({ field: 'steps', reason: `at most ${maxSteps} steps (HORIZON_FINETUNE_MAX_STEPS), got ${steps}` });
    if (body.name !== undefined && (findModel(deps.registry.catalog, body.name) || body.name.startsWith('ft-') || body.name === 'auto')) {
      errors.push({ field: 'name', reason: `"${body.name}" is a model id already (catalog ids, "auto" and ft-… are reserved); choose another name` });
    }
    if (errors.length) throw new HorizonError('validation_failed', errors.map((e) => e.reason).join('; '), { errors });
    // the forecast's own checks: model and size served (a missing base is a 422 naming `horizon models pull`), freq grid, series, covariates
    const plan = planForecast({ model: body.model, model_size: body.model_size, series: body.series as never, freq: body.freq, horizon: body.horizon }, deps.registry, { mode: 'sync' });
    const windows = body.validation_windows ?? 1;
    const needed = (windows + 2) * plan.horizon;
    for (const [i, s] of plan.series.entries()) {
      if (s.target.length < needed) errors.push({ series: i, field: 'target', reason: `series ${i}: ${s.target.length} observations; fine-tuning for horizon ${plan.horizon} with ${windows} validation window(s) needs at least ${needed} ((validation_windows + 2) × horizon: the held-out windows, then a context and a target of one horizon each to train on)` });
    }
    if (errors.length) throw new HorizonError('validation_failed', errors.map((e) => e.reason).join('; '), { errors });
    const modelId = `ft-${randomBytes(12).toString('hex')}`;
    const name = body.name ?? modelId;
    if (body.name !== undefined && await getPrivateModel(deps.database.db, owner.accountId, body.name)) {
      throw new HorizonError('model_name_taken', `this account has a model named "${body.name}" already: delete it (DELETE /v1/models/{id}) or choose another name`);
    }
    const mode = body.mode ?? 'full';
    const job: FineTuningJobRequest = {
      name, freq: plan.freq,
      spec: {
        model: plan.model, size: plan.size, model_id: modelId, horizon: plan.horizon, steps, mode,
        learning_rate: body.learning_rate ?? (mode === 'lora' ? 1e-4 : 1e-5), validation_windows: windows, batch_size: body.batch_size,
        series: plan.series.map((s) => ({
          target: s.target, past_covariates: s.past_covariates, known_covariates: Object.keys(s.future_covariates), static_covariates: s.static_covariates,
        })),
      },
    };
    const charge = await chargeUnits(deps.database.db, owner.accountId, reply, Math.ceil(steps / STEPS_PER_UNIT));
    const row = await withRefundOn5xx(charge, async () => {
      await charge.persisted();
      const models = [{ model: plan.model, model_size: plan.size, model_id: modelId, name }];
      const stored = await insertJob(deps.database.db, { id: randomUUID(), accountId: owner.accountId, kind: 'fine-tuning', model: plan.model, models, request: job });
      await deps.queue.enqueue(stored.id, 'fine-tuning').catch((error: Error) => request.log.warn({ job_id: stored.id, err: error.message }, 'enqueue failed; reconciliation will deliver the job'));
      return stored;
    });
    return reply.code(202).header('location', `/v1/fine-tuning-jobs/${row.id}`).send(fineTuningJobView(row));
  });
};
