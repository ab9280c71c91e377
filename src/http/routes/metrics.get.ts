import type { Route } from '../app-types.ts';
import { HorizonError } from '../../errors.ts';
import { PROMETHEUS_CONTENT_TYPE, tokenMatches } from '../telemetry.ts';

/** GET /metrics — Prometheus text exposition for the operator's scraper: outside /v1 (not part of the
 * tenant API), no API key and no quota; HORIZON_METRICS_TOKEN, when set, is required as a bearer token. */
export const metricsGet: Route = (app, deps) => {
  app.get('/metrics', {
    config: { public: true },
    schema: {
      summary: 'Prometheus metrics (operator)', tags: ['operations'],
      description: 'Prometheus text format 0.0.4: HTTP requests and latency by route, quota units by account, jobs by state and queue depth, worker up and ' +
        'restarts, and each model worker\'s batch sizes, queue wait, inference and load time and resident models with their memory (labelled ' +
        '`runtime_group`). Needs `Authorization: Bearer <HORIZON_METRICS_TOKEN>` when that variable is set; never an API key.',
      security: [{}, { metrics_token: [] }],
      response: {
        200: { description: 'The metrics in Prometheus text exposition format', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        401: { description: 'HORIZON_METRICS_TOKEN is set and the ' +
          'request did not present it', content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } } },
      },
    },
  }, async (request, reply) => {
    const token = deps.config.metricsToken;
    if (token && !tokenMatches(request.headers.authorization, token)) {
      throw new HorizonError('unauthorized', 'this deployment protects /metrics: send "Authorization: Bearer <HORIZON_METRICS_TOKEN>"', {
        headers: { 'www-authenticate': 'Bearer realm="horizon-metrics"' },
      });
    }
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(await deps.telemetry.exposition());
  });
};
