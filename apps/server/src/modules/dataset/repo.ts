import { sql, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { CubeFieldTable, CubeTable, Database } from '../../platform/db/schema.ts';
import { cachedRead } from '../../platform/cache/coherent.ts';

type Db = Kysely<Database>;

/** An ILIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ---------------------------------------------------------------------------------------
// Categories

const CATEGORY_COLUMNS = ['id', 'wsName', 'parentId', 'sortNum', 'createUserId'] as const;

export function listCategories(db: Db) {
  return db.selectFrom('cubeCategory').select(CATEGORY_COLUMNS).orderBy('sortNum').orderBy('id').execute();
}

export function findCategory(db: Db, id: number) {
  return db.selectFrom('cubeCategory').select(CATEGORY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The category, locked `for update`: nothing can be added to it until the transaction ends. */
export function findCategoryForUpdate(db: Db, id: number) {
  return db.selectFrom('cubeCategory').select(CATEGORY_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The category, locked `for share`: it cannot be deleted until the transaction ends. */
export async function categoryExistsForShare(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('cubeCategory').select('id').where('id', '=', id).forShare().executeTakeFirst()) !== undefined;
}

export async function nextCategorySort(db: Db, parentId: number): Promise<number> {
  const row = await db
    .selectFrom('cubeCategory')
    .select((eb) => eb.fn.max<number | null>('sortNum').as('n'))
    .where('parentId', '=', parentId)
    .executeTakeFirst();
  return (row?.n ?? 0) + 1;
}

export async function insertCategory(db: Db, values: { wsName: string; parentId: number; sortNum: number; createUserId: number }): Promise<number> {
  const row = await db.insertInto('cubeCategory').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCategory(db: Db, id: number, values: { wsName: string; parentId: number; sortNum?: number }): Promise<void> {
  await db
    .updateTable('cubeCategory')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteCategory(db: Db, id: number): Promise<void> {
  await db.deleteFrom('cubeCategory').where('id', '=', id).execute();
}

export async function countChildCategories(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('cubeCategory')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parentId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countCubesInCategory(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('cube')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspaceId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The category and its sub-categories (a category list "by category" includes its children). */
export async function categoryWithChildren(db: Db, id: number): Promise<number[]> {
  const rows = await db.selectFrom('cubeCategory').select('id').where('parentId', '=', id).execute();
  return [id, ...rows.map((r) => r.id)];
}

// ---------------------------------------------------------------------------------------
// Datasets

export type CubeRow = Selectable<CubeTable> & { workspaceName: string; dsName: string; createUserName: string | null };

function cubeQuery(db: Db) {
  return db
    .selectFrom('cube as c')
    .innerJoin('cubeCategory as w', 'w.id', 'c.workspaceId')
    .innerJoin('dataSource as s', 's.id', 'c.datasourceId')
    .leftJoin('sysUser as u', 'u.id', 'c.createUserId')
    .selectAll('c')
    .select(['w.wsName as workspaceName', 's.dsName', sql<string | null>`coalesce(u.real_name, u.name)`.as('createUserName')]);
}

export function findCube(db: Db, id: number): Promise<CubeRow | undefined> {
  // Every chart read asks: kept until a dataset table is written (platform/cache/watch.ts).
  return cachedRead(db, `cube:${id}`, () => cubeQuery(db).where('c.id', '=', id).executeTakeFirst());
}

/** The dataset row, locked `for update` until the transaction ends. */
export function lockCube(db: Db, id: number) {
  return db.selectFrom('cube').select(['id', 'createUserId', 'filterJson', 'orderByJson']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface CubeFilter {
  /** Categories (one and its children); undefined: every category. */
  workspaceIds?: number[] | undefined;
  cubeName?: string | undefined;
  /** Non-administrators: what they may see; undefined: everything. */
  visibleTo?: { userId: number; grantedIds: number[] } | undefined;
}

function cubeWhere(filter: CubeFilter) {
  return (eb: ExpressionBuilder<Database & { c: Database['cube'] }, 'c'>) => {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.workspaceIds) conditions.push(eb('c.workspaceId', 'in', filter.workspaceIds));
    if (filter.cubeName) conditions.push(eb('c.cubeName', 'ilike', containsPattern(filter.cubeName)));
    const visible = filter.visibleTo;
    if (visible) {
      conditions.push(
        eb.or([
          eb('c.publicStatus', '=', 1),
          eb('c.createUserId', '=', visible.userId),
          ...(visible.grantedIds.length > 0 ? [eb('c.id', 'in', visible.grantedIds)] : []),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

/** A page of datasets, newest first. */
export async function pageCubes(db: Db, filter: CubeFilter, offset: number, limit: number): Promise<{ rows: CubeRow[]; total: number }> {
  const where = cubeWhere(filter);
  const [rows, count] = await Promise.all([
    cubeQuery(db).where(where).orderBy('c.id', 'desc').offset(offset).limit(limit).execute(),
    db
      .selectFrom('cube as c')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Ids of the datasets in the categories. */
export async function cubeIdsInCategories(db: Db, workspaceIds: readonly number[]): Promise<number[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await db
    .selectFrom('cube')
    .select('id')
    .where('workspaceId', 'in', [...workspaceIds])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export type CubeValues = Omit<Insertable<CubeTable>, 'id' | 'createTime' | 'updateTime'>;

export async function insertCube(db: Db, values: CubeValues): Promise<number> {
  const row = await db.insertInto('cube').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCube(db: Db, id: number, values: Updateable<CubeTable>): Promise<void> {
  await db
    .updateTable('cube')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteCube(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('cube').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------
// Fields

export type FieldRow = Selectable<CubeFieldTable>;
export type FieldValues = Omit<Insertable<CubeFieldTable>, 'id' | 'cubeId'>;

/** The fields of a dataset in display order. */
export function listFields(db: Db, cubeId: number): Promise<FieldRow[]> {
  return cachedRead(db, `fields:${cubeId}`, () =>
    db.selectFrom('cubeField').selectAll().where('cubeId', '=', cubeId).orderBy('sortNum').orderBy('id').execute(),
  );
}

export function findField(db: Db, id: number): Promise<FieldRow | undefined> {
  return db.selectFrom('cubeField').selectAll().where('id', '=', id).executeTakeFirst();
}

/** `count` new field ids from the identity sequence, so formulas can name them before the rows exist. */
export async function allocateFieldIds(db: Db, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await sql<{
    id: number;
  }>`select nextval(pg_get_serial_sequence('cube_field', 'id'))::integer as id from generate_series(1, ${count})`.execute(db);
  return rows.map((r) => r.id);
}

export async function insertFields(db: Db, cubeId: number, fields: readonly (FieldValues & { id: number })[]): Promise<void> {
  if (fields.length === 0) return;
  await db
    .insertInto('cubeField')
    .values(fields.map((f) => ({ ...f, cubeId })))
    .execute();
}

export async function updateField(db: Db, cubeId: number, id: number, values: FieldValues): Promise<void> {
  await db.updateTable('cubeField').set(values).where('id', '=', id).where('cubeId', '=', cubeId).execute();
}

export async function deleteFields(db: Db, cubeId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('cubeField')
    .where('cubeId', '=', cubeId)
    .where('id', 'in', [...ids])
    .execute();
}
