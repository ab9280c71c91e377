// The shapes of the control plane ↔ worker protocol (docs/runtime-protocol.md): what /infer takes and
// answers. In a module of their own so that the client (inference.ts), the encoding (wire.ts) and the
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
