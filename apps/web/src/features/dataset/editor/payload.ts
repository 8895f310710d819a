import type { CubeModelInput, CubeQueryRequest, Dataset, DatasetSave } from '@shutu/contracts';
import { cubeMessages } from '@shutu/contracts';
import type { FilterTree } from '../filter/types.ts';
import type { EditorField, EditorModel } from './model-state.ts';
import { toCubeField } from './model-state.ts';
import { fmt } from './messages.ts';

export interface SaveForm {
  cubeName: string;
  workspaceId: number | null;
  remark: string;
}

export interface SaveContext {
  id: number | null;
  datasourceId: number;
  /** The saved dataset (edit): its global filter and sort are kept as they are. */
  saved?: Pick<Dataset, 'filterJson' | 'orderByList'> | null;
  /** First save: public, or the chosen permission groups. */
  perm?: { publicStatus: 0 | 1; dataPermIdList: number[] };
  /** The global filter as edited (null: none); undefined keeps the saved one. */
  globalFilter?: FilterTree | null;
}

/** The first join key pair whose two sides differ in data type, as the warning text. */
export function joinTypeMismatch(model: EditorModel): string | null {
  const typeOf = (alias: string, key: string, vt: number) =>
    model.fields.find((f) => f.tableAliasName === alias && (vt === 1 ? f.columnFormula === key : f.columnName === key && f.columnAttr === 'NORMAL'));
  for (const join of model.joins) {
    for (const key of join.joinKeys) {
      const a = typeOf(join.source, key.sourceKey, key.sourceKeyVtState);
      const b = typeOf(join.target, key.targetKey, key.targetKeyVtState);
      if (a && b && a.viewDataType !== b.viewDataType) return fmt(cubeMessages.joinKeyTypeMismatch, { source: a.columnTitle, target: b.columnTitle });
    }
  }
  return null;
}

const saveField = (f: EditorField) => ({
  ...toCubeField(f),
  columnComment: f.columnComment,
  tableName: f.tableName,
  oldViewDataType: f.oldViewDataType,
  hiddenStatus: (f.hiddenStatus ? 1 : 0) as 0 | 1,
  sortNum: f.sortNum,
  numberDataFormat: f.numberDataFormat,
  timeDataFormat: f.timeDataFormat,
  virtualAggregationStatus: (f.virtualAggregationStatus ? 1 : 0) as 0 | 1,
  isExtra: (f.isExtra ? 1 : 0) as 0 | 1,
});

/** The save body (spec §7): cubeData, datasourceId, columnList, orderByList, dataPermIdList on add. */
export function buildSavePayload(model: EditorModel, form: SaveForm, ctx: SaveContext): DatasetSave {
  const body: DatasetSave = {
    cubeData: {
      cubeName: form.cubeName.trim(),
      workspaceId: form.workspaceId ?? 0,
      remark: form.remark.trim() || null,
      cubeTableNames: model.tables.map((t) => ({
        tableName: t.tableName,
        tableAliasName: t.tableAliasName,
        tableComment: t.tableComment ?? null,
        schema: t.schema ?? null,
        type: t.type ?? null,
      })),
      linksJoin: model.joins.map((j) => ({ joinType: j.joinType, source: j.source, target: j.target, joinKeys: j.joinKeys.map((k) => ({ ...k })) })),
    },
    datasourceId: ctx.datasourceId,
    columnList: model.fields.map(saveField),
    orderByList: ctx.saved?.orderByList.map((s) => ({ fieldId: s.fieldId, aggregation: s.aggregation ?? null, direction: s.direction })) ?? [],
  };
  const globalFilter = ctx.globalFilter === undefined ? ctx.saved?.filterJson : ctx.globalFilter;
  if (globalFilter)
    body.cubeData.filterJson = JSON.stringify(globalFilter); // sent as its JSON text, as the old product did
  else if (ctx.id && ctx.saved?.filterJson) body.cubeData.filterJson = null; // cleared
  if (ctx.id) {
    body.id = ctx.id;
    body.cubeData.id = ctx.id;
  } else {
    body.cubeData.publicStatus = ctx.perm?.publicStatus ?? 1;
    body.dataPermIdList = ctx.perm?.publicStatus === 0 ? ctx.perm.dataPermIdList : [];
  }
  return body;
}

/** Fields that may be rows of the detail preview: shown and not aggregating by themselves. */
export const previewableFields = (fields: readonly EditorField[]): EditorField[] =>
  [...fields]
    .filter((f) => !f.hiddenStatus && !(f.columnAttr === 'VIRTUAL' && f.virtualAggregationStatus === 1))
    .sort((a, b) => (a.dimensionType === b.dimensionType ? a.sortNum - b.sortNum : a.dimensionType === 'WEIDU' ? -1 : 1));

export interface PreviewBody {
  datasourceId: number;
  model: CubeModelInput;
  request: CubeQueryRequest;
  cubeDataId?: number;
}

/**
 * The global filter as the editor's preview applies it: conditions that take their values
 * from a global parameter are left out (the editor has no parameter values), as the saved
 * dataset's preview leaves out parameters without a value.
 */
export function previewWhere(tree: FilterTree | null | undefined): CubeQueryRequest['where'] {
  if (!tree) return null;
  const items = (list: FilterTree['conditions']) =>
    list
      .map((item) => ({ ...item, conditions: item.conditions.filter((c) => !c.useParam).map(({ useParam: _u, paramKey: _k, ...c }) => c) }))
      .filter((item) => item.conditions.length > 0);
  const conditions = items(tree.conditions);
  const filters = tree.filters.map((g) => ({ relation: g.relation, conditions: items(g.conditions) })).filter((g) => g.conditions.length > 0);
  return conditions.length === 0 && filters.length === 0 ? null : { relation: tree.relation, conditions, filters };
}

/** The model preview: a detail request over the visible fields, first 100 rows, under the global filter. */
export function buildPreviewBody(
  model: EditorModel,
  datasourceId: number,
  cubeDataId: number | null,
  globalFilter: FilterTree | null = null,
  limit = 100,
): PreviewBody | null {
  const shown = previewableFields(model.fields);
  if (model.tables.length === 0 || shown.length === 0) return null;
  const request: CubeQueryRequest = { detail: true, dimensions: shown.map((f) => ({ fieldId: f.id })), limit, where: previewWhere(globalFilter) };
  return {
    datasourceId,
    model: { tables: model.tables.map((t) => ({ ...t })), joins: model.joins, fields: model.fields.map(toCubeField) },
    request,
    cubeDataId: cubeDataId ?? undefined,
  };
}
