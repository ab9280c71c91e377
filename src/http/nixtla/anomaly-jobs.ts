// jobs.detect_anomalies() (the SDK's async online detection) on Horizon's anomaly jobs: submit POST
// /v2/anomaly_detection/async (detect_anomalies_online's payload) → POST /v1/anomaly-jobs with detection_size →
// 202 {job_id}; poll GET /v2/anomaly_detection/jobs/{id} → GET /v1/anomaly-jobs/{id}, its result in the SDK's
// online shape; cancel through POST /v2/async/jobs/{id}/cancel (jobs.ts). The job is Horizon's own: validated and
// charged at submit, stored before the 202, chunked, retried; readable through /v1 too.
import type { App } from '../app-types.ts';
import { jsonResponse, problemResponses } from '../schemas.ts';
import { plainJsonSerializer } from '../json-serializer.ts';
import { HorizonError } from '../../errors.ts';
import { getJob } from '../../store/jobs.ts';
import { NixtlaJob, NixtlaJobAccepted, NixtlaJobParams, NixtlaOnlineAnomaliesRequest } from './schemas.ts';
import { JOB_STATUS, onlineAnomaliesAnswer } from './translate.ts';
import { callHorizon, sayModel, type NixtlaContext } from './common.ts';
import { onlineAnomaliesRequest, type OnlineAnomaliesBody } from './online-anomaly-detection.ts';

export function anomalyJobRoutes(app: App, ctx: NixtlaContext): void {
  app.post('/v2/anomaly_detection/async', {
    schema: {
      summary: 'Nixtla SDK: jobs.detect_anomalies() (POST /v1/anomaly-jobs with detection_size)', tags: ['nixtla'], body: NixtlaOnlineAnomaliesRequest,
      response: { 202: jsonResponse(NixtlaJobAccepted, 'Queued as a Horizon anomaly job'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502) },
    },
  }, async (request, reply) => {
    const { horizon } = onlineAnomaliesRequest(ctx, request, reply, request.body as OnlineAnomaliesBody, true);
    const { body } = await callHorizon(app, request, reply, 'POST', '/v1/anomaly-jobs', horizon);
    return reply.code(202).send({ job_id: body.job_id, status: 'pending' as const });
  });

  app.get('/v2/anomaly_detection/jobs/:id', {
    schema: {
      summary: 'Nixtla SDK: an anomaly detection job (GET /v1/anomaly-jobs/{id})', tags: ['nixtla'], params: NixtlaJobParams,
      response: { 200: jsonResponse(NixtlaJob, 'The job: `result` is what detect_anomalies_online answers, once succeeded'), ...problemResponses(401, 404) },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { body: job } = await callHorizon(app, request, reply, 'GET', `/v1/anomaly-jobs/${encodeURIComponent(id)}`);
    sayModel(ctx, reply, job.model);
    const status = JOB_STATUS[job.status];
    let result = null;
    if (status === 'succeeded') {
      // the answer's idxs count from the start of the SDK's `y`: the series lengths are the stored request's
      const row = await getJob(ctx.database.db, job.job_id);
      const stored = row?.request as { series: { target: unknown[] }[] } | undefined;
      if (!stored) throw new HorizonError('not_found', `no anomaly detection job "${id}" for this account`);
      result = onlineAnomaliesAnswer(job.result, stored.series.map((s) => s.target.length), 'univariate', job.result.level);
    }
    return { job_id: job.job_id, status, result, error: job.error ?? null };
  });
}
