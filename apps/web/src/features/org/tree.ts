/** Helpers for the department and role trees the server returns (nodes with `children` arrays). */

export interface Tree<T> {
  id: number;
  children?: (T & Tree<T>)[];
}

export interface SelectNode {
  value: number;
  title: string;
  key: number;
  disabled?: boolean;
  children?: SelectNode[];
}

/**
 * TreeSelect data from a tree; `exclude` (a node being edited) is left out with its
 * descendants, since a node cannot move under itself.
 */
export function toSelectTree<T extends Tree<T>>(nodes: T[], label: (n: T) => string, exclude?: number): SelectNode[] {
  return nodes
    .filter((n) => n.id !== exclude)
    .map((n) => {
      const children = toSelectTree((n.children ?? []) as T[], label, exclude);
      return { value: n.id, key: n.id, title: label(n), ...(children.length ? { children } : {}) };
    });
}

/** Table tree data: empty `children` arrays are dropped so leaves show no expand icon. */
export function toTableTree<T extends Tree<T>>(nodes: T[]): T[] {
  return nodes.map((n) => {
    const children = n.children && n.children.length ? toTableTree(n.children as T[]) : undefined;
    const { children: _omit, ...rest } = n;
    return (children ? { ...rest, children } : rest) as T;
  });
}

/** Every id in the tree, depth first. */
export function treeIds<T extends Tree<T>>(nodes: T[]): number[] {
  return nodes.flatMap((n) => [n.id, ...treeIds((n.children ?? []) as T[])]);
}

/** id → node for every node of the tree. */
export function indexTree<T extends Tree<T>>(nodes: T[], into = new Map<number, T>()): Map<number, T> {
  for (const n of nodes) {
    into.set(n.id, n);
    indexTree((n.children ?? []) as T[], into);
  }
  return into;
}
