// The shapes of the control plane ↔ worker protocol (docs/runtime-protocol.md): what /infer and /embed take and
// answer. In a module of their own so that the client (inference.ts), the encoding (wire.ts) and the
// code that builds requests (forecasting/) share them without importing one another.

export interface RuntimeSeries {
  target: (number | null)[];
  past_covariates: Record<string, (number | null)[]>;
  future_covariates: Record<string, number[]>;
  static_covariates: Record<string, number>;
  /** the dates of `target`'s values and of the horizon, only for models whose catalog entry says uses_dates */
  index?: string[];
  forecast_index?: string[];
  /** validation forecasts from the same fit, for models with refit_free_backtest (docs/runtime-protocol.md) */
  backtest?: RuntimeBacktest;
  /** also the fit's in-sample one-step fitted values and intervals over the whole target (statistical models:
   * refit_free_backtest; docs/runtime-protocol.md "in_sample") */
  in_sample?: boolean;
}

/** The `window` values from each cutoff n − window − (k − 1)·step, k = 1..origins, forecast too: from the
 * whole-history fit (refit absent or 'none'), or from that fit's form fitted again before each cutoff ('form'). */
export interface RuntimeBacktest { window: number; origins: number; step: number; refit?: 'none' | 'form' }

export interface InferRequest {
  model: string;
  size: string;
  freq: string;
  horizon: number;
  quantiles: number[];
  series: RuntimeSeries[];
  /** forecast the series jointly, as one group (models with catalog `multivariate`; never coalesced nor chunked) */
  multivariate?: boolean;
  /** sample paths per series (models with catalog `sample_paths`), drawn from seeds of the series' values and `seed` */
  samples?: number;
  seed?: number;
  /** also each covariate's contribution to the mean (SHAP values; docs/runtime-protocol.md "explain") */
  explain?: boolean;
}

/** A series' feature contributions: base + Σ features = mean at every step. */
export interface Contributions { base: number[]; features: Record<string, number[]> }

export interface Prediction {
  mean: number[]; quantiles: Record<string, number[]>;
  /** with a series' `backtest`: the forecast from each cutoff k = 1..origins (window values each) */
  backtest?: { mean: number[]; quantiles: Record<string, number[]> }[];
  /** with a series' `in_sample`: one value per target value, NaN where the model fits nothing */
  in_sample?: { mean: number[]; quantiles: Record<string, number[]> };
  /** with the request's `samples`: the sample paths, samples × horizon values */
  samples?: number[][];
  /** with `explain`: each covariate's contribution to `mean` */
  contributions?: Contributions;
}

export interface InferResponse {
  model: string;
  size: string;
  predictions: Prediction[];
  warnings: string[];
  timing: Record<string, number>;
}

export interface LoadResponse { model: string; size: string; load_ms: number; device: string; already_loaded: boolean }

/** A bottom series of POST /hierarchy/aggregate: its values on the request's one integer grid, at `index_pos` (one position per
 * value, increasing) or from `start` (default 0) on. */
export interface HierarchySeries { target: (number | null)[]; index_pos?: number[]; start?: number }

/** POST /hierarchy/aggregate (docs/runtime-protocol.md "Hierarchies"): the bottom series and one form of hierarchy: labels and
 * levels (a "total" node added on top), explicit aggregates (node name → series indices; `names`: the series' node names,
 * default `series[i]`), or temporal levels (each series with its sums over `k` consecutive steps, coarsest first). */
export type HierarchyAggregateRequest = { series: HierarchySeries[] } & (
  | { labels: Record<string, string>[]; levels: string[][] }
  | { aggregates: Record<string, number[]>; names?: string[] }
  | { temporal: { name: string; k: number }[] }
);

/** A node: `series` the input series it sums; `target` its values from grid position `start` to the grid's last step (null where
 * none of its series has a value); temporal nodes: `k`, the steps each value sums (`start` the first one's position). */
export interface HierarchyNode {
  id: string; level: string; parent: string | null; series: number[]; target: (number | null)[]; start: number; k?: number;
}

/** `S`: one row per node (bottom nodes last, in the series' order), one 0/1 column per series; `tags`: level → node ids, top
 * to bottom. Both null for the temporal form (the reconcile call builds them from `temporal`). */
export interface HierarchyAggregateResponse { nodes: HierarchyNode[]; S: number[][] | null; tags: Record<string, string[]> | null }

/** A node's base or reconciled forecast: quantile keys as the worker writes them ("0.1"). */
export interface HierarchyForecast { mean: number[]; quantiles: Record<string, number[]> }

/** A node's history for methods and intervals that need it: `fitted` the model's in-sample values (null: none); aligned at
 * `start` (a grid position) when given, else at the end (every node's history ending on the same step). */
export interface HierarchyInSample { target: (number | null)[]; fitted?: (number | null)[] | null; start?: number }

/** POST /hierarchy/reconcile. method: bottom_up, top_down (= top_down_forecast_proportions), top_down_average_proportions,
 * top_down_proportion_averages, middle_out (forecast proportions; needs `reconcile_level`), middle_out_average_proportions,
 * middle_out_proportion_averages, ols, wls_struct, wls_var (default), mint_shrink, mint_cov, erm (ERM closed form).
 * intervals: normality (default), bootstrap, permbu. `quantiles`: the levels to answer; each q ≠ 0.5 needs q and 1 − q in
 * every base forecast. Cross-sectional: node_ids, S and tags as the aggregate answer gives them. Temporal: `temporal` (the
 * aggregate request's) instead, `base` one per node in the aggregate answer's order. */
export interface HierarchyReconcileRequest {
  node_ids?: string[]; S?: number[][]; tags?: Record<string, string[]>; temporal?: { name: string; k: number }[];
  method?: string; intervals?: string; reconcile_level?: string | null; quantiles: number[]; seed?: number;
  base: HierarchyForecast[]; in_sample?: HierarchyInSample[] | null;
}

/** One reconciled forecast per node; `method` and `intervals` what was used (a fallback says why in `warnings`). */
export interface HierarchyReconcileResponse { reconciled: HierarchyForecast[]; method: string; intervals: string; warnings: string[] }

/** POST /embed: the series' encoder embeddings (models with catalog `embeddings`). */
export interface EmbedRequest {
  model: string;
  size: string;
  /** 'patch': also a vector per patch and the summary token (catalog `embeddings.patches`) */
  granularity: 'series' | 'patch';
  series: { target: (number | null)[] }[];
}

/** One series' embeddings: `patches` (null for a patch without an observed value) and `summary` with granularity 'patch'. */
export interface WorkerEmbedding { vector: number[]; patches?: (number[] | null)[]; summary?: number[] | null }

export interface EmbedResponse {
  model: string;
  size: string;
  dimension: number;
  patch_size: number;
  embeddings: WorkerEmbedding[];
  warnings: string[];
  timing: Record<string, number>;
}
