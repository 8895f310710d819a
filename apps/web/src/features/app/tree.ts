import type { AppMenu, MenuTreeSave } from '@shutu/contracts';

/** Pure helpers of the menu tree in the editor (tested in tree.test.ts). */

/** The tree as save all sends it: display order, ids kept; the server numbers sortNum and parentId. */
export function toTreeSave(menus: readonly AppMenu[]): MenuTreeSave[] {
  const one = (m: AppMenu): MenuTreeSave => ({ menuId: m.menuId, menuName: m.menuName, menuIcon: m.menuIcon, icon: m.icon, visualId: m.visualId });
  return menus.map((m) => ({ ...one(m), children: m.children.map(one) }));
}

/**
 * Moves the menu `dragId` to just before (or after) `dropId` when both are siblings (two
 * first-level menus, or two children of one parent); anything else leaves the tree as it is.
 */
export function moveMenu(menus: readonly AppMenu[], dragId: number, dropId: number, after: boolean): AppMenu[] {
  const reorder = (list: readonly AppMenu[]): AppMenu[] | null => {
    const from = list.findIndex((m) => m.menuId === dragId);
    const to = list.findIndex((m) => m.menuId === dropId);
    if (from < 0 || to < 0 || from === to) return null;
    const next = [...list];
    const [moved] = next.splice(from, 1);
    const target = next.findIndex((m) => m.menuId === dropId);
    next.splice(after ? target + 1 : target, 0, moved!);
    return next;
  };
  const top = reorder(menus);
  if (top) return top;
  return menus.map((m) => {
    const children = reorder(m.children);
    return children ? { ...m, children } : m;
  });
}

/** The first rule save all would break, as the spec words it (the server checks the same). */
export function treeProblem(menus: readonly AppMenu[], messages: { childNeedsVisual: string; topNeedsVisualOrChildren: string }): string | null {
  for (const menu of menus) {
    if (menu.children.some((c) => c.visualId === null)) return messages.childNeedsVisual;
    if (menu.children.length === 0 && menu.visualId === null) return messages.topNeedsVisualOrChildren.replace('{name}', menu.menuName);
  }
  return null;
}
