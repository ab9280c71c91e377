// What this deployment can serve: the catalog, with each id's availability — served when a running runtime
// group reports it (its library is installed and its weights found) and its licence is accepted — and, when
// not, the one reason (unavailableReason) that GET /v1/models, the errors and the start-up log all give.
import type { Static } from '@fastify/type-provider-typebox';
import { type Catalog, type CatalogModel, findModel, supportsCovariates } from './catalog.ts';
import { HorizonError } from '../errors.ts';
import { currentRequest } from '../contract/request-context.ts';
import type { ModelInfo, UnavailableReason } from '../contract/schemas.ts';
import { RUNTIME_DIR, type MissingWeights, type WorkerModels } from './supervisor.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pullCommand, type RecordedLicenses } from './model-weights.ts';
import { PRISM_ID, prismMember, prismMembers, type PrismBacktest, type PrismMember } from './prism-members.ts';

/** When scripts/run.sh's install of the group's libraries behind the server started (runtime/setup.sh's marker), if it runs. */
function installingSince(group: string): string | undefined {
  try { return readFileSync(join(RUNTIME_DIR, `.venv-${group}`, '.horizon-installing'), 'utf8').trim() || 'now'; } catch { return undefined; }
}

export type ModelsByGroup = () => Map<string, WorkerModels[]>;
export type MissingWeightsByGroup = () => Map<string, MissingWeights[]>;
export type Unavailable = Static<typeof UnavailableReason>;

/** What a registry answers from, as plain data (a forecast thread rebuilds the same registry from it:
 * ModelRegistry.fromSnapshot); the catalog is the one of the request it was taken in (private models included). */
export interface RegistrySnapshot {
  catalog: Catalog; defaultModel: string; acceptedLicenses: string[]; prismMembers: string[]; prismBacktest: PrismBacktest;
  poolBudgetMs?: number;
  modelsByGroup: [string, WorkerModels[]][]; missingWeights: [string, MissingWeights[]][];
  /** the catalog's ids whose licence was accepted with `horizon models pull --accept-license` */
  recordedLicenses: string[];
}

/** The setting that accepts model licences (also `models pull --accept-license`). */
export const LICENSE_VARIABLE = 'HORIZON_ACCEPT_LICENSES';

export class ModelRegistry {
  private readonly baseCatalog: Catalog;
  /** catalogs extended with one account's private models, per list of them (one per request at most) */
  private readonly withPrivate = new WeakMap<CatalogModel[], Catalog>();
  readonly defaultModel: string;
  private readonly accepted: Set<string>;
  private readonly modelsByGroup: ModelsByGroup;
  private readonly missingWeightsByGroup: MissingWeightsByGroup;
  private readonly recordedLicenses?: RecordedLicenses;

  private readonly configuredPrismMembers: string[];
  private readonly prismBacktest: PrismBacktest;
  /** HORIZON_POOL_BUDGET_MS: the estimated ms per series a statistical model may cost to join a cost-sized pool
   * (src/forecasting/model-pool.ts); undefined = that module's default */
  readonly poolBudgetMs?: number;

  constructor(catalog: Catalog, options: {
    defaultModel?: string; acceptedLicenses: string[]; modelsByGroup: ModelsByGroup; prismMembers?: string[]; prismBacktest?: PrismBacktest;
    poolBudgetMs?: number;
    missingWeightsByGroup?: MissingWeightsByGroup;
    /** licences accepted with `horizon models pull --accept-license` */
    recordedLicenses?: RecordedLicenses;
  }) {
    this.baseCatalog = catalog;
    this.defaultModel = options.defaultModel ?? catalog.default_model;
    if (!findModel(catalog, this.defaultModel)) throw new Error(`HORIZON_DEFAULT_MODEL "${this.defaultModel}" is not a model id of the catalog`);
    this.accepted = new Set(options.acceptedLicenses);
    this.modelsByGroup = options.modelsByGroup;
    this.missingWeightsByGroup = options.missingWeightsByGroup ?? (() => new Map());
    this.recordedLicenses = options.recordedLicenses;
    this.configuredPrismMembers = options.prismMembers ?? [];
    this.prismBacktest = options.prismBacktest ?? 'forward';
    this.poolBudgetMs = options.poolBudgetMs;
  }

  /** This registry's state now, for a forecast thread (http/nixtla/thread.ts). */
  snapshot(): RegistrySnapshot {
    const catalog = this.catalog;
    return {
      catalog, defaultModel: this.defaultModel, acceptedLicenses: [...this.accepted],
      prismMembers: this.configuredPrismMembers, prismBacktest: this.prismBacktest, poolBudgetMs: this.poolBudgetMs,
      modelsByGroup: [...this.modelsByGroup()], missingWeights: [...this.missingWeightsByGroup()],
      recordedLicenses: catalog.models.filter((m) => this.recordedLicenses?.has(m)).map((m) => m.id),
    };
  }

  /** A registry that answers as the one whose snapshot this is did when it was taken. */
  static fromSnapshot(s: RegistrySnapshot): ModelRegistry {
    const recorded = new Set(s.recordedLicenses);
    return new ModelRegistry(s.catalog, {
      defaultModel: s.defaultModel, acceptedLicenses: s.acceptedLicenses, prismMembers: s.prismMembers, prismBacktest: s.prismBacktest,
      poolBudgetMs: s.poolBudgetMs,
      modelsByGroup: () => new Map(s.modelsByGroup), missingWeightsByGroup: () => new Map(s.missingWeights),
      recordedLicenses: { has: (model: CatalogModel) => recorded.has(model.id) } as RecordedLicenses,
    });
  }

  /** The catalog, plus the calling account's private (fine-tuned) models during its request or job
   * (request-context.ts): they exist for that account only, everywhere the catalog is read. */
  get catalog(): Catalog {
    // the request context holds them untyped (contract is below runtime); they are catalog entries
    const own = currentRequest()?.privateModels as CatalogModel[] | undefined;
    if (!own?.length) return this.baseCatalog;
    let extended = this.withPrivate.get(own);
    if (!extended) {
      extended = { ...this.baseCatalog, models: [...this.baseCatalog.models, ...own] };
      this.withPrivate.set(own, extended);
    }
    return extended;
  }

  /** prism's members on this deployment right now (served, licence accepted). */
  prismMembers(): PrismMember[] {
    return prismMembers(this.catalog, this.configuredPrismMembers, (m) => this.workerServes(m) !== undefined && this.licenseAccepted(m), this.prismBacktest);
  }

  /** Where prism's members come from on this deployment: HORIZON_PRISM_MEMBERS, two or more served foundation
   * models, else the statistical models (sized by each request's cost: src/forecasting/model-pool.ts). */
  prismSource(): 'operator' | 'foundation' | 'statistical' {
    if (this.configuredPrismMembers.length) return 'operator';
    const members = this.prismMembers();
    return members.length >= 2 && members.every((m) => findModel(this.catalog, m.model)?.weights) ? 'foundation' : 'statistical';
  }

  /** A member a request names (`prism_members`), validated like the operator's (HORIZON_PRISM_BACKTEST); the caller has checked that it is served. */
  prismMemberOf(modelId: string, size: string): PrismMember {
    const model = findModel(this.catalog, modelId);
    if (!model) throw new Error(`prism member ${modelId} is not in the catalog`);
    return prismMember(model, size, this.prismBacktest);
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

  /** Why this deployment does not serve the model now, or undefined when it does. In the order an operator
   * fixes them: the runtime (library) first, then the licence, then the weights. */
  unavailableReason(model: CatalogModel): Unavailable | undefined {
    if (model.id === PRISM_ID) {
      const members = this.prismMembers();
      if (members.length >= 2) return undefined;
      const configured = this.configuredPrismMembers.length ? ` of HORIZON_PRISM_MEMBERS (${this.configuredPrismMembers.join(', ')})` : '';
      return {
        code: 'members_unavailable',
        detail: `prism blends at least 2 served models${configured}; ${members.length ? `only ${members[0].model} is served` : 'none is served'}: enable ` +
          `more members (their own unavailable_reason says how)`,
      };
    }
    const workerServes = this.workerServes(model) !== undefined;
    const weightsMissing = this.missingWeightsByGroup().get(model.group)?.some((m) => m.model === model.id) ?? false;
    if (!workerServes && !weightsMissing) {
      const running = this.modelsByGroup().has(model.group);
      const installing = installingSince(model.group);
      if (running && installing) {
        return {
          code: 'runtime_not_installed',
          runtime_group: model.group,
          command: `bash runtime/setup.sh ${model.group}`,
          detail: `still loading: the libraries of the runtime group "${model.group}" are being installed behind the running server (since ${installing}, by ` +
            `scripts/run.sh; log runtime/.venv-${model.group}/.horizon-install.log); ${model.id} is served as soon as they are in, with no restart. The ` +
            `statistical models answer meanwhile`,
        };
      }
      // core comes with serving (scripts/setup.sh); another group is installed on its own (or by pulling one of its models)
      const install = `bash runtime/setup.sh ${model.group}`;
      return {
        code: 'runtime_not_installed',
        runtime_group: model.group,
        command: install,
        detail: running
          ? `the runtime group "${model.group}" runs but does not provide ${model.id} (its library did not import; the worker's log says why); reinstall it ` +
            `with \`${install}\``
          : `the runtime group "${model.group}" is not running on this deployment: install its virtualenv (runtime/.venv-${model.group}) with ` +
            `\`${install}\`${model.weights ? ` (or \`./horizon models pull ${model.id}\`, which installs it first)` : ''} and restart the server, keeping ` +
            `the group in HORIZON_RUNTIME_GROUPS if that is set`,
      };
    }
    if (!this.licenseAccepted(model)) {
      return {
        code: 'license_not_accepted',
        variable: LICENSE_VARIABLE,
        detail: `${model.id} is under the ${model.license.name}, which the operator has not accepted: set ${LICENSE_VARIABLE}=${model.id} (comma-separated ` +
          `ids, or *), or pull it with \`--accept-license\``,
      };
    }
    if (!workerServes) {
      const size = model.default_size;
      return {
        code: 'weights_missing',
        command: pullCommand(model, size),
        detail: `no weights of ${model.id} are installed (for any size): install the default size with \`${pullCommand(model, size)}\` ` +
          `(sizes: ${Object.keys(model.sizes).join(', ')})`,
      };
    }
    return undefined;
  }

  /** Every catalog model: served ones with the sizes served, the others with their catalog sizes, available: false and the reason. */
  list(): Static<typeof ModelInfo>[] {
    return this.catalog.models.map((m) => {
      const served = this.served(m);
      const reason = this.unavailableReason(m);
      const sizes = served ? this.servedSizes(m) : Object.keys(m.sizes);
      const defaultSize = this.defaultSize(m);
      const size = m.sizes[defaultSize];
      return {
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
        license: { ...m.license, accepted: this.licenseAccepted(m) },
        available: reason === undefined,
        ...(reason && { unavailable_reason: reason }),
        loaded: served?.loaded ?? [],
      };
    });
  }

  /** Ids served now (what the errors list as alternatives). */
  availableIds(): string[] {
    return this.catalog.models.filter((m) => this.unavailableReason(m) === undefined).map((m) => m.id);
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
        : ['model', `model "${modelId}" is not served by this deployment (no weights installed for any size); served: ${this.availableIds().join(', ')}${fix}`];
      const unavailable = sizes.length ? undefined : this.unavailableReason(model);
      throw new HorizonError('validation_failed', reason, { errors: [{ field, reason }], unavailable });
    }
  }

  /** The runtime group to call, or the reason this deployment will not serve the model: a 422 naming `model`
   * (runtime or prism members missing), 403 license_not_accepted; missing weights are checkSize's (a pull fixes
   * them, or auto-pull does). The problem carries the same unavailable_reason as GET /v1/models. */
  groupFor(modelId: string): string {
    const model = findModel(this.catalog, modelId);
    if (!model) throw new HorizonError(
      'validation_failed', `unknown model "${modelId}"`, { errors: [{ field: 'model', reason: `unknown model "${modelId}"` }] },
    );
    const unavailable = this.unavailableReason(model);
    if (unavailable?.code === 'runtime_not_installed' || unavailable?.code === 'members_unavailable') {
      const reason = `model "${modelId}" is not served by this deployment: ${unavailable.detail}; served: ${this.availableIds().join(', ')}`;
      throw new HorizonError('validation_failed', reason, { errors: [{ field: 'model', reason }], unavailable });
    }
    if (unavailable?.code === 'license_not_accepted') {
      throw new HorizonError('license_not_accepted', `model "${modelId}" is not served by this deployment: ${unavailable.detail}`, { unavailable });
    }
    return model.group;
  }
}
