import { sql, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { BoardKind } from '@shutu/contracts';
import type { BoardChartTable, BoardTable, Database } from '../../platform/db/schema.ts';
import { containsPattern } from '../dataset/index.ts';
import { cachedRead } from '../../platform/cache/coherent.ts';

type Db = Kysely<Database>;

// ---------------------------------------------------------------------------------------
// Categories

const CATEGORY_COLUMNS = ['id', 'kind', 'categoryKey', 'categoryValue', 'parentId', 'sortNum', 'createUserId'] as const;

export function findCategories(db: Db, kind: BoardKind) {
  return db.selectFrom('boardCategory').select(CATEGORY_COLUMNS).where('kind', '=', kind).orderBy('sortNum').orderBy('id').execute();
}

export function findCategory(db: Db, id: number) {
  return db.selectFrom('boardCategory').select(CATEGORY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The category, locked `for update`: nothing can be added to it until the transaction ends. */
export function findCategoryForUpdate(db: Db, id: number) {
  return db.selectFrom('boardCategory').select(CATEGORY_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The category of that kind, locked `for share`: it cannot be deleted until the transaction ends. */
export async function categoryExistsForShare(db: Db, id: number, kind: BoardKind): Promise<boolean> {
  const row = await db.selectFrom('boardCategory').select('id').where('id', '=', id).where('kind', '=', kind).forShare().executeTakeFirst();
  return row !== undefined;
}

export async function getNextCategorySort(db: Db, kind: BoardKind, parentId: number): Promise<number> {
  const row = await db
    .selectFrom('boardCategory')
    .select((eb) => eb.fn.max<number | null>('sortNum').as('n'))
    .where('kind', '=', kind)
    .where('parentId', '=', parentId)
    .executeTakeFirst();
  return (row?.n ?? 0) + 1;
}

export async function insertCategory(
  db: Db,
  values: { kind: BoardKind; categoryKey: string | null; categoryValue: string; parentId: number; sortNum: number; createUserId: number },
): Promise<number> {
  const row = await db.insertInto('boardCategory').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCategory(
  db: Db,
  id: number,
  values: { categoryKey: string | null; categoryValue: string; parentId: number; sortNum?: number },
): Promise<void> {
  await db
    .updateTable('boardCategory')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteCategory(db: Db, id: number): Promise<void> {
  await db.deleteFrom('boardCategory').where('id', '=', id).execute();
}

export async function countChildCategories(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('boardCategory')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parentId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countBoardsInCategory(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('board')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('categoryId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The category and its sub-categories (a list "by category" includes its children). */
export async function findCategoryWithChildren(db: Db, id: number): Promise<number[]> {
  const rows = await db.selectFrom('boardCategory').select('id').where('parentId', '=', id).execute();
  return [id, ...rows.map((r) => r.id)];
}

// ---------------------------------------------------------------------------------------
// Boards

export type BoardRow = Selectable<BoardTable> & { categoryName: string; createUserName: string | null };

function boardQuery(db: Db) {
  return db
    .selectFrom('board as b')
    .innerJoin('boardCategory as c', 'c.id', 'b.categoryId')
    .leftJoin('sysUser as u', 'u.id', 'b.createUserId')
    .selectAll('b')
    .select(['c.categoryValue as categoryName', sql<string | null>`coalesce(u.real_name, u.name)`.as('createUserName')]);
}

export function findBoard(db: Db, id: number): Promise<BoardRow | undefined> {
  // Every chart of a board asks: kept until a board (or its category, its creator) is written (platform/cache/watch.ts).
  return cachedRead(db, `board:${id}`, () => boardQuery(db).where('b.id', '=', id).executeTakeFirst());
}

/** The board row, locked `for update` until the transaction ends. */
export function findBoardForUpdate(db: Db, id: number) {
  return db.selectFrom('board').select(['id', 'kind', 'createUserId']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface BoardFilter {
  kind: BoardKind;
  /** Categories (one and its children); undefined: every category. */
  categoryIds?: number[] | undefined;
  title?: string | undefined;
  /** Non-administrators: what they may see; undefined: everything. */
  visibleTo?: { userId: number; grantedIds: number[] } | undefined;
}

function boardWhere(filter: BoardFilter) {
  return (eb: ExpressionBuilder<Database & { b: Database['board'] }, 'b'>) => {
    const conditions: Expression<SqlBool>[] = [eb('b.kind', '=', filter.kind)];
    if (filter.categoryIds) conditions.push(eb('b.categoryId', 'in', filter.categoryIds));
    if (filter.title) conditions.push(eb('b.title', 'ilike', containsPattern(filter.title)));
    const visible = filter.visibleTo;
    if (visible) {
      conditions.push(
        eb.or([
          eb('b.publicStatus', '=', 1),
          eb('b.createUserId', '=', visible.userId),
          ...(visible.grantedIds.length > 0 ? [eb('b.id', 'in', visible.grantedIds)] : []),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

/** A page of boards, by sort number, then newest first. */
export async function findBoardPage(db: Db, filter: BoardFilter, offset: number, limit: number): Promise<{ rows: BoardRow[]; total: number }> {
  const where = boardWhere(filter);
  const [rows, count] = await Promise.all([
    boardQuery(db).where(where).orderBy('b.sortNum').orderBy('b.id', 'desc').offset(offset).limit(limit).execute(),
    db
      .selectFrom('board as b')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Ids of the boards of a kind in the categories, in id order. */
export async function findBoardIdsInCategories(db: Db, kind: BoardKind, categoryIds: readonly number[]): Promise<number[]> {
  if (categoryIds.length === 0) return [];
  const rows = await db
    .selectFrom('board')
    .select('id')
    .where('kind', '=', kind)
    .where('categoryId', 'in', [...categoryIds])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The boards of a kind among `ids` (who created them), for the sort. */
export function findBoardsByIds(db: Db, kind: BoardKind, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('board')
    .select(['id', 'createUserId', 'publicStatus'])
    .where('kind', '=', kind)
    .where('id', 'in', [...ids])
    .execute();
}

export type BoardValues = Omit<Insertable<BoardTable>, 'id' | 'createTime' | 'updateTime'>;

export async function insertBoard(db: Db, values: BoardValues): Promise<number> {
  const row = await db.insertInto('board').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateBoard(db: Db, id: number, values: Updateable<BoardTable>): Promise<void> {
  await db
    .updateTable('board')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Sort numbers 1..n in the order of `ids` (no updateTime change: reordering is not an edit). */
export async function updateBoardSortNums(db: Db, ids: readonly number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [index, id] of ids.entries())
      await trx
        .updateTable('board')
        .set({ sortNum: index + 1 })
        .where('id', '=', id)
        .execute();
  });
}

export async function deleteBoard(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('board').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------
// Charts

export type ChartRow = Selectable<BoardChartTable>;
export type ChartValues = Omit<Insertable<BoardChartTable>, 'id' | 'boardId'>;

export function findCharts(db: Db, boardId: number): Promise<ChartRow[]> {
  return db.selectFrom('boardChart').selectAll().where('boardId', '=', boardId).orderBy('id').execute();
}

export function findChart(db: Db, boardId: number, chartKey: string): Promise<ChartRow | undefined> {
  return cachedRead(db, `chart:${boardId}:${chartKey}`, () =>
    db.selectFrom('boardChart').selectAll().where('boardId', '=', boardId).where('chartKey', '=', chartKey).executeTakeFirst(),
  );
}

/** The board's charts become `charts` (call inside a transaction). */
export async function replaceCharts(db: Db, boardId: number, charts: readonly ChartValues[]): Promise<void> {
  await db.deleteFrom('boardChart').where('boardId', '=', boardId).execute();
  if (charts.length === 0) return;
  await db
    .insertInto('boardChart')
    .values(charts.map((c) => ({ ...c, boardId })))
    .execute();
}
