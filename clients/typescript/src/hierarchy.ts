// A forecast's (or a cross-validation's) `hierarchy.nodes` as a tree: each node with its children, for a view that
// lets one pick a node and compare its base (the model's own) and reconciled forecast (docs/api.md "Hierarchies").
import type { components } from './openapi.ts';

type ForecastResponse = components['schemas']['ForecastResponse'];
/** The answer's `hierarchy` of a forecast with a `hierarchy` (method, intervals, warnings, nodes). */
export type HierarchyInfo = NonNullable<ForecastResponse['hierarchy']>;
/** One node of `hierarchy.nodes`: id, level, parent, series, index, base and reconciled forecasts. */
export type HierarchyNode = HierarchyInfo['nodes'][number];

/** A node of the tree: the API's node, its children (in the answer's order) and its depth (0 at the top). */
export interface HierarchyTreeNode<N extends { id: string; parent: string | null } = HierarchyNode> {
  node: N;
  children: HierarchyTreeNode<N>[];
  depth: number;
}

export interface HierarchyTree<N extends { id: string; parent: string | null } = HierarchyNode> {
  /** the nodes without a parent: "total" for labels + levels */
  roots: HierarchyTreeNode<N>[];
  /** every node by its id */
  byId: Map<string, HierarchyTreeNode<N>>;
}

/**
 * The tree of `nodes` (a forecast's `hierarchy.nodes`, or a cross-validation model's, whose nodes carry their windows):
 * parent → children by each node's `parent`. Children keep the answer's order (top down; the bottom nodes in the input
 * series' order). A parent that is not among the nodes, a repeated id or a cycle is a TypeError.
 */
export function hierarchyTree<N extends { id: string; parent: string | null }>(nodes: readonly N[]): HierarchyTree<N> {
  const byId = new Map<string, HierarchyTreeNode<N>>();
  for (const node of nodes) {
    if (byId.has(node.id)) throw new TypeError(`hierarchyTree: node id "${node.id}" appears twice`);
    byId.set(node.id, { node, children: [], depth: 0 });
  }
  const roots: HierarchyTreeNode<N>[] = [];
  for (const item of byId.values()) {
    const parentId = item.node.parent;
    if (parentId === null) { roots.push(item); continue; }
    const parent = byId.get(parentId);
    if (!parent) throw new TypeError(`hierarchyTree: node "${item.node.id}" names parent "${parentId}", which is not a node`);
    parent.children.push(item);
  }
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const item = stack.pop()!;
    seen.add(item.node.id);
    for (const child of item.children) { child.depth = item.depth + 1; stack.push(child); }
  }
  if (seen.size !== byId.size) throw new TypeError('hierarchyTree: the parents form a cycle (a node is not under any root)');
  return { roots, byId };
}
