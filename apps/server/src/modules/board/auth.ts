import { boardMessages, boardSaveMessages, formatMessage, ALL_CATEGORIES, type BoardAuth, type BoardKind } from '@shutu/contracts';
import type { z } from 'zod';
import type { boardAuthSaveSchema, groupBoardAuthSaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError, notFound } from '../../platform/http/errors.ts';
import {
  checkGrantableGroups,
  invalidatePermissions,
  listGrants,
  listGroupsOf,
  replaceGrants,
  setGroupsOf,
  PUBLIC_STATUS,
  type Caller,
} from '../perm/index.ts';
import { findBoard, findBoardIdsInCategories, findCategory, findCategoryWithChildren, updateBoard } from './repo.ts';

export type BoardAuthSaveBody = z.output<typeof boardAuthSaveSchema>;
export type GroupBoardAuthSaveBody = z.output<typeof groupBoardAuthSaveSchema>;

/**
 * Report authorisation (spec 1 §2.7, §6, §7 "Report authorisation"), administrators only
 * (the routes say so): one board's public status and groups, and one group's boards
 * within a category. Every grant change goes through perm/grants-service.ts, which throws
 * the permission service's cached answers away.
 */

async function requireBoard(ctx: AppContext, id: number) {
  const board = await findBoard(ctx.db, id);
  if (!board) throw notFound(boardMessages.boardNotFound);
  return board;
}

/** List by report id: public status and the groups the board is granted to. */
export async function getBoardAuth(ctx: AppContext, id: number): Promise<BoardAuth> {
  const board = await requireBoard(ctx, id);
  return { publicStatus: board.publicStatus, permIds: await listGroupsOf(ctx, board.kind, id) };
}

/**
 * Save: public (1) drops every group grant of the board (the dialog sends an empty group
 * list); restricted (0) makes the board's groups exactly `dataPermIdList`.
 */
export async function saveBoardAuth(ctx: AppContext, caller: Caller, id: number, body: BoardAuthSaveBody): Promise<BoardAuth> {
  const board = await requireBoard(ctx, id);
  const wanted = body.publicStatus === PUBLIC_STATUS.public ? [] : await checkGrantableGroups(ctx, caller, body.dataPermIdList);
  // The public status and the groups change together or not at all.
  await ctx.db.transaction().execute(async (trx) => {
    await updateBoard(trx, id, { publicStatus: body.publicStatus === PUBLIC_STATUS.public ? PUBLIC_STATUS.public : PUBLIC_STATUS.restricted });
    await setGroupsOf(ctx, board.kind, id, wanted, trx);
  });
  invalidatePermissions(ctx);
  return getBoardAuth(ctx, id);
}

/** The boards of a kind in a category (with its sub-categories); undefined for 'all'. */
async function boardsOfCategory(ctx: AppContext, kind: BoardKind, categoryId: number | undefined): Promise<number[] | undefined> {
  if (categoryId === undefined || categoryId === ALL_CATEGORIES) return undefined;
  return findBoardIdsInCategories(ctx.db, kind, await findCategoryWithChildren(ctx.db, categoryId));
}

/** Report-auth list of a group: the boards of the kind granted to it, within the category when one is given. */
export async function groupBoardAuthList(ctx: AppContext, permId: number, kind: BoardKind, categoryId: number | undefined): Promise<number[]> {
  const granted = await listGrants(ctx, permId, kind);
  const within = await boardsOfCategory(ctx, kind, categoryId);
  if (!within) return granted;
  const scope = new Set(within);
  return granted.filter((id) => scope.has(id));
}

/** Report-auth save: the group's grants among the category's boards become selfReportIdList (others stay). */
export async function groupBoardAuthSave(ctx: AppContext, permId: number, body: GroupBoardAuthSaveBody): Promise<number[]> {
  const category = await findCategory(ctx.db, body.reportCategoryId);
  if (!category || category.kind !== body.kind) throw notFound(boardMessages.categoryNotFound);
  const within = (await boardsOfCategory(ctx, body.kind, body.reportCategoryId)) ?? [];
  const scope = new Set(within);
  const outside = body.selfReportIdList.find((id) => !scope.has(id));
  if (outside !== undefined) throw fieldError('selfReportIdList', formatMessage(boardSaveMessages.boardNotInCategory, { id: outside }));
  await replaceGrants(ctx, permId, body.kind, body.selfReportIdList, within);
  return groupBoardAuthList(ctx, permId, body.kind, body.reportCategoryId);
}
