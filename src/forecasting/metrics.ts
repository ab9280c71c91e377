// Used by the service (backtest `metrics`, contract B.5) and by the evaluation harness (eval/).
// Point and probabilistic forecast metrics, as defined in shared/research/data.md section C
// (the M4 / gluonts conventions the published reference numbers use). Lower is better for all.
// Per-series functions return one number; dataset aggregates are plain means over series (MASE,
// sMAPE), except WQL, which gluonts weights over the whole dataset (see `wql`).

/** Mean |y_t − y_{t−m}| over the training part: the in-sample seasonal-naive error that scales MASE. */
export function seasonalScale(train: number[], m: number): number {
  if (train.length <= m) throw new Error(`MASE needs more than m = ${m} training points, got ${train.length}`);
  let sum = 0;
  for (let t = m; t < train.length; t++) sum += Math.abs(train[t] - train[t - m]);
  return sum / (train.length - m);
}

/** MASE of one series: mean |y − ŷ| over the test window divided by `seasonalScale(train, m)`. */
export function mase(actual: number[], forecast: number[], train: number[], m: number): number {
  sameLength(actual, forecast);
  let sum = 0;
  for (let t = 0; t < actual.length; t++) sum += Math.abs(actual[t] - forecast[t]);
  return sum / actual.length / seasonalScale(train, m);
}

/** sMAPE of one series in percent (M4): mean of 200·|y − ŷ| / (|y| + |ŷ|); a 0/0 step counts as 0. */
export function smape(actual: number[], forecast: number[]): number {
  sameLength(actual, forecast);
  let sum = 0;
  for (let t = 0; t < actual.length; t++) {
    const denominator = Math.abs(actual[t]) + Math.abs(forecast[t]);
    if (denominator > 0) sum += (200 * Math.abs(actual[t] - forecast[t])) / denominator;
  }
  return sum / actual.length;
}

/** Pinball (quantile) loss summed over the steps: Σ |(y − ŷ_q)·(1{y ≤ ŷ_q} − q)|. */
export function quantileLoss(actual: number[], forecast: number[], q: number): number {
  sameLength(actual, forecast);
  let sum = 0;
  for (let t = 0; t < actual.length; t++) {
    const diff = actual[t] - forecast[t];
    sum += Math.abs(diff * ((actual[t] <= forecast[t] ? 1 : 0) - q));
  }
  return sum;
}

/** One series' test values and its quantile forecasts keyed by level. */
export interface QuantileForecast { actual: number[]; quantiles: Map<number, number[]> }

/**
 * WQL (gluonts MeanWeightedSumQuantileLoss, GIFT-Eval's CRPS proxy): for each level q,
 * 2·Σ quantile loss / Σ |y| with both sums over every series and step of the dataset, then the mean
 * over the levels. Pass a single series for a per-series score.
 */
export function wql(items: QuantileForecast[], levels: number[]): number {
  let scale = 0;
  for (const { actual } of items) for (const y of actual) scale += Math.abs(y);
  if (scale === 0) throw new Error('WQL is undefined when every actual value is 0');
  let total = 0;
  for (const q of levels) {
    let loss = 0;
    for (const { actual, quantiles } of items) {
      const forecast = quantiles.get(q);
      if (!forecast) throw new Error(`no forecast for quantile ${q}`);
      loss += quantileLoss(actual, forecast, q);
    }
    total += (2 * loss) / scale;
  }
  return total / levels.length;
}

export function mean(values: number[]): number {
  if (values.length === 0) throw new Error('mean of no values');
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function sameLength(actual: number[], forecast: number[]): void {
  if (actual.length !== forecast.length || actual.length === 0) {
    throw new Error(`actual (${actual.length}) and forecast (${forecast.length}) must be non-empty and equally long`);
  }
}

/** Coverage of a central interval: the fraction of steps whose actual lies within [lower, upper]. */
export function coverage(actual: number[], lower: number[], upper: number[]): number {
  sameLength(actual, lower);
  sameLength(actual, upper);
  let inside = 0;
  for (let t = 0; t < actual.length; t++) if (actual[t] >= lower[t] && actual[t] <= upper[t]) inside++;
  return inside / actual.length;
}
