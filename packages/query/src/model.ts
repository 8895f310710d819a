import { cubeModelSchema, type AggregationType, type CubeModelInput, type FieldId, type JoinType, type ViewDataType } from '@shutu/contracts';
import { assertIdentifier } from './dialects/base.ts';
import { QueryError, queryError } from './errors.ts';

/** One field of the cube, normalised. `key` is the id as text (ids may be numbers). */
export interface ModelField {
  id: FieldId;
  key: string;
  title: string;
  attr: 'NORMAL' | 'VIRTUAL';
  /** NORMAL: the physical column. */
  columnName: string | null;
  /** NORMAL: the table alias; VIRTUAL: the node it was created on, if any. */
  tableAlias: string | null;
  formula: string | null;
  dimensionType: 'WEIDU' | 'ZHIBIAO';
  viewDataType: ViewDataType;
  aggregationType: AggregationType;
}

export interface ModelTable {
  alias: string;
  name: string;
  schema: string | null;
}

export interface ModelJoinKey {
  source: { text: string; formula: boolean };
  target: { text: string; formula: boolean };
}

export interface ModelJoin {
  type: JoinType;
  source: string;
  target: string;
  keys: ModelJoinKey[];
}

/** A validated cube: tables, joins in tree order from the root table, fields by id and title. */
export interface CubeModel {
  readonly tables: ReadonlyMap<string, ModelTable>;
  readonly root: ModelTable;
  readonly joins: readonly ModelJoin[];
  readonly fields: readonly ModelField[];
  readonly byKey: ReadonlyMap<string, ModelField>;
  readonly byTitle: ReadonlyMap<string, ModelField>;
  /** `alias \0 columnName` → NORMAL field. */
  readonly byColumn: ReadonlyMap<string, ModelField>;
}

export const fieldKey = (id: FieldId): string => String(id).trim();
export const columnKey = (alias: string, column: string): string => `${alias}\u0000${column}`;

/** The first issue of a zod error as a QueryError (zod's messages are zh-CN, see contracts). */
export function fromZod(kind: 'model' | 'request', error: { issues: readonly { message: string; path: readonly PropertyKey[] }[] }): QueryError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `（${issue.path.map(String).join('.')}）` : '';
  return new QueryError(kind, `${issue?.message ?? '参数有误'}${where}`);
}

export function isCubeModel(value: unknown): value is CubeModel {
  return typeof value === 'object' && value !== null && 'byKey' in value && 'root' in value;
}

/**
 * Validates a cube model: unique aliases, ids and titles; physical fields on known tables;
 * joins that form one tree rooted at the first table, each with complete key pairs.
 * Join key types are checked by `checkJoins` (they may be formulas).
 */
export function buildModel(input: CubeModelInput | CubeModel): CubeModel {
  if (isCubeModel(input)) return input;
  const parsed = cubeModelSchema.safeParse(input);
  if (!parsed.success) throw fromZod('model', parsed.error);
  const { tables: tableList, joins: joinList, fields: fieldList } = parsed.data;

  const tables = new Map<string, ModelTable>();
  for (const t of tableList) {
    assertIdentifier(t.tableName);
    assertIdentifier(t.tableAliasName);
    if (t.schema) assertIdentifier(t.schema);
    if (tables.has(t.tableAliasName)) throw queryError('model', 'tableAliasDuplicate', { alias: t.tableAliasName });
    tables.set(t.tableAliasName, { alias: t.tableAliasName, name: t.tableName, schema: t.schema ?? null });
  }
  const root = tables.get(tableList[0]!.tableAliasName)!;

  // Joins in tree order: each join's source is already in the tree, each target joins once.
  const joined = new Set([root.alias]);
  const pending = joinList.map((j) => {
    for (const alias of [j.source, j.target]) if (!tables.has(alias)) throw queryError('model', 'joinTableUnknown', { alias });
    const keys = j.joinKeys.map((k) => {
      if (k.sourceKey === '' || k.targetKey === '') throw queryError('join', 'joinKeyMissing');
      return { source: { text: k.sourceKey, formula: k.sourceKeyVtState === 1 }, target: { text: k.targetKey, formula: k.targetKeyVtState === 1 } };
    });
    return { type: j.joinType, source: j.source, target: j.target, keys };
  });
  const joins: ModelJoin[] = [];
  while (pending.length > 0) {
    const index = pending.findIndex((j) => joined.has(j.source));
    if (index < 0) throw queryError('model', 'joinTableUnreachable', { alias: pending[0]!.source });
    const [join] = pending.splice(index, 1);
    if (joined.has(join!.target)) throw queryError('model', 'joinTableUnreachable', { alias: join!.target });
    joined.add(join!.target);
    joins.push(join!);
  }
  for (const alias of tables.keys()) if (!joined.has(alias)) throw queryError('model', 'joinTableUnreachable', { alias });

  const fields: ModelField[] = [];
  const byKey = new Map<string, ModelField>();
  const byTitle = new Map<string, ModelField>();
  const byColumn = new Map<string, ModelField>();
  for (const f of fieldList) {
    const field: ModelField = {
      id: f.id,
      key: fieldKey(f.id),
      title: f.columnTitle,
      attr: f.columnAttr,
      columnName: f.columnName ?? null,
      tableAlias: f.tableAliasName ?? null,
      formula: f.columnFormula ?? null,
      dimensionType: f.dimensionType,
      viewDataType: f.viewDataType,
      aggregationType: f.aggregationType,
    };
    if (byKey.has(field.key)) throw new QueryError('model', `字段编号【${field.key}】重复`);
    if (byTitle.has(field.title)) throw queryError('model', 'fieldTitleDuplicate');
    if (field.attr === 'NORMAL') {
      if (!field.columnName || !field.tableAlias) throw queryError('model', 'fieldTableUnknown', { name: field.title });
      if (!tables.has(field.tableAlias)) throw queryError('model', 'fieldTableUnknown', { name: field.title });
      assertIdentifier(field.columnName);
      byColumn.set(columnKey(field.tableAlias, field.columnName), field);
    } else if (!field.formula || field.formula.trim() === '') {
      throw queryError('model', 'formulaRequired');
    }
    fields.push(field);
    byKey.set(field.key, field);
    byTitle.set(field.title, field);
  }
  return { tables, root, joins, fields, byKey, byTitle, byColumn };
}
