import type { z } from 'zod';
import {
  datasetMessages,
  formatMessage,
  type GlobalParam,
  type GlobalParamType,
  type Page,
  type globalParamListQuerySchema,
  type globalParamSaveSchema,
  type globalParamTypeSaveSchema,
} from '@shutu/contracts';
import { formulaParamRefs } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { page } from '../../platform/http/envelope.ts';
import { conflict, fieldError, isForeignKeyViolation, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import {
  countParamsOfType,
  cubesMentioningParam,
  formulasMentioningParam,
  deleteParam as deleteParamRow,
  deleteParamType as deleteParamTypeRow,
  findParam,
  findParamType,
  findParamTypeForShare,
  findParamTypeForUpdate,
  insertParam,
  insertParamType,
  listParamTypes as listParamTypeRows,
  pageParams,
  updateParam,
  updateParamType,
  type ParamRow,
} from './filter-repo.ts';
import { parseFilterTree, treeItems } from './model.ts';

export type ParamTypeSaveBody = z.output<typeof globalParamTypeSaveSchema>;
export type ParamSaveBody = z.output<typeof globalParamSaveSchema>;
export type ParamListBody = z.output<typeof globalParamListQuerySchema>;

/**
 * Global parameter categories and parameters (spec 2 §3 "Parameter category and global
 * parameter"): what a global-filter condition may take its values from. Everyone reads them
 * (the editor's global filter dialog); administrators change them. A parameter a dataset's
 * global filter uses is neither deleted nor re-keyed (409 naming the dataset).
 */

async function withConflict<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

export function listParamTypes(ctx: AppContext): Promise<GlobalParamType[]> {
  return listParamTypeRows(ctx.db);
}

export async function saveParamType(ctx: AppContext, body: ParamTypeSaveBody): Promise<GlobalParamType> {
  const id = await withConflict(datasetMessages.paramTypeNameTaken, async () => {
    if (!body.id) return insertParamType(ctx.db, { typeName: body.typeName, sortNum: body.sortNum ?? 0 });
    const values = body.sortNum === null || body.sortNum === undefined ? { typeName: body.typeName } : { typeName: body.typeName, sortNum: body.sortNum };
    if ((await updateParamType(ctx.db, body.id, values)) === 0) throw notFound(datasetMessages.paramTypeNotFound);
    return body.id;
  });
  const saved = await findParamType(ctx.db, id);
  if (!saved) throw notFound(datasetMessages.paramTypeNotFound);
  return saved;
}

/** Deletes a category without parameters; it is locked while they are counted. */
export async function deleteParamType(ctx: AppContext, id: number): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await findParamTypeForUpdate(trx, id))) throw notFound(datasetMessages.paramTypeNotFound);
      const count = await countParamsOfType(trx, id);
      if (count > 0) throw conflict(formatMessage(datasetMessages.paramTypeInUse, { count }));
      await deleteParamTypeRow(trx, id);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(formatMessage(datasetMessages.paramTypeInUse, { count: await countParamsOfType(ctx.db, id) }));
    throw error;
  }
}

function toParam(row: ParamRow): GlobalParam {
  return {
    id: row.id,
    typeId: row.typeId,
    typeName: row.typeName,
    paramName: row.paramName,
    paramKey: row.paramKey,
    paramColumnType: row.paramColumnType,
    createTime: new Date(row.createTime).toISOString(),
    updateTime: new Date(row.updateTime).toISOString(),
  };
}

export async function listParams(ctx: AppContext, query: ParamListBody): Promise<Page<GlobalParam>> {
  const { current, size } = query;
  const { rows, total } = await pageParams(ctx.db, { typeId: query.typeId, keyword: query.keyword }, (current - 1) * size, size);
  return page(rows.map(toParam), total, current, size);
}

/**
 * Why the parameter cannot be deleted or re-keyed: the first dataset whose global filter, or
 * whose computed field's formula, takes values from it.
 */
async function usedBy(ctx: AppContext, paramKey: string, action: 'delete' | 'rekey'): Promise<string | undefined> {
  for (const cube of await cubesMentioningParam(ctx.db, paramKey)) {
    const uses = treeItems(parseFilterTree(cube.filterJson)).some((item) => item.conditions.some((c) => c.useParam && c.paramKey === paramKey));
    if (uses) return formatMessage(action === 'delete' ? datasetMessages.paramInUse : datasetMessages.paramKeyInUse, { key: paramKey, name: cube.cubeName });
  }
  for (const field of await formulasMentioningParam(ctx.db, paramKey)) {
    if (!referencesParam(field.columnFormula ?? '', paramKey)) continue;
    const message = action === 'delete' ? datasetMessages.paramInUseByFormula : datasetMessages.paramKeyInUseByFormula;
    return formatMessage(message, { key: paramKey, name: field.cubeName, field: field.columnTitle });
  }
  return undefined;
}

function referencesParam(formula: string, paramKey: string): boolean {
  try {
    return formulaParamRefs(formula).some((r) => r.key === paramKey);
  } catch {
    return false; // a formula that no longer parses uses nothing
  }
}

export async function saveParam(ctx: AppContext, body: ParamSaveBody): Promise<GlobalParam> {
  const values = { typeId: body.typeId, paramName: body.paramName, paramKey: body.paramKey, paramColumnType: body.paramColumnType };
  if (body.id) {
    const existing = await findParam(ctx.db, body.id);
    if (!existing) throw notFound(datasetMessages.paramNotFound);
    if (existing.paramKey !== body.paramKey) {
      const refusal = await usedBy(ctx, existing.paramKey, 'rekey');
      if (refusal) throw conflict(refusal);
    }
  }
  const id = await withConflict(datasetMessages.paramKeyTaken, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (!(await findParamTypeForShare(trx, body.typeId))) throw fieldError('typeId', datasetMessages.paramTypeNotFound);
      if (!body.id) return insertParam(trx, values);
      await updateParam(trx, body.id, values);
      return body.id;
    }),
  );
  const saved = await findParam(ctx.db, id);
  if (!saved) throw notFound(datasetMessages.paramNotFound);
  return toParam(saved);
}

export async function deleteParam(ctx: AppContext, id: number): Promise<void> {
  const existing = await findParam(ctx.db, id);
  if (!existing) throw notFound(datasetMessages.paramNotFound);
  const refusal = await usedBy(ctx, existing.paramKey, 'delete');
  if (refusal) throw conflict(refusal);
  await deleteParamRow(ctx.db, id);
}
