// Puts the caller's private (fine-tuned) models into its request context, so that the registry's
// catalog holds them for this request only (runtime/models.ts): they are usable as `model` in
// forecasts, jobs, cross-validation, auto (`auto_candidates`) and prism (`prism_members`) by their owner, and unknown ids to everyone else.
// A model's name (POST /v1/fine-tuning-jobs `name`) is rewritten to its id here.
import type { FastifyRequest } from 'fastify';
import { currentRequest } from './request-context.ts';
import type { PrivateModels } from '../jobs/fine-tuning-job.ts';

export function privateModelsHook(privateModels: PrivateModels) {
  return async function withPrivateModels(request: FastifyRequest): Promise<void> {
    const context = currentRequest();
    if (!context || !request.owner) return;
    const own = await privateModels.entries(request.owner.accountId);
    if (!own.length) return;
    context.privateModels = own;
    renamePrivateModels(request.body, own);
  };
}

/** A private model's name in a body (`model` and the model lists) becomes its id. Also for a large body, once a
 * forecast thread or the loop has parsed it (large-forecast.ts), which is after this hook. */
export function renamePrivateModels(parsed: unknown, own: readonly { id: string; name: string }[]): void {
  const body = parsed as { model?: unknown; models?: unknown[]; auto_candidates?: unknown[]; prism_members?: unknown[] } | undefined;
  if (!body || typeof body !== 'object') return;
  const idOf = (name: unknown) => own.find((m) => m.name === name && m.id !== name)?.id;
  const rename = (list: unknown[] | undefined) => list?.forEach((item, i) => {
    if (typeof item === 'string') list[i] = idOf(item) ?? item;
    else if (item && typeof item === 'object' && 'model' in item) (item as { model: unknown }).model = idOf(
      (item as { model: unknown }).model,
    ) ?? (item as { model: unknown }).model;
  });
  const id = idOf(body.model);
  if (id) body.model = id;
  if (Array.isArray(body.models)) rename(body.models);
  if (Array.isArray(body.auto_candidates)) rename(body.auto_candidates);
  if (Array.isArray(body.prism_members)) rename(body.prism_members);
}
