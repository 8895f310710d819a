import { boardMessages, type BoardKind } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { assertInScope, type MaybeScoped } from '../../platform/auth/scope.ts';
import { grantedIds, mayView, type Caller } from '../perm/index.ts';
import { mayEditBoard } from './model.ts';
import { findBoard, type BoardRow } from './repo.ts';

/**
 * Who may see and change a board (docs/boards.md).
 *
 * - See (list, detail, charts, chart data, copy): administrators all; its creator; anyone
 *   when it is public (publicStatus 1); others when it is granted to one of their
 *   permission groups (perm_grant kind = the board's kind).
 * - Change, delete, reorder: administrators and the creator.
 * - Authorisation (public / groups): administrators only (spec 1 §6).
 */

export async function mayViewBoard(ctx: AppContext, caller: Caller, board: Pick<BoardRow, 'id' | 'kind' | 'publicStatus' | 'createUserId'>): Promise<boolean> {
  return mayEditBoard(caller, board) || mayView(ctx, caller, board.kind, board);
}

/** The boards of a kind a non-administrator may see beyond public ones and their own; undefined for administrators. */
export async function boardVisibilityOf(ctx: AppContext, caller: Caller, kind: BoardKind): Promise<{ userId: number; grantedIds: number[] } | undefined> {
  const granted = await grantedIds(ctx, caller, kind);
  if (granted.all) return undefined;
  return { userId: caller.userId, grantedIds: [...granted.ids] };
}

/**
 * The board, if the caller may see it: 404 when there is none, 403 没有此大屏权限 otherwise.
 * A share link's token (scoped) sees only the boards of its scope (docs/shares.md).
 */
export async function requireViewableBoard(ctx: AppContext, caller: Caller & MaybeScoped, id: number): Promise<BoardRow> {
  assertInScope(caller, id);
  const board = await findBoard(ctx.db, id);
  if (!board) throw notFound(boardMessages.boardNotFound);
  if (!(await mayViewBoard(ctx, caller, board))) throw forbidden(boardMessages.boardForbidden);
  return board;
}

/** The board, if the caller may change it (administrators, its creator). */
export async function requireEditableBoard(ctx: AppContext, caller: Caller, id: number): Promise<BoardRow> {
  const board = await findBoard(ctx.db, id);
  if (!board) throw notFound(boardMessages.boardNotFound);
  if (!mayEditBoard(caller, board)) {
    // Who cannot even see it is not told more than that.
    if (!(await mayViewBoard(ctx, caller, board))) throw forbidden(boardMessages.boardForbidden);
    throw forbidden(boardMessages.boardNotOwned);
  }
  return board;
}
