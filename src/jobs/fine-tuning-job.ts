// What a fine-tuning job runs (POST /v1/fine-tuning-jobs), and the accounts' private models as the
// registry sees them. The job stores the normalised series and settings at submit; when it runs, the
// FineTuner trains in its own process, the job row carries its progress, a cancel made by any process
// (DELETE → status cancelled) stops it within a poll and a SIGTERM, and a completed training becomes
// the account's private model: its row is written before the job shows completed.
import type { Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';
import { HorizonError } from '../errors.ts';
import { findModel, type Catalog, type CatalogModel } from '../runtime/catalog.ts';
import type { FineTuner, FineTuneSpec, FineTuneSummary } from '../runtime/fine-tuning.ts';
import { insertPrivateModel, listPrivateModels, type PrivateModelRow } from '../store/private-models.ts';
import { jobStatus, setJobProgress } from '../store/jobs.ts';

/** What a fine-tuning job row stores as its request; `freq`, that of its series (the Nixtla SDK's finetuned_models says it). */
export interface FineTuningJobRequest { spec: FineTuneSpec; name: string; freq?: string }

export interface FineTuningResult { model_id: string; name: string; base_model: string; base_size: string; summary: FineTuneSummary }

/** Model ids of fine-tuned models: `ft-` and 24 hex digits (the runtime serves nothing else from private/). */
export const PRIVATE_ID_PATTERN = /^ft-[0-9a-f]{12,32}$/;

/** The private model ids a stored forecast, auto or cross-validation job names: its model, prism members,
 * auto candidates or cross-validation models (refs as strings, "id:size" or {model}). */
export function privateIdsIn(request: unknown): string[] {
  const ids = new Set<string>();
  const visit = (ref: unknown) => {
    const id = typeof ref === 'string' ? ref.split(':')[0] : (ref as { model?: unknown } | null)?.model;
    if (typeof id === 'string' && PRIVATE_ID_PATTERN.test(id)) ids.add(id);
  };
  const visitAll = (r: Record<string, unknown> | undefined) => {
    if (!r) return;
    visit(r.model);
    for (const key of ['prism_members', 'auto_candidates', 'models']) for (const ref of (Array.isArray(r[key]) ? r[key] : [])) visit(ref);
  };
  const stored = request as Record<string, unknown> | null;
  visitAll(stored ?? undefined);
  visitAll(stored?.auto_request as Record<string, unknown> | undefined);
  return [...ids];
}

/** 410 model_deleted when a job names a private model the account no longer has (deleted after the job was
 * accepted): the job fails at once with that, not at the worker. */
export function checkPrivateModelsExist(request: unknown, entries: readonly CatalogModel[]): void {
  const gone = privateIdsIn(request).filter((id) => !entries.some((m) => m.id === id));
  if (gone.length) {
    throw new HorizonError('model_deleted', `model "${gone.join('", "')}" ${gone.length > 1 ? 'were' : 'was'} deleted after this job was accepted (DELETE ` +
      `/v1/models/{id}); submit the job again with a model this account has (GET /v1/models)`);
  }
}

/** A private model as a catalog entry: its base's adapter, group, caps, covariates, licence, joint / sampling modes and embeddings, one size. */
export function privateCatalogEntry(row: PrivateModelRow, catalog: Catalog): CatalogModel | undefined {
  const base = findModel(catalog, row.base_model);
  const caps = base?.sizes[row.base_size];
  if (!base || !caps) return undefined;
  return {
    id: row.id, name: row.name, description: `${base.name} ${row.base_size}, fine-tuned on this account's series`,
    adapter: base.adapter, group: base.group, default_size: row.base_size,
    sizes: { [row.base_size]: { max_context: caps.max_context, max_horizon: caps.max_horizon } },
    covariates: base.covariates, license: base.license,
    // its base's library modes (a fine-tuned chronos-2 forecasts jointly as chronos-2 does: the same adapter)
    ...(base.multivariate && { multivariate: base.multivariate }), ...(base.sample_paths && { sample_paths: base.sample_paths }),
    ...(base.embeddings && { embeddings: base.embeddings }), // its encoder embeds as its base's does
  };
}

/** The accounts' private models, read from the store at most every `ttlMs` per account (another API
 * process may have made or deleted one), at once after this process changed them. */
export class PrivateModels {
  private readonly cache = new Map<string, { at: number; rows: PrivateModelRow[]; entries: CatalogModel[] }>();
  private any?: { at: number; value: boolean };
  private readonly db: Kysely<Schema>;
  private readonly catalog: Catalog;
  private readonly ttlMs: number;

  constructor(db: Kysely<Schema>, catalog: Catalog, ttlMs = 2_000) {
    this.db = db;
    this.catalog = catalog;
    this.ttlMs = ttlMs;
  }

  forget(accountId: string): void {
    this.cache.delete(accountId);
    this.any = undefined;
  }

  async rows(accountId: string): Promise<PrivateModelRow[]> {
    return (await this.load(accountId)).rows;
  }

  /** The account's private models as catalog entries (empty, without a query, while no account has one). */
  async entries(accountId: string): Promise<CatalogModel[]> {
    const now = Date.now();
    if (!this.any || now - this.any.at > this.ttlMs) {
      const found = await this.db.selectFrom('private_models').select('id').limit(1).executeTakeFirst();
      this.any = { at: now, value: found !== undefined };
    }
    if (!this.any.value) return [];
    return (await this.load(accountId)).entries;
  }

  private async load(accountId: string) {
    const hit = this.cache.get(accountId);
    if (hit && Date.now() - hit.at <= this.ttlMs) return hit;
    const rows = await listPrivateModels(this.db, accountId);
    const entries = rows.map((r) => privateCatalogEntry(r, this.catalog)).filter((e): e is CatalogModel => e !== undefined);
    const loaded = { at: Date.now(), rows, entries };
    this.cache.set(accountId, loaded);
    return loaded;
  }
}

/** How often a running fine-tuning looks for a cancel in the store (any process may have made it). */
const CANCEL_POLL_MS = 1_000;

export async function runFineTuningJob(
  request: FineTuningJobRequest, jobId: string, accountId: string,
  deps: {
    db: Kysely<Schema>; tuner: FineTuner; privateModels: PrivateModels; refreshWorkers: () => Promise<void>;
    onProgress?: (jobId: string, progress: object) => void;
  },
): Promise<FineTuningResult> {
  const { spec, name } = request;
  const abort = new AbortController();
  const poll = setInterval(() => {
    void jobStatus(deps.db, jobId).then((status) => { if (status === 'cancelled') abort.abort(); }, () => undefined);
  }, CANCEL_POLL_MS);
  let last = Promise.resolve();
  try {
    const summary = await deps.tuner.run(jobId, spec, (progress) => {
      deps.onProgress?.(jobId, progress);
      // written in order, one at a time (a slow store must not reorder steps)
      last = last.then(() => setJobProgress(deps.db, jobId, progress)).catch(() => undefined);
    }, abort.signal);
    await last;
    if ((await jobStatus(deps.db, jobId)) === 'cancelled') {
      deps.tuner.remove(spec.model_id);
      throw new HorizonError('job_cancelled', 'the job was cancelled');
    }
    await insertPrivateModel(deps.db, { id: spec.model_id, accountId, name, baseModel: spec.model, baseSize: spec.size, jobId, summary });
    deps.privateModels.forget(accountId);
    // the workers list the new model at their next refresh; this makes it servable before the job shows completed
    await deps.refreshWorkers().catch(() => undefined);
    return { model_id: spec.model_id, name, base_model: spec.model, base_size: spec.size, summary };
  } finally {
    clearInterval(poll);
  }
}
