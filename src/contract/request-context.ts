// The request being served, for code far from the route (the inference client sends its id to the
// worker as X-Request-Id; planForecast notes model, size and series count for the request's log
// line). A job's context carries the job id as its request id.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Fields of a request's log line that the handler learns as it goes. */
export interface LogFields { model?: string; size?: string; series?: number; code?: string; job_id?: string; answer?: 'thread'; request?: 'thread' }

export interface RequestContext {
  requestId: string; fields: LogFields;
  /** the account's private (fine-tuned) models: the registry's catalog holds them for this request or job
   * only. Catalog entries (runtime/catalog.ts CatalogModel); typed loosely here because contract sits
   * below runtime and names none of its types (runtime/models.ts reads them back as CatalogModel). */
  privateModels?: object[];
  /** the calling account: the inference client queues model calls fairly between accounts (inference.ts) */
  accountId?: string;
  /** aborts when the request's client has gone before its answer was out (http/client-gone.ts): its model
   * calls still waiting are dropped and the one at the worker is cancelled (runtime/inference.ts) */
  signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** Adds fields to the current request's log line (no-op outside a request). */
export function noteLogFields(fields: LogFields): void {
  const context = storage.getStore();
  if (context) Object.assign(context.fields, fields);
}
