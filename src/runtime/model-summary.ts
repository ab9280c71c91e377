// The start-up summary: one log line per catalog model saying whether this deployment serves it and,
// if not (or not every size), why and what the operator does about it.
import type { ModelRegistry } from './models.ts';
import type { WorkerStatus } from './supervisor.ts';
import { pullCommand } from './model-weights.ts';

export interface ModelSummary {
  model: string;
  runtime_group: string;
  served: boolean;
  /** sizes served now */
  sizes: string[];
  /** why the model, or some of its sizes, is not served: GET /v1/models' unavailable_reason code, or
   * worker_not_running for a runtime group that is installed but not (yet) up */
  reason?: string;
  fix?: string;
}

/** The registry's one reason (ModelRegistry.unavailableReason, also in GET /v1/models and the errors),
 * plus the sizes of a served model that still lack weights. */
export function summarizeModels(registry: ModelRegistry, workers: WorkerStatus[]): ModelSummary[] {
  return registry.catalog.models.map((model): ModelSummary => {
    const base = { model: model.id, runtime_group: model.group };
    const sizes = registry.servedSizes(model);
    const unavailable = registry.unavailableReason(model);
    if (unavailable) {
      const worker = workers.find((w) => w.group === model.group);
      if (unavailable.code === 'runtime_not_installed' && worker && worker.state !== 'ready') {
        return { ...base, served: false, sizes, reason: 'worker_not_running', fix: `the "${model.group}" worker ` +
          `is ${worker.state}${worker.lastError ? ` (${worker.lastError})` : ''}` };
      }
      return { ...base, served: false, sizes, reason: unavailable.code, fix: unavailable.command ?? unavailable.detail };
    }
    const missing = Object.keys(model.sizes).filter((s) => !sizes.includes(s) && registry.weightsMissing(model.id, s));
    return missing.length
      ? { ...base, served: true, sizes, reason: 'weights_missing', fix: missing.map((s) => pullCommand(model, s)).join('; ') }
      : { ...base, served: true, sizes };
  });
}
