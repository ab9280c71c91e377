// The series of a hierarchy's nodes (issue 39): the input series are the bottom; each aggregate is the sum of its
// series at each date of one grid. The series must end on the same date (the reconciled forecasts of a parent and
// its children are of the same dates); they may start at different dates: before its first date a series adds
// nothing to a sum (a store that had not opened). At a date where a series that has begun is missing (null), the
// sum is of the others; a date where all of them are missing is missing. hierarchicalforecast's `aggregate` sums
// the same way (it fills the dates a series lacks with 0), except that its input has no missing values at all.
import { dateAtStep, fillGaps, forecastDates, parseIndex, type ParsedIndex } from './calendar.ts';
import { RequestValidationError, type FieldError, type InputSeries } from './normalize.ts';
import type { HierarchyStructure } from './hierarchy-spec.ts';
import type { Freq } from '../runtime/catalog.ts';

/** A date as compared between series: UTC either way ("…Z" and "…" name the same instant here). */
const sameDate = (a: string, b: string) => a.replace(/Z$/, '') === b.replace(/Z$/, '');

/** The parsed index of every series, or a 422 naming each series that does not end on series 0's grid and date. */
function alignedIndexes(series: readonly InputSeries[], freq: Freq, horizon: number): ParsedIndex[] {
  const indexes = series.map((s) => {
    const parsed = parseIndex(freq, s.index);
    // the series were planned (their indexes checked) before they are aggregated
    if (!parsed.ok) throw new Error(`series index not checked: ${parsed.error.reason}`);
    return parsed.index;
  });
  const lastOf = (index: ParsedIndex) => dateAtStep(index.grid, index.steps[index.steps.length - 1]);
  const futureOf = (index: ParsedIndex) => { const f = forecastDates(index, horizon); return f.ok ? f.dates : []; };
  const [last0, future0] = [lastOf(indexes[0]), futureOf(indexes[0])];
  const errors: FieldError[] = [];
  indexes.forEach((index, i) => {
    const last = lastOf(index);
    const future = futureOf(index);
    const at = `series[${i}].index[${series[i].index.length - 1}]`;
    if (!sameDate(last, last0)) {
      errors.push({ series: i, field: at, reason: `series ${i} ends on ${last} and series 0 on ${last0}: the series of a hierarchy must end on the same `
        + 'date (a parent\'s forecast is the sum of its children\'s at the same dates)' });
    } else if (future.some((d, k) => !sameDate(d, future0[k]))) {
      errors.push({ series: i, field: `series[${i}].index`, reason: `series ${i} is on another ${freq} grid than series 0 (its next dates `
        + `${future.slice(0, 2).join(', ')}; series 0's ${future0.slice(0, 2).join(', ')}): the series of a hierarchy must share one grid` });
    }
  });
  if (errors.length) throw new RequestValidationError(errors);
  return indexes;
}

/** Every node's series, in the structure's order: an aggregate's sums on the common grid, a bottom node's input series as sent. */
export function nodeSeries(series: readonly InputSeries[], freq: Freq, horizon: number, structure: HierarchyStructure): InputSeries[] {
  const indexes = alignedIndexes(series, freq, horizon);
  const lengths = indexes.map((index) => index.steps[index.steps.length - 1] + 1);
  const length = Math.max(...lengths);
  const longest = indexes[lengths.indexOf(length)];
  // series i on the common grid: its values from position offset[i] to the end, null at its gaps
  const offset = lengths.map((n) => length - n);
  const values = series.map((s, i) => fillGaps(s.target, indexes[i].steps));
  const dates = Array.from({ length }, (_, t) => dateAtStep(longest.grid, t));
  return structure.nodes.map((node) => {
    if (node.series.length === 1) {
      const i = node.series[0];
      return { target: series[i].target, index: series[i].index };
    }
    const start = Math.min(...node.series.map((i) => offset[i]));
    const target: (number | null)[] = [];
    for (let t = start; t < length; t++) {
      let sum: number | null = null;
      for (const i of node.series) {
        const v = t >= offset[i] ? values[i][t - offset[i]] : null;
        if (v !== null) sum = (sum ?? 0) + v;
      }
      target.push(sum);
    }
    return { target, index: dates.slice(start) };
  });
}
