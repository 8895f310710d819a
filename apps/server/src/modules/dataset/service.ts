import type { z } from 'zod';
import {
  datasetMessages,
  formatMessage,
  type Dataset,
  type DatasetField,
  type DatasetListItem,
  type Page,
  type datasetListQuerySchema,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { page } from '../../platform/http/envelope.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import { removeGrantsOf, type Caller } from '../perm/index.ts';
import { cubeRestriction, mayEditCube, requireEditable, requireViewable, visibilityOf } from './access.ts';
import { listPermFilters, updatePermFilter } from './filter-repo.ts';
import { formulaUses, idListText, keyOf, parseFilterTree, parseIdList, parseJoins, parseSorts, parseTables, toDatasetField, treeFieldKeys } from './model.ts';
import {
  categoryWithChildren,
  deleteCube as deleteCubeRow,
  deleteFields,
  findField,
  listFields,
  lockCube,
  pageCubes,
  updateCube,
  type CubeRow,
} from './repo.ts';

export type DatasetListBody = z.output<typeof datasetListQuerySchema>;

/**
 * Reading and deleting datasets and their fields (spec 2 §7 "Dataset editor": cube list,
 * detail, field list, delete cube field by columnId). Saving is save.ts; who may do what is
 * access.ts.
 */

const iso = (d: Date) => new Date(d).toISOString();

function toListItem(row: CubeRow, caller: Caller): DatasetListItem {
  return {
    id: row.id,
    cubeName: row.cubeName,
    remark: row.remark,
    workspaceId: row.workspaceId,
    workspaceName: row.workspaceName,
    datasourceId: row.datasourceId,
    dsName: row.dsName,
    tableType: row.tableType,
    publicStatus: row.publicStatus,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    createTime: iso(row.createTime),
    updateTime: iso(row.updateTime),
    editable: mayEditCube(caller, row),
  };
}

export function toDataset(row: CubeRow, caller: Caller): Dataset {
  return {
    ...toListItem(row, caller),
    cubeTableNames: parseTables(row.cubeTableNames),
    linksJoin: parseJoins(row.linksJoin),
    filterJson: parseFilterTree(row.filterJson),
    orderByList: parseSorts(row.orderByJson),
  };
}

/** cubeList: the datasets the caller may see, by category (with its sub-categories) and name, newest first. */
export async function listDatasets(ctx: AppContext, caller: Caller, query: DatasetListBody): Promise<Page<DatasetListItem>> {
  const { current, size } = query;
  const workspaceIds = query.workspaceId ? await categoryWithChildren(ctx.db, query.workspaceId) : undefined;
  const visibleTo = await visibilityOf(ctx, caller);
  const { rows, total } = await pageCubes(ctx.db, { workspaceIds, cubeName: query.cubeName, visibleTo }, (current - 1) * size, size);
  return page(
    rows.map((r) => toListItem(r, caller)),
    total,
    current,
    size,
  );
}

/** Cube detail by cubeDataId. */
export async function getDataset(ctx: AppContext, caller: Caller, id: number): Promise<Dataset> {
  return toDataset(await requireViewable(ctx, caller, id), caller);
}

/**
 * Cube field list by cubeDataId, in sortNum order. Those who may change the dataset get every
 * field (the editor saves the whole list); other readers do not see the columns their
 * permission filters hide.
 */
export async function listDatasetFields(ctx: AppContext, caller: Caller, id: number): Promise<DatasetField[]> {
  const cube = await requireViewable(ctx, caller, id);
  const fields = (await listFields(ctx.db, id)).map(toDatasetField);
  if (mayEditCube(caller, cube)) return fields;
  const hidden = new Set((await cubeRestriction(ctx, caller, id)).permissions.excludedColumnIds.map(keyOf));
  return fields.filter((f) => !hidden.has(keyOf(f.id)));
}

/** Deletes a dataset with its fields and permission filters, and its grants to groups. */
export async function deleteDataset(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireEditable(ctx, caller, id);
  if ((await deleteCubeRow(ctx.db, id)) === 0) throw notFound(datasetMessages.datasetNotFound);
  await removeGrantsOf(ctx, 'cube', id);
}

/**
 * Delete cube field by columnId. Refused (409, naming the user) while a computed field's
 * formula, a join key, a permission filter or the global filter uses it; the dataset's sort
 * and the filters' excluded columns simply forget it.
 */
export async function deleteDatasetField(ctx: AppContext, caller: Caller, columnId: number): Promise<void> {
  const target = await findField(ctx.db, columnId);
  if (!target) throw notFound(datasetMessages.fieldNotFound);
  const cube = await requireEditable(ctx, caller, target.cubeId);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await lockCube(trx, cube.id);
    if (!locked) throw notFound(datasetMessages.datasetNotFound);
    const fields = await listFields(trx, cube.id);
    const field = fields.find((f) => f.id === columnId);
    if (!field) throw notFound(datasetMessages.fieldNotFound);
    const name = field.columnTitle;

    const user = fields.find((f) => f.id !== field.id && f.columnAttr === 'VIRTUAL' && formulaUses(f.columnFormula, field));
    if (user) throw conflict(formatMessage(datasetMessages.fieldUsedByFormula, { name, by: user.columnTitle }));

    const tables = new Map(parseTables(cube.cubeTableNames).map((t) => [t.tableAliasName, t.tableName]));
    for (const join of parseJoins(cube.linksJoin)) {
      const side = (alias: string, key: string, formula: number) =>
        formula === 1 ? formulaUses(key, field) : field.columnAttr === 'NORMAL' && field.tableAliasName === alias && field.columnName === key;
      if (join.joinKeys.some((k) => side(join.source, k.sourceKey, k.sourceKeyVtState) || side(join.target, k.targetKey, k.targetKeyVtState))) {
        throw conflict(
          formatMessage(datasetMessages.fieldUsedByJoin, {
            name,
            source: tables.get(join.source) ?? join.source,
            target: tables.get(join.target) ?? join.target,
          }),
        );
      }
    }

    const key = keyOf(field.id);
    const filters = await listPermFilters(trx, cube.id);
    const filterUser = filters.find((f) => treeFieldKeys(parseFilterTree(f.filterJson)).includes(key));
    if (filterUser) throw conflict(formatMessage(datasetMessages.fieldUsedByFilter, { name, by: `权限过滤器【${filterUser.cubePermName}】` }));
    if (treeFieldKeys(parseFilterTree(locked.filterJson)).includes(key))
      throw conflict(formatMessage(datasetMessages.fieldUsedByFilter, { name, by: '全局过滤' }));

    await deleteFields(trx, cube.id, [field.id]);
    const keptSorts = parseSorts(locked.orderByJson).filter((s) => keyOf(s.fieldId) !== key);
    await updateCube(trx, cube.id, { orderByJson: JSON.stringify(keptSorts) });
    for (const filter of filters) {
      const ids = parseIdList(filter.excludeColumnIds);
      if (ids.includes(field.id)) await updatePermFilter(trx, filter.id, { excludeColumnIds: idListText(ids.filter((id) => id !== field.id)) });
    }
  });
}
