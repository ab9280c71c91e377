import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { findModel } from '../../runtime/catalog.ts';
import { NixtlaCrossValidationRequest, NixtlaCrossValidationResponse } from './schemas.ts';
import {
  FREQ_REASON, crossValidationAnswer, horizonFreq, inSampleAnswer, inSampleWindows, levelBands, splitSeries, type LevelBand, type NixtlaSeries,
} from './translate.ts';
import { crossValidationColumns } from './columns.ts';
import { callHorizon, checkCovariates, finetuneMode, resolveModel, throwIfAny, unsupportedSettings, type NixtlaContext } from './common.ts';
import { fineTunedCrossValidation, type FineTunedCrossValidation } from './finetuned-cv.ts';
import type { FieldError } from '../../errors.ts';

export type CrossValidationBody = Static<typeof NixtlaCrossValidationRequest> & { series: NixtlaSeries };

export interface CrossValidationCall {
  horizon: Record<string, unknown>;
  bands: LevelBand[];
  /** full_history (forecast(add_history=True)): in-sample windows chosen here, answered as the tail of each series */
  inSample: boolean;
  h: number;
  /** finetune_steps: every window fine-tuned on its history (finetuned-cv.ts), in the mode of finetune_depth */
  finetune?: FineTunedCrossValidation;
}

/** The SDK's cross-validation payload → POST /v1/cross-validation's body (one model: one quota unit). `job`:
 * submitted as an async job (POST /v1/cross-validation-jobs). */
export function crossValidationRequest(
  ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: CrossValidationBody, job = false,
): CrossValidationCall {
  const errors = unsupportedSettings(body, 'cross_validation', job);
  const columns = body.series.X?.length ?? 0;
  // hist_exog: the historical-only columns of X; the others are known in the future (each window takes their history)
  const hist = new Set(body.hist_exog ?? []);
  for (const j of hist) if (j >= columns) errors.push({ field: 'hist_exog', reason: `column ${j} is not one of X's ${columns} columns` });
  const future = new Set(Array.from({ length: columns }, (_, j) => j).filter((j) => !hist.has(j)));
  const sdkColumns = crossValidationColumns(columns, body.hist_exog ?? []);
  const steps = body.finetune_steps ?? 0;
  const model = resolveModel(ctx, request, reply, 'cross_validation', {
    requested: body.model, finetunedModelId: body.finetuned_model_id, columns: sdkColumns, finetuneSteps: steps,
  });
  if (steps > 0) refuseFineTunedCrossValidation(body, job, errors);
  const freq = horizonFreq(body.freq);
  if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
  const { bands, quantiles } = levelBands(body.level, errors);
  checkCovariates(ctx, model, body.model, sdkColumns, errors);
  throwIfAny(errors);
  const series = splitSeries(body.series, { freq: freq!, futureColumns: future, futureFromHistory: true }, errors);
  throwIfAny(errors);
  if (body.full_history) {
    const entry = findModel(ctx.registry.catalog, model);
    const maxHorizon = entry ? entry.sizes[ctx.registry.defaultSize(entry)]?.max_horizon ?? 1 : 1;
    const { horizon, n_windows } = inSampleWindows(body.series.sizes, ctx.registry.catalog.season_length[freq!], maxHorizon);
    // in-sample values are the fitted model's: one fit per series where the model allows (refit false)
    return { horizon: { series, horizon, freq, models: [model], n_windows, step: horizon, refit: false, quantiles }, bands, inSample: true, h: horizon };
  }
  const step = body.step_size ?? body.h;
  const nWindows = body.n_windows ?? 1;
  const horizon = { series, horizon: body.h, freq, models: [model], n_windows: nWindows, step, refit: body.refit ?? true, quantiles };
  if (steps === 0) return { horizon, bands, inSample: false, h: body.h };
  const finetune = {
    series, horizon: body.h, freq: freq!, model, n_windows: nWindows, step, quantiles, finetune_steps: steps, finetune_mode: finetuneMode(body, []),
  };
  return { horizon, bands, inSample: false, h: body.h, finetune };
}

/** What of TimeGPT's fine-tuned cross-validation Horizon has no way to run: a 422 naming each, with what does it. */
function refuseFineTunedCrossValidation(body: CrossValidationBody, job: boolean, errors: FieldError[]): void {
  const keep = 'finetune() once, then cross_validation(finetuned_model_id=<its id>)';
  const steps = `${body.finetune_steps}: `;
  if (body.full_history) errors.push({ field: 'finetune_steps', reason: `${steps}in-sample forecasts (add_history) are not fine-tuned; ${keep}` });
  else if (job) errors.push({
    field: 'finetune_steps', reason: `${steps}a fine-tuned cross-validation runs synchronously (a fine-tuning per window); as a job: ${keep}`,
  });
  else if (body.refit === false) {
    const why = 'Horizon fine-tunes each window on its own history and keeps nothing; one fine-tuned model for every window:';
    errors.push({ field: 'refit', reason: `false: ${why} ${keep}` });
  }
}

/** POST /nixtla/v2/cross_validation — NixtlaClient.cross_validation() and forecast(add_history=True)'s
 * in-sample call: POST /v1/cross-validation, one quota unit. */
export function crossValidationRoute(app: App, ctx: NixtlaContext): void {
  app.post('/v2/cross_validation', {
    schema: {
      summary: 'Nixtla SDK: cross-validation (POST /v1/cross-validation)', tags: ['nixtla'], body: NixtlaCrossValidationRequest,
      response: { 200: jsonResponse(NixtlaCrossValidationResponse, 'The windows as the SDK reads them: `idxs` into its `y`, `sizes` per series, `mean` ' +
        'and `intervals` flat'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const body = request.body as CrossValidationBody;
    const call = crossValidationRequest(ctx, request, reply, body);
    const result = call.finetune
      ? await fineTunedCrossValidation(app, request, reply, call.finetune)
      : (await callHorizon(app, request, reply, 'POST', '/v1/cross-validation', call.horizon)).body;
    return call.inSample ? inSampleAnswer(result, body.series.sizes, call.h, call.bands) : crossValidationAnswer(result, body.series.sizes, call.h, call.bands);
  });
}
