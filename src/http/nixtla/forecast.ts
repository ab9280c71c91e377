import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { LargeBody } from '../large-body.ts';
import { answerInThread, forecastRequestInThread, largeAnswerBytes } from './large-bodies.ts';
import { NixtlaForecastRequest, NixtlaForecastResponse } from './schemas.ts';
import { FREQ_REASON, forecastAnswer, horizonFreq, levelBands, splitSeries, type LevelBand, type NixtlaSeries } from './translate.ts';
import { forecastColumns } from './columns.ts';
import { callHorizon, checkCovariates, finetuneMode, resolveModel, throwIfAny, unsupportedSettings, type NixtlaContext } from './common.ts';

export type ForecastBody = Static<typeof NixtlaForecastRequest> & { series: NixtlaSeries };

/** The SDK's forecast payload → POST /v1/forecast's body; every 422 at once, before anything is charged. `job`:
 * submitted as an async job (POST /v1/forecast-jobs). */
export function forecastRequest(
  ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: ForecastBody, job = false,
): { horizon: Record<string, unknown>; bands: LevelBand[] } {
  const errors = unsupportedSettings(body, 'forecast', job);
  const columns = body.series.X?.length ?? 0;
  const future = body.series.X_future?.length ?? 0;
  if (future > columns) errors.push({ field: 'series.X_future', reason: `${future} future columns but X has ${columns}: each future column is also one ` +
    `of X's first columns` });
  const sdkColumns = forecastColumns(columns, future);
  const model = resolveModel(ctx, request, reply, 'forecast', {
    requested: body.model, finetunedModelId: body.finetuned_model_id, columns: sdkColumns, finetuneSteps: body.finetune_steps,
    explain: body.feature_contributions === true && !job, needs: body.multivariate ? 'multivariate' : undefined,
  });
  const freq = horizonFreq(body.freq);
  if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
  const { bands, quantiles } = levelBands(body.level, errors);
  checkCovariates(ctx, model, body.model, sdkColumns, errors);
  throwIfAny(errors);
  const series = splitSeries(body.series, { freq: freq!, h: body.h, futureColumns: new Set(Array.from({ length: future }, (_, j) => j)) }, errors);
  throwIfAny(errors);
  // finetune_steps: /v1/forecast's inline fine-tuning (it names which models can be fine-tuned), in the mode of finetune_depth
  const finetune = (body.finetune_steps ?? 0) > 0 ? { finetune_steps: body.finetune_steps, finetune_mode: finetuneMode(body, []) } : {};
  // feature_contributions: /v1/forecast's explain (Shapley values per exogenous column; its 422s name feature_contributions)
  const explain = body.feature_contributions ? { explain: true } : {};
  // multivariate=True: /v1/forecast's joint forecast (it names the models that can, joint-and-samples.ts)
  const joint = body.multivariate ? { multivariate: true } : {};
  return { horizon: { series, horizon: body.h, freq, model, quantiles, ...finetune, ...explain, ...joint }, bands };
}

/** POST /nixtla/v2/forecast — NixtlaClient.forecast(): POST /v1/forecast, one quota unit. */
export function forecastRoute(app: App, ctx: NixtlaContext): void {
  app.post('/v2/forecast', {
    schema: {
      summary: 'Nixtla SDK: forecast (POST /v1/forecast)', tags: ['nixtla'], body: NixtlaForecastRequest,
      response: { 200: jsonResponse(NixtlaForecastResponse, 'The forecast as the SDK reads it: `mean` and `intervals` flat, ' +
        'series in the order sent'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504) },
    },
    serializerCompiler: plainJsonSerializer,
    // a large payload arrives as bytes (LargeBody) and is validated and translated in a forecast thread
    // (large-bodies.ts): the handler rethrows the schema's verdict for every other body, as Fastify would have
    attachValidation: true,
  }, async (request, reply) => {
    const large = request.body instanceof LargeBody ? request.body : undefined;
    if (!large && request.validationError) throw request.validationError;
    const translate = (body: unknown) => forecastRequest(ctx, request, reply, body as ForecastBody);
    const { horizon, bands } = large ? await forecastRequestInThread(ctx, request, reply, large, false, translate) : translate(request.body);
    const { body, raw } = await callHorizon(app, request, reply, 'POST', '/v1/forecast', horizon, { largeAnswerBytes: largeAnswerBytes(ctx) });
    if (!raw) return forecastAnswer(body, bands);
    reply.type('application/json; charset=utf-8');
    return (await answerInThread(ctx, request, raw, bands)).body as unknown as ReturnType<typeof forecastAnswer>;
  });
}
