// The hierarchies of eval/hierarchy.ts and bench/hierarchy.ts (issue 39), built from the shared datasets: the
// dataset's series are the bottom, grouped into G groups (the middle level), under one total.
//
// None of the shared datasets publishes a geography or a product tree (NN5: 111 anonymous ATMs; Hospital: 767
// anonymous products), so the groups are made WITHOUT LOOKING AT THE DATA: a seeded permutation of the series
// (mulberry32, --seed) cut into G groups of near-equal size (`random`), or consecutive ids (`blocks`). Nothing in the
// grouping can favour a method or a model, and the test window plays no part in it. Every aggregate is the exact sum
// of its series (the total cash withdrawn at the 111 ATMs, per group of ATMs), as in any real hierarchy. Only a
// dataset whose series all lie on one date grid (same start, same length) can be summed: nn5-daily, nn5-weekly and
// hospital here.
import { DATASETS, DEFAULT_DATA_DIR, indexDates, type DatasetSpec, type EvalSeries } from './datasets.ts';

export const HIERARCHY_DATASETS = ['nn5-daily', 'nn5-weekly', 'hospital'];

export interface HierNode {
  /** Horizon's node id: "total", the group ("g03"), the bottom ("g03/T17") */
  id: string;
  level: 'total' | 'group' | 'bottom';
  /** indices of the bottom series it sums */
  series: number[];
  train: number[];
  test: number[];
}

export interface EvalHierarchy {
  spec: DatasetSpec;
  bottom: EvalSeries[];
  /** one per bottom series: {group, series} */
  labels: { group: string; series: string }[];
  /** the request's levels: [["group"], ["group", "series"]] (the total is added by Horizon) */
  levels: string[][];
  /** total, then the groups, then the bottom series in input order */
  nodes: HierNode[];
  /** the training dates of every series (one grid) */
  index: string[];
  grouping: string;
}

/** mulberry32: a small seeded PRNG, so that a grouping is reproducible from its seed alone. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Series positions in group order: a Fisher-Yates shuffle with the seed, or the ids' order. */
function order(n: number, grouping: 'random' | 'blocks', seed: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  if (grouping === 'blocks') return out;
  const rand = mulberry32(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const sum = (rows: number[][]): number[] => rows[0].map((_, t) => rows.reduce((acc, r) => acc + r[t], 0));

export function loadHierarchy(
  datasetKey: string, groups: number, grouping: 'random' | 'blocks', seed: number, dataDir = DEFAULT_DATA_DIR,
): EvalHierarchy {
  const spec = DATASETS.find((d) => d.key === datasetKey);
  if (!spec) throw new Error(`unknown dataset ${datasetKey}`);
  const bottom = spec.load(dataDir);
  const first = bottom[0];
  const odd = bottom.find((s) => s.start.getTime() !== first.start.getTime() || s.train.length !== first.train.length);
  if (odd) throw new Error(`${datasetKey}: series ${odd.id} is not on ${first.id}'s date grid; a hierarchy needs one grid`);
  if (groups < 2 || groups >= bottom.length) throw new Error(`--groups must be between 2 and ${bottom.length - 1}`);
  const width = String(groups).length;
  const groupOf = new Array<string>(bottom.length);
  order(bottom.length, grouping, seed).forEach((s, position) => {
    groupOf[s] = `g${String(Math.floor((position * groups) / bottom.length) + 1).padStart(width, '0')}`;
  });
  const labels = bottom.map((s, i) => ({ group: groupOf[i], series: s.id }));
  const all = bottom.map((_, i) => i);
  const nodes: HierNode[] = [{ id: 'total', level: 'total', series: all, train: sum(bottom.map((s) => s.train)), test: sum(bottom.map((s) => s.test)) }];
  for (const g of [...new Set(groupOf)].sort()) {
    const members = all.filter((i) => groupOf[i] === g);
    nodes.push({ id: g, level: 'group', series: members, train: sum(members.map((i) => bottom[i].train)), test: sum(members.map((i) => bottom[i].test)) });
  }
  bottom.forEach((s, i) => nodes.push({ id: `${groupOf[i]}/${s.id}`, level: 'bottom', series: [i], train: s.train, test: s.test }));
  return {
    spec, bottom, labels, levels: [['group'], ['group', 'series']], nodes,
    index: indexDates(spec.freq, first.start, first.train.length),
    grouping: grouping === 'random' ? `random (seed ${seed})` : 'blocks of consecutive ids',
  };
}

/** The request body of a hierarchical forecast of the hierarchy's training parts. */
export function hierarchyBody(h: EvalHierarchy, model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model, freq: h.spec.freq, horizon: h.spec.horizon,
    series: h.bottom.map((s) => ({ target: s.train, index: h.index })),
    hierarchy: { labels: h.labels, levels: h.levels },
    ...extra,
  };
}
