// Which covariates a model uses, and the rule where Horizon picks the model itself (`auto`, prism, a TimeGPT
// name on /nixtla): the covariates a request sends are used or refused, never dropped. A model the client
// names drops what it does not use with a warning (normalize.ts routeCovariates, by unusedCovariates here);
// a pool Horizon chooses from is restricted to the models that use every covariate sent, and where none is
// served the 422 names the series, the field and what would serve one.
import type { CatalogModel, Covariates } from '../runtime/catalog.ts';
import type { FieldError } from '../errors.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { PRISM_ID } from '../runtime/prism-members.ts';

export type CovariateField = 'hist_variables' | 'future_variables' | 'static_variables';

/** The covariate fields of a request series (InputSeries). */
export interface SeriesCovariates {
  hist_variables?: Record<string, unknown>;
  future_variables?: Record<string, unknown>;
  static_variables?: Record<string, unknown>;
}

export interface UnusedCovariates { field: CovariateField; names: string[]; why: string }

/** The covariates of a series that a model with these flags does not use: historical values are used with
 * `past`, or with `future` for a variable that also has future values; future ones with `future`; static
 * ones with `static`. */
export function unusedCovariates(uses: Covariates, series: SeriesCovariates): UnusedCovariates[] {
  const future = series.future_variables ?? {};
  const out: UnusedCovariates[] = [];
  const hist = Object.keys(series.hist_variables ?? {}).filter((name) => !uses.past && !(uses.future && Object.hasOwn(future, name)));
  const statics = Object.keys(series.static_variables ?? {});
  if (hist.length) {
    const why = uses.future ? 'uses historical values only of variables that also have future values' : 'does not use historical covariates';
    out.push({ field: 'hist_variables', names: hist, why });
  }
  if (!uses.future && Object.keys(future).length) out.push({ field: 'future_variables', names: Object.keys(future), why: 'does not use future covariates' });
  if (!uses.static && statics.length) out.push({ field: 'static_variables', names: statics, why: 'does not use static covariates' });
  return out;
}

/** The names of a field that count as its kind: historical variables without future values, future ones, static ones. */
function namesOf(s: SeriesCovariates, field: CovariateField): string[] {
  const names = Object.keys(s[field] ?? {});
  return field === 'hist_variables' ? names.filter((name) => !Object.hasOwn(s.future_variables ?? {}, name)) : names;
}

const KIND_OF: Record<CovariateField, keyof Covariates> = { hist_variables: 'past', future_variables: 'future', static_variables: 'static' };

/** The kinds of covariate a request sends: `past` = a historical variable without future values. A model
 * that uses every kind sent drops nothing (unusedCovariates is then empty for every series). */
export function covariateKinds(series: readonly SeriesCovariates[]): Covariates | undefined {
  const has = (field: CovariateField) => series.some((s) => namesOf(s, field).length > 0);
  const kinds: Covariates = { past: has('hist_variables'), future: has('future_variables'), static: has('static_variables') };
  return kinds.past || kinds.future || kinds.static ? kinds : undefined;
}

export function usesKinds(model: CatalogModel, kinds: Covariates): boolean {
  return (!kinds.past || model.covariates.past) && (!kinds.future || model.covariates.future) && (!kinds.static || model.covariates.static);
}

const KIND_WORDS: Record<keyof Covariates, string> = { past: 'historical', future: 'known-future', static: 'static' };

/** "historical and known-future covariates" */
export function kindWords(kinds: Covariates): string {
  const words = (Object.keys(KIND_WORDS) as (keyof Covariates)[]).filter((k) => kinds[k]).map((k) => KIND_WORDS[k]);
  return `${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0]} covariates`;
}

/** The served models that use every kind sent (catalog order; prism blends models without covariates). */
export function servedCovariateModels(registry: ModelRegistry, kinds: Covariates): string[] {
  const served = new Set(registry.availableIds());
  return registry.catalog.models.filter((m) => m.id !== PRISM_ID && served.has(m.id) && usesKinds(m, kinds)).map((m) => m.id);
}

/** The catalog models that would use them but are not served, each with what serves it (a pull, a setup, a licence). */
export function howToServeCovariateModels(registry: ModelRegistry, kinds: Covariates): string {
  const fixes = registry.catalog.models.filter((m) => m.id !== PRISM_ID && !m.id.startsWith('ft-') && usesKinds(m, kinds)).flatMap((m) => {
    const why = registry.unavailableReason(m);
    if (!why) return [];
    return [why.code === 'license_not_accepted' ? `${m.id} (accept its licence: ${why.variable}=${m.id})` : `${m.id} (\`${why.command}\`)`];
  });
  return fixes.length ? `models that use them: ${fixes.join(', ')}` : 'no model of the catalog uses them';
}

/** One 422 per covariate field of a kind in `kinds`, at the first series that has it: its names there, how
 * many more series have the field, and `why` (what would have dropped them). */
export function covariateErrors(series: readonly SeriesCovariates[], kinds: Covariates, why: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of Object.keys(KIND_OF) as CovariateField[]) {
    if (!kinds[KIND_OF[field]]) continue;
    const names = series.map((s) => namesOf(s, field));
    const first = names.findIndex((n) => n.length > 0);
    if (first < 0) continue;
    const more = names.filter((n) => n.length > 0).length - 1;
    const others = more ? ` (and this field of ${more} more series)` : '';
    errors.push({ series: first, field: `series[${first}].${field}`, reason: `${names[first].join(', ')}${others}: ${why}` });
  }
  return errors;
}
