import { z } from 'zod';

/**
 * Cube (dataset) model and query-request payloads shared by the query engine, the server
 * and the web editors (spec 2 §3 "Dataset", "Join", "Field", "Dataset permission filter";
 * spec 3 §3 "Filter", §5 "Filter trees").
 */

export const VIEW_DATA_TYPES = ['STRING', 'NUMBER', 'DATETIME'] as const;
export type ViewDataType = (typeof VIEW_DATA_TYPES)[number];
export const DIMENSION_TYPES = ['WEIDU', 'ZHIBIAO'] as const;
export const COLUMN_ATTRS = ['NORMAL', 'VIRTUAL'] as const;
/**
 * APPROX_COUNT_DISTINCT (近似去重计数): an estimate within a few percent, several times faster on
 * large tables — a HyperLogLog sketch in SQL on DuckDB, uniq on ClickHouse; other engines count
 * exactly (docs/board-speed.md "Approximate distinct count").
 */
export const AGGREGATION_TYPES = ['SUM', 'AVG', 'COUNT', 'COUNT_DISTINCT', 'APPROX_COUNT_DISTINCT', 'MAX', 'MIN'] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];
export const JOIN_TYPES = ['LEFT_JOIN', 'RIGHT_JOIN', 'INNER_JOIN'] as const;
export type JoinType = (typeof JOIN_TYPES)[number];
export const FILTER_FUNCTIONS = ['eq', 'in', 'notIn', 'indexIn', 'isnull', 'notnull', 'between', 'gt', 'ge', 'lt', 'le', 'like'] as const;
export type FilterFunction = (typeof FILTER_FUNCTIONS)[number];
/** Functions that take a list of values and must be the only condition of their item. */
export const LIST_FILTER_FUNCTIONS: readonly FilterFunction[] = ['in', 'notIn', 'indexIn'];
/** Calendar units of time conditions and of date truncation. Weeks start on Monday. */
export const TIME_UNITS = ['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
/** Filter nesting (spec 2 §9): a root group and one level of nested groups. */
export const MAX_FILTER_DEPTH = 2;
export const MAX_FILTER_VALUES = 10000;
export const MAX_FORMULA_LENGTH = 4000;

/** Messages of the query engine and the dataset editor's join / formula checks (zh-CN). */
export const cubeMessages = {
  joinKeyMissing: '请补充连接字段',
  joinKeyTypeMismatch: '字段【{source}】与【{target}】的数据类型不一致，无法关联，请检查',
  joinKeyUnknown: '连接字段【{name}】不存在',
  joinKeyTable: '连接字段【{name}】不属于关联的表',
  joinTableUnknown: '关联的表【{alias}】不存在',
  joinTableUnreachable: '表【{alias}】没有与其他表关联',
  joinsNotSupported: '该数据源不支持多表关联，请减少关联的表',
  tableAliasDuplicate: '表别名【{alias}】重复',
  tableMissing: '请先添加数据表',
  identifierInvalid: '名称【{name}】不合法',
  fieldUnknown: '字段【{name}】不存在',
  fieldTitleDuplicate: '字段展示名重复',
  fieldTableUnknown: '字段【{name}】所在的表不存在',
  fieldForbidden: '无权访问字段【{name}】',
  formulaRequired: '请补充完整',
  formulaSyntax: '公式第{position}个字符处有误：{detail}',
  formulaCycle: '计算字段【{name}】存在循环引用',
  functionUnsupported: '当前数据源不支持函数 {name}',
  functionArity: '函数 {name} 的参数个数不正确',
  aggregateNested: '聚合函数不能嵌套使用',
  aggregateInDimension: '聚合字段【{name}】不能作为维度',
  aggregateInWhere: '聚合字段【{name}】只能用于结果筛选',
  aggregateNeedsNumber: '字段【{name}】不是数值，不能求和或求平均',
  granularityNeedsDate: '字段【{name}】不是日期，不能按时间粒度汇总',
  requestEmpty: '请至少选择一个维度或指标',
  detailWithMeasures: '明细查询不能包含指标或结果筛选',
  sortUnknown: '排序字段【{name}】不在查询结果中',
  keyFieldMissing: '请选择数据集主键字段',
  filterDepth: '过滤条件最多嵌套两层',
  filterConditionMissing: '请补充过滤条件',
  filterListSingle: 'in、notIn、indexIn只允许一个条件',
  filterValueMissing: '过滤条件【{name}】缺少值',
  filterValueNumber: '过滤条件【{name}】的值必须是数字',
  filterValueDate: '过滤条件【{name}】的日期格式不正确',
  filterFunctionType: '过滤条件【{name}】不支持函数 {fn}',
  filterRelativeNeedsDate: '过滤条件【{name}】只有日期字段可以使用相对时间',
  filterBucketNeedsDate: '过滤条件【{name}】不是日期，不能按时间粒度筛选',
  valueNul: '值中不能包含空字符（\\0）',
  valueUnicode: '值中包含无效的Unicode字符',
} as const;

export type CubeMessageKey = keyof typeof cubeMessages;

/** Fills `{name}` placeholders of a message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

/** An enum of upper-case names that also accepts them in lower case. */
function upper<const T extends readonly [string, ...string[]]>(values: T) {
  type Name = T[number];
  const all = [...values, ...values.map((v) => v.toLowerCase())] as [Name | Lowercase<Name>, ...(Name | Lowercase<Name>)[]];
  return z.enum(all).transform((v) => v.toUpperCase() as Name);
}

export const fieldIdSchema = z.union([z.number().int(), z.string().trim().min(1).max(64)]);
export type FieldId = z.infer<typeof fieldIdSchema>;

/** A name from introspected metadata; it is always quoted, never interpolated raw. */
const identifier = z.string().min(1).max(255);

export const cubeTableSchema = z.object({
  tableName: identifier,
  tableAliasName: identifier,
  tableComment: z.string().nullish(),
  /** Database schema (PostgreSQL) or database (MySQL, ClickHouse); absent: the connection default. */
  schema: identifier.nullish(),
  type: z.string().nullish(),
});
export type CubeTable = z.infer<typeof cubeTableSchema>;

const vtState = z
  .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()])
  .transform((v) => (v === 1 || v === '1' || v === true ? 1 : 0))
  .default(0);

export const joinKeySchema = z.object({
  sourceKey: z.string().trim().max(4000).default(''),
  targetKey: z.string().trim().max(4000).default(''),
  /** 1: the key is a computed-field formula rather than a column name. */
  sourceKeyVtState: vtState,
  targetKeyVtState: vtState,
});
export type JoinKey = z.input<typeof joinKeySchema>;

export const cubeJoinSchema = z.object({
  joinType: upper(JOIN_TYPES).default('LEFT_JOIN'),
  /** Alias of the table already in the tree. */
  source: identifier,
  /** Alias of the table joined to it. */
  target: identifier,
  joinKeys: z.array(joinKeySchema).min(1, cubeMessages.joinKeyMissing).max(20),
});
export type CubeJoin = z.input<typeof cubeJoinSchema>;

export const cubeFieldSchema = z.object({
  id: fieldIdSchema,
  columnName: z.string().max(255).nullish(),
  columnTitle: z.string().trim().min(1).max(100),
  columnAttr: upper(COLUMN_ATTRS).default('NORMAL'),
  columnFormula: z.string().max(MAX_FORMULA_LENGTH).nullish(),
  tableAliasName: identifier.nullish(),
  dimensionType: upper(DIMENSION_TYPES).default('WEIDU'),
  viewDataType: upper(VIEW_DATA_TYPES).default('STRING'),
  aggregationType: upper(AGGREGATION_TYPES).default('SUM'),
});
export type CubeField = z.input<typeof cubeFieldSchema>;

export const cubeModelSchema = z.object({
  tables: z.array(cubeTableSchema).min(1, cubeMessages.tableMissing).max(50),
  joins: z.array(cubeJoinSchema).max(49).default([]),
  fields: z.array(cubeFieldSchema).max(2000),
});
export type CubeModelInput = z.input<typeof cubeModelSchema>;
export type CubeModelParsed = z.output<typeof cubeModelSchema>;

// ---------- filter trees ----------

export const filterConditionSchema = z.object({
  function: z.enum(FILTER_FUNCTIONS).default('eq'),
  values: z
    .array(z.union([z.string(), z.number()]).nullable())
    .max(MAX_FILTER_VALUES)
    .default([]),
  timeType: z.enum(['absolute', 'relative']).default('absolute'),
  /** Relative time: left = before now, right = after now. */
  countType: z.enum(['left', 'right']).default('left'),
  /** Unit of a relative time condition; DATE is read as DAY. */
  dateType: upper([...TIME_UNITS, 'DATE'] as const)
    .transform((unit): TimeUnit => (unit === 'DATE' ? 'DAY' : unit))
    .nullish(),
  /**
   * Absolute time only: each value names the whole unit of this granularity that contains it
   * (a clicked time bucket: '2026-09-01T00:00:00' with MONTH is all of September 2026).
   */
  granularity: upper(TIME_UNITS).nullish(),
});
export type FilterCondition = z.input<typeof filterConditionSchema>;

export const filterItemSchema = z.object({
  uniqId: z.string().max(64).nullish(),
  cubeColumnId: fieldIdSchema,
  /** Having items: the aggregation applied to the field (default: the field's own). */
  aggregation: upper(AGGREGATION_TYPES).nullish(),
  /** How the item's conditions combine. */
  connectType: z
    .enum(['and', 'or', 'AND', 'OR'])
    .transform((v) => v.toLowerCase() as 'and' | 'or')
    .default('and'),
  conditions: z.array(filterConditionSchema).min(1, cubeMessages.filterConditionMissing).max(20),
  dateType: filterConditionSchema.shape.dateType,
});
export type FilterItem = z.input<typeof filterItemSchema>;

const relation = upper(['AND', 'OR'] as const).default('AND');

/** Level-2 group: conditions only. */
export const filterLeafGroupSchema = z.object({
  relation,
  conditions: z.array(filterItemSchema).max(200).default([]),
  filters: z.array(z.unknown()).max(0, cubeMessages.filterDepth).optional(),
});

export const filterGroupSchema = z.object({
  relation,
  conditions: z.array(filterItemSchema).max(200).default([]),
  filters: z.array(filterLeafGroupSchema).max(50).default([]),
});
export type FilterGroup = z.input<typeof filterGroupSchema>;
export type FilterGroupParsed = z.output<typeof filterGroupSchema>;

// ---------- requests ----------

export const cubeDimensionSchema = z.object({
  fieldId: fieldIdSchema,
  /** Date truncation of a DATETIME dimension. */
  granularity: upper(TIME_UNITS).nullish(),
});
export const cubeMeasureSchema = z.object({
  fieldId: fieldIdSchema,
  /** Default: the field's aggregationType. Ignored for formulas that aggregate themselves. */
  aggregation: upper(AGGREGATION_TYPES).nullish(),
});
export const cubeSortSchema = z.object({
  fieldId: fieldIdSchema,
  aggregation: upper(AGGREGATION_TYPES).nullish(),
  direction: upper(['ASC', 'DESC'] as const).default('ASC'),
});

export const cubeQueryRequestSchema = z.object({
  dimensions: z.array(cubeDimensionSchema).max(100).default([]),
  measures: z.array(cubeMeasureSchema).max(100).default([]),
  /** Raw rows of the dimension fields, no grouping (the dataset preview). */
  detail: z.boolean().default(false),
  where: filterGroupSchema.nullish(),
  having: filterGroupSchema.nullish(),
  sort: z.array(cubeSortSchema).max(20).default([]),
  limit: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  /** Also produce the total-count query. */
  withTotal: z.boolean().default(false),
});
export type CubeQueryRequest = z.input<typeof cubeQueryRequestSchema>;
export type CubeQueryRequestParsed = z.output<typeof cubeQueryRequestSchema>;

/** Audience rule combination (spec 3 §3 "Audience group"): and = 交, or = 并, del = 差. */
export const SET_OPERATIONS = ['intersect', 'union', 'except'] as const;
export type SetOperation = (typeof SET_OPERATIONS)[number];
export const AUDIENCE_CONNECT_TYPES = { and: 'intersect', or: 'union', del: 'except' } as const satisfies Record<string, SetOperation>;

/** One column of a query result: the field dictionary the preview returns. */
export interface ResultField {
  alias: string;
  fieldId: FieldId;
  title: string;
  viewDataType: ViewDataType;
  kind: 'dimension' | 'measure';
  aggregation: AggregationType | null;
  granularity: TimeUnit | null;
}
