// A request's `hierarchy` (issue 39) as a tree of nodes, every 422 of its shape named precisely: which series,
// which label, which node. Pure: no model, no worker. The nodes are what hierarchicalforecast's `aggregate`
// makes of the same labels (ids "total", "north", "north/n1"; docs/api.md "Hierarchies"), and S and the tags
// that its reconcilers take follow from them (hierarchy.ts sends them to the worker's POST /hierarchy/reconcile).
import { RequestValidationError, type FieldError } from './normalize.ts';

/** The methods of POST /hierarchy/reconcile (hierarchicalforecast's BottomUp, TopDown, MiddleOut, MinTrace, ERM). */
export const RECONCILE_METHODS = [
  'bottom_up', 'top_down_forecast_proportions', 'top_down_average_proportions', 'top_down_proportion_averages', 'middle_out',
  'ols', 'wls_struct', 'wls_var', 'mint_shrink', 'mint_cov', 'erm',
] as const;
export type ReconcileMethod = (typeof RECONCILE_METHODS)[number];
export const RECONCILE_INTERVALS = ['normality', 'bootstrap', 'permbu'] as const;
export type ReconcileIntervals = (typeof RECONCILE_INTERVALS)[number];
// wls_var: the one method not worse than base on average over levels for every model of eval/hierarchy.ts (eval/README.md
// "Hierarchies"); mint_shrink loses with auto-theta, whose in-sample residuals (statsforecast) carry the season
export const DEFAULT_RECONCILE: ReconcileMethod = 'wls_var';
export const DEFAULT_RECONCILE_INTERVALS: ReconcileIntervals = 'normality';
/** Methods whose weights come from the model's in-sample residuals (fitted values); without them: FALLBACK_METHOD. */
export const RESIDUAL_METHODS: ReadonlySet<string> = new Set(['wls_var', 'mint_shrink', 'mint_cov', 'erm']);
/** Interval methods that resample or permute in-sample residuals; without them: normality. */
export const RESIDUAL_INTERVALS: ReadonlySet<string> = new Set(['bootstrap', 'permbu']);
export const FALLBACK_METHOD: ReconcileMethod = 'wls_struct';
/** Methods that need a strict tree (each node one parent), as hierarchicalforecast's TopDown and MiddleOut do. */
const TREE_METHODS: ReadonlySet<string> = new Set([
  'top_down_forecast_proportions', 'top_down_average_proportions', 'top_down_proportion_averages', 'middle_out',
]);

export const TOTAL_ID = 'total';
/** The bottom level's name in the explicit (`aggregates`) form. */
export const SERIES_LEVEL = 'series';

/** The request's `hierarchy`: labels + levels, or explicit aggregates. */
export interface HierarchyField {
  labels?: Record<string, string>[];
  levels?: string[][];
  aggregates?: Record<string, number[]>;
  names?: string[];
  /** temporal levels (hierarchy-temporal.ts) instead: coarser freqs each series is summed to */
  temporal?: string[];
}

export interface HierarchyOptions { hierarchy: HierarchyField; reconcile?: string; reconcile_intervals?: string; reconcile_level?: string }

export interface HierarchyNode {
  id: string;
  /** the level's name: "total", the level's label names joined with "/" ("region/store"), or in the explicit form
   * "aggregates/<depth>" and "series" */
  level: string;
  parent: string | null;
  /** the input series it sums, ascending */
  series: number[];
}

/** The nodes top-down: the aggregates first (total first), then one bottom node per input series, in its order. */
export interface HierarchyStructure {
  nodes: HierarchyNode[];
  /** level names, top to bottom */
  levels: string[];
  /** every node has at most one parent containing it (labels + levels always; explicit aggregates may not) */
  strict: boolean;
  /** the input series: the last seriesCount nodes */
  seriesCount: number;
}

const fail = (errors: FieldError[]): never => { throw new RequestValidationError(errors); };
const quote = (s: string) => JSON.stringify(s);

/** The hierarchy's nodes, or a 422 naming every problem (series index, field and label). */
export function hierarchyStructure(hierarchy: HierarchyField, seriesCount: number): HierarchyStructure {
  const { labels, levels, aggregates, names } = hierarchy;
  if (aggregates !== undefined && (labels !== undefined || levels !== undefined)) {
    fail([{ field: 'hierarchy', reason: 'send either labels and levels or aggregates, not both' }]);
  }
  if (aggregates !== undefined) return explicitStructure(aggregates, names, seriesCount);
  if (names !== undefined) fail([{ field: 'hierarchy.names', reason: 'names the bottom nodes of the explicit form: it applies only with aggregates' }]);
  if (labels === undefined || levels === undefined) {
    fail([{ field: labels === undefined ? 'hierarchy.labels' : 'hierarchy.levels', reason: 'required: a hierarchy is labels (one object per series) '
      + 'and levels (label names from the top level down), or aggregates (node name → indices of the series it sums)' }]);
  }
  return labelledStructure(labels!, levels!, seriesCount);
}

/** Levels each extend the one above: every name of it and at least one more. */
function checkLevels(levels: string[][]): FieldError[] {
  const errors: FieldError[] = [];
  levels.forEach((level, k) => {
    const twice = level.find((name, j) => level.indexOf(name) !== j);
    if (twice !== undefined) errors.push({ field: `hierarchy.levels[${k}]`, reason: `label ${quote(twice)} appears twice in this level` });
    if (k === 0) return;
    const above = levels[k - 1];
    const missing = above.filter((name) => !level.includes(name));
    if (missing.length || level.length <= above.length) {
      errors.push({ field: `hierarchy.levels[${k}]`, reason: `levels must be nested: level ${k} ${JSON.stringify(level)} does not extend level ${k - 1} `
        + `${JSON.stringify(above)} (${missing.length ? `it lacks ${missing.map(quote).join(', ')}` : 'it adds no label'}); each level holds every label of `
        + 'the one above and at least one more' });
    }
  });
  return errors;
}

function labelledStructure(labels: Record<string, string>[], levels: string[][], seriesCount: number): HierarchyStructure {
  if (labels.length !== seriesCount) {
    fail([{ field: 'hierarchy.labels', reason: `${labels.length} labels for ${seriesCount} series: one object of labels per series, in the order of series` }]);
  }
  const errors = checkLevels(levels);
  // every label a level names, in every series
  labels.forEach((own, i) => {
    for (const name of new Set(levels.flat())) {
      const value = Object.hasOwn(own, name) ? own[name] : undefined;
      if (typeof value === 'string' && value !== '') continue;
      const k = levels.findIndex((level) => level.includes(name));
      errors.push({ series: i, field: `hierarchy.labels[${i}].${name}`, reason: value === undefined
        ? `series ${i} has no label ${quote(name)} (levels[${k}] groups by it): the series is not placed in the hierarchy`
        : `label ${quote(name)} of series ${i} is empty` });
    }
  });
  if (errors.length) fail(errors);
  const nodes: HierarchyNode[] = [{ id: TOTAL_ID, level: TOTAL_ID, parent: null, series: labels.map((_, i) => i) }];
  const idOf = (i: number, level: string[]) => level.map((name) => labels[i][name]).join('/');
  const seen = new Map<string, { level: number; series: number }>([[TOTAL_ID, { level: -1, series: -1 }]]);
  levels.forEach((level, k) => {
    const bottom = k === levels.length - 1;
    const byId = new Map<string, number[]>();
    labels.forEach((_, i) => {
      const id = idOf(i, level);
      const members = byId.get(id);
      if (members && bottom) {
        errors.push({ series: i, field: `hierarchy.labels[${i}]`, reason: `series ${i} and series ${members[0]} have the same labels at the bottom level `
          + `${JSON.stringify(level)} (${level.map((name) => `${name}=${quote(labels[i][name])}`).join(', ')}): each series must be a node of its own` });
      }
      if (members) { members.push(i); return; }
      byId.set(id, [i]);
      const earlier = seen.get(id);
      if (earlier) {
        const where = earlier.level < 0 ? 'the top node\'s id'
          : `also a node of level ${quote(levels[earlier.level].join('/'))} (from series ${earlier.series})`;
        errors.push({ series: i, field: `hierarchy.labels[${i}].${level.at(-1)}`, reason: `node id ${quote(id)} (level ${quote(level.join('/'))}, `
          + `from the labels of series ${i}) `
          + `is ${where}: node ids must be unique; rename the label value` });
      } else seen.set(id, { level: k, series: i });
    });
    const parentOf = (i: number) => (k === 0 ? TOTAL_ID : idOf(i, levels[k - 1]));
    if (!bottom) for (const [id, members] of byId) nodes.push({ id, level: level.join('/'), parent: parentOf(members[0]), series: members });
    else labels.forEach((_, i) => nodes.push({ id: idOf(i, level), level: level.join('/'), parent: parentOf(i), series: [i] }));
  });
  if (errors.length) fail(errors);
  return { nodes, levels: [TOTAL_ID, ...levels.map((level) => level.join('/'))], strict: true, seriesCount };
}

/** The explicit form: node name → the input series it sums; bottom nodes named by `names` or "series[i]". */
function explicitStructure(aggregates: Record<string, number[]>, names: string[] | undefined, seriesCount: number): HierarchyStructure {
  const errors: FieldError[] = [];
  if (names !== undefined && names.length !== seriesCount) {
    fail([{ field: 'hierarchy.names', reason: `${names.length} names for ${seriesCount} series: one name per series, in the order of series` }]);
  }
  const bottomIds = Array.from({ length: seriesCount }, (_, i) => names?.[i] ?? `series[${i}]`);
  bottomIds.forEach((id, i) => {
    const first = bottomIds.indexOf(id);
    if (first < i) errors.push({ series: i, field: `hierarchy.names[${i}]`, reason: `name ${quote(id)} is also series ${first}'s: node ids must be unique` });
    if (Object.hasOwn(aggregates, id)) errors.push({ series: i, field: `hierarchy.names[${i}]`, reason: `name ${quote(id)} is also an aggregate's` });
  });
  const entries = Object.entries(aggregates);
  const keyOf = new Map<string, string>();
  for (const [id, members] of entries) {
    const field = `hierarchy.aggregates[${quote(id)}]`;
    const outside = members.find((i) => !Number.isInteger(i) || i < 0 || i >= seriesCount);
    if (outside !== undefined) { errors.push({ field, reason: `${outside} is not the index of a series (0 to ${seriesCount - 1})` }); continue; }
    if (new Set(members).size !== members.length) { errors.push({ field, reason: 'a series appears twice: an aggregate sums each series once' }); continue; }
    if (members.length < 2) {
      errors.push({ series: members[0], field, reason: `sums series ${members[0]} alone: that node is the series itself; aggregate two series or more` });
      continue;
    }
    const key = [...members].sort((a, b) => a - b).join(',');
    const same = keyOf.get(key);
    if (same !== undefined) errors.push({ field, reason: `sums the same series as ${quote(same)}: node names must be unique, and so must nodes` });
    else keyOf.set(key, id);
  }
  const coversAll = entries.find(([, members]) => new Set(members).size === seriesCount);
  if (!coversAll && Object.hasOwn(aggregates, TOTAL_ID)) {
    const reason = `${quote(TOTAL_ID)} is the top node: it sums every series (0 to ${seriesCount - 1})`;
    errors.push({ field: `hierarchy.aggregates[${quote(TOTAL_ID)}]`, reason });
  }
  if (bottomIds.includes(TOTAL_ID) && !coversAll) errors.push({ field: 'hierarchy.names', reason: `${quote(TOTAL_ID)} is the top node's id` });
  if (errors.length) fail(errors);
  const sets = entries.map(([id, members]) => ({ id, series: [...members].sort((a, b) => a - b) }));
  if (!coversAll) sets.unshift({ id: TOTAL_ID, series: Array.from({ length: seriesCount }, (_, i) => i) });
  sets.sort((a, b) => b.series.length - a.series.length);
  return treeOf(sets, bottomIds);
}

/** Parents (the smallest aggregate strictly containing a node) and levels (depth below the top) of explicit sets. */
function treeOf(sets: { id: string; series: number[] }[], bottomIds: string[]): HierarchyStructure {
  const contains = (outer: number[], inner: number[]) => outer.length > inner.length && inner.every((i) => outer.includes(i));
  let strict = true;
  const parentOf = (series: number[]) => {
    const holders = sets.filter((s) => contains(s.series, series));
    if (holders.length === 0) return null;
    const smallest = holders[holders.length - 1];
    // strict: every holder contains the smallest one (a chain), so no node has two parents
    if (holders.some((h) => h !== smallest && !contains(h.series, smallest.series))) strict = false;
    return smallest;
  };
  const depth = new Map<string, number>();
  const nodes: HierarchyNode[] = [];
  for (const set of sets) {
    const parent = parentOf(set.series);
    const d = parent ? depth.get(parent.id)! + 1 : 0;
    depth.set(set.id, d);
    nodes.push({ id: set.id, level: d === 0 ? TOTAL_ID : `aggregates/${d}`, parent: parent?.id ?? null, series: set.series });
  }
  if (nodes.filter((n) => n.parent === null).length > 1) strict = false;
  bottomIds.forEach((id, i) => nodes.push({ id, level: SERIES_LEVEL, parent: parentOf([i])?.id ?? null, series: [i] }));
  const levels = [...new Set(nodes.map((n) => n.level))];
  return { nodes, levels, strict, seriesCount: bottomIds.length };
}

/** The reconciliation the request asks for: its 422s (middle_out's level, a tree for top-down methods). */
export function reconcileSettings(
  options: HierarchyOptions, structure: HierarchyStructure,
): { method: ReconcileMethod; intervals: ReconcileIntervals; level?: string } {
  const method = (options.reconcile ?? DEFAULT_RECONCILE) as ReconcileMethod;
  const intervals = (options.reconcile_intervals ?? DEFAULT_RECONCILE_INTERVALS) as ReconcileIntervals;
  const level = options.reconcile_level;
  const errors: FieldError[] = [];
  if (method === 'middle_out' && level === undefined) {
    errors.push({ field: 'reconcile_level', reason: `required with reconcile "middle_out": the level it starts from, one of ${middleLevels(structure)}` });
  }
  if (level !== undefined && method !== 'middle_out') {
    errors.push({ field: 'reconcile_level', reason: `applies only to reconcile "middle_out" (this request's is ${quote(method)})` });
  } else if (level !== undefined && !structure.levels.slice(1, -1).includes(level)) {
    errors.push({ field: 'reconcile_level', reason: `${quote(level)} is not a middle level of this hierarchy: one of ${middleLevels(structure)}` });
  }
  if (TREE_METHODS.has(method) && !structure.strict) {
    const node = structure.nodes.find((n) => n.parent === null && n.id !== structure.nodes[0].id) ?? structure.nodes[0];
    errors.push({ field: 'reconcile', reason: `${quote(method)} needs a strict tree (each node in one parent), and these aggregates overlap (e.g. around `
      + `${quote(node.id)}); use a MinTrace method (mint_shrink, wls_struct, ols) or bottom_up` });
  }
  if (errors.length) fail(errors);
  return level === undefined ? { method, intervals } : { method, intervals, level };
}

function middleLevels(structure: HierarchyStructure): string {
  const middle = structure.levels.slice(1, -1);
  return middle.length ? middle.map(quote).join(', ') : 'none here (the hierarchy has no level between the total and the series)';
}

/** The summing matrix: S[node][series] = 1 when the node sums that input series. */
export function summingMatrix(structure: HierarchyStructure): number[][] {
  return structure.nodes.map((node) => {
    const row = new Array<number>(structure.seriesCount).fill(0);
    for (const i of node.series) row[i] = 1;
    return row;
  });
}

/** hierarchicalforecast's tags: level name → the ids of its nodes, top-down. */
export function levelTags(structure: HierarchyStructure): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const level of structure.levels) tags[level] = structure.nodes.filter((n) => n.level === level).map((n) => n.id);
  return tags;
}
