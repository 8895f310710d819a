import { removeThumbnail } from './thumbnail.ts';
import type { z } from 'zod';
import {
  ALL_CATEGORIES,
  boardMessages,
  type Board,
  type BoardListItem,
  type BoardKind,
  type Chart,
  type Page,
  type boardInfoSaveSchema,
  type boardListQuerySchema,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { page } from '../../platform/http/envelope.ts';
import { fieldError, forbidden, notFound } from '../../platform/http/errors.ts';
import { removeGrantsOf, type Caller } from '../perm/index.ts';
import { boardVisibilityOf, requireEditableBoard, requireViewableBoard } from './access.ts';
import { mayEditBoard, toBoard, toChart, toListItem } from './model.ts';
import {
  categoryExistsForShare,
  deleteBoard as deleteBoardRow,
  findBoard,
  findBoardForUpdate,
  findBoardPage,
  findBoardsByIds,
  findCategoryWithChildren,
  findCharts,
  updateBoard,
  updateBoardSortNums,
} from './repo.ts';
import { requireCategoryOfKind } from './save-board.ts';

export type BoardListBody = z.output<typeof boardListQuerySchema>;
export type BoardInfoBody = z.output<typeof boardInfoSaveSchema>;

/**
 * Reading, editing the info of, deleting and reordering boards (spec 1 §2.1, §7 "Reports").
 * The editor save is save-board.ts, the copy copy-board.ts, authorisation auth.ts; who may
 * do what is access.ts.
 */

/** The list: boards of a kind the caller may see, by category (with sub-categories; -1 or none: all) and title; by sort number, then newest. */
export async function listBoards(ctx: AppContext, caller: Caller, query: BoardListBody): Promise<Page<BoardListItem>> {
  const { current, size, kind } = query;
  const categoryIds =
    query.categoryId === undefined || query.categoryId === ALL_CATEGORIES ? undefined : await findCategoryWithChildren(ctx.db, query.categoryId);
  const visibleTo = await boardVisibilityOf(ctx, caller, kind);
  const { rows, total } = await findBoardPage(ctx.db, { kind, categoryIds, title: query.title || undefined, visibleTo }, (current - 1) * size, size);
  return page(
    rows.map((r) => toListItem(r, caller)),
    total,
    current,
    size,
  );
}

/** Detail with charts (403 没有此大屏权限 when the caller may not see it). */
export async function getBoard(ctx: AppContext, caller: Caller, id: number): Promise<Board> {
  const board = await requireViewableBoard(ctx, caller, id);
  return toBoard(board, await findCharts(ctx.db, id), caller);
}

/** componentList: the charts of a board. */
export async function listBoardCharts(ctx: AppContext, caller: Caller, id: number): Promise<Chart[]> {
  await requireViewableBoard(ctx, caller, id);
  return (await findCharts(ctx.db, id)).map(toChart);
}

/** Save simple (edit info): title, category of the same kind, and the thumbnail URL when sent. */
export async function saveBoardInfo(ctx: AppContext, caller: Caller, id: number, body: BoardInfoBody): Promise<BoardListItem> {
  const board = await requireEditableBoard(ctx, caller, id);
  await requireCategoryOfKind(ctx, body.categoryId, board.kind);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await findBoardForUpdate(trx, id))) throw notFound(boardMessages.boardNotFound);
    if (!(await categoryExistsForShare(trx, body.categoryId, board.kind))) throw fieldError('categoryId', boardMessages.categoryNotFound);
    await updateBoard(trx, id, {
      title: body.title,
      categoryId: body.categoryId,
      ...(body.backgroundUrl === undefined ? {} : { backgroundUrl: body.backgroundUrl }),
    });
  });
  const saved = await findBoard(ctx.db, id);
  if (!saved) throw notFound(boardMessages.boardNotFound);
  return toListItem(saved, caller);
}

/** Deletes a board with its charts (cascade) and its grants to groups. */
export async function deleteBoard(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const board = await requireEditableBoard(ctx, caller, id);
  if ((await deleteBoardRow(ctx.db, id)) === 0) throw notFound(boardMessages.boardNotFound);
  await removeGrantsOf(ctx, board.kind, id);
  await removeThumbnail(ctx, board.backgroundUrl);
}

/**
 * Sort (drag to reorder): the boards of the kind among `ids` get sort numbers 1..n in the
 * given order; ids that are not boards of the kind are skipped. Every listed board must be
 * the caller's to change (administrators: all), else 403 and nothing changes.
 */
export async function sortBoards(ctx: AppContext, caller: Caller, kind: BoardKind, ids: readonly number[]): Promise<void> {
  const rows = await findBoardsByIds(ctx.db, kind, ids);
  if (rows.some((r) => !mayEditBoard(caller, r))) throw forbidden(boardMessages.boardNotOwned);
  const existing = new Set(rows.map((r) => r.id));
  await updateBoardSortNums(
    ctx.db,
    ids.filter((id) => existing.has(id)),
  );
}
