/**
 * The tree of `nodes` (a forecast's `hierarchy.nodes`, or a cross-validation model's, whose nodes carry their windows):
 * parent → children by each node's `parent`. Children keep the answer's order (top down; the bottom nodes in the input
 * series' order). A parent that is not among the nodes, a repeated id or a cycle is a TypeError.
 */
export function hierarchyTree(nodes) {
    const byId = new Map();
    for (const node of nodes) {
        if (byId.has(node.id))
            throw new TypeError(`hierarchyTree: node id "${node.id}" appears twice`);
        byId.set(node.id, { node, children: [], depth: 0 });
    }
    const roots = [];
    for (const item of byId.values()) {
        const parentId = item.node.parent;
        if (parentId === null) {
            roots.push(item);
            continue;
        }
        const parent = byId.get(parentId);
        if (!parent)
            throw new TypeError(`hierarchyTree: node "${item.node.id}" names parent "${parentId}", which is not a node`);
        parent.children.push(item);
    }
    const seen = new Set();
    const stack = [...roots];
    while (stack.length > 0) {
        const item = stack.pop();
        seen.add(item.node.id);
        for (const child of item.children) {
            child.depth = item.depth + 1;
            stack.push(child);
        }
    }
    if (seen.size !== byId.size)
        throw new TypeError('hierarchyTree: the parents form a cycle (a node is not under any root)');
    return { roots, byId };
}
