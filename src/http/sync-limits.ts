// Limits that keep one account from taking a deployment's model time from the others (issue 24):
// - HORIZON_ACCOUNT_MAX_INFLIGHT synchronous model requests per account at once on this process; one
//   more is a 429 too_many_inflight with Retry-After that names the cap (nothing charged);
// - HORIZON_SYNC_MAX_SERIES / HORIZON_SYNC_MAX_POINTS per synchronous request; beyond: 413 use_job_api
//   naming the cap and the job route, which takes the same body (nothing charged).
// A large body read in a forecast thread (LargeBody) is counted when the thread has read it (large-forecast.ts).
// Fair turns between accounts at the workers are the inference client's (runtime/inference.ts FairGate).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HorizonError } from '../errors.ts';
import type { Config } from '../config.ts';
import { currentRequest } from './request-context.ts';

/** The synchronous model routes and the job route that takes the same body. */
const SYNC_ROUTES: Record<string, string | undefined> = {
  '/v1/forecast': '/v1/forecast-jobs',
  '/v1/cross-validation': '/v1/cross-validation-jobs',
  '/v1/anomalies': undefined,
  '/v1/embeddings': '/v1/embedding-jobs',
};

export type SyncLimits = Pick<Config, 'syncMaxSeries' | 'syncMaxPoints' | 'accountMaxInflight'>;

declare module 'fastify' {
  interface FastifyRequest { inflightAccount?: string }
}

/** Throws 413 use_job_api when `series` or `points` is over the caps (0 = no cap). */
export function checkSyncSize(limits: Partial<SyncLimits>, jobPath: string | undefined, series: number, points: number): void {
  const where = jobPath ? `send the same body to POST ${jobPath}: a job has no such cap and runs it in chunks` : 'split the series across several requests';
  if (limits.syncMaxSeries && series > limits.syncMaxSeries) {
    throw new HorizonError('use_job_api', `this request has ${series} series, over this deployment's maximum of ${limits.syncMaxSeries} series for a ` +
      `synchronous call (HORIZON_SYNC_MAX_SERIES); ${where}`);
  }
  if (limits.syncMaxPoints && points > limits.syncMaxPoints) {
    throw new HorizonError('use_job_api', `this request has ${points} observations in all, over this deployment's maximum of ${limits.syncMaxPoints} for a ` +
      `synchronous call (HORIZON_SYNC_MAX_POINTS); ${where}`);
  }
}

export function installSyncLimits(app: FastifyInstance, limits: Partial<SyncLimits>): void {
  const inflight = new Map<string, number>();
  const release = (request: FastifyRequest) => {
    const account = request.inflightAccount;
    if (account === undefined) return;
    request.inflightAccount = undefined;
    const left = (inflight.get(account) ?? 1) - 1;
    if (left > 0) inflight.set(account, left); else inflight.delete(account);
  };
  app.addHook('preHandler', async (request) => {
    const route = request.routeOptions.url ?? '';
    const accountId = request.owner?.accountId;
    // the inference client queues this request's model calls in the account's turn
    const context = currentRequest();
    if (context && accountId) context.accountId = accountId;
    if (request.method !== 'POST' || !(route in SYNC_ROUTES) || !accountId) return;
    const body = request.body as { series?: { target?: unknown[] }[] } | undefined;
    if (Array.isArray(body?.series)) {
      checkSyncSize(limits, SYNC_ROUTES[route], body.series.length, body.series.reduce((n, s) => n + (Array.isArray(s?.target) ? s.target.length : 0), 0));
    }
    const cap = limits.accountMaxInflight ?? 0;
    const running = inflight.get(accountId) ?? 0;
    if (cap > 0 && running >= cap) {
      throw new HorizonError('too_many_inflight',
        `this account already has ${running} synchronous model requests running on this server, the most one account may have at once ` +
        `(HORIZON_ACCOUNT_MAX_INFLIGHT=${cap}); retry when one has answered, or send the work to a ` +
        `job${SYNC_ROUTES[route] ? ` (POST ${SYNC_ROUTES[route]})` : ''}`,
        { headers: { 'retry-after': '1' } });
    }
    inflight.set(accountId, running + 1);
    request.inflightAccount = accountId;
  });
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));
}
