import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Database, PptTable } from '../../platform/db/schema.ts';
import { containsPattern } from '../dataset/index.ts';

type Db = Kysely<Database>;

// ---------------------------------------------------------------------------------------
// Slideshows, favourites and archives

export type PptRow = Selectable<PptTable> & { createUserName: string | null };

function pptQuery(db: Db) {
  return db
    .selectFrom('ppt as p')
    .leftJoin('sysUser as u', 'u.id', 'p.createUserId')
    .selectAll('p')
    .select(sql<string | null>`coalesce(u.real_name, u.name)`.as('createUserName'));
}

export function findPpt(db: Db, id: number): Promise<PptRow | undefined> {
  return pptQuery(db).where('p.id', '=', id).executeTakeFirst();
}

export interface PptFilter {
  visualType: 0 | 1 | 2;
  /** Favourites and archives: one category (0 默认分类); undefined: all. */
  cateId?: number | undefined;
  ppName?: string | undefined;
  /** Only these owners' (favourites, archives, the viewer's mine=1). */
  ownerId?: number | undefined;
  /** Non-administrators' slideshows: public, own or granted; undefined: everything. */
  visibleTo?: { userId: number; grantedIds: number[] } | undefined;
}

function pptWhere(filter: PptFilter) {
  return (eb: ExpressionBuilder<Database & { p: Database['ppt'] }, 'p'>) => {
    const conditions: Expression<SqlBool>[] = [eb('p.visualType', '=', filter.visualType)];
    if (filter.cateId !== undefined) conditions.push(eb('p.cateId', '=', filter.cateId));
    if (filter.ppName) conditions.push(eb('p.ppName', 'ilike', containsPattern(filter.ppName)));
    if (filter.ownerId !== undefined) conditions.push(eb('p.createUserId', '=', filter.ownerId));
    const visible = filter.visibleTo;
    if (visible) {
      conditions.push(
        eb.or([
          eb('p.publicStatus', '=', 1),
          eb('p.createUserId', '=', visible.userId),
          ...(visible.grantedIds.length > 0 ? [eb('p.id', 'in', visible.grantedIds)] : []),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

/** A page of records, newest change first. */
export async function findPptPage(db: Db, filter: PptFilter, offset: number, limit: number): Promise<{ rows: PptRow[]; total: number }> {
  const where = pptWhere(filter);
  const [rows, count] = await Promise.all([
    pptQuery(db).where(where).orderBy('p.updateTime', 'desc').orderBy('p.id', 'desc').offset(offset).limit(limit).execute(),
    db
      .selectFrom('ppt as p')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export type PptValues = {
  ppName: string;
  ppMonth: string | null;
  cateId: number;
  visualIds: string;
  settings: string;
  visualType: 0 | 1 | 2;
  sourceId: number | null;
  publicStatus: number;
  createUserId: number;
};

export async function insertPpt(db: Db, values: PptValues): Promise<number> {
  const row = await db.insertInto('ppt').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePpt(db: Db, id: number, values: Updateable<PptTable>): Promise<void> {
  await db
    .updateTable('ppt')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Authorisation is not an edit: update_time stays. */
export async function setPptPublicStatus(db: Db, id: number, publicStatus: number): Promise<void> {
  await db.updateTable('ppt').set({ publicStatus }).where('id', '=', id).execute();
}

export async function deletePptRow(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('ppt').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The boards among `ids` with what the viewer's buttons show and what decides who may see them. */
export function findBoardsForSlides(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('board')
    .select(['id', 'kind', 'title', 'content', 'backgroundUrl', 'publicStatus', 'createUserId'])
    .where('id', 'in', [...ids])
    .execute();
}

/** Every slideshow (visualType 0) id, for checking a group's grant list. */
export async function findSlideshowIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('ppt')
    .select('id')
    .where('visualType', '=', 0)
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------
// A user's favourite and archive categories

export function findCategories(db: Db, userId: number, visualType: 1 | 2) {
  return db
    .selectFrom('pptCategory')
    .select(['id', 'classifyName'])
    .where('createUserId', '=', userId)
    .where('visualType', '=', visualType)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export function findCategory(db: Db, id: number) {
  return db.selectFrom('pptCategory').select(['id', 'classifyName', 'visualType', 'createUserId']).where('id', '=', id).executeTakeFirst();
}

export async function insertCategory(db: Db, values: { visualType: 1 | 2; classifyName: string; createUserId: number }): Promise<number> {
  const next = await db
    .selectFrom('pptCategory')
    .select((eb) => eb.fn.max<number | null>('sort').as('n'))
    .where('createUserId', '=', values.createUserId)
    .where('visualType', '=', values.visualType)
    .executeTakeFirst();
  const row = await db
    .insertInto('pptCategory')
    .values({ ...values, sort: (next?.n ?? 0) + 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renameCategory(db: Db, id: number, classifyName: string): Promise<void> {
  await db.updateTable('pptCategory').set({ classifyName }).where('id', '=', id).execute();
}

/** Deletes the category and moves its records to 默认分类 (0), in one transaction. */
export async function deleteCategoryMovingRecords(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('ppt').set({ cateId: 0 }).where('cateId', '=', id).where('visualType', 'in', [1, 2]).execute();
    await trx.deleteFrom('pptCategory').where('id', '=', id).execute();
  });
}
