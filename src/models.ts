// What this deployment can serve: the catalog, narrowed to ids that a running runtime group reports
// (its library is installed), plus the operator's licence opt-ins.
import type { Static } from '@fastify/type-provider-typebox';
import { type Catalog, type CatalogModel, findModel, supportsCovariates } from './catalog.ts';
import { HorizonError } from './errors.ts';
import type { ModelInfo } from './schemas.ts';
import type { MissingWeights, WorkerModels } from './runtime/supervisor.ts';
import { pullCommand, type RecordedLicenses } from './model-weights.ts';
import { PRISM_ID, prismMembers, type PrismMember } from './prism.ts';

export type ModelsByGroup = () => Map<string, WorkerModels[]>;
export type MissingWeightsByGroup = () => Map<string, MissingWeights[]>;

export class ModelRegistry {
  readonly catalog: Catalog;
  readonly defaultModel: string;
  private readonly accepted: Set<string>;
  private readonly modelsByGroup: ModelsByGroup;
  private readonly missingWeightsByGroup: MissingWeightsByGroup;
  private readonly recordedLicenses?: RecordedLicenses;

  private readonly configuredPrismMembers: string[];

  constructor(catalog: Catalog, options: {
    defaultModel?: string; acceptedLicenses: string[]; modelsByGroup: ModelsByGroup; prismMembers?: string[];
    missingWeightsByGroup?: MissingWeightsByGroup;
    /** licences accepted with `horizon models pull --accept-license` */
    recordedLicenses?: RecordedLicenses;
  }) {
    this.catalog = catalog;
    this.defaultModel = options.defaultModel ?? catalog.default_model;
    if (!findModel(catalog, this.defaultModel)) throw new Error(`HORIZON_DEFAULT_MODEL "${this.defaultModel}" is not a model id of the catalog`);
    this.accepted = new Set(options.acceptedLicenses);
    this.modelsByGroup = options.modelsByGroup;
    this.missingWeightsByGroup = options.missingWeightsByGroup ?? (() => new Map());
    this.recordedLicenses = options.recordedLicenses;
    this.configuredPrismMembers = options.prismMembers ?? [];
  }

  /** prism's members on this deployment right now (served, licence accepted). */
  prismMembers(): PrismMember[] {
    return prismMembers(this.catalog, this.configuredPrismMembers, (m) => this.workerServes(m) !== undefined && this.licenseAccepted(m));
  }

  licenseAccepted(model: CatalogModel): boolean {
    return !model.license.requires_opt_in || this.accepted.has('*') || this.accepted.has(model.id) || Boolean(this.recordedLicenses?.has(model));
  }

  private workerServes(model: CatalogModel): WorkerModels | undefined {
    return this.modelsByGroup().get(model.group)?.find((m) => m.model === model.id);
  }

  private served(model: CatalogModel): WorkerModels | undefined {
    if (model.id !== PRISM_ID) return this.workerServes(model);
    // the ensemble runs here; it is served while at least two members are
    return this.prismMembers().length >= 2 ? { model: PRISM_ID, sizes: Object.keys(model.sizes), loaded: [] } : undefined;
  }

  list(): Static<typeof ModelInfo>[] {
    return this.catalog.models.flatMap((m) => {
      const served = this.served(m);
      if (!served) return [];
      const sizes = this.servedSizes(m);
      const defaultSize = this.defaultSize(m);
      const size = m.sizes[defaultSize];
      const accepted = this.licenseAccepted(m);
      return [{
        model_id: m.id,
        name: m.name,
        description: m.description,
        sizes,
        default_size: defaultSize,
        max_context: size.max_context,
        max_horizon: size.max_horizon,
        size_limits: Object.fromEntries(sizes.map((s) => [s, { max_context: m.sizes[s].max_context, max_horizon: m.sizes[s].max_horizon }])),
        supports_covariates: supportsCovariates(m),
        covariates: m.covariates,
        license: { ...m.license, accepted },
        available: accepted,
        loaded: served.loaded,
      }];
    });
  }

  /** Sizes this deployment can serve (a worker lists only sizes whose weights it found), catalog order. */
  servedSizes(model: CatalogModel): string[] {
    const served = this.served(model)?.sizes ?? [];
    return Object.keys(model.sizes).filter((s) => served.includes(s));
  }

  /** The catalog's default size when it is served, else the first served one. */
  defaultSize(model: CatalogModel): string {
    const sizes = this.servedSizes(model);
    return sizes.includes(model.default_size) ? model.default_size : sizes[0] ?? model.default_size;
  }

  /** Whether a worker serves this model's library but has no weights for the size (a pull would fix it). */
  weightsMissing(modelId: string, size: string): boolean {
    const model = findModel(this.catalog, modelId);
    return Boolean(model && this.missingWeightsByGroup().get(model.group)?.find((m) => m.model === modelId)?.sizes.includes(size));
  }

  /** 422 unless this deployment serves the size (e.g. has its weights); names the pull command when it could. */
  checkSize(modelId: string, size: string): void {
    const model = findModel(this.catalog, modelId);
    if (!model || !model.sizes[size]) return; // unknown ids and sizes are the normaliser's 422s
    const sizes = this.servedSizes(model);
    if (!sizes.includes(size)) {
      const fix = this.weightsMissing(modelId, size) ? `; the operator installs it with \`${pullCommand(model, size)}\`` : '';
      // no size at all: the model is what is missing; else the size, next to the ones served
      const [field, reason] = sizes.length
        ? ['model_size', `size "${size}" of ${modelId} is not served by this deployment (no weights installed); served sizes: ${sizes.join(', ')}${fix}`]
        : ['model', `model "${modelId}" is not served by this deployment (no weights installed for any size); served: ${this.list().map((m) => m.model_id).join(', ')}${fix}`];
      throw new HorizonError('validation_failed', reason, { errors: [{ field, reason }] });
    }
  }

  /** The runtime group to call, or the reason this deployment will not serve the model. */
  groupFor(modelId: string): string {
    const model = findModel(this.catalog, modelId);
    if (!model) throw new HorizonError('validation_failed', `unknown model "${modelId}"`, { errors: [{ field: 'model', reason: `unknown model "${modelId}"` }] });
    const pullable = this.missingWeightsByGroup().get(model.group)?.some((m) => m.model === modelId) ?? false;
    if (!this.served(model) && !pullable) {
      const servedIds = this.list().map((m) => m.model_id).join(', ');
      throw new HorizonError('validation_failed', `model "${modelId}" is not served by this deployment (its runtime is not installed or has no weights); served: ${servedIds}`, {
        errors: [{ field: 'model', reason: `model "${modelId}" is not served by this deployment; served: ${servedIds}` }],
      });
    }
    if (!this.licenseAccepted(model)) {
      throw new HorizonError('license_not_accepted', `model "${modelId}" is under the ${model.license.name}, which the operator has not accepted; set HORIZON_ACCEPT_LICENSES=${modelId} to serve it`);
    }
    return model.group;
  }
}
