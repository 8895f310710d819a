import type { UserInfo } from '@shutu/contracts';

/** What a two-level category tree needs of a category: parent TOP_LEVEL is the top level. */
export interface TreeCategory {
  id: number;
  parentId: number;
  sortNum: number;
  createUserId: number | null;
}

/** The parent of a top-level category. */
export const TOP_LEVEL = 0;

export type CategoryNode<C> = C & { children: C[] };

/** Two levels: the top-level categories with their sub-categories, in list order. */
export function categoryTree<C extends TreeCategory>(list: readonly C[]): CategoryNode<C>[] {
  const roots = list.filter((c) => c.parentId === TOP_LEVEL).map((c) => ({ ...c, children: [] as C[] }));
  const byId = new Map(roots.map((r) => [r.id, r]));
  for (const c of list) if (c.parentId !== TOP_LEVEL) byId.get(c.parentId)?.children.push(c);
  return roots;
}

/** The tree filtered by name: a matching top-level category keeps all its children; otherwise only matching children. */
export function filterCategoryTree<C extends TreeCategory>(tree: readonly CategoryNode<C>[], keyword: string, nameOf: (c: C) => string): CategoryNode<C>[] {
  const k = keyword.trim().toLowerCase();
  if (!k) return [...tree];
  const hit = (c: C) => nameOf(c).toLowerCase().includes(k);
  return tree.flatMap((root) => {
    if (hit(root)) return [root];
    const children = root.children.filter(hit);
    return children.length ? [{ ...root, children }] : [];
  });
}

/**
 * The parents a category may take (two levels only, never itself): top level, or a top-level
 * category other than the one edited. A category that has sub-categories stays top level.
 */
export function parentChoices<C extends TreeCategory>(
  categories: readonly C[],
  nameOf: (c: C) => string,
  topLabel: string,
  editing?: C,
): { value: number; label: string }[] {
  const top = { value: TOP_LEVEL, label: topLabel };
  if (editing && categories.some((c) => c.parentId === editing.id)) return [top];
  return [top, ...categories.filter((c) => c.parentId === TOP_LEVEL && c.id !== editing?.id).map((c) => ({ value: c.id, label: nameOf(c) }))];
}

/** Administrators change (edit, delete) every category; others the ones they created. */
export function mayChangeCategory(me: Pick<UserInfo, 'id' | 'isAdministrator'> | null | undefined, category: TreeCategory): boolean {
  return Boolean(me?.isAdministrator || (me != null && category.createUserId === me.id));
}
