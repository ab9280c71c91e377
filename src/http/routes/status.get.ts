import type { Route } from '../app-types.ts';
import { StatusResponse, jsonResponse } from '../schemas.ts';

/** GET /v1/status — liveness without auth; no secrets, no tenant data. */
export const statusGet: Route = (app, deps) => {
  app.get('/v1/status', {
    config: { public: true },
    schema: {
      summary: 'Service health (no auth)', tags: ['status'], security: [],
      response: { 200: jsonResponse(StatusResponse, 'Service health; `degraded` when a worker is down') },
    },
  }, async () => {
    const workers = deps.workers().map((w) => ({ group: w.group, state: w.state, restarts: w.restarts }));
    const healthy = workers.length > 0 && workers.every((w) => w.state === 'ready');
    return { status: healthy ? 'ok' as const : 'degraded' as const, version: deps.version, store: deps.database.kind, workers };
  });
};
