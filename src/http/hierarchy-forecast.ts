// The forecast route's branch for a request with a `hierarchy` (its rules and run: forecasting/hierarchy.ts):
// every 4xx first, then the sync budget over every node's forecast, ONE quota unit (as the same request of
// every node's series would cost: a forecast is charged per request, however many series), the run, the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './app-types.ts';
import { ownerOf } from './auth.ts';
import { chargeRequest, withRefundOn5xx } from './charge.ts';
import { storeSyncForecasts } from './series-refs.ts';
import { hierarchyCostMs, planHierarchy, runHierarchy, type HierarchicalPlan, type HierarchyBody } from '../forecasting/hierarchy.ts';
import { checkSyncBudget } from '../forecasting/cost.ts';
import type { ForecastResult } from '../forecasting/forecast.ts';
import { syncBudgetMs } from '../config.ts';

/** The settings model "auto" runs with (the operator's HORIZON_AUTO_*), as the forecast routes give them. */
export function autoSettings(deps: AppContext) {
  return { candidates: deps.config.autoCandidates, windows: deps.config.autoWindows, refit: deps.config.autoRefit };
}

/** Plans a hierarchical forecast (every 4xx before the charge), the job's form too. */
export function planHierarchyFor(deps: AppContext, body: HierarchyBody, mode: 'sync' | 'job'): HierarchicalPlan {
  return planHierarchy(body, deps.registry, { pulls: deps.pulls, mode, auto: autoSettings(deps) });
}

/** POST /v1/forecast with a hierarchy: planned, sized against the sync budget, charged one unit, run and answered. */
export async function forecastHierarchy(deps: AppContext, request: FastifyRequest, reply: FastifyReply, body: HierarchyBody): Promise<ForecastResult> {
  const plan = planHierarchyFor(deps, body, 'sync');
  const estimate = hierarchyCostMs(deps.registry, plan, deps.config.cpuWorkers, autoSettings(deps));
  checkSyncBudget(estimate, syncBudgetMs(deps.config), '/v1/forecast-jobs', plan.hierarchy.structure.nodes.length);
  const charge = await chargeRequest(deps.database.db, ownerOf(request).accountId, reply);
  return withRefundOn5xx(charge, async () => {
    const result = await runHierarchy(plan, deps.inference, deps.registry, { pulls: deps.pulls, mode: 'job', auto: autoSettings(deps) });
    const quantiles = plan.hierarchy.quantiles;
    await storeSyncForecasts(deps, request, { horizon: body.horizon, quantiles, context: body.context }, result);
    return result;
  });
}
