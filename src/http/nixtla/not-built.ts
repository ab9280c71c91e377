// What nixtla==0.9.0 can call and Horizon has not built: a 501 naming the reason and what to use instead.
// Out of the OpenAPI document (they do no operation); keyed like every /nixtla route (401 first).
import type { App } from '../app-types.ts';
import { HorizonError, toProblem } from '../../errors.ts';

const NOT_BUILT: [method: 'GET' | 'POST' | 'DELETE', path: string, reason: string][] = [
  ['POST', '/v2/explain/async', 'explain() and jobs.explain() (model-independent weights of lagged features: Granger or transfer entropy) '
    + 'are not built in Horizon; it explains forecasts instead: forecast(df, X_df=…, feature_contributions=True) gives each exogenous '
    + 'column\'s Shapley value per step (POST /v1/forecast explain)'],
  ['POST', '/v2/execute_step/async', 'execute_step is a Nixtla-hosted service with no Horizon equivalent'],
];

export function notBuiltRoutes(app: App): void {
  // in a scope of their own, whose parser takes any body unread: jobs.execute_step() uploads Arrow bytes, which the
  // JSON routes' parsers would answer with a 415 instead of the reason
  void app.register(async (scope) => {
    scope.addContentTypeParser('*', (_request, payload, done) => { payload.resume(); payload.on('end', () => done(null, undefined)); });
    routes(scope as unknown as App);
  });
}

function routes(app: App): void {
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
