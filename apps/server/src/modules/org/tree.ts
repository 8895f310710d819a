/** Departments and roles are both flat rows linked by parentId (0 is the root). */
export interface TreeRow {
  id: number;
  parentId: number;
  sort: number;
}

export type Tree<T> = T & { children: Tree<T>[] };

const bySortThenId = (a: TreeRow, b: TreeRow) => a.sort - b.sort || a.id - b.id;

/**
 * Nests rows under their parents, siblings sorted by sort then id. A row whose parent is
 * missing (which the services never let happen) is shown at the top rather than lost.
 */
export function buildTree<T extends TreeRow>(rows: readonly T[]): Tree<T>[] {
  const nodes = new Map<number, Tree<T>>();
  for (const row of [...rows].sort(bySortThenId)) nodes.set(row.id, { ...row, children: [] });
  const roots: Tree<T>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === 0 || node.parentId === node.id ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * Whether putting `id` under `newParentId` would make it its own ancestor: the new parent
 * is the row itself or one of its descendants.
 */
export function createsCycle(rows: readonly Pick<TreeRow, 'id' | 'parentId'>[], id: number, newParentId: number): boolean {
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  const seen = new Set<number>();
  for (let at = newParentId; at !== 0 && !seen.has(at); at = parentOf.get(at) ?? 0) {
    if (at === id) return true;
    seen.add(at);
  }
  return false;
}
