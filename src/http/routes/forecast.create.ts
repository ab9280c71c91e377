import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { ForecastRequest, ForecastResponse, problemResponses, jsonResponse, syncOnlyResponses } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeRequest, withRefundOn5xx } from '../charge.ts';
import { forecastBytes, planForecast, runForecast, serverTiming } from '../../forecasting/forecast.ts';
import { isAuto, planAuto, rejectAutoFields, runAuto, type AutoBody } from '../../forecasting/auto.ts';
import { autoCostMs, checkExplainBudget, checkSyncBudget, forecastCostMs } from '../../forecasting/cost.ts';
import { checkExplainModel, explainEvaluations } from '../../forecasting/explain.ts';
import { RequestValidationError } from '../../forecasting/normalize.ts';
import { syncBudgetMs } from '../../config.ts';
import { LargeBody, planInThread, runPlanned } from '../large-forecast.ts';
import { seriesRefsHook, storeSyncForecasts } from '../series-refs.ts';
import { DEFAULT_QUANTILES, MIN_REQUEST_OBSERVED } from '../../forecasting/normalize.ts';
import { forecastFineTuned } from '../inline-fine-tuning.ts';
import { refuseJointAndSamples } from '../../forecasting/joint-and-samples.ts';
import { rejectReconcileFields, type HierarchyBody } from '../../forecasting/hierarchy.ts';
import { forecastHierarchy } from '../hierarchy-forecast.ts';

/** POST /v1/forecast — synchronous forecast; one quota unit, refunded on a 5xx. The Server-Timing
 * header carries the worker's load, queue and infer milliseconds (load 0: the model was warm).
 * `model: "auto"` cross-validates candidates and forecasts each series with its winner (src/forecasting/auto.ts), also one unit.
 * A request estimated above the synchronous budget is 413 use_job_api before it is charged (src/forecasting/cost.ts). */
export const forecastCreate: Route = (app, deps) => {
  app.post('/v1/forecast', {
    schema: {
      summary: 'Forecast now', tags: ['forecast'],
      body: ForecastRequest,
      response: { 200: jsonResponse(ForecastResponse, 'The forecast: `series[i][0]` is the ' +
        'prediction of input series i'), ...problemResponses(
          400, 401, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504,
        ), ...syncOnlyResponses('/v1/forecast-jobs') },
    },
    serializerCompiler: plainJsonSerializer,
    // a large body arrives as bytes (LargeBody, large-forecast.ts) and is validated in a forecast thread:
    // the handler rethrows the schema's verdict for every other body, as Fastify would have
    attachValidation: true,
    // series_ids (stored series) become inline series before the schema check (series-refs.ts)
    preValidation: seriesRefsHook(deps),
  }, async (request, reply) => {
    let body = request.body as AutoBody;
    if (request.body instanceof LargeBody) {
      const read = await planInThread(deps, request.body, deps.config);
      if (read.kind === 'planned') return await runPlanned(deps, read, request, reply) as unknown as Awaited<ReturnType<typeof runForecast>>;
      body = read.body as AutoBody; // auto, prism or a backtest: the loop's path on the parsed body (its schema is checked)
    } else if (request.validationError) {
      throw request.validationError;
    }
    const owner = ownerOf(request);
    // a hierarchy: every node forecast with the model, then reconciled (src/http/hierarchy-forecast.ts)
    if ((body as HierarchyBody).hierarchy !== undefined) return forecastHierarchy(deps, request, reply, body as HierarchyBody);
    rejectReconcileFields(body as HierarchyBody);
    const explain = (body as { explain?: boolean }).explain === true;
    if (explain) refuseExplainWith(body as { finetune_steps?: number });
    // finetune_steps: fine-tune on these series, forecast, keep nothing (src/http/inline-fine-tuning.ts)
    // multivariate / samples need one model that does them (joint-and-samples.ts): not a fine-tuning, not auto
    if ((body as { finetune_steps?: number }).finetune_steps) refuseJointAndSamples(body, 'inline fine-tuning forecasts each series on its own', deps.registry);
    if (isAuto(body.model, deps.registry)) refuseJointAndSamples(body, 'model "auto" picks among models that may not', deps.registry);
    if ((body as { finetune_steps?: number }).finetune_steps) return forecastFineTuned(deps, request, reply, body, owner.accountId);
    if (isAuto(body.model, deps.registry)) {
      if (explain) checkExplainModel(deps.registry, 'auto');
      const auto = planAuto(
        body, deps.registry, { candidates: deps.config.autoCandidates, windows: deps.config.autoWindows, refit: deps.config.autoRefit },
        { pulls: deps.pulls, mode: 'sync' },
      );
      // too much for one synchronous call: 413 use_job_api at once, nothing charged (src/forecasting/cost.ts)
      checkSyncBudget(autoCostMs(deps.registry, auto, deps.config.cpuWorkers), syncBudgetMs(deps.config), '/v1/forecast-jobs', body.series.length);
      const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
      return withRefundOn5xx(charge, async () => {
        const result = await runAuto(auto, deps.inference, deps.registry);
        await storeSyncForecasts(deps, request, { horizon: body.horizon, quantiles: body.quantiles ?? [...DEFAULT_QUANTILES], context: body.context }, result);
        return result;
      });
    }
    rejectAutoFields(body);
    const plan = planForecast(
      body as Parameters<typeof planForecast>[0], deps.registry, { pulls: deps.pulls, mode: 'sync', minObserved: MIN_REQUEST_OBSERVED },
    );
    checkSyncBudget(forecastCostMs(deps.registry, plan, deps.config.cpuWorkers), syncBudgetMs(deps.config), '/v1/forecast-jobs', plan.series.length);
    if (plan.explain) checkExplainBudget(explainEvaluations(plan.series), plan.series.length);
    const charge = await chargeRequest(deps.database.db, owner.accountId, reply);
    const onTiming = (timing: Record<string, number>) => {
      const value = serverTiming(timing);
      if (value) reply.header('server-timing', value);
    };
    return withRefundOn5xx(charge, async () => {
      // a large answer is written in an answer thread: the same JSON, as bytes (no serializer runs on them)
      // a forecast kept for scoring (store: true) is needed as an object, so it is written on the loop
      const bytes = request.seriesRefs?.store ? undefined : forecastBytes(deps.inference, deps.registry, plan, deps.answerThreads, onTiming);
      if (!bytes) {
        const result = await runForecast(deps.inference, deps.registry, plan, onTiming);
        await storeSyncForecasts(deps, request, plan, result);
        return result;
      }
      const body = await bytes;
      reply.type('application/json; charset=utf-8');
      return body as unknown as Awaited<ReturnType<typeof runForecast>>;
    });
  });
};

/** explain with inline fine-tuning: the explanation would be of a model made for this call alone, 2^M fine-tunings. */
function refuseExplainWith(body: { finetune_steps?: number }): void {
  if (!body.finetune_steps) return;
  const reason = `true with finetune_steps ${body.finetune_steps}: explain a kept model instead (POST /v1/fine-tuning-jobs, then model = its id)`;
  throw new RequestValidationError([{ field: 'explain', reason }]);
}
