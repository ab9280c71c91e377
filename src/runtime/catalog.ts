// The model catalog (catalog/models.json) is the one source of model ids, sizes, caps, covariate
// support, licences and runtime groups; the Python runtime reads the same file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Freq = 'MS' | 'D' | 'W' | 'H' | 'Q' | 'Y';
export const FREQS: readonly Freq[] = ['MS', 'D', 'W', 'H', 'Q', 'Y'];

export interface SizeInfo {
  max_context: number;
  max_horizon: number;
  /** the Hugging Face repo id of the published checkpoint */
  checkpoint?: string;
  params?: string;
  /** what `horizon models pull` resolves: a branch, tag or pinned commit */
  revision?: string;
  /** approximate download size of a pull (published file size, else parameters × 4 bytes) */
  download_mb?: number;
}

export interface Covariates { past: boolean; future: boolean; static: boolean }

export interface License {
  id: string;
  name: string;
  commercial: boolean;
  requires_opt_in: boolean;
}

export interface CatalogModel {
  id: string;
  name: string;
  description: string;
  adapter: string;
  group: string;
  default_size: string;
  sizes: Record<string, SizeInfo>;
  covariates: Covariates;
  license: License;
  /** the model's features need the series' dates: /infer carries `index` and `forecast_index` (TabPFN-TS) */
  uses_dates?: boolean;
  /** the repo files the adapter loads (allow_patterns of a pull); absent for models without weights */
  weights?: { files: string[] };
  /** the worker answers a series' `backtest` (validation forecasts from one fit: statsforecast's forward()) */
  refit_free_backtest?: boolean;
  /** what one series costs to fit and forecast, for the estimate of a request's model time
   * (src/forecasting/cost.ts); absent: estimated 0 (the foundation models: never refused, never chunked) */
  cost?: ModelCost;
  /** its library forecasts a request's series jointly (`multivariate: true`; the adapter's predict_joint): at most
   * `max_series` together, with covariates only where `covariates` */
  multivariate?: { max_series: number; covariates: boolean };
  /** its library draws sample paths (`samples: N`; the adapter's sample_paths) */
  sample_paths?: boolean;
  /** its library gives encoder embeddings (POST /v1/embeddings; the adapter's embed_batch): one vector per series, and per
   * patch of `patch_size` values where `patches` */
  embeddings?: { patches: boolean; patch_size: number };
}

/** A series of n observations (n capped at the size's max_context) with season length m costs
 * ms_per_series + us_per_point · n / 1000 · max(1, m / 12) ms of one core. Measured with
 * bench/model_cost.py (README, "Jobs of any size"); chosen conservative (rounded up). */
export interface ModelCost { ms_per_series: number; us_per_point: number }

export interface Catalog {
  season_length: Record<Freq, number>;
  /** mstl's season lengths per freq (read by the worker) */
  mstl_season_lengths?: Partial<Record<Freq, number[]>>;
  default_model: string;
  groups: Record<string, { description: string; in_process?: boolean }>;
  models: CatalogModel[];
}

export const CATALOG_PATH = fileURLToPath(new URL('../../catalog/models.json', import.meta.url));

export function loadCatalog(path: string = CATALOG_PATH): Catalog {
  const catalog = JSON.parse(readFileSync(path, 'utf8')) as Catalog;
  const bad = catalogCostProblems(catalog);
  if (bad.length) throw new Error(`${path}: ${bad.join('; ')}`);
  return catalog;
}

/** What is wrong with the catalog's `cost` fields (each a sentence; empty when they are fine). */
export function catalogCostProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  for (const model of catalog.models) {
    if (model.cost === undefined) continue;
    const cost = model.cost as unknown as Record<string, unknown>;
    if (typeof cost !== 'object' || cost === null) { problems.push(`model ${model.id}: cost must be {"ms_per_series", "us_per_point"}`); continue; }
    for (const key of ['ms_per_series', 'us_per_point']) {
      const value = cost[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) problems.push(`model ${model.id}: cost.${key} must be a non-negative number, ` +
        `got ${JSON.stringify(value)}`);
    }
    const extra = Object.keys(cost).filter((k) => k !== 'ms_per_series' && k !== 'us_per_point');
    if (extra.length) problems.push(`model ${model.id}: cost has unknown field(s) ${extra.join(', ')}`);
  }
  return problems;
}

export function findModel(catalog: Catalog, id: string): CatalogModel | undefined {
  return catalog.models.find((m) => m.id === id);
}

/** A model fitted on the CPU (the statistical models and baselines: those with a catalog `cost`); its calls
 * take the CPU fair chunk (InferenceClient.chunkSeriesFor). */
export function isCpuModel(catalog: Catalog, id: string): boolean {
  return Boolean(findModel(catalog, id)?.cost);
}

export function supportsCovariates(model: CatalogModel): boolean {
  return model.covariates.past || model.covariates.future || model.covariates.static;
}
