// What nixtla==0.9.0 can call and Horizon has not built: a 501 naming the reason and what to use instead.
// Out of the OpenAPI document (they do no operation); keyed like every /nixtla route (401 first).
import type { App } from '../app-types.ts';
import { HorizonError, toProblem } from '../../errors.ts';

const NOT_BUILT: [method: 'GET' | 'POST' | 'DELETE', path: string, reason: string][] = [
  ['POST', '/v2/simulate', 'sample paths (simulate) are not built in Horizon: forecast with level or quantiles for the marginal distribution'],
  ['POST', '/v2/simulate/async', 'sample paths (simulate, jobs.simulate) are not built in Horizon: forecast with level or quantiles for the marginal distribution'],
  ['POST', '/v2/explain/async', 'feature importance (explain, jobs.explain) is not built in Horizon'],
  ['POST', '/v2/execute_step/async', 'execute_step is a Nixtla-hosted service with no Horizon equivalent'],
];

export function notBuiltRoutes(app: App): void {
  for (const [method, url, reason] of NOT_BUILT) {
    // answered here rather than thrown: a 5xx thrown is logged as a server fault, and this is none
    app.route({
      method, url, schema: { hide: true },
      handler: async (request, reply) => {
        const error = new HorizonError('not_implemented', reason);
        request.logFields.code = error.code;
        return reply.code(error.status).type('application/problem+json').send(toProblem(error, request.id));
      },
    });
  }
}
