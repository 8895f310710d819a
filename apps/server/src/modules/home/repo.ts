import { sql, type Kysely } from 'kysely';
import { HOME_VISITS_KEPT, type HomeItemKind } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/**
 * The home page's own rows (migration 0015): visits and board favourites, plus the few reads
 * of boards, datasets and slideshows it lists. Who may see a listed item is decided by the
 * board and ppt modules (service.ts), never here.
 */

/** Records a visit: one row per user and item, its time moved to now; the oldest beyond HOME_VISITS_KEPT go. */
export async function upsertVisit(db: Db, userId: number, kind: HomeItemKind, targetId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('recentVisit')
      .values({ userId, kind, targetId, visitTime: new Date() })
      .onConflict((oc) => oc.columns(['userId', 'kind', 'targetId']).doUpdateSet({ visitTime: new Date() }))
      .execute();
    await sql`
      delete from recent_visit
      where user_id = ${userId}
        and (kind, target_id) not in (
          select kind, target_id from recent_visit where user_id = ${userId} order by visit_time desc limit ${HOME_VISITS_KEPT}
        )`.execute(trx);
  });
}

/** The user's visits, newest first. */
export function findVisits(db: Db, userId: number) {
  return db
    .selectFrom('recentVisit')
    .select(['kind', 'targetId', 'visitTime'])
    .where('userId', '=', userId)
    .orderBy('visitTime', 'desc')
    .limit(HOME_VISITS_KEPT)
    .execute();
}

export async function addFavouriteBoard(db: Db, userId: number, boardId: number): Promise<void> {
  await db
    .insertInto('boardFavourite')
    .values({ userId, boardId })
    .onConflict((oc) => oc.columns(['userId', 'boardId']).doNothing())
    .execute();
}

export async function removeFavouriteBoard(db: Db, userId: number, boardId: number): Promise<void> {
  await db.deleteFrom('boardFavourite').where('userId', '=', userId).where('boardId', '=', boardId).execute();
}

/** The user's starred boards, newest star first. */
export function findFavouriteBoards(db: Db, userId: number) {
  return db.selectFrom('boardFavourite').select(['boardId', 'createTime']).where('userId', '=', userId).orderBy('createTime', 'desc').execute();
}

/** Boards among `ids` that someone else made, most recently changed first. */
export function findOthersBoards(db: Db, userId: number, ids: readonly number[], limit: number) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('board')
    .select(['id', 'updateTime'])
    .where('id', 'in', [...ids])
    .where((eb) => eb.or([eb('createUserId', 'is', null), eb('createUserId', '<>', userId)]))
    .orderBy('updateTime', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The user's own favourite slideshows (visualType 1), most recently changed first. */
export function findFavouritePptIds(db: Db, userId: number, limit: number) {
  return db
    .selectFrom('ppt')
    .select(['id', 'updateTime'])
    .where('createUserId', '=', userId)
    .where('visualType', '=', 1)
    .orderBy('updateTime', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Boards and datasets the user made, except those named in `demo` (the seeded demo content). */
export async function countOwnWork(db: Db, userId: number, demo: { boardIds: number[]; datasetIds: number[] }): Promise<number> {
  let boards = db
    .selectFrom('board')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('createUserId', '=', userId);
  if (demo.boardIds.length > 0) boards = boards.where('id', 'not in', demo.boardIds);
  let cubes = db
    .selectFrom('cube')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('createUserId', '=', userId);
  if (demo.datasetIds.length > 0) cubes = cubes.where('id', 'not in', demo.datasetIds);
  const [b, c] = await Promise.all([boards.executeTakeFirstOrThrow(), cubes.executeTakeFirstOrThrow()]);
  return Number(b.n) + Number(c.n);
}

/** The demo boards: by title, in a board category named `category` (the seed makes them there). */
export function findDemoBoards(db: Db, category: string, titles: readonly string[]) {
  return db
    .selectFrom('board as b')
    .innerJoin('boardCategory as c', 'c.id', 'b.categoryId')
    .select(['b.id', 'b.title'])
    .where('c.categoryValue', '=', category)
    .where('b.title', 'in', [...titles])
    .orderBy('b.id')
    .execute();
}

/** The demo dataset: by name, in a dataset category named `category`. */
export function findDemoDatasets(db: Db, category: string, name: string) {
  return db
    .selectFrom('cube as d')
    .innerJoin('cubeCategory as c', 'c.id', 'd.workspaceId')
    .select(['d.id', 'd.cubeName'])
    .where('c.wsName', '=', category)
    .where('d.cubeName', '=', name)
    .orderBy('d.id')
    .execute();
}
