import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { AnomaliesRequest, AnomaliesResponse, problemResponses, jsonResponse, problemAnswer } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { planAnomalies, runAnomalies, type AnomaliesBody, type AnomaliesPlan } from '../../forecasting/anomalies.ts';
import { anomaliesCostMs, checkSyncBudget } from '../../forecasting/cost.ts';
import { syncBudgetMs } from '../../config.ts';

/** What a request over the sync budget can do instead, besides the job route (checkSyncBudget's sentence
 * names POST /v1/anomaly-jobs): in mode windows, score in-sample where it can, one fit per series. */
function overBudgetAdvice(plan: AnomaliesPlan): string | undefined {
  if (plan.mode !== 'windows') return undefined;
  return `mode "windows" fits the model once per scored timestep (${plan.windows.length} windows); `
    + 'mode "in-sample" (a statistical model, step 1) fits it once per series; or send the same body to POST /v1/anomaly-jobs: '
    + 'a job runs it in chunks that each fit the worker-call timeout, and GET /v1/anomaly-jobs/{job_id} shows its progress and result';
}

/** POST /v1/anomalies — scores each history against the band at `level` of its in-sample fit (mode
 * in-sample) or of rolling `step`-ahead forecasts (mode windows), flagging observations outside it
 * (src/forecasting/anomalies.ts). A request estimated above the synchronous budget is 413 use_job_api before
 * it is charged (src/forecasting/cost.ts). Charged one request; a 5xx gives it back. */
export const anomaliesCreate: Route = (app, deps) => {
  app.post('/v1/anomalies', {
    schema: {
      summary: 'Detect anomalies: the band of an in-sample fit or of rolling forecasts over each history', tags: ['forecast'],
      body: AnomaliesRequest,
      response: {
        200: jsonResponse(AnomaliesResponse,
          'Per series and scored timestep: the forecast, the band at `level`, the observation, whether it lies outside and a score'),
        ...problemResponses(400, 401, 403, 415, 422, 429, 500, 502, 503, 504),
        413: problemAnswer('The body is larger than the configured byte limit (payload_too_large, naming it), or the request\'s estimated model '
          + 'time is over the synchronous budget (use_job_api, HORIZON_SYNC_BUDGET_MS; nothing is charged; `detail` says what fits): '
          + 'send the same body to POST /v1/anomaly-jobs; mode "in-sample" fits once per series where "windows" fits once per timestep'),
      },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const plan = planAnomalies(request.body as AnomaliesBody, deps.registry, { pulls: deps.pulls, mode: 'sync', autoCandidates: deps.config.autoCandidates });
    // too much for one synchronous call: 413 use_job_api at once, nothing charged
    const estimateMs = anomaliesCostMs(deps.registry, plan, deps.config.cpuWorkers);
    checkSyncBudget(estimateMs, syncBudgetMs(deps.config), '/v1/anomaly-jobs', plan.body.series.length, overBudgetAdvice(plan));
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    return withRefundOn5xx(charge, () => runAnomalies(plan, deps.inference, deps.registry));
  });
};
