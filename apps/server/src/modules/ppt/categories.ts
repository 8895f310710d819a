import { DEFAULT_PPT_CATEGORY, pptMessages, type PptCategory, type pptCategorySaveSchema } from '@shutu/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { deleteCategoryMovingRecords, findCategories, findCategory, insertCategory, renameCategory } from './repo.ts';

export type PptCategorySaveBody = z.output<typeof pptCategorySaveSchema>;

/**
 * Favourite (1) and archive (2) categories (spec 1 §3 "Slideshow category"): every user has
 * their own lists; 默认分类 (id 0) comes first and is not stored. Names are unique per user
 * and type (409). Deleting a category moves its records to 默认分类.
 */

export async function listPptCategories(ctx: AppContext, caller: Caller, visualType: 1 | 2): Promise<PptCategory[]> {
  return [{ ...DEFAULT_PPT_CATEGORY }, ...(await findCategories(ctx.db, caller.userId, visualType))];
}

/** 0 (默认分类) or a category of the caller's of that type; else 400 分类不存在 on cateId. */
export async function requireOwnCategory(ctx: AppContext, caller: Caller, visualType: 1 | 2, cateId: number): Promise<void> {
  if (cateId === DEFAULT_PPT_CATEGORY.id) return;
  const category = await findCategory(ctx.db, cateId);
  if (!category || category.createUserId !== caller.userId || category.visualType !== visualType) throw fieldError('cateId', pptMessages.categoryNotFound);
}

/** A category of the caller's (another user's is 404 to them). */
async function requireMine(ctx: AppContext, caller: Caller, id: number) {
  const category = await findCategory(ctx.db, id);
  if (!category || category.createUserId !== caller.userId) throw notFound(pptMessages.categoryNotFound);
  return category;
}

export async function savePptCategory(ctx: AppContext, caller: Caller, body: PptCategorySaveBody): Promise<PptCategory> {
  try {
    if (body.id) {
      await requireMine(ctx, caller, body.id);
      await renameCategory(ctx.db, body.id, body.classifyName);
      return { id: body.id, classifyName: body.classifyName };
    }
    const id = await insertCategory(ctx.db, { visualType: body.visualType, classifyName: body.classifyName, createUserId: caller.userId });
    return { id, classifyName: body.classifyName };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(pptMessages.categoryNameTaken);
    throw error;
  }
}

/** Deletes one of the caller's categories; its favourites or archives move to 默认分类. */
export async function deletePptCategory(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireMine(ctx, caller, id);
  await deleteCategoryMovingRecords(ctx.db, id);
}
