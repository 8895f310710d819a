import type { z } from 'zod';
import { appMessages, DEFAULT_MENU_ICON, formatMessage, type AppMenu, type menuSaveSchema, type menuTreeSaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, fieldError, forbidden, notFound } from '../../platform/http/errors.ts';
import { mayViewBoard } from '../board/index.ts';
import type { Caller } from '../perm/index.ts';
import { requireEditableApp } from './access.ts';
import { menuTree } from './model.ts';
import { deleteMenus, findBoardsForMenus, findMenu, findMenus, insertMenu, nextSortNum, touchApp, updateMenu } from './repo.ts';

export type MenuSaveBody = z.output<typeof menuSaveSchema>;
export type MenuTreeBody = z.output<typeof menuTreeSaveSchema>;

/**
 * App menus (spec 1 §4 "App menus", §5; docs/apps.md "Menus"): two levels; a child needs a
 * board (二级菜单需关联大屏); save all numbers sortNum from 1 by position, gives children their
 * parent's id and refuses a first-level menu with neither children nor a board; a menu with
 * children is not deleted. Every write needs the right to edit the app.
 */

/**
 * The boards a save links, with their titles: each must exist (400 大屏【id】不存在) and be
 * visible to the saver (403 没有此大屏权限) unless the app already linked it (an editor who lost
 * sight of a board does not lose the menu by reordering).
 */
async function checkedBoards(ctx: AppContext, caller: Caller, ids: readonly number[], kept: ReadonlySet<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  const boards = new Map((await findBoardsForMenus(ctx.db, wanted)).map((b) => [b.id, b]));
  const titles = new Map<number, string>();
  for (const id of wanted) {
    const board = boards.get(id);
    if (!board) throw fieldError('visualId', formatMessage(appMessages.visualMissing, { id }));
    if (!kept.has(id) && !(await mayViewBoard(ctx, caller, board))) throw forbidden(appMessages.visualForbidden);
    titles.set(id, board.title);
  }
  return titles;
}

export async function listMenus(ctx: AppContext, caller: Caller, appId: number): Promise<AppMenu[]> {
  await requireEditableApp(ctx, caller, appId);
  return menuTree(await findMenus(ctx.db, appId));
}

/** Menu save: one menu, new (no menuId: last among its siblings) or changed. Returns the tree. */
export async function saveMenu(ctx: AppContext, caller: Caller, appId: number, body: MenuSaveBody): Promise<AppMenu[]> {
  await requireEditableApp(ctx, caller, appId);
  const existing = body.menuId ? await findMenu(ctx.db, appId, body.menuId) : undefined;
  if (body.menuId && !existing) throw notFound(appMessages.menuNotFound);
  const parentId = body.parentId;
  if (parentId > 0) {
    const parent = await findMenu(ctx.db, appId, parentId);
    if (!parent) throw fieldError('parentId', appMessages.parentNotFound);
    if (parent.parentId !== 0 || parent.id === body.menuId) throw fieldError('parentId', appMessages.parentNotTop);
    if (!body.visualId) throw fieldError('visualId', appMessages.childNeedsVisual);
    if (existing) {
      const rows = await findMenus(ctx.db, appId);
      if (rows.some((r) => r.parentId === existing.id)) throw fieldError('parentId', appMessages.parentNotTop);
    }
  }
  const kept = new Set(existing?.visualId ? [existing.visualId] : []);
  const titles = body.visualId ? await checkedBoards(ctx, caller, [body.visualId], kept) : new Map<number, string>();
  const values = {
    parentId,
    menuName: body.menuName,
    menuIcon: body.menuIcon || DEFAULT_MENU_ICON,
    icon: body.icon || null,
    visualId: body.visualId ?? null,
    visualName: body.visualId ? (titles.get(body.visualId) ?? null) : null,
  };
  if (existing) {
    const moved = existing.parentId !== parentId;
    await updateMenu(ctx.db, appId, existing.id, moved ? { ...values, sortNum: await nextSortNum(ctx.db, appId, parentId) } : values);
  } else {
    await insertMenu(ctx.db, appId, { ...values, sortNum: await nextSortNum(ctx.db, appId, parentId) });
  }
  await touchApp(ctx.db, appId);
  return menuTree(await findMenus(ctx.db, appId));
}

/** The first rule save all breaks, as the spec words it; undefined when the tree is fine. */
export function treeProblem(menus: MenuTreeBody['menus']): { field: string; message: string } | undefined {
  for (const menu of menus) {
    for (const child of menu.children) if (!child.visualId) return { field: 'visualId', message: appMessages.childNeedsVisual };
    if (menu.children.length === 0 && !menu.visualId) {
      return { field: 'menus', message: formatMessage(appMessages.topNeedsVisualOrChildren, { name: menu.menuName }) };
    }
  }
  return undefined;
}

/** Menu batch save: the tree in display order replaces the app's menus, in one transaction. */
export async function saveMenuTree(ctx: AppContext, caller: Caller, appId: number, body: MenuTreeBody): Promise<AppMenu[]> {
  await requireEditableApp(ctx, caller, appId);
  const problem = treeProblem(body.menus);
  if (problem) throw fieldError(problem.field, problem.message);
  const current = await findMenus(ctx.db, appId);
  const known = new Set(current.map((r) => r.id));
  const all = body.menus.flatMap((m) => [m, ...m.children]);
  const ids = all.flatMap((m) => (m.menuId ? [m.menuId] : []));
  if (ids.some((id) => !known.has(id)) || new Set(ids).size !== ids.length) throw notFound(appMessages.menuNotFound);
  const kept = new Set(current.flatMap((r) => (r.visualId ? [r.visualId] : [])));
  const titles = await checkedBoards(
    ctx,
    caller,
    all.flatMap((m) => (m.visualId ? [m.visualId] : [])),
    kept,
  );
  const valuesOf = (m: (typeof all)[number], parentId: number, sortNum: number) => ({
    parentId,
    sortNum,
    menuName: m.menuName,
    menuIcon: m.menuIcon || DEFAULT_MENU_ICON,
    icon: m.icon || null,
    visualId: m.visualId ?? null,
    visualName: m.visualId ? (titles.get(m.visualId) ?? null) : null,
  });
  await ctx.db.transaction().execute(async (trx) => {
    await deleteMenus(
      trx,
      appId,
      current.map((r) => r.id).filter((id) => !ids.includes(id)),
    );
    let position = 0;
    for (const menu of body.menus) {
      position += 1;
      const top = valuesOf(menu, 0, position);
      const parentId = menu.menuId ? (await updateMenu(trx, appId, menu.menuId, top), menu.menuId) : await insertMenu(trx, appId, top);
      let childPosition = 0;
      for (const child of menu.children) {
        childPosition += 1;
        const values = valuesOf(child, parentId, childPosition);
        if (child.menuId) await updateMenu(trx, appId, child.menuId, values);
        else await insertMenu(trx, appId, values);
      }
    }
    await touchApp(trx, appId);
  });
  return menuTree(await findMenus(ctx.db, appId));
}

/** Menu delete: ids of the app; a menu whose children are not deleted with it is refused. */
export async function removeMenus(ctx: AppContext, caller: Caller, appId: number, ids: readonly number[]): Promise<AppMenu[]> {
  await requireEditableApp(ctx, caller, appId);
  const rows = await findMenus(ctx.db, appId);
  const known = new Set(rows.map((r) => r.id));
  if (ids.some((id) => !known.has(id))) throw notFound(appMessages.menuNotFound);
  const removing = new Set(ids);
  if (rows.some((r) => removing.has(r.parentId) && !removing.has(r.id))) throw badRequest(appMessages.deleteHasChildren);
  await deleteMenus(ctx.db, appId, ids);
  await touchApp(ctx.db, appId);
  return menuTree(await findMenus(ctx.db, appId));
}
