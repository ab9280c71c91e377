import type { Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { DEFAULT_ANOMALY_LEVEL } from '../../forecasting/anomalies.ts';
import { NixtlaAnomaliesRequest, NixtlaAnomaliesResponse } from './schemas.ts';
import { FREQ_REASON, anomaliesAnswer, horizonFreq, splitSeries, type NixtlaSeries } from './translate.ts';
import { anomalyColumns } from './columns.ts';
import { callHorizon, checkCovariates, resolveModel, throwIfAny, unsupportedSettings, type NixtlaContext } from './common.ts';

type AnomaliesBody = Static<typeof NixtlaAnomaliesRequest> & { series: NixtlaSeries };

/** POST /nixtla/v2/anomaly_detection — NixtlaClient.detect_anomalies() (batch, over the history):
 * POST /v1/anomalies (rolling one-step forecasts, flagged outside the band at `level`), one quota unit.
 * The SDK gets each series' scored tail: `sizes`, the forecast as `mean`, the band as `intervals`, `anomaly`. */
export function anomalyDetectionRoute(app: App, ctx: NixtlaContext): void {
  app.post('/v2/anomaly_detection', {
    schema: {
      summary: 'Nixtla SDK: detect_anomalies (POST /v1/anomalies)', tags: ['nixtla'], body: NixtlaAnomaliesRequest,
      response: {
        200: jsonResponse(NixtlaAnomaliesResponse, 'The scored tail of each series as the SDK reads it'),
        ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504),
      },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const body = request.body as AnomaliesBody;
    const errors = unsupportedSettings(body, 'anomaly_detection');
    // every exogenous column of an anomaly request is historical (the SDK sends no future values)
    const sdkColumns = anomalyColumns(body.series.X?.length ?? 0);
    const model = resolveModel(ctx, request, reply, 'anomaly_detection', {
      requested: body.model, finetunedModelId: body.finetuned_model_id, columns: sdkColumns,
    });
    const freq = horizonFreq(body.freq);
    if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
    const level = body.level ?? DEFAULT_ANOMALY_LEVEL;
    if (!(level > 0 && level <= 99.99)) errors.push({ field: 'level', reason: `${level}: Horizon's band is a central interval above 0 and ` +
      `at most 99.99 percent` });
    checkCovariates(ctx, model, body.model, sdkColumns, errors);
    throwIfAny(errors);
    const series = splitSeries(body.series, { freq: freq!, futureColumns: new Set() }, errors);
    throwIfAny(errors);
    const { body: result } = await callHorizon(app, request, reply, 'POST', '/v1/anomalies', { series, freq, model, level });
    return anomaliesAnswer(result, String(level));
  });
}
