import type { z } from 'zod';
import { CATEGORY_ROOT, datasetMessages, formatMessage, type CubeCategory, type cubeCategorySaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, forbidden, isForeignKeyViolation, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import {
  countChildCategories,
  countCubesInCategory,
  deleteCategory as deleteCategoryRow,
  findCategory,
  findCategoryForUpdate,
  insertCategory,
  listCategories as listCategoryRows,
  nextCategorySort,
  updateCategory,
} from './repo.ts';

export type CategorySaveBody = z.output<typeof cubeCategorySaveSchema>;

/**
 * Dataset categories (spec 2 §3 "Category", §5 "Add category"): a two-level tree, parent 0
 * the top level. Every user may add one (the editor's add-category button); its creator and
 * administrators may rename, move and delete it. A category still holding sub-categories or
 * datasets is not deleted (409).
 */

export function listCategories(ctx: AppContext): Promise<CubeCategory[]> {
  return listCategoryRows(ctx.db);
}

function mayChange(caller: Caller, category: { createUserId: number | null }): boolean {
  return caller.isAdministrator || (category.createUserId !== null && category.createUserId === caller.userId);
}

/** The parent rule: 0, or another top-level category (not the category itself). */
async function checkParent(ctx: AppContext, id: number | null, parentId: number): Promise<void> {
  if (parentId === CATEGORY_ROOT) return;
  if (id !== null && parentId === id) throw fieldError('parentId', datasetMessages.categoryParentSelf);
  const parent = await findCategory(ctx.db, parentId);
  if (!parent) throw fieldError('parentId', datasetMessages.categoryParentMissing);
  if (parent.parentId !== CATEGORY_ROOT) throw fieldError('parentId', datasetMessages.categoryTooDeep);
  if (id !== null && (await countChildCategories(ctx.db, id)) > 0) throw fieldError('parentId', datasetMessages.categoryHasChildrenCannotMove);
}

/** Save category: adds one, or with `id` renames / moves / reorders it (a missing sortNum keeps the order). */
export async function saveCategory(ctx: AppContext, caller: Caller, body: CategorySaveBody): Promise<CubeCategory> {
  const id = body.id ?? null;
  if (id !== null) {
    const existing = await findCategory(ctx.db, id);
    if (!existing) throw notFound(datasetMessages.categoryNotFound);
    if (!mayChange(caller, existing)) throw forbidden(datasetMessages.categoryNotOwned);
  }
  await checkParent(ctx, id, body.parentId);
  let savedId: number;
  try {
    if (id === null) {
      const sortNum = body.sortNum ?? (await nextCategorySort(ctx.db, body.parentId));
      savedId = await insertCategory(ctx.db, { wsName: body.wsName, parentId: body.parentId, sortNum, createUserId: caller.userId });
    } else {
      await updateCategory(ctx.db, id, {
        wsName: body.wsName,
        parentId: body.parentId,
        ...(body.sortNum === null || body.sortNum === undefined ? {} : { sortNum: body.sortNum }),
      });
      savedId = id;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(datasetMessages.categoryNameTaken);
    throw error;
  }
  const saved = await findCategory(ctx.db, savedId);
  if (!saved) throw notFound(datasetMessages.categoryNotFound);
  return saved;
}

/**
 * Deletes a category without sub-categories or datasets. It is locked `for update` while
 * they are counted; a dataset saved into it meanwhile would still be refused by the foreign key.
 */
export async function deleteCategory(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const category = await findCategoryForUpdate(trx, id);
      if (!category) throw notFound(datasetMessages.categoryNotFound);
      if (!mayChange(caller, category)) throw forbidden(datasetMessages.categoryNotOwned);
      if ((await countChildCategories(trx, id)) > 0) throw conflict(datasetMessages.categoryHasChildren);
      const count = await countCubesInCategory(trx, id);
      if (count > 0) throw conflict(formatMessage(datasetMessages.categoryHasDatasets, { count }));
      await deleteCategoryRow(trx, id);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(formatMessage(datasetMessages.categoryHasDatasets, { count: await countCubesInCategory(ctx.db, id) }));
    throw error;
  }
}
