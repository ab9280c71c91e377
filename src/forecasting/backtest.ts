// Backtest `metrics` (contract B.5): on request, the tail of each series' history is held out,
// forecast with the same model, size and quantiles, and scored with the same metric code as the
// evaluation harness (src/forecasting/metrics.ts). Charged with the request it belongs to (one unit).
//
// Decisions: holdout defaults to the horizon (capped by max_horizon like any horizon); the MASE
// season length defaults to the catalog's for the freq, and falls back to 1 for a series whose
// training part is not longer than it; WQL uses the request's quantile levels (null when none); the
// held-out actuals must all be observed (no nulls); a covariate known in the future is, for the
// holdout window, its own historical values there. A MASE or WQL with a zero scale is null.
import type { Catalog } from '../runtime/catalog.ts';
import { findModel } from '../runtime/catalog.ts';
import { holdOutTail, RequestValidationError, type NormalizedRequest, type RuntimeSeries } from './normalize.ts';
import type { FieldError } from '../errors.ts';
import type { InferRequest, InferResponse } from '../runtime/inference.ts';
import { mase, mean, seasonalScale, smape, wql } from './metrics.ts';

export interface EvaluationOptions { holdout?: number; season_length?: number }

export interface BacktestPlan {
  holdout: number;
  seasonLength: number;
  /** per series: the training part and the held-out actuals */
  train: number[][];
  actual: number[][];
  request: InferRequest;
}

export interface SeriesScores { mase: number | null; wql: number | null; smape: number }

export interface BacktestMetrics {
  holdout: number;
  season_length: number;
  quantiles: number[];
  aggregate: { mase: number | null; wql: number | null; smape: number };
  series: SeriesScores[];
}

export function planBacktest(options: EvaluationOptions, request: NormalizedRequest, catalog: Catalog): BacktestPlan {
  const maxHorizon = findModel(catalog, request.model)!.sizes[request.size].max_horizon;
  const holdout = options.holdout ?? request.horizon;
  const seasonLength = options.season_length ?? catalog.season_length[request.freq];
  const errors: FieldError[] = [];
  if (holdout > maxHorizon) errors.push({ field: 'evaluation.holdout', reason: `must be at most the model's max_horizon ${maxHorizon}, got ${holdout}` });
  const train: number[][] = [];
  const actual: number[][] = [];
  const series: RuntimeSeries[] = [];
  request.series.forEach((s, i) => {
    const n = s.target.length;
    if (n <= holdout) {
      errors.push({ series: i, field: `series[${i}].target`, reason: `a backtest holding out ${holdout} steps needs more than ${holdout} observations in ` +
        `the context, got ${n}` });
      return;
    }
    const held = s.target.slice(n - holdout);
    const missing = held.findIndex((v) => v === null);
    if (missing >= 0) {
      errors.push({ series: i, field: `series[${i}].target[${n - holdout + missing}]`, reason: 'the held-out tail of a backtest must be observed, but ' +
        'this value is missing' });
      return;
    }
    const head = s.target.slice(0, n - holdout);
    if (head.every((v) => v === null)) {
      errors.push({ series: i, field: `series[${i}].target`, reason: `nothing observed before the ${holdout} held-out steps` });
      return;
    }
    train.push(head.filter((v): v is number => v !== null));
    actual.push(held as number[]);
    series.push(holdOutTail(s, holdout));
  });
  if (errors.length) throw new RequestValidationError(errors);
  return {
    holdout, seasonLength, train, actual,
    request: { model: request.model, size: request.size, freq: request.freq, horizon: holdout, quantiles: request.quantiles, series },
  };
}

function finiteOrNull(compute: () => number): number | null {
  try {
    const value = compute();
    return Number.isFinite(value) ? value : null;
  } catch { return null; }
}

export function scoreBacktest(plan: BacktestPlan, answer: InferResponse, quantiles: number[]): BacktestMetrics {
  const byLevel = (i: number) => new Map(Object.entries(answer.predictions[i].quantiles).map(([k, v]) => [Number(k), v]));
  const items = plan.actual.map((actual, i) => ({ actual, quantiles: byLevel(i) }));
  const scores = plan.actual.map((actual, i): SeriesScores => {
    const train = plan.train[i];
    const m = train.length > plan.seasonLength ? plan.seasonLength : 1;
    return {
      mase: finiteOrNull(() => (seasonalScale(train, m) === 0 ? NaN : mase(actual, answer.predictions[i].mean, train, m))),
      wql: quantiles.length ? finiteOrNull(() => wql([items[i]], quantiles)) : null,
      smape: smape(actual, answer.predictions[i].mean),
    };
  });
  const defined = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const maseValues = defined(scores.map((s) => s.mase));
  return {
    holdout: plan.holdout,
    season_length: plan.seasonLength,
    quantiles,
    aggregate: {
      mase: maseValues.length ? mean(maseValues) : null,
      wql: quantiles.length ? finiteOrNull(() => wql(items, quantiles)) : null,
      smape: mean(scores.map((s) => s.smape)),
    },
    series: scores,
  };
}
