import {
  EMPTY_FILTER_TREE,
  cubeModelSchema,
  datasetMessages,
  formatMessage,
  type AuthCubeDetail,
  type AuthCubeSaveBatchParsed,
  type CubePermFilter,
  type CubePermFilterSaveParsed,
} from '@shutu/contracts';
import { QueryError, compileCubeQuery, getDialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, forbidden, isUniqueViolation, notFound, queryFailure } from '../../platform/http/errors.ts';
import { getDataSource } from '../datasource/index.ts';
import { listGrants, replaceGrants, type Caller, findGroup } from '../perm/index.ts';
import { requireEditable } from './access.ts';
import { deletePermFilter, findPermFilter, findPermFilterOf, insertPermFilter, listPermFilters, updatePermFilter, type PermFilterRow } from './filter-repo.ts';
import { idListText, parseFilterTree, parseJoins, parseTables, storedModel, treeItems } from './model.ts';
import { categoryWithChildren, cubeIdsInCategories, findCategory, findCube, listFields, type CubeRow } from './repo.ts';

/**
 * Dataset permission filters (spec 2 §2 "Dataset permission filter dialog", §5, §6, §7
 * "Dataset permission filters"): one per dataset and permission group, a row filter tree and
 * excluded columns. The routes need cube_filter_row; on top of that, adding, deleting and
 * rebinding a filter to another group are for administrators (§6), and a non-administrator
 * works only on datasets they may change (their own: the dialog belongs to the editor).
 *
 * Group-level dataset authorisation (§7): the dataset tab of a group's settings, for
 * administrators.
 */

const iso = (d: Date) => new Date(d).toISOString();

export function toPermFilter(row: PermFilterRow): CubePermFilter {
  return {
    id: row.id,
    cubeDataId: row.cubeId,
    dataPermId: row.permId,
    permName: row.permName,
    cubePermName: row.cubePermName,
    filterJson: parseFilterTree(row.filterJson) ?? EMPTY_FILTER_TREE,
    excludeColumnIds: row.excludeColumnIds,
    createTime: iso(row.createTime),
    updateTime: iso(row.updateTime),
  };
}

/** cubePremList: the dataset's filters, oldest first. */
export async function listCubePermFilters(ctx: AppContext, caller: Caller, cubeId: number): Promise<CubePermFilter[]> {
  await requireEditable(ctx, caller, cubeId);
  return (await listPermFilters(ctx.db, cubeId)).map(toPermFilter);
}

/** The filter must read fields of the dataset and compile on its engine; excluded columns must be its fields. */
async function checkFilter(ctx: AppContext, cube: CubeRow, body: CubePermFilterSaveParsed): Promise<void> {
  const tree = body.filterJson ?? EMPTY_FILTER_TREE;
  if (treeItems(tree).some((item) => item.conditions.some((c) => c.useParam))) throw fieldError('filterJson', datasetMessages.permFilterNoParams);
  const fields = await listFields(ctx.db, cube.id);
  const known = new Set(fields.map((f) => f.id));
  if (body.excludeColumnIds.some((id) => !known.has(id))) throw fieldError('excludeColumnIds', datasetMessages.fieldNotFound);
  if (treeItems(tree).length === 0 || fields.length === 0) return;
  const model = cubeModelSchema.parse(storedModel(parseTables(cube.cubeTableNames), parseJoins(cube.linksJoin), fields));
  const source = await getDataSource(ctx, cube.datasourceId);
  try {
    compileCubeQuery(
      model,
      { measures: [{ fieldId: fields[0]!.id, aggregation: 'COUNT' }] },
      { dialect: getDialect(source.type), now: new Date(), rowFilters: [tree] },
    );
  } catch (error) {
    if (error instanceof QueryError) throw queryFailure(error);
    throw error;
  }
}

/** cubePremSave: adds a filter (administrators), or with `id` updates it. One filter per group: 409 for a second. */
export async function saveCubePermFilter(ctx: AppContext, caller: Caller, body: CubePermFilterSaveParsed): Promise<CubePermFilter> {
  const cube = await requireEditable(ctx, caller, body.cubeDataId);
  const existing = body.id ? await findPermFilter(ctx.db, body.id) : undefined;
  if (body.id && (!existing || existing.cubeId !== cube.id)) throw notFound(datasetMessages.permFilterNotFound);
  if (!caller.isAdministrator && (!existing || existing.permId !== body.dataPermId)) throw forbidden(datasetMessages.permFilterAdminOnly);
  const group = await findGroup(ctx.db, body.dataPermId);
  if (!group) throw fieldError('dataPermId', datasetMessages.groupMissing);
  await checkFilter(ctx, cube, body);
  const values = {
    cubeId: cube.id,
    permId: body.dataPermId,
    cubePermName: body.cubePermName,
    filterJson: JSON.stringify(body.filterJson ?? EMPTY_FILTER_TREE),
    excludeColumnIds: idListText(body.excludeColumnIds),
  };
  let id: number;
  try {
    if (existing) {
      await updatePermFilter(ctx.db, existing.id, values);
      id = existing.id;
    } else {
      id = await insertPermFilter(ctx.db, values);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(formatMessage(datasetMessages.permFilterGroupTaken, { name: group.permName }));
    throw error;
  }
  const saved = await findPermFilter(ctx.db, id);
  if (!saved) throw notFound(datasetMessages.permFilterNotFound);
  return toPermFilter(saved);
}

/** cubePremSDel: administrators only. */
export async function deleteCubePermFilter(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  if (!caller.isAdministrator) throw forbidden(datasetMessages.permFilterAdminOnly);
  if ((await deletePermFilter(ctx.db, id)) === 0) throw notFound(datasetMessages.permFilterNotFound);
}

// ---------------------------------------------------------------------------------------
// Group-level dataset authorisation (administrators)

async function datasetsOfCategory(ctx: AppContext, workspaceId: number | undefined): Promise<number[] | undefined> {
  if (!workspaceId) return undefined;
  if (!(await findCategory(ctx.db, workspaceId))) throw notFound(datasetMessages.categoryNotFound);
  return cubeIdsInCategories(ctx.db, await categoryWithChildren(ctx.db, workspaceId));
}

/** authCubeList: the datasets of the category (with its sub-categories; none: every category) granted to the group. */
export async function authCubeList(ctx: AppContext, permId: number, workspaceId: number | undefined): Promise<number[]> {
  const granted = await listGrants(ctx, permId, 'cube');
  const within = await datasetsOfCategory(ctx, workspaceId);
  if (!within) return granted;
  const scope = new Set(within);
  return granted.filter((id) => scope.has(id));
}

/** authCubeDetail: whether the dataset is granted to the group, and the group's filter on it. */
export async function authCubeDetail(ctx: AppContext, permId: number, cubeId: number): Promise<AuthCubeDetail> {
  const granted = await listGrants(ctx, permId, 'cube');
  const cube = await findCube(ctx.db, cubeId);
  if (!cube) throw notFound(datasetMessages.datasetNotFound);
  const filter = await findPermFilterOf(ctx.db, cubeId, permId);
  return {
    cubeDataId: cube.id,
    dataPermId: permId,
    cubeWorkspaceId: cube.workspaceId,
    granted: granted.includes(cube.id),
    filter: filter ? toPermFilter(filter) : null,
  };
}

/** authCubeSaveBatch: the group's grants among the category's datasets become dataIdList. */
export async function authCubeSaveBatch(ctx: AppContext, permId: number, body: AuthCubeSaveBatchParsed): Promise<number[]> {
  const within = (await datasetsOfCategory(ctx, body.cubeWorkspaceId)) ?? [];
  const scope = new Set(within);
  const outside = body.dataIdList.find((id) => !scope.has(id));
  if (outside !== undefined) throw fieldError('dataIdList', formatMessage(datasetMessages.datasetNotInCategory, { id: outside }));
  await replaceGrants(ctx, permId, 'cube', body.dataIdList, within);
  return authCubeList(ctx, permId, body.cubeWorkspaceId);
}
