import type { AggregationType, CubeField, DataSourceColumn, DatasetField, DatasetFieldDraft, FieldId, JoinType, ViewDataType } from '@shutu/contracts';
import { DATASET_DEFAULTS, dedupeFieldTitle } from '@shutu/contracts';

/** A table of the dataset; `kind` says which left-panel list it came from. */
export interface EditorTable {
  tableName: string;
  tableAliasName: string;
  tableComment?: string | null;
  schema?: string | null;
  type?: string | null;
}

export interface EditorJoinKey {
  sourceKey: string;
  targetKey: string;
  sourceKeyVtState: 0 | 1;
  targetKeyVtState: 0 | 1;
}

export interface EditorJoin {
  joinType: JoinType;
  /** Alias of the table already in the tree. */
  source: string;
  /** Alias of the table joined to it. */
  target: string;
  joinKeys: EditorJoinKey[];
}

/** A field as the editor holds it: saved ones carry their number, new ones a temporary text id. */
export type EditorField = DatasetFieldDraft & { id: FieldId };

export interface EditorModel {
  tables: EditorTable[];
  joins: EditorJoin[];
  fields: EditorField[];
}

export const EMPTY_MODEL: EditorModel = { tables: [], joins: [], fields: [] };

const ALIAS_CHARS = 'abcdefghijklmnopqrstuvwxyz';
export const ALIAS_LENGTH = 5;

/** A random 5-letter table alias not in `taken` (letters only: a valid identifier everywhere). */
export function randomAlias(taken: Iterable<string> = [], random: () => number = Math.random): string {
  const used = new Set(taken);
  for (;;) {
    let alias = '';
    for (let i = 0; i < ALIAS_LENGTH; i++) alias += ALIAS_CHARS[Math.floor(random() * ALIAS_CHARS.length)];
    if (!used.has(alias)) return alias;
  }
}

let tempCounter = 0;
/** A temporary field id: letters make it a valid `{id}` reference and tell it from saved ids. */
export const tempFieldId = (prefix = 'f'): string => `${prefix}_${Date.now().toString(36)}_${(tempCounter++).toString(36)}`;

export type DimensionType = DatasetFieldDraft['dimensionType'];

const groupOf = (f: { dimensionType: DimensionType }) => f.dimensionType;

/** Numbers each group (dimensions, indicators) 1, 2, … in its current sortNum order. */
export function renumber(fields: readonly EditorField[]): EditorField[] {
  const next = new Map<FieldId, number>();
  for (const kind of ['WEIDU', 'ZHIBIAO'] as const) {
    fields
      .filter((f) => groupOf(f) === kind)
      .map((f, index) => ({ f, index }))
      .sort((a, b) => a.f.sortNum - b.f.sortNum || a.index - b.index)
      .forEach(({ f }, i) => next.set(f.id, i + 1));
  }
  return fields.map((f) => (next.get(f.id) === f.sortNum ? f : { ...f, sortNum: next.get(f.id)! }));
}

/** Moves a field to the other group (at its end) and renumbers both groups from 1. */
export function toggleDimension(fields: readonly EditorField[], id: FieldId): EditorField[] {
  const field = fields.find((f) => f.id === id);
  if (!field) return [...fields];
  const to: DimensionType = field.dimensionType === 'WEIDU' ? 'ZHIBIAO' : 'WEIDU';
  const last = Math.max(0, ...fields.filter((f) => f.dimensionType === to).map((f) => f.sortNum));
  return renumber(fields.map((f) => (f.id === id ? { ...f, dimensionType: to, sortNum: last + 1 } : f)));
}

/** Puts `id` at position `toIndex` within its group's list (sorted by sortNum) and renumbers. */
export function moveField(fields: readonly EditorField[], id: FieldId, toIndex: number): EditorField[] {
  const field = fields.find((f) => f.id === id);
  if (!field) return [...fields];
  const group = sortedGroup(fields, field.dimensionType).filter((f) => f.id !== id);
  group.splice(Math.max(0, Math.min(toIndex, group.length)), 0, field);
  const order = new Map(group.map((f, i) => [f.id, i + 1]));
  return fields.map((f) => (order.has(f.id) ? { ...f, sortNum: order.get(f.id)! } : f));
}

export const sortedGroup = (fields: readonly EditorField[], kind: DimensionType): EditorField[] =>
  fields.filter((f) => f.dimensionType === kind).sort((a, b) => a.sortNum - b.sortNum);

/**
 * The fields a newly added table brings: title = comment or name, NUMBER → indicator, else
 * dimension; each group continues its sortNum; duplicate titles follow spec §4.
 */
export function fieldsFromColumns(columns: readonly DataSourceColumn[], table: EditorTable, existing: readonly EditorField[]): EditorField[] {
  const all: EditorField[] = [...existing];
  const added: EditorField[] = [];
  const lastOf = (kind: DimensionType) => Math.max(0, ...all.filter((f) => f.dimensionType === kind).map((f) => f.sortNum));
  for (const column of columns) {
    const dimensionType: DimensionType = column.viewDataType === 'NUMBER' ? 'ZHIBIAO' : 'WEIDU';
    const title = column.comment.trim() || column.name;
    const { columnTitle, hiddenStatus } = dedupeFieldTitle(title, column.viewDataType, all);
    const field: EditorField = {
      id: tempFieldId(table.tableAliasName),
      columnName: column.name,
      columnTitle,
      columnComment: column.comment || null,
      columnAttr: 'NORMAL',
      columnFormula: null,
      tableName: table.tableName,
      tableAliasName: table.tableAliasName,
      dimensionType,
      viewDataType: column.viewDataType,
      oldViewDataType: column.viewDataType,
      hiddenStatus,
      sortNum: lastOf(dimensionType) + 1,
      numberDataFormat: DATASET_DEFAULTS.numberDataFormat,
      timeDataFormat: DATASET_DEFAULTS.timeDataFormat,
      aggregationType: DATASET_DEFAULTS.aggregationType,
      virtualAggregationStatus: 0,
      isExtra: 0,
    };
    all.push(field);
    added.push(field);
  }
  return added;
}

/** A saved field as the editor holds it. */
export const fromSaved = (f: DatasetField): EditorField => {
  const { cubeId: _cubeId, ...rest } = f;
  void _cubeId;
  return rest;
};

/** Refuses a rename to a title another field already has. */
export const titleTaken = (fields: readonly EditorField[], title: string, exceptId?: FieldId): boolean =>
  fields.some((f) => f.id !== exceptId && f.columnTitle === title.trim());

/** The engine's view of a field (preview, formula check). */
export const toCubeField = (f: EditorField): CubeField => ({
  id: f.id,
  columnName: f.columnName,
  columnTitle: f.columnTitle,
  columnAttr: f.columnAttr,
  columnFormula: f.columnFormula,
  tableAliasName: f.tableAliasName,
  dimensionType: f.dimensionType,
  viewDataType: f.viewDataType,
  aggregationType: f.aggregationType,
});

/** Default aggregation is offered for number indicators; for computed ones only without aggregate (spec §5). */
export const aggregationAllowed = (f: Pick<EditorField, 'dimensionType' | 'viewDataType' | 'columnAttr' | 'virtualAggregationStatus'>): boolean =>
  f.dimensionType === 'ZHIBIAO' && f.viewDataType === 'NUMBER' && !(f.columnAttr === 'VIRTUAL' && f.virtualAggregationStatus === 1);

export const AGGREGATIONS: AggregationType[] = ['SUM', 'AVG', 'MAX', 'MIN', 'COUNT', 'COUNT_DISTINCT', 'APPROX_COUNT_DISTINCT'];
export const VIEW_TYPES: ViewDataType[] = ['STRING', 'DATETIME', 'NUMBER'];

export { isSavedFieldId as isSavedId } from '@shutu/contracts';
