import {
  TEMP_FIELD_ID_PATTERN,
  cubeMessages,
  datasetMessages,
  formatMessage,
  formulaCheckMessages,
  isSavedFieldId,
  tableTypeOf,
  type CubeModelInput,
  type DatasetFieldSaveParsed,
  type DatasetFilterTreeParsed,
  type DatasetSaveParsed,
  type ViewDataType,
} from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import { QueryError, buildModel, checkFormula, checkJoins, compileCubeQuery, formulaParamRefs, type CubeModel, type Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { AppError, conflict, fieldError, forbidden, notFound, queryFailure } from '../../platform/http/errors.ts';
import { getDataSource, getSourceMetadata, sourceColumns, assertTablesUsable } from '../datasource/index.ts';
import { checkGrantableGroups, invalidatePermissions, setGroupsOf, type Caller } from '../perm/index.ts';
import { requireEditable } from './access.ts';
import { listPermFilters, paramKeysExisting, updatePermFilter } from './filter-repo.ts';
import {
  idListText,
  keyOf,
  parseFilterTree,
  parseIdList,
  resolveParams,
  rewriteFormulaIds,
  rewriteTreeIds,
  treeFieldKeys,
  treeIsEmpty,
  treeItems,
  type StoredTable,
} from './model.ts';
import {
  allocateFieldIds,
  categoryExistsForShare,
  deleteFields,
  findCategory,
  insertCube,
  insertFields,
  listFields,
  lockCube,
  updateCube,
  updateField,
  type FieldRow,
  type FieldValues,
} from './repo.ts';

/** The caller of a save: the global filter needs the permission cube_filter_row. */
export type SaveCaller = Caller & { permissions: ReadonlySet<string> };

/**
 * Save cube (spec 2 §4, §5 "Dataset", §7): add, or edit with `id`. Checked in the spec's
 * order where it has one — name, category (schema), then the model: join keys, their data
 * types (on the columns' real types, from the data source), titles, formulas — then the
 * global filter, the sort and the groups of a first save. New fields' temporary ids are
 * replaced by ids from the sequence, everywhere they are referenced. Returns the id.
 */
export async function saveDataset(ctx: AppContext, caller: SaveCaller, body: DatasetSaveParsed): Promise<number> {
  const { cubeData } = body;
  const id = body.id ?? cubeData.id ?? null;
  const existing = id === null ? null : await requireEditable(ctx, caller, id);
  if (!(await findCategory(ctx.db, cubeData.workspaceId))) throw fieldError('cubeData.workspaceId', datasetMessages.categoryNotFound);
  await getDataSource(ctx, body.datasourceId);
  const tables = cubeData.cubeTableNames;
  await assertTablesUsable(
    ctx,
    caller,
    body.datasourceId,
    tables.map((t) => ({ schema: t.schema ?? null, name: t.tableName, quoted: true })),
  );

  const globalFilter = cubeData.filterJson && !treeIsEmpty(cubeData.filterJson) ? cubeData.filterJson : null;
  const savedFilter = existing ? parseFilterTree(existing.filterJson) : null;
  const unchanged = JSON.stringify(globalFilter) === JSON.stringify(savedFilter && !treeIsEmpty(savedFilter) ? savedFilter : null);
  if (!unchanged && !caller.permissions.has('cube_filter_row')) throw forbidden(datasetMessages.globalFilterForbidden);

  const previous = existing ? await listFields(ctx.db, existing.id) : [];
  const tempKeys = checkFieldIds(body.columnList, existing ? new Set(previous.map((f) => f.id)) : null);

  const aliases = new Map(tables.map((t) => [t.tableAliasName, t]));
  for (const f of body.columnList) {
    if (f.columnAttr === 'VIRTUAL' && f.tableAliasName && !aliases.has(f.tableAliasName)) {
      throw fieldError('columnList', formatMessage(cubeMessages.fieldTableUnknown, { name: f.columnTitle }));
    }
  }
  const input: CubeModelInput = { tables, joins: cubeData.linksJoin, fields: body.columnList };
  const model = engine(() => buildModel(input));
  const driver = await getSourceMetadata(ctx, body.datasourceId);
  const dialect = await driver.dialect();
  const physical = await physicalTypes(ctx, body.datasourceId, tables, body.columnList);
  engine(() =>
    checkJoins({ ...input, fields: body.columnList.map((f) => (f.columnAttr === 'NORMAL' ? { ...f, viewDataType: physical.get(keyOf(f.id))! } : f)) }, dialect),
  );
  const aggregates = checkFormulas(model, body.columnList, dialect);
  await checkFormulaParams(ctx, body.columnList);
  if (globalFilter) await checkGlobalFilter(ctx, model, globalFilter);
  const probe = body.columnList[0];
  if (probe) {
    const rowFilters = globalFilter ? [resolveParams(globalFilter)] : [];
    engine(() => compileCubeQuery(model, { measures: [{ fieldId: probe.id, aggregation: 'COUNT' }] }, { dialect, now: new Date(), rowFilters }));
  }
  for (const sort of body.orderByList) {
    if (!model.byKey.has(keyOf(sort.fieldId))) throw fieldError('orderByList', formatMessage(cubeMessages.fieldUnknown, { name: keyOf(sort.fieldId) }));
  }
  const groups = existing ? [] : await checkGrantableGroups(ctx, caller, body.dataPermIdList);

  const cubeId = await ctx.db.transaction().execute(async (trx) => {
    if (existing && !(await lockCube(trx, existing.id))) throw notFound(datasetMessages.datasetNotFound);
    if (!(await categoryExistsForShare(trx, cubeData.workspaceId))) throw fieldError('cubeData.workspaceId', datasetMessages.categoryNotFound);
    const allocated = await allocateFieldIds(trx, tempKeys.length);
    const ids = new Map(tempKeys.map((key, i) => [key, allocated[i]!]));
    const rewrite = (text: string) => (ids.size > 0 ? rewriteFormulaIds(text, ids) : text);
    const idOf = (fieldId: string | number) => ids.get(keyOf(fieldId)) ?? Number(keyOf(fieldId));

    const fields = body.columnList.map((f) => ({ id: idOf(f.id), ...fieldValues(f, aliases, physical, aggregates, rewrite) }));
    const joins = cubeData.linksJoin.map((j) => ({
      ...j,
      joinKeys: j.joinKeys.map((k) => ({
        ...k,
        sourceKey: k.sourceKeyVtState === 1 ? rewrite(k.sourceKey) : k.sourceKey,
        targetKey: k.targetKeyVtState === 1 ? rewrite(k.targetKey) : k.targetKey,
      })),
    }));
    const sorts = body.orderByList.map((s) => ({ ...s, fieldId: idOf(s.fieldId) }));
    const values = {
      cubeName: cubeData.cubeName,
      remark: cubeData.remark,
      workspaceId: cubeData.workspaceId,
      datasourceId: body.datasourceId,
      cubeTableNames: JSON.stringify(tables),
      linksJoin: JSON.stringify(joins),
      tableType: tableTypeOf(joins),
      filterJson: globalFilter ? JSON.stringify(rewriteTreeIds(globalFilter, ids)) : null,
      orderByJson: JSON.stringify(sorts),
    };

    if (!existing) {
      const created = await insertCube(trx, { ...values, publicStatus: cubeData.publicStatus ?? 0, createUserId: caller.userId });
      await insertFields(trx, created, fields);
      if (groups.length > 0) await setGroupsOf(ctx, 'cube', created, groups, trx);
      return created;
    }
    const kept = new Set(fields.map((f) => f.id));
    await forgetRemovedFields(
      trx,
      existing.id,
      previous.filter((f) => !kept.has(f.id)),
    );
    await updateCube(trx, existing.id, {
      ...values,
      ...(cubeData.publicStatus === null || cubeData.publicStatus === undefined ? {} : { publicStatus: cubeData.publicStatus }),
    });
    const before = new Set(previous.map((f) => f.id));
    for (const { id: fieldId, ...rest } of fields.filter((f) => before.has(f.id))) await updateField(trx, existing.id, fieldId, rest);
    await insertFields(
      trx,
      existing.id,
      fields.filter((f) => !before.has(f.id)),
    );
    return existing.id;
  });
  if (groups.length > 0) invalidatePermissions(ctx);
  return cubeId;
}

/** A refusal of the query engine as a 400 (or 403) with the engine's message. */
function engine<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof QueryError) throw queryFailure(error);
    throw error;
  }
}

/**
 * Saved ids must be this dataset's (on add there are none: every id is temporary); a
 * temporary id must be usable as a `{id}` reference. Returns the temporary ids' keys.
 */
function checkFieldIds(fields: readonly DatasetFieldSaveParsed[], saved: ReadonlySet<number> | null): string[] {
  const temp: string[] = [];
  for (const f of fields) {
    const key = keyOf(f.id);
    if (saved && isSavedFieldId(f.id)) {
      if (!saved.has(Number(key))) throw fieldError('columnList', formatMessage(datasetMessages.fieldIdForeign, { name: f.columnTitle, id: key }));
      continue;
    }
    if (!isSavedFieldId(f.id) && !TEMP_FIELD_ID_PATTERN.test(key))
      throw fieldError('columnList', formatMessage(datasetMessages.fieldTempIdInvalid, { name: f.columnTitle, id: key }));
    if (!temp.includes(key)) temp.push(key);
  }
  return temp;
}

/**
 * The real data type of every physical field's column, by field key; 400 for a column the table
 * (or the SQL view, whose columns are its statement's today) does not have.
 */
async function physicalTypes(
  ctx: AppContext,
  datasourceId: number,
  tables: readonly StoredTable[],
  fields: readonly DatasetFieldSaveParsed[],
): Promise<Map<string, ViewDataType>> {
  const columns = new Map<string, Map<string, ViewDataType>>();
  for (const t of tables) {
    try {
      const list = await sourceColumns(ctx, datasourceId, { schema: t.schema ?? null, name: t.tableName });
      columns.set(t.tableAliasName, new Map(list.map((c) => [c.name, c.viewDataType])));
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'tableNotFound') throw fieldError('cubeData.cubeTableNames', error.message);
      throw error;
    }
  }
  const types = new Map<string, ViewDataType>();
  for (const f of fields) {
    if (f.columnAttr !== 'NORMAL') continue;
    const type = columns.get(f.tableAliasName!)?.get(f.columnName!);
    const table = tables.find((t) => t.tableAliasName === f.tableAliasName)?.tableName ?? '';
    if (!type) throw fieldError('columnList', formatMessage(datasetMessages.fieldColumnMissing, { name: f.columnTitle, table }));
    types.set(keyOf(f.id), type);
  }
  return types;
}

/** Every computed field's formula, against the model and the engine's functions; whether each aggregates. */
function checkFormulas(model: CubeModel, fields: readonly DatasetFieldSaveParsed[], dialect: Dialect): Map<string, boolean> {
  const aggregates = new Map<string, boolean>();
  for (const f of fields) {
    if (f.columnAttr !== 'VIRTUAL') continue;
    try {
      aggregates.set(keyOf(f.id), checkFormula(f.columnFormula ?? '', model, dialect).aggregate);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      throw new AppError(error.status, error.message, { kind: error.kind, position: error.position, field: error.field ?? f.columnTitle });
    }
  }
  return aggregates;
}

/** Every `${key}` a computed field's formula references must be an existing global parameter. */
async function checkFormulaParams(ctx: AppContext, fields: readonly DatasetFieldSaveParsed[]): Promise<void> {
  const refs = fields.flatMap((f) => (f.columnAttr === 'VIRTUAL' ? formulaParamRefs(f.columnFormula ?? '').map((r) => ({ ...r, field: f.columnTitle })) : []));
  if (refs.length === 0) return;
  const existing = await paramKeysExisting(ctx.db, [...new Set(refs.map((r) => r.key))]);
  const unknown = refs.find((r) => !existing.has(r.key));
  if (unknown) {
    throw new AppError(400, formatMessage(formulaCheckMessages.paramUnknown, { key: unknown.key }), {
      kind: 'formula',
      position: unknown.pos,
      field: unknown.field,
    });
  }
}

/** Conditions using a global parameter must name one (过滤条件【…】未设置全局参数) that exists. */
async function checkGlobalFilter(ctx: AppContext, model: CubeModel, tree: DatasetFilterTreeParsed): Promise<void> {
  const keys = new Map<string, string>();
  for (const item of treeItems(tree)) {
    const title = model.byKey.get(keyOf(item.cubeColumnId))?.title ?? item.column ?? keyOf(item.cubeColumnId);
    for (const c of item.conditions) {
      if (!c.useParam) continue;
      if (!c.paramKey) throw fieldError('cubeData.filterJson', formatMessage(datasetMessages.globalParamMissing, { title }));
      if (!keys.has(c.paramKey)) keys.set(c.paramKey, title);
    }
  }
  const existing = await paramKeysExisting(ctx.db, [...keys.keys()]);
  for (const [key, title] of keys) {
    if (!existing.has(key)) throw fieldError('cubeData.filterJson', formatMessage(datasetMessages.globalParamUnknown, { title, key }));
  }
}

function fieldValues(
  f: DatasetFieldSaveParsed,
  aliases: ReadonlyMap<string, StoredTable>,
  physical: ReadonlyMap<string, ViewDataType>,
  aggregates: ReadonlyMap<string, boolean>,
  rewrite: (formula: string) => string,
): FieldValues {
  const normal = f.columnAttr === 'NORMAL';
  const key = keyOf(f.id);
  return {
    columnName: normal ? (f.columnName ?? null) : null,
    columnTitle: f.columnTitle,
    columnComment: f.columnComment ?? null,
    columnAttr: f.columnAttr,
    columnFormula: normal ? null : rewrite(f.columnFormula ?? ''),
    tableName: f.tableAliasName ? (aliases.get(f.tableAliasName)?.tableName ?? null) : null,
    tableAliasName: f.tableAliasName ?? null,
    dimensionType: f.dimensionType,
    viewDataType: f.viewDataType,
    oldViewDataType: normal ? (physical.get(key) ?? null) : (f.oldViewDataType ?? null),
    hiddenStatus: f.hiddenStatus,
    sortNum: f.sortNum,
    numberDataFormat: f.numberDataFormat,
    timeDataFormat: f.timeDataFormat,
    aggregationType: f.aggregationType,
    virtualAggregationStatus: aggregates.get(key) ? 1 : 0,
    isExtra: f.isExtra,
  };
}

/**
 * Fields an edit leaves out: refused while a permission filter reads one (409 naming both);
 * otherwise deleted, and dropped from the filters' excluded columns.
 */
async function forgetRemovedFields(trx: AppContext['db'], cubeId: number, removed: readonly FieldRow[]): Promise<void> {
  if (removed.length === 0) return;
  const filters = await listPermFilters(trx, cubeId);
  for (const filter of filters) {
    const keys = treeFieldKeys(parseFilterTree(filter.filterJson));
    const used = removed.find((f) => keys.includes(keyOf(f.id)));
    if (used) throw conflict(formatMessage(datasetMessages.fieldUsedByFilter, { name: used.columnTitle, by: `权限过滤器【${filter.cubePermName}】` }));
  }
  const gone = new Set(removed.map((f) => f.id));
  for (const filter of filters) {
    const ids = parseIdList(filter.excludeColumnIds);
    if (ids.some((id) => gone.has(id))) await updatePermFilter(trx, filter.id, { excludeColumnIds: idListText(ids.filter((id) => !gone.has(id))) });
  }
  await deleteFields(
    trx,
    cubeId,
    removed.map((f) => f.id),
  );
}
