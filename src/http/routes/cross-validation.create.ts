import { plainJsonSerializer } from '../json-serializer.ts';
import type { Route } from '../app-types.ts';
import { CrossValidationRequest, CrossValidationResponse, problemResponses, jsonResponse, syncOnlyResponses } from '../schemas.ts';
import { ownerOf } from '../auth.ts';
import { chargeUnits, withRefundOn5xx } from '../charge.ts';
import { planCrossValidation, runCrossValidation, type CrossValidationResult } from '../../forecasting/cross-validation.ts';
import { planHierarchyCv, runHierarchyCv, type HierarchyCvBody } from '../../forecasting/hierarchy-cv.ts';
import { rejectReconcileFields } from '../../forecasting/hierarchy.ts';
import { checkSyncBudget, crossValidationCostMs } from '../../forecasting/cost.ts';
import { syncBudgetMs } from '../../config.ts';

/** POST /v1/cross-validation — rolling-origin cross-validation of one or more models (src/forecasting/cross-validation.ts).
 * Charged one unit per model, all or nothing: a refused unit gives back the ones already taken (429); a 5xx gives all back. */
export const crossValidationCreate: Route = (app, deps) => {
  app.post('/v1/cross-validation', {
    schema: {
      summary: 'Cross-validate models on rolling origins', tags: ['forecast'],
      body: CrossValidationRequest,
      response: { 200: jsonResponse(CrossValidationResponse, 'Per model, series and window: the forecast, the actuals and the scores; ' +
        'and the leaderboard'), ...problemResponses(400, 401, 403, 413, 415, 422, 429, 500, 502, 503, 504), ...syncOnlyResponses('/v1/cross-validation-jobs') },
    },
    serializerCompiler: plainJsonSerializer,
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const body = request.body as HierarchyCvBody;
    rejectReconcileFields(body);
    // a hierarchy: every node cross-validated, each window reconciled (src/forecasting/hierarchy-cv.ts)
    const hierarchical = body.hierarchy !== undefined ? planHierarchyCv(body, deps.registry, { pulls: deps.pulls, mode: 'sync' }) : undefined;
    const plan = hierarchical?.cv ?? planCrossValidation(body, deps.registry, { pulls: deps.pulls, mode: 'sync' });
    // too much for one synchronous call: 413 use_job_api at once, nothing charged (src/forecasting/cost.ts)
    checkSyncBudget(
      crossValidationCostMs(deps.registry, plan, deps.config.cpuWorkers), syncBudgetMs(deps.config), '/v1/cross-validation-jobs', plan.body.series.length,
    );
    // one unit per model, all or nothing; a 5xx gives every unit back
    const charge = await chargeUnits(deps.database.db, owner.accountId, reply, plan.plans.length);
    // (the response schema's models[].hierarchy is optional: the typed answer is the plain one's)
    return withRefundOn5xx(charge, () => (hierarchical
      ? runHierarchyCv(hierarchical, deps.inference, deps.registry) as Promise<CrossValidationResult>
      : runCrossValidation(plan, deps.inference, deps.registry)));
  });
};
