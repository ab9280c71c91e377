// The exogenous columns of a Nixtla SDK call as the user knows them. The SDK sends X by position, never by name
// (nixtla==0.9.0 _payloads.py): forecast puts X_df's columns first, then hist_exog_list's; cross-validation df's
// columns not in hist_exog_list, then hist_exog_list's (hist_exog holds their positions); anomaly detection df's.
// An error about a column names it in those terms, since Horizon's own names (x0, x1, …) mean nothing to the user.
import type { Covariates } from '../../runtime/catalog.ts';

/** The exogenous columns of an SDK call, by their position in its X (the SDK sends no names): how the user knows each
 * (X_df's k-th column, hist_exog_list[k], df's k-th exogenous column), sorted into Horizon's kinds. */
export interface SdkColumns {
  /** columns with future values (known in the future) */
  future: string[];
  /** historical-only columns */
  hist: string[];
  /** how the positions count, said once in an error */
  note: string;
  /** the SDK argument that carries each kind (the field of a 422) */
  fields: { future: string; hist: string };
}

export function kindsOf(columns: SdkColumns): Covariates | undefined {
  return columns.future.length || columns.hist.length ? { past: columns.hist.length > 0, future: columns.future.length > 0, static: false } : undefined;
}

/** The columns of X as the user knows them (SdkColumns). Forecast: X_df's columns after the id and time
 * columns (in X_df's order, date features last), then hist_exog_list's (the SDK's _validate_exog order). */
export function forecastColumns(columns: number, future: number): SdkColumns {
  return {
    future: Array.from({ length: Math.min(future, columns) }, (_, j) => `X_df column #${j + 1}`),
    hist: Array.from({ length: Math.max(0, columns - future) }, (_, k) => `hist_exog_list[${k}]`),
    note: 'X_df column #k: the k-th of X_df\'s columns after the id and time columns; the SDK sends columns by position, not by name',
    fields: { future: 'X_df', hist: 'hist_exog_list' },
  };
}

/** Cross-validation: hist_exog[k] is the position of hist_exog_list[k]; the other columns are df's exogenous columns
 * not in hist_exog_list, in df's order (known in the future: each window takes their history). */
export function crossValidationColumns(columns: number, histExog: readonly number[]): SdkColumns {
  const future = Array.from({ length: columns }, (_, j) => j).filter((j) => !histExog.includes(j));
  return {
    future: future.map((_, i) => `df exogenous column #${i + 1}`),
    hist: histExog.map((_, k) => `hist_exog_list[${k}]`),
    note: 'df exogenous column #k: the k-th of df\'s columns besides id, time, target and hist_exog_list; the SDK sends columns by position, not by name',
    fields: { future: 'df', hist: 'hist_exog_list' },
  };
}

/** Anomaly detection: df's exogenous columns in df's order, historical only (the SDK sends no future values). */
export function anomalyColumns(columns: number): SdkColumns {
  return {
    future: [],
    hist: Array.from({ length: columns }, (_, j) => `df exogenous column #${j + 1}`),
    note: 'df exogenous column #k: the k-th of df\'s columns besides id, time and target; the SDK sends columns by position, not by name',
    fields: { future: 'df', hist: 'df' },
  };
}
