import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@fastify/type-provider-typebox';
import type { App } from '../app-types.ts';
import type { FieldError } from '../../errors.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { DEFAULT_ANOMALY_LEVEL } from '../../forecasting/anomalies.ts';
import { NixtlaOnlineAnomaliesRequest, NixtlaOnlineAnomaliesResponse } from './schemas.ts';
import { FREQ_REASON, horizonFreq, onlineAnomaliesAnswer, splitSeries, type NixtlaSeries } from './translate.ts';
import { anomalyColumns } from './columns.ts';
import { callHorizon, checkCovariates, resolveModel, throwIfAny, unsupportedSettings, type NixtlaContext } from './common.ts';

export type OnlineAnomaliesBody = Static<typeof NixtlaOnlineAnomaliesRequest> & { series: NixtlaSeries };
export type ThresholdMethod = 'univariate' | 'multivariate';

/** The SDK's online payload → POST /v1/anomalies' body with detection_size, step 1: each of the last detection_size values
 * is scored from the forecast made one step before it. TimeGPT's h and step_size shape its rolling windows (h steps
 * each, every step_size); Horizon rolls at every step and takes each value's freshest forecast, the one step_size 1 gives
 * whatever h, so they do not change the answer (docs/nixtla.md). `job`: jobs.detect_anomalies(), which scores univariate only. */
export function onlineAnomaliesRequest(ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: OnlineAnomaliesBody, job: boolean) {
  const errors = unsupportedSettings(body, 'anomaly_detection', job);
  const method = thresholdMethod(body, job, errors);
  const sdkColumns = anomalyColumns(body.series.X?.length ?? 0);
  const model = resolveModel(
    ctx, request, reply, 'anomaly_detection', { requested: body.model, finetunedModelId: body.finetuned_model_id, columns: sdkColumns },
  );
  const freq = horizonFreq(body.freq);
  if (!freq) errors.push({ field: 'freq', reason: `"${body.freq}": ${FREQ_REASON}` });
  const level = body.level ?? DEFAULT_ANOMALY_LEVEL;
  if (!(level > 0 && level <= 99.99)) errors.push({ field: 'level', reason: `${level}: Horizon's band is a central interval above 0 and ` +
    `at most 99.99 percent` });
  checkCovariates(ctx, model, body.model, sdkColumns, errors);
  throwIfAny(errors);
  const series = splitSeries(body.series, { freq: freq!, futureColumns: new Set() }, errors);
  throwIfAny(errors);
  return { horizon: { series, freq, model, level, detection_size: body.detection_size, step: 1 }, method: method!, level };
}

/** threshold_method: univariate or multivariate; multivariate combines the series per time step, so (as the SDK documents)
 * every series has the same length, and here the same first date; a job scores univariate only. */
function thresholdMethod(body: OnlineAnomaliesBody, job: boolean, errors: FieldError[]): ThresholdMethod | undefined {
  const method = body.threshold_method;
  if (method !== 'univariate' && method !== 'multivariate') {
    errors.push({ field: 'threshold_method', reason: `${JSON.stringify(method)}: "univariate" (each series against its own band) or "multivariate" (a time ` +
      `step across all series)` });
    return undefined;
  }
  if (method === 'univariate') return method;
  if (job) {
    errors.push({ field: 'threshold_method', reason: '"multivariate": jobs.detect_anomalies() runs on POST /v1/anomaly-jobs, whose result ' +
      'keeps no cross-series '
      + 'threshold; call detect_anomalies_online(threshold_method="multivariate") (synchronous), or submit with "univariate"' });
  }
  const { sizes, start_datetime: starts } = body.series;
  if (new Set(sizes).size > 1) {
    errors.push({ field: 'series.sizes', reason: `threshold_method "multivariate" combines the series' scores at each time step, so every series must have `
      + `the same length (the SDK's own rule); the lengths are ${[...new Set(sizes)].join(', ')}` });
  } else if (starts && new Set(starts).size > 1) {
    errors.push({ field: 'series.start_datetime', reason: 'threshold_method "multivariate" combines the series\' scores at each time step, ' +
      'so every series must '
      + `cover the same time steps; the first dates differ (${[...new Set(starts)].slice(0, 3).join(', ')}${new Set(starts).size > 3 ? ', …' : ''})` });
  }
  return method;
}

/** POST /nixtla/v2/online_anomaly_detection — NixtlaClient.detect_anomalies_online(): POST /v1/anomalies with
 * detection_size (one quota unit); the SDK gets each series' last detection_size values, flagged by threshold_method. */
export function onlineAnomalyDetectionRoute(app: App, ctx: NixtlaContext): void {
  app.post('/v2/online_anomaly_detection', {
    schema: {
      summary: 'Nixtla SDK: detect_anomalies_online (POST /v1/anomalies with detection_size)', tags: ['nixtla'], body: NixtlaOnlineAnomaliesRequest,
      response: {
        200: jsonResponse(NixtlaOnlineAnomaliesResponse, 'The last detection_size values of each series, scored, as the SDK reads them'),
        ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504),
      },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const body = request.body as OnlineAnomaliesBody;
    const { horizon, method, level } = onlineAnomaliesRequest(ctx, request, reply, body, false);
    const { body: result } = await callHorizon(app, request, reply, 'POST', '/v1/anomalies', horizon);
    return onlineAnomaliesAnswer(result, body.series.sizes, method, level);
  });
}
