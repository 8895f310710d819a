import type { AppMenu, Board } from '@shutu/contracts';
import { QUICK_GRID } from '@shutu/contracts/board-constants';

/** Pure helpers of the phone viewer (tested in reflow.test.ts). */

/**
 * A quick board (24-column grid) for a phone: every chart full width, one under another in
 * layout order (top to bottom, then left to right), each keeping its height in grid rows.
 * Screen boards are returned as they are: they scale to the phone's width instead.
 */
export function reflowForPhone(board: Board): Board {
  if (board.content.type !== 'quick') return board;
  const ordered = [...board.content.layout].sort((a, b) => a.y - b.y || a.x - b.x);
  let y = 0;
  const layout = ordered.map((item) => {
    const h = Math.max(1, Math.round(item.h));
    const placed = { ...item, x: 0, y, w: QUICK_GRID.columns, h };
    y += h;
    return placed;
  });
  return { ...board, content: { ...board.content, layout } };
}

/** The menu a phone opens first, or the one named by `menuId` when the app still has it. */
export function menuToOpen(menus: readonly AppMenu[], menuId: number | null): AppMenu | undefined {
  const all = menus.flatMap((m) => [m, ...m.children]);
  const named = menuId === null ? undefined : all.find((m) => m.menuId === menuId && m.visualId !== null);
  if (named) return named;
  for (const menu of menus) {
    if (menu.children.length > 0) {
      const child = menu.children.find((c) => c.visualId !== null);
      if (child) return child;
    } else if (menu.visualId !== null) return menu;
  }
  return undefined;
}

/** The first-level menu a menu belongs to (itself at the first level). */
export function topOf(menus: readonly AppMenu[], menuId: number): AppMenu | undefined {
  return menus.find((m) => m.menuId === menuId || m.children.some((c) => c.menuId === menuId));
}

/** The watermark text: the user's name and the app's text (spec 1 §9 default 保密). */
export function watermarkText(userName: string, text: string | null | undefined): string {
  return [userName.trim(), (text ?? '').trim() || '保密'].filter(Boolean).join(' ');
}
