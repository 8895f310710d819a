import type { z } from 'zod';
import { boardMessages, boardSaveMessages, formatMessage, type BoardCategory, type BoardKind, type boardCategorySaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, forbidden, isForeignKeyViolation, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import {
  countBoardsInCategory,
  countChildCategories,
  deleteCategory as deleteCategoryRow,
  findCategories,
  findCategory,
  findCategoryForUpdate,
  getNextCategorySort,
  insertCategory,
  updateCategory,
} from './repo.ts';

export type BoardCategorySaveBody = z.output<typeof boardCategorySaveSchema>;

/** The top level of the category tree. */
const ROOT = 0;

/**
 * Board categories (spec 1 §2.1, §3 "Report category"): a two-level tree per kind (visual,
 * report), parent 0 the top level. Every user may add one; its creator and administrators
 * may rename, move and delete it. A category still holding sub-categories or boards is not
 * deleted (409).
 */

export function listCategories(ctx: AppContext, kind: BoardKind): Promise<BoardCategory[]> {
  return findCategories(ctx.db, kind);
}

function mayChange(caller: Caller, category: { createUserId: number | null }): boolean {
  return caller.isAdministrator || (category.createUserId !== null && category.createUserId === caller.userId);
}

/** The parent rule: 0, or another top-level category of the same kind (not the category itself). */
async function checkParent(ctx: AppContext, kind: BoardKind, id: number | null, parentId: number): Promise<void> {
  if (parentId === ROOT) return;
  if (id !== null && parentId === id) throw fieldError('parentId', boardMessages.categoryParentSelf);
  const parent = await findCategory(ctx.db, parentId);
  if (!parent || parent.kind !== kind) throw fieldError('parentId', boardMessages.categoryParentMissing);
  if (parent.parentId !== ROOT) throw fieldError('parentId', boardMessages.categoryTooDeep);
  if (id !== null && (await countChildCategories(ctx.db, id)) > 0) throw fieldError('parentId', boardSaveMessages.categoryHasChildrenCannotMove);
}

/** Save category: adds one, or with `id` renames / moves / reorders it (a missing sortNum keeps the order). The kind of an existing category does not change. */
export async function saveCategory(ctx: AppContext, caller: Caller, body: BoardCategorySaveBody): Promise<BoardCategory> {
  const id = body.id ?? null;
  let kind = body.kind;
  if (id !== null) {
    const existing = await findCategory(ctx.db, id);
    if (!existing) throw notFound(boardMessages.categoryNotFound);
    if (!mayChange(caller, existing)) throw forbidden(boardSaveMessages.categoryNotOwned);
    kind = existing.kind;
  }
  await checkParent(ctx, kind, id, body.parentId);
  let savedId: number;
  try {
    if (id === null) {
      const sortNum = body.sortNum ?? (await getNextCategorySort(ctx.db, kind, body.parentId));
      savedId = await insertCategory(ctx.db, {
        kind,
        categoryKey: body.categoryKey,
        categoryValue: body.categoryValue,
        parentId: body.parentId,
        sortNum,
        createUserId: caller.userId,
      });
    } else {
      await updateCategory(ctx.db, id, {
        categoryKey: body.categoryKey,
        categoryValue: body.categoryValue,
        parentId: body.parentId,
        ...(body.sortNum === null || body.sortNum === undefined ? {} : { sortNum: body.sortNum }),
      });
      savedId = id;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(boardMessages.categoryNameTaken);
    throw error;
  }
  const saved = await findCategory(ctx.db, savedId);
  if (!saved) throw notFound(boardMessages.categoryNotFound);
  return saved;
}

/**
 * Deletes a category without sub-categories or boards. It is locked `for update` while they
 * are counted; a board saved into it meanwhile would still be refused by the foreign key.
 */
export async function deleteCategory(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const category = await findCategoryForUpdate(trx, id);
      if (!category) throw notFound(boardMessages.categoryNotFound);
      if (!mayChange(caller, category)) throw forbidden(boardSaveMessages.categoryNotOwned);
      if ((await countChildCategories(trx, id)) > 0) throw conflict(boardMessages.categoryHasChildren);
      const count = await countBoardsInCategory(trx, id);
      if (count > 0) throw conflict(formatMessage(boardMessages.categoryHasBoards, { count }));
      await deleteCategoryRow(trx, id);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(formatMessage(boardMessages.categoryHasBoards, { count: await countBoardsInCategory(ctx.db, id) }));
    throw error;
  }
}
