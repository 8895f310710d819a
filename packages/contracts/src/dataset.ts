import { z } from 'zod';
import { optionalText, requiredText } from './common.ts';
import { pageQuerySchema } from './envelope.ts';
import { zhCN } from './messages.ts';
import {
  AGGREGATION_TYPES,
  COLUMN_ATTRS,
  DIMENSION_TYPES,
  FILTER_FUNCTIONS,
  JOIN_TYPES,
  MAX_FILTER_VALUES,
  TIME_UNITS,
  VIEW_DATA_TYPES,
  cubeFieldSchema,
  cubeJoinSchema,
  cubeMessages,
  cubeQueryRequestSchema,
  cubeSortSchema,
  cubeTableSchema,
  filterConditionSchema,
  filterGroupSchema,
  filterItemSchema,
  filterLeafGroupSchema,
  type FieldId,
  type ViewDataType,
} from './cube.ts';
import { PARAM_KEY_MAX_LENGTH, PARAM_KEY_PATTERN, globalParamValuesSchema, orBase64Payload } from './query.ts';
import { DATASET_DEFAULTS } from './constants.ts';

/**
 * Datasets (cubes) as saved: categories, the dataset with its tables, joins, fields and
 * global filter, permission filters per permission group, group-level dataset grants and
 * global parameters (spec 2 §2 "Dataset editor layout", "Dataset permission filter dialog";
 * §3 "Dataset", "Join", "Field", "Supporting entities", "Dataset permission filter"; §4; §5
 * "Dataset", "Permission filter and global filter"; §6; §7 "Dataset editor", "Dataset
 * permission filters", "Group-level dataset authorisation"; §9).
 *
 * The model parts reuse the query engine's schemas (cube.ts): tables, joins, fields, filter
 * trees and sorts. POST bodies may come as `{ payload: Base64 of the JSON }` (spec §7), and
 * the JSON lists the old product kept as text (cubeTableNames, linksJoin, filterJson) may be
 * sent as JSON text too.
 */

export const datasetMessages = {
  nameRequired: '请填写名称',
  categoryRequired: '请选择分类',
  categoryNameRequired: '请填写分类名',
  categoryNotFound: '分类不存在',
  categoryParentSelf: '上级分类不能是自己',
  categoryParentMissing: '上级分类不存在',
  categoryTooDeep: '分类最多两级：上级只能是顶级分类',
  categoryHasChildrenCannotMove: '该分类下还有子分类，不能移到其他分类下',
  categoryNameTaken: '同一上级下分类名称已存在',
  categoryHasChildren: '请先删除下级分类',
  categoryHasDatasets: '该分类下还有 {count} 个数据集，请先删除或移到其他分类',
  categoryNotOwned: '只能修改或删除自己创建的分类',
  datasetNotFound: '数据集不存在',
  datasetNotOwned: '只能修改或删除自己创建的数据集',
  datasetForbidden: '没有数据集【{name}】的使用权限，请联系管理员授权',
  /** What a board, slideshow or link shows is limited by its author too: one who can no longer see the dataset no longer publishes it. */
  ownerLostDataset: '图表作者已无权查看数据集【{name}】，请联系作者或管理员',
  datasetNotInCategory: '数据集【{id}】不存在或不在该分类下',
  fieldNotFound: '字段不存在',
  fieldTitleDuplicate: cubeMessages.fieldTitleDuplicate,
  fieldIdForeign: '字段【{name}】的编号 {id} 不属于该数据集',
  fieldTempIdInvalid: '字段【{name}】的临时编号【{id}】不合法：须含字母，只含字母、数字、下划线或减号',
  fieldColumnMissing: '字段【{name}】在数据表【{table}】中不存在',
  fieldUsedByFormula: '字段【{name}】被计算字段【{by}】使用，不能删除',
  fieldUsedByJoin: '字段【{name}】是表【{source}】与表【{target}】的连接字段，不能删除',
  fieldUsedByFilter: '字段【{name}】被{by}使用，不能删除',
  joinKeyMissing: cubeMessages.joinKeyMissing,
  confirmDeleteField: '确定删除此字段?',
  confirmDelete: '确定删除?',
  noFieldsToSync: '无可同步字段',
  globalFilterForbidden: '没有设置全局过滤的权限',
  globalParamMissing: '过滤条件【{title}】未设置全局参数',
  globalParamUnknown: '过滤条件【{title}】使用的全局参数【{key}】不存在',
  permFilterNameRequired: '请填写过滤器名称',
  permFilterGroupRequired: '请选择权限组',
  permFilterNotFound: '权限过滤器不存在',
  permFilterAdminOnly: '只有管理员可以添加、删除权限过滤器或更换其权限组',
  permFilterGroupTaken: '权限组【{name}】在该数据集上已有过滤器，一个权限组只能有一个过滤器',
  permFilterNoParams: '权限过滤器不能使用全局参数',
  permFilterFieldMissing: '权限过滤器【{name}】使用的字段不在当前数据集中，请先保存数据集',
  permFilterDefaultFirst: '一号过滤器',
  permFilterDefaultNext: '{count}-新增过滤器',
  groupMissing: '权限组不存在',
  paramTypeNameRequired: '请输入分类名',
  paramTypeNameTaken: '分类名称已存在',
  paramTypeNotFound: '参数分类不存在',
  paramTypeInUse: '该分类下还有 {count} 个全局参数，请先删除或移到其他分类',
  paramTypeRequired: '请选择参数分类',
  paramNameRequired: '请输入参数名称',
  paramKeyRequired: '请输入参数key',
  paramKeyInvalid: '参数key须以字母开头，只含字母、数字或下划线',
  paramKeyTaken: '参数key已存在',
  paramNotFound: '全局参数不存在',
  paramInUse: '全局参数【{key}】被数据集【{name}】的全局过滤使用，不能删除',
  paramKeyInUse: '全局参数【{key}】被数据集【{name}】的全局过滤使用，不能修改key',
  paramInUseByFormula: '全局参数【{key}】被数据集【{name}】的计算字段【{field}】使用，不能删除',
  paramKeyInUseByFormula: '全局参数【{key}】被数据集【{name}】的计算字段【{field}】使用，不能修改key',
} as const;

// ---------------------------------------------------------------------------------------
// Constants (spec 2 §9)

export { DATASET_DEFAULTS } from './constants.ts';

/** LOGIC when the dataset joins tables, otherwise PHYSICS. */
export const TABLE_TYPES = ['LOGIC', 'PHYSICS'] as const;
export type TableType = (typeof TABLE_TYPES)[number];
export const tableTypeOf = (joins: readonly unknown[]): TableType => (joins.length > 0 ? 'LOGIC' : 'PHYSICS');

/** Top-level categories have parent 0; categories nest two levels deep. */
export const CATEGORY_ROOT = 0;
export const DATASET_NAME_MAX_LENGTH = 100;
export const CATEGORY_NAME_MAX_LENGTH = 50;
export const PERM_FILTER_NAME_MAX_LENGTH = 50;
/** Enumeration sources of a filter item: raw-data aggregation, data API, custom dictionary. */
export const ENUM_SOURCES = { rawData: 1, api: 2, dictionary: 3 } as const;

/**
 * Default name of a new permission filter, given how many the dataset already has:
 * 一号过滤器 for the first, then {count}-新增过滤器 with count the new filter's number (2, 3, …).
 */
export function defaultPermFilterName(existing: number): string {
  return existing <= 0 ? datasetMessages.permFilterDefaultFirst : datasetMessages.permFilterDefaultNext.replace('{count}', String(existing + 1));
}

/** A saved field's id (a number, or its digits as text); anything else is a temporary id of a new field. */
export const isSavedFieldId = (id: FieldId): boolean => typeof id === 'number' || /^[0-9]+$/.test(id.trim());
/** Temporary ids must be usable as `{id}` formula references and must not look like saved ids. */
export const TEMP_FIELD_ID_PATTERN = /^(?=.*[A-Za-z_-])[A-Za-z0-9_-]{1,64}$/;

/**
 * The title a newly added field gets (spec 2 §4): a title already taken gets 1 appended
 * (again while still taken); the field is hidden when its data type equals the earlier one's.
 */
export function dedupeFieldTitle(
  title: string,
  viewDataType: ViewDataType,
  existing: readonly { columnTitle: string; viewDataType: ViewDataType }[],
): { columnTitle: string; hiddenStatus: 0 | 1 } {
  const earlier = existing.find((f) => f.columnTitle === title);
  if (!earlier) return { columnTitle: title, hiddenStatus: 0 };
  const taken = new Set(existing.map((f) => f.columnTitle));
  let next = `${title}1`;
  while (taken.has(next)) next = `${next}1`;
  return { columnTitle: next, hiddenStatus: earlier.viewDataType === viewDataType ? 1 : 0 };
}

// ---------------------------------------------------------------------------------------
// Helpers

/** 0 / 1, also as text or a boolean. */
const flag = (fallback: 0 | 1) =>
  z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()])
    .transform((v): 0 | 1 => (v === 1 || v === '1' || v === true ? 1 : 0))
    .default(fallback);

/** `schema`, also accepting its JSON text (the old product stored these lists as text). */
function orJsonText<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>, z.input<T> | string> {
  const parsed = z.preprocess((input) => {
    if (typeof input !== 'string') return input;
    if (input.trim() === '') return undefined;
    try {
      return JSON.parse(input) as unknown;
    } catch {
      return input; // the schema then says what is wrong
    }
  }, schema);
  // The pipe's input is `unknown` to TypeScript; callers may send the value or its text.
  return parsed as unknown as z.ZodType<z.output<T>, z.input<T> | string>;
}

const positiveId = (message: string) => z.number({ error: message }).int().positive(message);
const datasourceId = positiveId(zhCN.fileTableDsRequired);

// ---------------------------------------------------------------------------------------
// Categories

export const cubeCategorySchema = z.object({
  id: z.number(),
  wsName: z.string(),
  parentId: z.number(),
  sortNum: z.number(),
  createUserId: z.number().nullable(),
});
export type CubeCategory = z.infer<typeof cubeCategorySchema>;

/** Save category (wsName, sortNum, parentId); with id an update. Parent: 0 or a top-level category other than itself. */
export const cubeCategorySaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  wsName: requiredText(datasetMessages.categoryNameRequired, CATEGORY_NAME_MAX_LENGTH),
  parentId: z.number().int().min(0).default(CATEGORY_ROOT),
  sortNum: z.number().int().min(0).max(100000).nullish(),
});
export type CubeCategorySave = z.input<typeof cubeCategorySaveSchema>;

// ---------------------------------------------------------------------------------------
// Filter trees as the editor keeps them (global filter, permission filters)

/** A condition; a global-filter condition may take its values from a global parameter (useParam + paramKey). */
export const datasetFilterConditionSchema = filterConditionSchema.extend({
  useParam: z
    .union([z.boolean(), z.literal(0), z.literal(1)])
    .transform((v) => v === true || v === 1)
    .default(false),
  paramKey: z.string().trim().max(PARAM_KEY_MAX_LENGTH).nullish(),
});

/** A filter item with the editor's display attributes, kept as sent. */
export const datasetFilterItemSchema = filterItemSchema.extend({
  column: z.string().max(255).nullish(),
  asFilter: z.union([z.boolean(), z.number()]).nullish(),
  options: z.array(z.unknown()).max(MAX_FILTER_VALUES).nullish(),
  enumSource: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullish(),
  enumId: z.union([z.number(), z.string().max(64)]).nullish(),
  dateFormat: z.string().max(50).nullish(),
  conditions: z.array(datasetFilterConditionSchema).min(1, cubeMessages.filterConditionMissing).max(20),
});

export const datasetFilterLeafGroupSchema = filterLeafGroupSchema.extend({
  conditions: z.array(datasetFilterItemSchema).max(200).default([]),
});

/**
 * A filter tree (spec: "where contains conditions, filters and relation"): the spec's
 * filterList is `conditions` and filterRelation is `relation` (AND by default); `filters`
 * holds the nested groups (two levels at most).
 */
export const datasetFilterTreeSchema = filterGroupSchema.extend({
  conditions: z.array(datasetFilterItemSchema).max(200).default([]),
  filters: z.array(datasetFilterLeafGroupSchema).max(50).default([]),
});
export type DatasetFilterTree = z.input<typeof datasetFilterTreeSchema>;
export type DatasetFilterTreeParsed = z.output<typeof datasetFilterTreeSchema>;

export const EMPTY_FILTER_TREE: DatasetFilterTreeParsed = { relation: 'AND', conditions: [], filters: [] };

// Response forms (no transforms: responses are encoded by their schema).
const filterConditionOut = z.object({
  function: z.enum(FILTER_FUNCTIONS),
  values: z.array(z.union([z.string(), z.number()]).nullable()),
  timeType: z.enum(['absolute', 'relative']),
  countType: z.enum(['left', 'right']),
  dateType: z.enum(TIME_UNITS).nullish(),
  useParam: z.boolean(),
  paramKey: z.string().nullish(),
});
const filterItemOut = z.object({
  uniqId: z.string().nullish(),
  cubeColumnId: z.union([z.number(), z.string()]),
  aggregation: z.enum(AGGREGATION_TYPES).nullish(),
  connectType: z.enum(['and', 'or']),
  conditions: z.array(filterConditionOut),
  dateType: z.enum(TIME_UNITS).nullish(),
  column: z.string().nullish(),
  asFilter: z.union([z.boolean(), z.number()]).nullish(),
  options: z.array(z.unknown()).nullish(),
  enumSource: z.number().nullish(),
  enumId: z.union([z.number(), z.string()]).nullish(),
  dateFormat: z.string().nullish(),
});
export const filterTreeOutSchema = z.object({
  relation: z.enum(['AND', 'OR']),
  conditions: z.array(filterItemOut),
  filters: z.array(z.object({ relation: z.enum(['AND', 'OR']), conditions: z.array(filterItemOut) })),
});

// ---------------------------------------------------------------------------------------
// Fields

/** A field in the save payload (columnList): the engine's field plus the editor's attributes, with the spec's defaults. */
export const datasetFieldSaveSchema = cubeFieldSchema.extend({
  columnComment: z.string().max(500).nullish(),
  tableName: z.string().max(255).nullish(),
  oldViewDataType: z.enum(VIEW_DATA_TYPES).nullish(),
  hiddenStatus: flag(0),
  sortNum: z.number().int().min(0).max(1_000_000).default(0),
  numberDataFormat: z
    .string()
    .max(500)
    .nullish()
    .transform((v) => (v && v.trim() !== '' ? v : DATASET_DEFAULTS.numberDataFormat)),
  timeDataFormat: z
    .string()
    .max(100)
    .nullish()
    .transform((v) => (v && v.trim() !== '' ? v : DATASET_DEFAULTS.timeDataFormat)),
  virtualAggregationStatus: flag(0),
  isExtra: flag(0),
});
export type DatasetFieldSave = z.input<typeof datasetFieldSaveSchema>;
export type DatasetFieldSaveParsed = z.output<typeof datasetFieldSaveSchema>;

/** A saved field (cube field list). */
export const datasetFieldSchema = z.object({
  id: z.number(),
  cubeId: z.number(),
  columnName: z.string().nullable(),
  columnTitle: z.string(),
  columnComment: z.string().nullable(),
  columnAttr: z.enum(COLUMN_ATTRS),
  columnFormula: z.string().nullable(),
  tableName: z.string().nullable(),
  tableAliasName: z.string().nullable(),
  dimensionType: z.enum(DIMENSION_TYPES),
  viewDataType: z.enum(VIEW_DATA_TYPES),
  oldViewDataType: z.enum(VIEW_DATA_TYPES).nullable(),
  hiddenStatus: z.number(),
  sortNum: z.number(),
  numberDataFormat: z.string(),
  timeDataFormat: z.string(),
  aggregationType: z.enum(AGGREGATION_TYPES),
  virtualAggregationStatus: z.number(),
  isExtra: z.number(),
});
export type DatasetField = z.infer<typeof datasetFieldSchema>;

/** A physical column not yet in the dataset, as a new field with the defaults (field check); the client gives it a temporary id. */
export const datasetFieldDraftSchema = datasetFieldSchema.omit({ id: true, cubeId: true });
export type DatasetFieldDraft = z.infer<typeof datasetFieldDraftSchema>;

// ---------------------------------------------------------------------------------------
// Datasets

const tableOut = z.object({
  tableName: z.string(),
  tableAliasName: z.string(),
  tableComment: z.string().nullish(),
  schema: z.string().nullish(),
  type: z.string().nullish(),
});
const joinOut = z.object({
  joinType: z.enum(JOIN_TYPES),
  source: z.string(),
  target: z.string(),
  joinKeys: z.array(z.object({ sourceKey: z.string(), targetKey: z.string(), sourceKeyVtState: z.number(), targetKeyVtState: z.number() })),
});
const sortOut = z.object({ fieldId: z.union([z.number(), z.string()]), aggregation: z.enum(AGGREGATION_TYPES).nullish(), direction: z.enum(['ASC', 'DESC']) });

/** cubeData of the save payload. */
export const cubeDataSaveSchema = z.object({
  cubeName: requiredText(datasetMessages.nameRequired, DATASET_NAME_MAX_LENGTH),
  workspaceId: positiveId(datasetMessages.categoryRequired),
  /** The id of an edit when the payload has no top-level `id`. */
  id: z.number().int().positive().nullish(),
  remark: optionalText(500),
  cubeTableNames: orJsonText(z.array(cubeTableSchema).min(1, cubeMessages.tableMissing).max(50)),
  linksJoin: orJsonText(z.array(cubeJoinSchema).max(49).default([])).default([]),
  /** The global filter: ANDed into every read of the dataset, administrators' included. */
  filterJson: orJsonText(datasetFilterTreeSchema.nullish()).optional(),
  /** 1 public, 0 limited to permission groups; on edit, absent keeps the saved value. */
  publicStatus: z.union([z.literal(0), z.literal(1)]).nullish(),
});

/**
 * Save cube (spec §7): columnList, cubeData, datasourceId, orderByList, plus dataPermIdList
 * on add; as JSON or `{ payload: Base64 of the JSON }`. With `id` (or cubeData.id) an edit.
 * New fields carry temporary text ids; every `{tempId}` in formulas, join keys, the global
 * filter and orderByList is rewritten to the saved id. The response data is the id.
 */
export const datasetSaveBodySchema = z.object({
  cubeData: cubeDataSaveSchema,
  id: z.number().int().positive().nullish(),
  datasourceId,
  columnList: z.array(datasetFieldSaveSchema).max(2000),
  orderByList: orJsonText(z.array(cubeSortSchema).max(20).default([])).default([]),
  /** Add only: groups the new dataset is granted to (a non-administrator: only their own groups). */
  dataPermIdList: z.array(z.number().int().positive()).max(1000).default([]),
});
export const datasetSaveSchema = orBase64Payload(datasetSaveBodySchema).describe(
  '保存数据集：{ cubeData, datasourceId, columnList, orderByList, dataPermIdList }，或 { payload: 以上 JSON 的 Base64 }',
);
export type DatasetSave = z.input<typeof datasetSaveBodySchema>;
export type DatasetSaveParsed = z.output<typeof datasetSaveSchema>;

export const datasetSchema = z.object({
  id: z.number(),
  cubeName: z.string(),
  remark: z.string().nullable(),
  workspaceId: z.number(),
  workspaceName: z.string(),
  datasourceId: z.number(),
  dsName: z.string(),
  cubeTableNames: z.array(tableOut),
  linksJoin: z.array(joinOut),
  tableType: z.enum(TABLE_TYPES),
  filterJson: filterTreeOutSchema.nullable(),
  orderByList: z.array(sortOut),
  publicStatus: z.number(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  /** The caller may change and delete it: administrators, and its creator. */
  editable: z.boolean(),
});
export type Dataset = z.infer<typeof datasetSchema>;

export const datasetListItemSchema = datasetSchema.omit({ cubeTableNames: true, linksJoin: true, filterJson: true, orderByList: true });
export type DatasetListItem = z.infer<typeof datasetListItemSchema>;

/** cubeList: by category (its sub-categories included; absent or 0: all), name contains, paged. */
export const datasetListQuerySchema = pageQuerySchema.extend({
  workspaceId: z.coerce.number().int().min(0).optional(),
  cubeName: z.string().trim().max(DATASET_NAME_MAX_LENGTH).optional(),
});
export type DatasetListQuery = z.input<typeof datasetListQuerySchema>;

export const columnIdParamSchema = z.object({ columnId: z.coerce.number().int().positive() });

/** Field check: the editor's tables and current fields; the answer lists the columns not yet in it. */
export const fieldCheckBodySchema = z.object({
  datasourceId,
  cubeTableNames: orJsonText(z.array(cubeTableSchema).min(1, cubeMessages.tableMissing).max(50)),
  columnList: z
    .array(
      z.object({
        columnAttr: cubeFieldSchema.shape.columnAttr,
        columnName: z.string().max(255).nullish(),
        columnTitle: z.string().max(100),
        tableAliasName: z.string().max(255).nullish(),
        viewDataType: cubeFieldSchema.shape.viewDataType,
      }),
    )
    .max(2000)
    .default([]),
});
export const fieldCheckSchema = orBase64Payload(fieldCheckBodySchema).describe(
  '字段检查：{ datasourceId, cubeTableNames, columnList }，或 { payload: 以上 JSON 的 Base64 }',
);
export type FieldCheck = z.input<typeof fieldCheckBodySchema>;

/**
 * Preview of a saved dataset: its model, the caller's permission filters and its global
 * filter; `params` gives global parameter values by paramKey (a condition whose parameter
 * has no value is left out; a formula's `${key}` reads NULL).
 */
export const datasetPreviewBodySchema = z.object({
  cubeDataId: positiveId(datasetMessages.datasetNotFound),
  request: cubeQueryRequestSchema,
  params: globalParamValuesSchema,
});
export const datasetPreviewSchema = orBase64Payload(datasetPreviewBodySchema).describe(
  '预览已保存的数据集：{ cubeDataId, request, params? }，或 { payload: 以上 JSON 的 Base64 }',
);
export type DatasetPreview = z.input<typeof datasetPreviewBodySchema>;
export type DatasetPreviewParsed = z.output<typeof datasetPreviewSchema>;

// ---------------------------------------------------------------------------------------
// Permission filters (one per dataset and permission group)

/** excludeColumnIds: comma-separated column ids (an array of ids is accepted too). */
const excludeColumnIds = z
  .union([z.string().max(20000), z.array(z.union([z.number().int().positive(), z.string().regex(/^\s*[0-9]+\s*$/)])).max(2000)])
  .nullish()
  .transform((v, ctx) => {
    const parts = v === null || v === undefined ? [] : Array.isArray(v) ? v.map(String) : v.split(',');
    const ids: number[] = [];
    for (const part of parts) {
      if (part.trim() === '') continue;
      const id = Number(part.trim());
      if (!Number.isSafeInteger(id) || id <= 0) {
        ctx.addIssue({ code: 'custom', message: '排除字段须为逗号分隔的字段编号' });
        return z.NEVER;
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  });

export const cubePermFilterSchema = z.object({
  id: z.number(),
  cubeDataId: z.number(),
  dataPermId: z.number(),
  /** The bound group's name. */
  permName: z.string(),
  cubePermName: z.string(),
  filterJson: filterTreeOutSchema,
  /** Comma-separated column ids. */
  excludeColumnIds: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type CubePermFilter = z.infer<typeof cubePermFilterSchema>;

/** cubePremSave: Base64 JSON (or JSON) of cubeDataId, dataPermId, cubePermName, filterJson, excludeColumnIds and optionally id. */
export const cubePermFilterSaveBodySchema = z.object({
  id: z.number().int().positive().nullish(),
  cubeDataId: positiveId(datasetMessages.datasetNotFound),
  cubePermName: requiredText(datasetMessages.permFilterNameRequired, PERM_FILTER_NAME_MAX_LENGTH),
  dataPermId: positiveId(datasetMessages.permFilterGroupRequired),
  filterJson: orJsonText(datasetFilterTreeSchema.nullish()).optional(),
  excludeColumnIds,
});
export const cubePermFilterSaveSchema = orBase64Payload(cubePermFilterSaveBodySchema).describe(
  '保存权限过滤器：{ cubeDataId, dataPermId, cubePermName, filterJson, excludeColumnIds, id? }，或 { payload: 以上 JSON 的 Base64 }',
);
export type CubePermFilterSave = z.input<typeof cubePermFilterSaveBodySchema>;
export type CubePermFilterSaveParsed = z.output<typeof cubePermFilterSaveSchema>;

// ---------------------------------------------------------------------------------------
// Group-level dataset authorisation

export const authCubeParamsSchema = z.object({ dataPermId: z.coerce.number().int().positive() });
export const authCubeDetailParamsSchema = authCubeParamsSchema.extend({ cubeDataId: z.coerce.number().int().positive() });
/** authCubeList: the ids of the datasets of a category (its sub-categories included; absent or 0: all) granted to the group. */
export const authCubeListQuerySchema = z.object({ cubeWorkspaceId: z.coerce.number().int().min(0).optional() });

export const authCubeDetailSchema = z.object({
  cubeDataId: z.number(),
  dataPermId: z.number(),
  cubeWorkspaceId: z.number(),
  /** The dataset is granted to the group. */
  granted: z.boolean(),
  /** The group's row filter and excluded columns on the dataset, if any. */
  filter: cubePermFilterSchema.nullable(),
});
export type AuthCubeDetail = z.infer<typeof authCubeDetailSchema>;

/** authCubeSaveBatch: the group's grants among the datasets of the category become dataIdList. */
export const authCubeSaveBatchSchema = z.object({
  cubeWorkspaceId: positiveId(datasetMessages.categoryRequired),
  dataIdList: z.array(z.number().int().positive()).max(10000).default([]),
});
export type AuthCubeSaveBatch = z.input<typeof authCubeSaveBatchSchema>;
export type AuthCubeSaveBatchParsed = z.output<typeof authCubeSaveBatchSchema>;

// ---------------------------------------------------------------------------------------
// Global parameters

export const globalParamTypeSchema = z.object({ id: z.number(), typeName: z.string(), sortNum: z.number() });
export type GlobalParamType = z.infer<typeof globalParamTypeSchema>;

export const globalParamTypeSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  typeName: requiredText(datasetMessages.paramTypeNameRequired, 50),
  sortNum: z.number().int().min(0).max(100000).nullish(),
});
export type GlobalParamTypeSave = z.input<typeof globalParamTypeSaveSchema>;

export const globalParamSchema = z.object({
  id: z.number(),
  typeId: z.number(),
  typeName: z.string(),
  paramName: z.string(),
  paramKey: z.string(),
  paramColumnType: z.enum(VIEW_DATA_TYPES),
  createTime: z.string(),
  updateTime: z.string(),
});
export type GlobalParam = z.infer<typeof globalParamSchema>;

export const globalParamSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  typeId: positiveId(datasetMessages.paramTypeRequired),
  paramName: requiredText(datasetMessages.paramNameRequired, 50),
  paramKey: requiredText(datasetMessages.paramKeyRequired, PARAM_KEY_MAX_LENGTH).regex(PARAM_KEY_PATTERN, datasetMessages.paramKeyInvalid),
  paramColumnType: z.enum(VIEW_DATA_TYPES).default('STRING'),
});
export type GlobalParamSave = z.input<typeof globalParamSaveSchema>;

/** Parameter list: paged (the editor asks for size 10000), by category, name or key contains. */
export const globalParamListQuerySchema = pageQuerySchema.extend({
  typeId: z.coerce.number().int().min(0).optional(),
  keyword: z.string().trim().max(50).optional(),
});
export type GlobalParamListQuery = z.input<typeof globalParamListQuerySchema>;
