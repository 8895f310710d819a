import type { Kysely, Selectable } from 'kysely';
import type { CubePermFilterTable, Database, GlobalParamTable } from '../../platform/db/schema.ts';
import { containsPattern } from './repo.ts';
import { cachedRead } from '../../platform/cache/coherent.ts';

type Db = Kysely<Database>;

// ---------------------------------------------------------------------------------------
// Permission filters

export type PermFilterRow = Selectable<CubePermFilterTable> & { permName: string };

function permFilterQuery(db: Db) {
  return db.selectFrom('cubePermFilter as f').innerJoin('permGroup as g', 'g.id', 'f.permId').selectAll('f').select('g.permName');
}

/** The filters of a dataset, oldest first; with `permIds`, only those bound to these groups. */
export function listPermFilters(db: Db, cubeId: number, permIds?: readonly number[]): Promise<PermFilterRow[]> {
  if (permIds && permIds.length === 0) return Promise.resolve([]);
  let query = permFilterQuery(db).where('f.cubeId', '=', cubeId);
  if (permIds) query = query.where('f.permId', 'in', [...permIds]);
  // Every chart read of a member asks: kept until a filter (or group) is written (platform/cache/watch.ts).
  return cachedRead(db, `permFilters:${cubeId}:${permIds?.join(',') ?? '*'}`, () => query.orderBy('f.id').execute());
}

export function findPermFilter(db: Db, id: number): Promise<PermFilterRow | undefined> {
  return permFilterQuery(db).where('f.id', '=', id).executeTakeFirst();
}

export function findPermFilterOf(db: Db, cubeId: number, permId: number): Promise<PermFilterRow | undefined> {
  return permFilterQuery(db).where('f.cubeId', '=', cubeId).where('f.permId', '=', permId).executeTakeFirst();
}

export interface PermFilterValues {
  cubeId: number;
  permId: number;
  cubePermName: string;
  /** The filter tree as JSON text. */
  filterJson: string;
  /** Comma-separated column ids. */
  excludeColumnIds: string;
}

export async function insertPermFilter(db: Db, values: PermFilterValues): Promise<number> {
  const row = await db.insertInto('cubePermFilter').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePermFilter(db: Db, id: number, values: Partial<PermFilterValues>): Promise<void> {
  await db
    .updateTable('cubePermFilter')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deletePermFilter(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('cubePermFilter').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------
// Global parameter categories and parameters

const TYPE_COLUMNS = ['id', 'typeName', 'sortNum'] as const;

export function listParamTypes(db: Db) {
  return db.selectFrom('globalParamType').select(TYPE_COLUMNS).orderBy('sortNum').orderBy('id').execute();
}

export function findParamType(db: Db, id: number) {
  return db.selectFrom('globalParamType').select(TYPE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function findParamTypeForUpdate(db: Db, id: number) {
  return db.selectFrom('globalParamType').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findParamTypeForShare(db: Db, id: number) {
  return db.selectFrom('globalParamType').select('id').where('id', '=', id).forShare().executeTakeFirst();
}

export async function insertParamType(db: Db, values: { typeName: string; sortNum: number }): Promise<number> {
  const row = await db.insertInto('globalParamType').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateParamType(db: Db, id: number, values: { typeName: string; sortNum?: number }): Promise<number> {
  const result = await db.updateTable('globalParamType').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteParamType(db: Db, id: number): Promise<void> {
  await db.deleteFrom('globalParamType').where('id', '=', id).execute();
}

export async function countParamsOfType(db: Db, typeId: number): Promise<number> {
  const row = await db
    .selectFrom('globalParam')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('typeId', '=', typeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ParamRow = Selectable<GlobalParamTable> & { typeName: string };

function paramQuery(db: Db) {
  return db.selectFrom('globalParam as p').innerJoin('globalParamType as t', 't.id', 'p.typeId').selectAll('p').select('t.typeName');
}

export async function pageParams(
  db: Db,
  filter: { typeId?: number | undefined; keyword?: string | undefined },
  offset: number,
  limit: number,
): Promise<{ rows: ParamRow[]; total: number }> {
  let rows = paramQuery(db);
  let count = db.selectFrom('globalParam as p').select((eb) => eb.fn.countAll<string>().as('n'));
  if (filter.typeId) {
    rows = rows.where('p.typeId', '=', filter.typeId);
    count = count.where('p.typeId', '=', filter.typeId);
  }
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword);
    rows = rows.where((eb) => eb.or([eb('p.paramName', 'ilike', pattern), eb('p.paramKey', 'ilike', pattern)]));
    count = count.where((eb) => eb.or([eb('p.paramName', 'ilike', pattern), eb('p.paramKey', 'ilike', pattern)]));
  }
  const [list, total] = await Promise.all([
    rows.orderBy('t.sortNum').orderBy('p.typeId').orderBy('p.id').offset(offset).limit(limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: list, total: Number(total.n) };
}

export function findParam(db: Db, id: number): Promise<ParamRow | undefined> {
  return paramQuery(db).where('p.id', '=', id).executeTakeFirst();
}

/** The parameters with these exact keys. */
export async function paramKeysExisting(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('globalParam')
    .select('paramKey')
    .where('paramKey', 'in', [...keys])
    .execute();
  return new Set(rows.map((r) => r.paramKey));
}

export interface ParamValues {
  typeId: number;
  paramName: string;
  paramKey: string;
  paramColumnType: GlobalParamTable['paramColumnType'];
}

export async function insertParam(db: Db, values: ParamValues): Promise<number> {
  const row = await db.insertInto('globalParam').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateParam(db: Db, id: number, values: ParamValues): Promise<void> {
  await db
    .updateTable('globalParam')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteParam(db: Db, id: number): Promise<void> {
  await db.deleteFrom('globalParam').where('id', '=', id).execute();
}

/** Datasets whose global filter text mentions the key (the caller confirms by parsing it). */
/** Computed fields whose formula text mentions `${paramKey}` (callers confirm with the formula reader). */
export function formulasMentioningParam(db: Db, paramKey: string) {
  return db
    .selectFrom('cubeField')
    .innerJoin('cube', 'cube.id', 'cubeField.cubeId')
    .select(['cube.cubeName', 'cubeField.columnTitle', 'cubeField.columnFormula'])
    .where('cubeField.columnAttr', '=', 'VIRTUAL')
    .where('cubeField.columnFormula', 'like', containsPattern(`\${${paramKey}}`))
    .orderBy('cubeField.id')
    .execute();
}

export function cubesMentioningParam(db: Db, paramKey: string) {
  return db
    .selectFrom('cube')
    .select(['id', 'cubeName', 'filterJson'])
    .where('filterJson', 'like', containsPattern(`"paramKey":"${paramKey}"`))
    .orderBy('id')
    .execute();
}
