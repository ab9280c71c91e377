// Turns a forecast request that passed the JSON-schema shape check into what the model runtime's
// POST /infer takes (docs/runtime-protocol.md), enforcing api-contract.md B.1/B.2 and collecting
// every violation so that one 422 names them all.
//
// Decisions the contract leaves open:
// - Covariates are validated whatever the model: a request valid for one model is valid for every
//   model whose caps it fits; unused covariates are then dropped with a warning.
// - One error per array or index (its first bad element; the reason counts the others), so a long
//   broken series cannot bury the other errors.
// - context above max_context is capped with a warning; a series shorter than context is sent whole.
// - quantiles: [] is allowed and asks for the mean only.
// - future_variables needs future_variables_index (future values are never placed on guessed dates);
//   an index sent without values is still checked.
// - The runtime takes future names only among past names, so a model with future but no past
//   covariates gets the history of its known-future variables; past-only variables are dropped.
// - Runtime series always carry the three covariate objects, {} when empty.
// - The default model comes from the deployment; if it is not in the catalog that is a server bug
//   (plain Error), not a 422.
import type { Catalog, CatalogModel, Freq } from '../runtime/catalog.ts';
import { FREQS, findModel } from '../runtime/catalog.ts';
import type { FieldError } from '../errors.ts';
import type { ForecastDatesResult, ParsedIndex, ParseIndexResult } from './calendar.ts';
import { didYouMean, modelHint, suggestFreq } from './did-you-mean.ts';
import type { RuntimeSeries } from '../runtime/worker-protocol.ts';

// the runtime's series shape is the worker protocol's; re-exported for the forecasting code that builds it
export type { RuntimeBacktest, RuntimeSeries } from '../runtime/worker-protocol.ts';
import { dateAtStep, fillGaps, findContinuationError, forecastDates, gapSummary, parseDate, parseIndex } from './calendar.ts';
import { unusedCovariates } from './covariates.ts';

export type { FieldError };

export const DEFAULT_QUANTILES: readonly number[] = [0.1, 0.5, 0.9];
export const MAX_QUANTILE_LEVELS = 99;

export interface InputSeries {
  target: (number | null)[];
  index: string[];
  hist_variables?: Record<string, (number | null)[]>;
  future_variables?: Record<string, number[]>;
  future_variables_index?: string[];
  static_variables?: Record<string, number>;
}

export interface ForecastRequestBody {
  series: InputSeries[];
  horizon: number;
  freq: string;
  model?: string;
  model_size?: string;
  context?: number;
  quantiles?: number[];
}

/** One element of /infer's `series` (docs/runtime-protocol.md). */
export interface RequestWarning {
  series?: number;
  field: string;
  message: string;
}

export interface NormalizedRequest {
  model: string;
  size: string;
  freq: Freq;
  horizon: number;
  /** in the caller's order */
  quantiles: number[];
  /** the context in effect: requested or max_context, capped at max_context */
  context: number;
  series: RuntimeSeries[];
  /** forecastIndex[i] = the horizon dates forecast for series i */
  forecastIndex: string[][];
  warnings: RequestWarning[];
}

export class RequestValidationError extends Error {
  readonly errors: FieldError[];

  constructor(errors: FieldError[]) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(`${errors[0].field}: ${errors[0].reason}${more}`);
    this.name = 'RequestValidationError';
    this.errors = errors;
  }
}

/** What a value looks like in a reason: numbers as written, everything else as JSON. */
function show(value: unknown): string {
  return typeof value === 'number' || value === undefined ? String(value) : JSON.stringify(value);
}

/** `base.name`, or `base["odd name"]` when the name is not an identifier. */
function memberPath(base: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isFiniteOrNull = (v: unknown): boolean => v === null || isFiniteNumber(v);

/** Reports the first element of `values` that fails `isValid`, counting the rest. */
function checkElements(
  values: readonly unknown[], isValid: (v: unknown) => boolean, expected: string, path: string, series: number, errors: FieldError[],
): void {
  const first = values.findIndex((v) => !isValid(v));
  if (first === -1) return;
  const count = values.filter((v) => !isValid(v)).length;
  const others = count > 1 ? ` (${count} values of ${path} are not)` : '';
  errors.push({ series, field: `${path}[${first}]`, reason: `${show(values[first])} is not ${expected}${others}` });
}

function checkFreq(freq: string, errors: FieldError[]): Freq | undefined {
  if ((FREQS as readonly string[]).includes(freq)) return freq as Freq;
  const suggestion = typeof freq === 'string' ? suggestFreq(freq) : null;
  errors.push({ field: 'freq', reason: `freq ${show(freq)} is not one of ${FREQS.join(', ')}${suggestion ? `; did you mean "${suggestion}"?` : ''}` });
  return undefined;
}

function resolveModel(requested: string | undefined, catalog: Catalog, defaultModel: string, errors: FieldError[]): CatalogModel | undefined {
  const id = requested ?? defaultModel;
  const model = findModel(catalog, id);
  if (model) return model;
  if (requested === undefined) throw new Error(`the default model ${show(defaultModel)} is not in the model catalog`);
  const valid = catalog.models.map((m) => m.id).join(', ');
  errors.push({ field: 'model', reason: `model ${show(id)} is not a known model id${modelHint(id, catalog.models.map((m) => m.id))}; valid ids: ${valid}` });
  return undefined;
}

function resolveSize(model: CatalogModel, requested: string | undefined, errors: FieldError[]): string | undefined {
  const size = requested ?? model.default_size;
  if (Object.hasOwn(model.sizes, size)) return size;
  const sizes = Object.keys(model.sizes).join(', ');
  errors.push({ field: 'model_size', reason: `model_size ${show(size)} is not a size of model ${model.id}${didYouMean(size, Object.keys(model.sizes))}; ` +
    `its sizes: ${sizes}` });
  return undefined;
}

function checkHorizon(horizon: number, model: CatalogModel | undefined, size: string | undefined, errors: FieldError[]): number | undefined {
  if (!Number.isInteger(horizon) || horizon < 1) {
    errors.push({ field: 'horizon', reason: `horizon ${show(horizon)} is not an integer of at least 1` });
    return undefined;
  }
  // With an unknown model or size there is no cap to check; that error is reported on its own.
  if (!model || !size) return horizon;
  const cap = model.sizes[size].max_horizon;
  if (horizon > cap) {
    errors.push({ field: 'horizon', reason: `horizon ${horizon} exceeds the max_horizon ${cap} of model ${model.id} (size ${size})` });
    return undefined;
  }
  return horizon;
}

function resolveContext(
  requested: number | undefined, model: CatalogModel | undefined, size: string | undefined, errors: FieldError[], warnings: RequestWarning[],
): number | undefined {
  if (requested !== undefined && (!Number.isInteger(requested) || requested < 1)) {
    errors.push({ field: 'context', reason: `context ${show(requested)} is not an integer of at least 1` });
    return undefined;
  }
  if (!model || !size) return undefined;
  const cap = model.sizes[size].max_context;
  if (requested === undefined) return cap;
  if (requested > cap) {
    warnings.push({ field: 'context', message: `context ${requested} exceeds the max_context ${cap} of model ${model.id} (size ${size}); using ${cap}` });
    return cap;
  }
  return requested;
}

function checkQuantiles(quantiles: readonly number[], errors: FieldError[]): void {
  if (quantiles.length > MAX_QUANTILE_LEVELS) {
    errors.push({ field: 'quantiles', reason: `${quantiles.length} quantile levels requested; at most ${MAX_QUANTILE_LEVELS} are allowed` });
    return;
  }
  for (const [j, level] of quantiles.entries()) {
    const field = `quantiles[${j}]`;
    const earlier = quantiles.indexOf(level);
    if (!isFiniteNumber(level) || level <= 0 || level >= 1) {
      errors.push({ field, reason: `quantile level ${show(level)} is not strictly between 0 and 1` });
    } else if (earlier < j) {
      errors.push({ field, reason: `quantile level ${level} repeats quantiles[${earlier}]` });
    }
  }
}

/** parseIndex that reuses the previous series' result (never mutated) when its dates are the same
 * strings: a panel's series usually share one index, and comparing strings costs a fraction of
 * parsing them (bench/README.md, "control plane at batch 256"). */
function indexParser(freq: Freq): (dates: readonly string[]) => ParseIndexResult {
  let last: { dates: readonly string[]; parsed: ParseIndexResult } | undefined;
  return (dates) => {
    if (!last || !sameStrings(last.dates, dates)) last = { dates, parsed: parseIndex(freq, dates) };
    return last.parsed;
  };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true; // by reference, series on one grid share their index (stored-payload.ts)
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** A 422 for each series with some, but fewer than `minimum`, observed values (none is checkSeries' error). */
function checkObservedCount(series: readonly InputSeries[], minimum: number, errors: FieldError[]): void {
  for (const [i, { target }] of series.entries()) {
    const observed = target.filter((v) => typeof v === 'number').length;
    if (observed === 0 || observed >= minimum) continue;
    errors.push({
      series: i, field: `series[${i}].target`,
      reason: `series ${i} has ${observed} observed value; a forecast needs at least ${minimum}: from one value no model can estimate a step or a spread, ` +
        `and its interval would have zero width`,
    });
  }
}

/** Checks one series on its own; returns its parsed index when the series has no error. */
function checkSeries(
  i: number, series: InputSeries, freq: Freq | undefined, horizon: number | undefined, errors: FieldError[],
  parse: ((dates: readonly string[]) => ParseIndexResult) | undefined,
): ParsedIndex | undefined {
  const errorsBefore = errors.length;
  const at = `series[${i}]`;
  const { target, index: dates } = series;

  checkElements(target, isFiniteOrNull, 'a finite number or null', `${at}.target`, i, errors);
  if (!target.some((v) => v !== null)) {
    const what = target.length === 0 ? 'is empty' : `holds only null (${target.length} values)`;
    errors.push({ series: i, field: `${at}.target`, reason: `target of series ${i} ${what}; at least one observed value is needed` });
  }
  if (dates.length !== target.length) {
    errors.push({ series: i, field: `${at}.index`, reason: `index has ${dates.length} dates but target has ${target.length} values; they ` +
      `must be the same length` });
  }

  let index: ParsedIndex | undefined;
  if (parse && dates.length > 0) {
    const parsed = parse(dates);
    if (parsed.ok) index = parsed.index;
    else errors.push({ series: i, field: `${at}.index[${parsed.error.position}]`, reason: parsed.error.reason });
  }

  const hist = series.hist_variables ?? {};
  for (const [name, values] of Object.entries(hist)) {
    const path = memberPath(`${at}.hist_variables`, name);
    if (values.length !== dates.length) {
      errors.push({ series: i, field: path, reason: `hist variable ${show(name)} has ${values.length} values but index has ${dates.length} dates; they ` +
        `must be the same length` });
    }
    checkElements(values, isFiniteOrNull, 'a finite number or null', path, i, errors);
  }

  checkFuture(i, series, hist, freq, horizon, index, errors);

  for (const [name, value] of Object.entries(series.static_variables ?? {})) {
    if (!isFiniteNumber(value)) {
      errors.push({ series: i, field: memberPath(`${at}.static_variables`, name), reason: `static variable ${show(name)} is ${show(value)}, ` +
        `not a finite number` });
    }
  }
  return errors.length === errorsBefore ? index : undefined;
}

function checkFuture(
  i: number, series: InputSeries, hist: Record<string, unknown>, freq: Freq | undefined, horizon: number | undefined, index: ParsedIndex | undefined,
  errors: FieldError[],
): void {
  const at = `series[${i}]`;
  const future = series.future_variables ?? {};
  const futureDates = series.future_variables_index;
  for (const [name, values] of Object.entries(future)) {
    const path = memberPath(`${at}.future_variables`, name);
    if (!Object.hasOwn(hist, name)) {
      errors.push({ series: i, field: path, reason: `future variable ${show(name)} has no history in hist_variables; a future variable must also ` +
        `be a historical one` });
    }
    if (futureDates && values.length !== futureDates.length) {
      errors.push({ series: i, field: path, reason: `future variable ${show(name)} has ${values.length} values but future_variables_index ` +
        `has ${futureDates.length} dates; they must be the same length` });
    }
    checkElements(values, isFiniteNumber, 'a finite number', path, i, errors);
  }

  const datesPath = `${at}.future_variables_index`;
  if (!futureDates) {
    if (Object.keys(future).length > 0) {
      errors.push({ series: i, field: datesPath, reason: 'future_variables_index is required with future_variables: it gives the dates of the future values' });
    }
    return;
  }
  if (horizon !== undefined && futureDates.length < horizon) {
    errors.push({ series: i, field: datesPath, reason: `future_variables_index has ${futureDates.length} dates but horizon is ${horizon}; it must cover ` +
      `at least the horizon` });
  }
  if (index) {
    const error = findContinuationError(index, futureDates);
    if (error) errors.push({ series: i, field: `${datesPath}[${error.position}]`, reason: error.reason });
  } else if (freq) {
    // Without a valid index there is no grid to continue, but malformed dates can still be named.
    for (const [position, date] of futureDates.entries()) {
      const parsed = parseDate(freq, date);
      if (!parsed.ok) {
        errors.push({ series: i, field: `${datesPath}[${position}]`, reason: parsed.reason });
        break;
      }
    }
  }
}

interface Settings {
  model: CatalogModel;
  freq: Freq;
  horizon: number;
  context: number;
  /** forecast dates by parsed index: series that share an index share its dates */
  forecastDates: Map<ParsedIndex, ForecastDatesResult>;
}

/** Lays a checked series on its grid, keeps the context window and routes covariates. */
function buildSeries(
  i: number, series: InputSeries, index: ParsedIndex, settings: Settings, errors: FieldError[], warnings: RequestWarning[],
): { runtime: RuntimeSeries; dates: string[] } | undefined {
  const { steps, grid } = index;
  const { context, horizon } = settings;
  const fromStep = Math.max(0, steps[steps.length - 1] + 1 - context);
  const target = fillGaps(series.target, steps, fromStep);
  if (!target.some((v) => v !== null)) {
    errors.push({ series: i, field: 'context', reason: `the last ${context} steps of series ${i} (context ${context}) hold no observed target value; raise ` +
      `context or send more recent observations` });
    return undefined;
  }
  let forecast = settings.forecastDates.get(index);
  if (!forecast) settings.forecastDates.set(index, forecast = forecastDates(index, horizon));
  if (!forecast.ok) {
    errors.push({ series: i, field: 'horizon', reason: `the forecast of series ${i} cannot be dated: ${forecast.reason}` });
    return undefined;
  }
  const gaps = gapSummary(steps);
  if (gaps.firstMissingStep !== null) {
    warnings.push({
      series: i,
      field: `series[${i}].index`,
      message: `series ${i} misses ${gaps.missing} step(s) of the ${grid.freq} grid (first ${dateAtStep(grid, gaps.firstMissingStep)}); they ` +
        `were filled with null`,
    });
  }
  const covariates = routeCovariates(i, series, settings, (values) => fillGaps(values, steps, fromStep), warnings);
  const dates = settings.model.uses_dates
    ? { index: target.map((_, k) => dateAtStep(grid, fromStep + k)), forecast_index: forecast.dates }
    : {};
  return { runtime: { target, ...covariates, ...dates }, dates: forecast.dates };
}

/** The series without its last `k` steps, forecasting them: what a backtest and prism's weight window send.
 * Known-future covariates take their held-out history as future values (missing ones as 0); dates follow. */
export function holdOutTail(series: RuntimeSeries, k: number): RuntimeSeries {
  const n = series.target.length;
  return {
    target: series.target.slice(0, n - k),
    past_covariates: Object.fromEntries(Object.entries(series.past_covariates).map(([name, v]) => [name, v.slice(0, n - k)])),
    future_covariates: Object.fromEntries(
      Object.keys(series.future_covariates).map((name) => [name, series.past_covariates[name].slice(n - k).map((v) => v ?? 0)]),
    ),
    static_covariates: series.static_covariates,
    ...(series.index && { index: series.index.slice(0, n - k), forecast_index: series.index.slice(n - k) }),
  };
}

/** Keeps the covariates the model uses (catalog flags) and names the dropped ones in warnings. */
function routeCovariates(
  i: number, series: InputSeries, settings: Settings, onGrid: (values: (number | null)[]) => (number | null)[], warnings: RequestWarning[],
): Omit<RuntimeSeries, 'target'> {
  const { model, horizon } = settings;
  const uses = model.covariates;
  const hist = series.hist_variables ?? {};
  const future = uses.future ? (series.future_variables ?? {}) : {};
  const statics = uses.static ? (series.static_variables ?? {}) : {};
  const pastNames = Object.keys(hist).filter((name) => uses.past || Object.hasOwn(future, name));
  for (const { field, names, why } of unusedCovariates(uses, series)) {
    warnings.push({ series: i, field: `series[${i}].${field}`, message: `model ${model.id} ${why}; ignored ${field} of series ${i}: ${names.join(', ')}` });
  }

  // fromEntries defines own properties, so a variable called "__proto__" stays a plain key.
  return {
    past_covariates: Object.fromEntries(pastNames.map((name) => [name, onGrid(hist[name])])),
    future_covariates: Object.fromEntries(Object.entries(future).map(([name, values]) => [name, values.slice(0, horizon)])),
    static_covariates: Object.fromEntries(Object.entries(statics)),
  };
}

/** Validates a schema-checked body against the catalog and builds the runtime request; throws RequestValidationError listing every problem. */
/** The observed values a request's own series needs (docs/decisions.md): from one value no model estimates a step or a
 * spread, so its forecast would repeat it inside a zero-width interval. Windows that backtests, cross-validation, auto and
 * anomalies cut from a series are not requests and keep the one-value minimum. */
export const MIN_REQUEST_OBSERVED = 2;

export function normalizeForecastRequest(
  body: ForecastRequestBody, catalog: Catalog, defaultModel: string, options: { minObserved?: number } = {},
): NormalizedRequest {
  const errors: FieldError[] = [];
  const warnings: RequestWarning[] = [];

  const freq = checkFreq(body.freq, errors);
  const model = resolveModel(body.model, catalog, defaultModel, errors);
  const size = model && resolveSize(model, body.model_size, errors);
  const horizon = checkHorizon(body.horizon, model, size, errors);
  const context = resolveContext(body.context, model, size, errors, warnings);
  const quantiles = body.quantiles ?? [...DEFAULT_QUANTILES];
  checkQuantiles(quantiles, errors);
  if (body.series.length === 0) errors.push({ field: 'series', reason: 'series is empty; send at least one series' });

  const parse = freq && indexParser(freq);
  const indexes = body.series.map((series, i) => checkSeries(i, series, freq, horizon, errors, parse));
  if (options.minObserved) checkObservedCount(body.series, options.minObserved, errors);

  const series: RuntimeSeries[] = [];
  const forecastIndex: string[][] = [];
  if (model && freq && horizon !== undefined && context !== undefined) {
    const settings = { model, freq, horizon, context, forecastDates: new Map() };
    for (const [i, index] of indexes.entries()) {
      const built = index && buildSeries(i, body.series[i], index, settings, errors, warnings);
      if (built) {
        series.push(built.runtime);
        forecastIndex.push(built.dates);
      }
    }
  }
  if (errors.length > 0) throw new RequestValidationError(errors);
  // Each setting is undefined only after pushing an error, so all are set here.
  return { model: model!.id, size: size!, freq: freq!, horizon: horizon!, quantiles, context: context!, series, forecastIndex, warnings };
}
