// POST /v1/forecast with `finetune_steps` (TimeGPT's inline fine-tuning): the route's branch for it.
// Validated like any forecast plus the fine-tuning checks (every 4xx before the charge), charged one
// unit for the forecast and one per started 100 training steps, run in a fine-tuning process that keeps
// nothing (src/forecasting/inline-fine-tuning.ts). A client that goes away stops the training.
// Two layers, one feature: this is the route's branch (http); the rules and the run are
// src/forecasting/inline-fine-tuning.ts's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './app-types.ts';
import { chargeUnits, withRefundOn5xx } from './charge.ts';
import { clientGoneSignal } from './client-gone.ts';
import { HorizonError } from '../errors.ts';
import { planForecast, type ForecastResult } from '../forecasting/forecast.ts';
import { isAuto, rejectAutoFields, type AutoBody } from '../forecasting/auto.ts';
import { PRISM_ID } from '../forecasting/prism.ts';
import { checkInlineFineTuning, runInlineFineTuned, STEPS_PER_UNIT } from '../forecasting/inline-fine-tuning.ts';

/** The forecast request's inline fine-tuning fields (ForecastRequest in schemas.ts). */
export interface InlineFineTuningFields { finetune_steps?: number; finetune_learning_rate?: number; finetune_mode?: 'full' | 'lora' }

export async function forecastFineTuned(
  deps: AppContext, request: FastifyRequest, reply: FastifyReply, body: AutoBody & InlineFineTuningFields, accountId: string,
): Promise<ForecastResult> {
  const steps = body.finetune_steps!;
  if (isAuto(body.model, deps.registry) || body.model === PRISM_ID || !deps.fineTuning) {
    const reason = deps.fineTuning ? `finetune_steps needs one fine-tunable model (chronos-2), ` +
      `not "${body.model}"` : 'fine-tuning is not enabled on this deployment';
    throw new HorizonError('validation_failed', reason, { errors: [{ field: 'finetune_steps', reason }] });
  }
  rejectAutoFields(body);
  const plan = planForecast(body as Parameters<typeof planForecast>[0], deps.registry, { pulls: deps.pulls, mode: 'sync' });
  checkInlineFineTuning(plan, steps, deps.config.fineTuneInlineMaxSteps ?? 200, deps.registry);
  const charge = await chargeUnits(deps.database.db, accountId, reply, 1 + Math.ceil(steps / STEPS_PER_UNIT));
  // the client gone (also the /nixtla client this request was made for: client-gone.ts) stops the training
  const gone = clientGoneSignal(request, reply);
  return withRefundOn5xx(charge, () => runInlineFineTuned(plan, {
    steps, learningRate: body.finetune_learning_rate, mode: body.finetune_mode,
    tuner: deps.fineTuning!.tuner, registry: deps.registry, requestId: request.id, signal: gone,
  }));
}
