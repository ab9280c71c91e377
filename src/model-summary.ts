// The start-up summary: one log line per catalog model saying whether this deployment serves it and,
// if not (or not every size), why and what the operator does about it.
import type { ModelRegistry } from './models.ts';
import type { WorkerStatus } from './runtime/supervisor.ts';
import { pullCommand } from './model-weights.ts';
import { PRISM_ID } from './prism.ts';

export interface ModelSummary {
  model: string;
  runtime_group: string;
  served: boolean;
  /** sizes served now */
  sizes: string[];
  /** why the model, or some of its sizes, is not served */
  reason?: 'runtime_not_installed' | 'worker_not_running' | 'library_not_installed' | 'weights_missing' | 'license_not_accepted' | 'ensemble_members';
  fix?: string;
}

export function summarizeModels(registry: ModelRegistry, workers: WorkerStatus[]): ModelSummary[] {
  const listed = new Set(registry.list().map((m) => m.model_id));
  return registry.catalog.models.map((model): ModelSummary => {
    const base = { model: model.id, runtime_group: model.group };
    const sizes = registry.servedSizes(model);
    const missing = Object.keys(model.sizes).filter((s) => !sizes.includes(s) && registry.weightsMissing(model.id, s));
    const weights = missing.length ? { reason: 'weights_missing' as const, fix: missing.map((s) => pullCommand(model, s)).join('; ') } : {};
    if (listed.has(model.id)) {
      if (!registry.licenseAccepted(model)) return { ...base, served: false, sizes, reason: 'license_not_accepted', fix: `set HORIZON_ACCEPT_LICENSES=${model.id} (${model.license.name})` };
      return { ...base, served: true, sizes, ...weights };
    }
    if (model.id === PRISM_ID) return { ...base, served: false, sizes, reason: 'ensemble_members', fix: 'needs at least two served members (HORIZON_PRISM_MEMBERS)' };
    if (missing.length) return { ...base, served: false, sizes, ...weights };
    const worker = workers.find((w) => w.group === model.group);
    if (!worker) return { ...base, served: false, sizes, reason: 'runtime_not_installed', fix: `no virtualenv for runtime group "${model.group}"; run scripts/setup.sh` };
    if (worker.state !== 'ready') return { ...base, served: false, sizes, reason: 'worker_not_running', fix: `the "${model.group}" worker is ${worker.state}${worker.lastError ? ` (${worker.lastError})` : ''}` };
    return { ...base, served: false, sizes, reason: 'library_not_installed', fix: `the "${model.group}" worker cannot import this model's library; see docs/runtime-groups.md` };
  });
}
