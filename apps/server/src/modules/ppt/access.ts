import { PPT_VISUAL_TYPES, pptMessages, type PptVisual } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { mayViewBoard, parseContent } from '../board/index.ts';
import { grantedIds, mayView, type Caller } from '../perm/index.ts';
import { mayEditPpt, parseVisualIds } from './model.ts';
import { findBoardsForSlides, findPpt, type PptRow } from './repo.ts';
import { assertPptInScope, type MaybeScoped } from '../../platform/auth/scope.ts';

/**
 * Who may see and change a slideshow (docs/slideshows.md).
 *
 * - Slideshows (visualType 0): administrators all; the creator; everyone when public; members
 *   of a group it is granted to (perm_grant kind 'ppt').
 * - Favourites and archives (1, 2): their owner (and administrators) only.
 * - Change and delete: the creator and administrators. Authorisation: administrators.
 * - A viewer sees only the boards of a slideshow they may see themselves, in its order.
 */

export async function mayViewPpt(ctx: AppContext, caller: Caller, row: Pick<PptRow, 'id' | 'visualType' | 'publicStatus' | 'createUserId'>): Promise<boolean> {
  if (mayEditPpt(caller, row)) return true;
  if (row.visualType !== PPT_VISUAL_TYPES.normal) return false;
  return mayView(ctx, caller, 'ppt', row);
}

/** Slideshows a non-administrator may list beyond public ones and their own; undefined for administrators. */
export async function pptVisibilityOf(ctx: AppContext, caller: Caller): Promise<{ userId: number; grantedIds: number[] } | undefined> {
  const granted = await grantedIds(ctx, caller, 'ppt');
  if (granted.all) return undefined;
  return { userId: caller.userId, grantedIds: [...granted.ids] };
}

/** The boards among `ids` the caller may see, in the order of `ids` (deleted ones left out). */
export async function viewableVisuals(ctx: AppContext, caller: Caller, ids: readonly number[]): Promise<PptVisual[]> {
  const rows = new Map((await findBoardsForSlides(ctx.db, ids)).map((b) => [b.id, b]));
  const visuals: PptVisual[] = [];
  for (const id of ids) {
    const board = rows.get(id);
    if (!board || !(await mayViewBoard(ctx, caller, board))) continue;
    visuals.push({ id, kind: board.kind, type: parseContent(board.content).type, title: board.title, backgroundUrl: board.backgroundUrl });
  }
  return visuals;
}

/** The record, if the caller may see it: 404 幻灯片不存在, 403 没有此幻灯片权限. */
export async function requirePpt(ctx: AppContext, caller: Caller & MaybeScoped, id: number): Promise<PptRow> {
  // A share link's token reads only the slideshow it was handed out for (docs/shares.md).
  assertPptInScope(caller, id);
  const row = await findPpt(ctx.db, id);
  if (!row) throw notFound(pptMessages.notFound);
  if (!(await mayViewPpt(ctx, caller, row))) throw forbidden(pptMessages.forbidden);
  return row;
}

/**
 * For the viewer, the PDF export and subscriptions: the record the caller may see and the
 * ids of its boards the caller may see, in the slideshow's order. A share link's token sees
 * only the boards of its scope (those of the slideshow when the link was opened).
 */
export async function requireViewablePpt(
  ctx: AppContext,
  caller: Caller & MaybeScoped,
  id: number,
): Promise<{ ppt: PptRow; boardIds: number[]; visuals: PptVisual[] }> {
  const ppt = await requirePpt(ctx, caller, id);
  const scope = caller.scope;
  const ids = parseVisualIds(ppt.visualIds);
  const visuals = await viewableVisuals(ctx, caller, scope ? ids.filter((boardId) => scope.boards.includes(boardId)) : ids);
  return { ppt, boardIds: visuals.map((v) => v.id), visuals };
}

/** The record, if the caller may change it (the creator, administrators). */
export async function requireEditablePpt(ctx: AppContext, caller: Caller, id: number): Promise<PptRow> {
  const row = await requirePpt(ctx, caller, id);
  if (!mayEditPpt(caller, row)) throw forbidden(pptMessages.notOwned);
  return row;
}
