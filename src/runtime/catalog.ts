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
}

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
  return JSON.parse(readFileSync(path, 'utf8')) as Catalog;
}

export function findModel(catalog: Catalog, id: string): CatalogModel | undefined {
  return catalog.models.find((m) => m.id === id);
}

export function supportsCovariates(model: CatalogModel): boolean {
  return model.covariates.past || model.covariates.future || model.covariates.static;
}
