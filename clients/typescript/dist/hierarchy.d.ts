import type { components } from './openapi.ts';
type ForecastResponse = components['schemas']['ForecastResponse'];
/** The answer's `hierarchy` of a forecast with a `hierarchy` (method, intervals, warnings, nodes). */
export type HierarchyInfo = NonNullable<ForecastResponse['hierarchy']>;
/** One node of `hierarchy.nodes`: id, level, parent, series, index, base and reconciled forecasts. */
export type HierarchyNode = HierarchyInfo['nodes'][number];
/** A node of the tree: the API's node, its children (in the answer's order) and its depth (0 at the top). */
export interface HierarchyTreeNode<N extends {
    id: string;
    parent: string | null;
} = HierarchyNode> {
    node: N;
    children: HierarchyTreeNode<N>[];
    depth: number;
}
export interface HierarchyTree<N extends {
    id: string;
    parent: string | null;
} = HierarchyNode> {
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
export declare function hierarchyTree<N extends {
    id: string;
    parent: string | null;
}>(nodes: readonly N[]): HierarchyTree<N>;
export {};
