// Ajv's errors → the 422's errors[]: one item per field with one plain sentence, instead of one line
// per failed schema branch ("must be number; must be null; must match a schema in anyOf"). Needs
// Ajv's `verbose` option (app.ts) for the offending value (`data`) and the schema around it.
import type { FieldError } from '../errors.ts';
import { didYouMean, suggestFreq } from '../forecasting/did-you-mean.ts';
import { INDEX_DATE_PATTERN } from './schemas.ts';
import { DATE_TIME_SPELLING } from '../forecasting/calendar.ts';

export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** with verbose: the value at instancePath */
  data?: unknown;
  /** with verbose: the schema object the keyword belongs to */
  parentSchema?: { properties?: Record<string, unknown> };
  /** where in the schema the keyword failed, e.g. `InputSeries#/properties/target/contains/type` */
  schemaPath?: string;
}

const TYPE_NAMES: Record<string, string> = {
  number: 'a number', integer: 'an integer', null: 'null', string: 'a string', boolean: 'true or false', array: 'an array', object: 'an object',
};

/** `string "12"`, `number 2.5`, `null`, `an array` — what the client sent, briefly. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** `/series/2/target/5` → `series[2].target[5]`. */
function fieldOf(parts: string[]): string {
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function orList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** One reason for the errors Ajv reported at one path; unions are explained as a whole. */
function reasonAt(field: string, errors: AjvError[]): string {
  const data = errors[0].data;
  const got = errors.some((e) => 'data' in e) ? `, got ${describeValue(data)}` : '';
  const union = errors.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const consts = errors.filter((e) => e.keyword === 'const' || e.keyword === 'enum').flatMap(
    (e) => (e.params.allowedValues ?? [e.params.allowedValue]) as unknown[],
  );
  if (consts.length > 0 && (union || errors.every((e) => ['const', 'enum'].includes(e.keyword)))) {
    const hint = field === 'freq' && typeof data === 'string' ? freqHint(data) : typeof data === 'string' ? didYouMean(data, consts.map(String)) : '';
    return `must be one of ${consts.map(String).join(', ')}${got}${hint}`;
  }
  // a union whose value has a branch's type but breaks its bounds: the bound is the reason
  const bounds = errors.filter((e) => !['type', 'anyOf', 'oneOf', 'const', 'enum'].includes(e.keyword));
  if (union && bounds.length > 0) return `${[...new Set(bounds.map((e) => e.message ?? e.keyword))].join('; ')}${got}`;
  const types = [...new Set(errors.filter((e) => e.keyword === 'type').flatMap((e) => String(e.params.type).split(',')))];
  if (types.length > 0) return `must be ${orList(types.map((t) => TYPE_NAMES[t] ?? t))}${got}`;
  const pattern = errors.find((e) => e.keyword === 'pattern');
  if (pattern && pattern.params.pattern === INDEX_DATE_PATTERN) {
    return `${JSON.stringify(data)} is neither a date YYYY-MM-DD nor a date-time ${DATE_TIME_SPELLING}`;
  }
  if (errors.some((e) => e.keyword === 'contains') && Array.isArray(data)) {
    const what = data.length === 0 ? 'it is empty' : `all ${data.length} values are null`;
    return `no observed values — at least one number is needed; nulls are missing values (${what})`;
  }
  const reasons = [...new Set(errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').map((e) => e.message ?? e.keyword))];
  return `${reasons.join('; ') || 'is not valid'}${got}`;
}

function freqHint(value: string): string {
  const freq = suggestFreq(value);
  return freq ? `; did you mean "${freq}"?` : '';
}

/** The field errors of one failed validation; `context` names the part (body, querystring, params). */
export function fieldErrorsFromAjv(errors: readonly AjvError[], context = 'body'): FieldError[] {
  const result: FieldError[] = [];
  const byPath = new Map<string, AjvError[]>();
  const add = (parts: string[], reason: string) => {
    const field = fieldOf(parts) || context;
    const series = parts[0] === 'series' && /^\d+$/.test(parts[1] ?? '') ? Number(parts[1]) : undefined;
    result.push(series === undefined ? { field, reason } : { series, field, reason });
  };
  for (const error of errors) {
    // `contains` reports every item that is not a number (each null of an all-null target) before
    // its own error on the array; the array's one reason says it, and real type errors come from `items`
    if (error.schemaPath?.includes('/contains/')) continue;
    const parts = error.instancePath.split('/').filter(Boolean).map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (error.keyword === 'additionalProperties') {
      const name = String(error.params.additionalProperty);
      const known = Object.keys(error.parentSchema?.properties ?? {});
      const hint = didYouMean(name, known);
      add([...parts, name], `unknown field (not part of the API${hint ? '' : '; check the spelling'})${hint}`);
    } else if (error.keyword === 'required') {
      add([...parts, String(error.params.missingProperty)], 'is required');
    } else {
      const key = parts.join('/');
      byPath.set(key, [...(byPath.get(key) ?? []), error]);
    }
  }
  for (const [key, group] of byPath) {
    const parts = key ? key.split('/') : [];
    // a target whose values are not all null but none a number: the items' own errors say why
    const data = group[0].data;
    if (group.every((e) => e.keyword === 'contains') && Array.isArray(data) && data.some((v) => v !== null)) continue;
    add(parts, reasonAt(fieldOf(parts), group));
  }
  return result;
}
