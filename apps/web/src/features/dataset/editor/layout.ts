import type { EditorJoin, EditorTable } from './model-state.ts';

/** Node spacing of the join tree (spec §9): 270 px per level, 40 px between rows. */
export const NODE_DX = 270;
export const NODE_GAP_Y = 40;
export const NODE_HEIGHT = 40;
export const NODE_WIDTH = 200;
export const ROW_HEIGHT = NODE_HEIGHT + NODE_GAP_Y;

export interface LaidOutNode {
  /** The table alias, or `placeholder:<alias>` for the drop slot under that node. */
  id: string;
  alias: string;
  placeholder: boolean;
  parent: string | null;
  depth: number;
  x: number;
  y: number;
}

/** The root: the table that is never a join target (the first table). */
export function rootAlias(tables: readonly EditorTable[], joins: readonly EditorJoin[]): string | null {
  const targets = new Set(joins.map((j) => j.target));
  return tables.find((t) => !targets.has(t.tableAliasName))?.tableAliasName ?? null;
}

export const childrenOf = (joins: readonly EditorJoin[], alias: string): string[] => joins.filter((j) => j.source === alias).map((j) => j.target);

/**
 * Lays the join tree out left to right: depth × 270 across, one row (node height + 40) per
 * leaf, a parent level with its first child. With `placeholders` every node gets a drop
 * slot as its last child.
 */
export function layoutTree(tables: readonly EditorTable[], joins: readonly EditorJoin[], placeholders = false): LaidOutNode[] {
  const root = rootAlias(tables, joins);
  if (!root) return [];
  const out: LaidOutNode[] = [];
  let row = 0;
  const seen = new Set<string>();
  const visit = (alias: string, parent: string | null, depth: number) => {
    if (seen.has(alias)) return;
    seen.add(alias);
    const node: LaidOutNode = { id: alias, alias, placeholder: false, parent, depth, x: depth * NODE_DX, y: row * ROW_HEIGHT };
    out.push(node);
    const kids = childrenOf(joins, alias);
    let first = true;
    for (const kid of kids) {
      if (!first) row++;
      visit(kid, alias, depth + 1);
      first = false;
    }
    if (placeholders) {
      if (!first) row++;
      out.push({ id: `placeholder:${alias}`, alias, placeholder: true, parent: alias, depth: depth + 1, x: (depth + 1) * NODE_DX, y: row * ROW_HEIGHT });
    }
  };
  visit(root, null, 0);
  return out;
}
