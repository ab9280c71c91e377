// Issue 34: a forecast of a request's series together (`multivariate: true`) and sample paths (`samples: N`),
// for the models whose pinned library does it (catalog `multivariate` and `sample_paths`; the worker's adapters
// predict_joint and sample_paths, docs/runtime-protocol.md). Everywhere else a 422 naming the models that can.
import type { CatalogModel } from '../runtime/catalog.ts';
import type { FieldError } from '../errors.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { covariateKinds, type SeriesCovariates } from './covariates.ts';
import { RequestValidationError } from './normalize.ts';

/** A request's fields for both (POST /v1/forecast and /v1/forecast-jobs). */
export interface JointAndSamples { multivariate?: boolean; samples?: number; seed?: number }

/** At most this many sample-path values per request (series × samples × horizon): the Nixtla SDK's own cap is
 * 10,000,000; a synchronous answer of this many numbers is already ~40 MB of JSON. */
export const MAX_SAMPLE_VALUES = 2_000_000;

/** The catalog models that forecast series jointly (catalog order). */
export function jointModels(registry: ModelRegistry): CatalogModel[] {
  return registry.catalog.models.filter((m) => m.multivariate !== undefined);
}

/** The catalog models that draw sample paths (catalog order). */
export function samplingModels(registry: ModelRegistry): CatalogModel[] {
  return registry.catalog.models.filter((m) => m.sample_paths === true);
}

/** "chronos-2 (served), toto-2 (`./horizon models pull toto-2 …`)": each model and whether this deployment serves it. */
export function describeModels(registry: ModelRegistry, models: readonly CatalogModel[]): string {
  const served = new Set(registry.availableIds());
  return models.map((m) => {
    if (served.has(m.id)) return `${m.id} (served)`;
    const why = registry.unavailableReason(m);
    return `${m.id} (not served${why?.command ? `: \`${why.command}\`` : why?.detail ? `: ${why.detail}` : ''})`;
  }).join(', ');
}

/** 422 for `multivariate` / `samples` / `seed` with model "auto" (or anything else that runs no single model). */
export function refuseJointAndSamples(body: object, what: string, registry: ModelRegistry): void {
  const { multivariate, samples, seed } = body as JointAndSamples;
  const errors: FieldError[] = [];
  if (multivariate) errors.push({ field: 'multivariate', reason: `true: ${what}; name a model that forecasts series ` +
    `jointly: ${describeModels(registry, jointModels(registry))}` });
  if (samples) errors.push({ field: 'samples', reason: `${samples}: ${what}; name a model that draws sample ` +
    `paths: ${describeModels(registry, samplingModels(registry))}` });
  if (seed !== undefined && !samples) errors.push({ field: 'seed', reason: 'applies only with samples (the sample paths\' seed)' });
  if (errors.length) throw new RequestValidationError(errors);
}

/** The field errors of `multivariate`, `samples` and `seed` for a request that runs `model`. */
export function jointAndSamplesErrors(
  body: JointAndSamples & { evaluation?: unknown }, model: CatalogModel | undefined, series: readonly SeriesCovariates[], horizon: number,
  registry: ModelRegistry,
): FieldError[] {
  const errors: FieldError[] = [];
  const id = model?.id ?? 'this model';
  if (body.seed !== undefined && !body.samples) errors.push({ field: 'seed', reason: 'applies only with samples (the sample paths\' seed)' });
  if (body.multivariate) {
    const joint = model?.multivariate;
    if (!joint) {
      errors.push({ field: 'multivariate', reason: `true: ${id} forecasts each series on its own (its library has no joint mode); models that forecast ` +
        `series jointly: ${describeModels(registry, jointModels(registry))}` });
    } else {
      if (series.length > joint.max_series) errors.push({ field: 'series', reason: `${series.length} series forecast jointly: ${id} takes at ` +
        `most ${joint.max_series} together` });
      if (!joint.covariates && covariateKinds(series)) errors.push({ field: 'multivariate', reason: `true: ${id} forecasts series jointly without ` +
        `covariates; send them without covariates, or use chronos-2, whose joint forecast uses them` });
    }
    if (body.samples) errors.push({ field: 'samples', reason: 'with multivariate: no model draws joint sample paths (the sampling models draw ' +
      'each series on its own)' });
    if (body.evaluation !== undefined) errors.push({ field: 'evaluation', reason: 'with multivariate: a backtest of a joint forecast is not built; send the ' +
      'request without evaluation' });
  } else if (body.samples) {
    if (!model?.sample_paths) {
      errors.push({ field: 'samples', reason: `${body.samples}: ${id} predicts quantiles, it draws no sample paths; models that draw them with their ` +
        `library: ${describeModels(registry, samplingModels(registry))}` });
    } else if (series.length * body.samples * horizon > MAX_SAMPLE_VALUES) {
      const values = series.length * body.samples * horizon;
      errors.push({ field: 'samples', reason: `${body.samples} paths × ${series.length} series × horizon ${horizon} = ${values} values, over ` +
        `the ${MAX_SAMPLE_VALUES} a request may draw; send fewer series or paths` });
    }
    if (body.evaluation !== undefined) errors.push({ field: 'evaluation', reason: 'with samples: the backtest scores quantiles, not sample paths; send the ' +
      'request without evaluation' });
  }
  return errors;
}
