import { APP_PUBLISH_STATUS, DEFAULT_MENU_ICON, MENU_SHOW_TYPES, type App, type AppMenu } from '@shutu/contracts';
import type { Caller } from '../perm/index.ts';
import type { AppRow, MenuRow } from './repo.ts';

/** Pure helpers: rows → API shapes, the menu tree, who may change an app. */

/** Administrators and the creator may change and delete an app and its menus. */
export function mayEditApp(caller: Caller, row: { createUserId: number | null }): boolean {
  return caller.isAdministrator || (row.createUserId !== null && row.createUserId === caller.userId);
}

export function isPublished(row: { publishStatus: number }): boolean {
  return row.publishStatus === APP_PUBLISH_STATUS.published;
}

const menuShowType = (value: string): App['menuShowType'] => (MENU_SHOW_TYPES.find((t) => t === value) ?? '1') as App['menuShowType'];

export function toApp(row: AppRow, caller: Caller): App {
  return {
    appId: row.id,
    appName: row.appName,
    appIcon: row.appIcon,
    appDescription: row.appDescription,
    publishStatus: row.publishStatus,
    menuShowType: menuShowType(row.menuShowType),
    waterMarkStatus: row.waterMarkStatus,
    waterMarkText: row.waterMarkText,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    updateTime: new Date(row.updateTime).toISOString(),
    editable: mayEditApp(caller, row),
  };
}

function toMenu(row: MenuRow): AppMenu {
  const kind = row.boardKind === 'visual' || row.boardKind === 'report' ? row.boardKind : null;
  return {
    menuId: row.id,
    appId: row.appId,
    parentId: row.parentId,
    menuName: row.menuName,
    menuIcon: row.menuIcon || DEFAULT_MENU_ICON,
    icon: row.icon,
    sortNum: row.sortNum,
    visualId: row.visualId,
    // The board's current title; the saved one when the board is gone.
    visualName: row.boardTitle ?? row.visualName,
    visualKind: row.visualId === null ? null : kind,
    children: [],
  };
}

/**
 * The two-level tree in sortNum order. A child whose parent is missing (never written by us)
 * is shown at the first level rather than lost.
 */
export function menuTree(rows: readonly MenuRow[]): AppMenu[] {
  const byId = new Map(rows.map((r) => [r.id, toMenu(r)]));
  const top: AppMenu[] = [];
  for (const row of rows) {
    const menu = byId.get(row.id)!;
    const parent = row.parentId > 0 ? byId.get(row.parentId) : undefined;
    if (parent && parent.parentId === 0) parent.children.push(menu);
    else top.push(menu);
  }
  return top;
}

/** The first menu that opens a board, depth first in display order (the viewer opens it first). */
export function firstBoardMenu(menus: readonly AppMenu[]): AppMenu | undefined {
  for (const menu of menus) {
    if (menu.children.length > 0) {
      const child = menu.children.find((c) => c.visualId !== null);
      if (child) return child;
    } else if (menu.visualId !== null) return menu;
  }
  return undefined;
}
