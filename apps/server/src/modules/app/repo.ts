import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AppMenuTable, AppTable, Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

// ---------------------------------------------------------------------------------------
// Apps

export type AppRow = Selectable<AppTable> & { createUserName: string | null };

function appQuery(db: Db) {
  return db
    .selectFrom('app as a')
    .leftJoin('sysUser as u', 'u.id', 'a.createUserId')
    .selectAll('a')
    .select(sql<string | null>`coalesce(u.real_name, u.name)`.as('createUserName'));
}

export function findApp(db: Db, id: number): Promise<AppRow | undefined> {
  return appQuery(db).where('a.id', '=', id).executeTakeFirst();
}

/**
 * Apps newest change first. `ownerId`: only that creator's; `published`: only published ones;
 * `visibleTo`: only the user's own or those granted to their groups.
 */
export function findApps(
  db: Db,
  filter: { ownerId?: number | undefined; published?: boolean | undefined; visibleTo?: { userId: number; grantedIds: number[] } | undefined },
): Promise<AppRow[]> {
  let query = appQuery(db);
  if (filter.ownerId !== undefined) query = query.where('a.createUserId', '=', filter.ownerId);
  if (filter.published) query = query.where('a.publishStatus', '=', 1);
  const visible = filter.visibleTo;
  if (visible) {
    query = query.where((eb) =>
      eb.or([eb('a.createUserId', '=', visible.userId), ...(visible.grantedIds.length > 0 ? [eb('a.id', 'in', visible.grantedIds)] : [])]),
    );
  }
  return query.orderBy('a.updateTime', 'desc').orderBy('a.id', 'desc').execute();
}

export type AppValues = {
  appName: string;
  appIcon: string | null;
  appDescription: string | null;
  publishStatus: number;
  menuShowType: string;
  waterMarkStatus: number;
  waterMarkText: string;
};

export async function insertApp(db: Db, values: AppValues & { createUserId: number }): Promise<number> {
  const row = await db.insertInto('app').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateApp(db: Db, id: number, values: AppValues): Promise<void> {
  await db
    .updateTable('app')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Deletes the app; its menus go with it (on delete cascade). */
export async function deleteAppRow(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('app').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The ids among `ids` of published apps, with their names for the refusal of the others. */
export function findAppsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('app')
    .select(['id', 'appName', 'publishStatus'])
    .where('id', 'in', [...ids])
    .execute();
}

// ---------------------------------------------------------------------------------------
// Menus

export type MenuRow = Selectable<AppMenuTable> & { boardKind: string | null; boardTitle: string | null };

/** An app's menus in display order (parents before children is not guaranteed: the model builds the tree). */
export function findMenus(db: Db, appId: number): Promise<MenuRow[]> {
  return db
    .selectFrom('appMenu as m')
    .leftJoin('board as b', 'b.id', 'm.visualId')
    .selectAll('m')
    .select(['b.kind as boardKind', 'b.title as boardTitle'])
    .where('m.appId', '=', appId)
    .orderBy('m.sortNum')
    .orderBy('m.id')
    .execute();
}

export function findMenu(db: Db, appId: number, menuId: number) {
  return db.selectFrom('appMenu').selectAll().where('appId', '=', appId).where('id', '=', menuId).executeTakeFirst();
}

export type MenuValues = {
  parentId: number;
  menuName: string;
  menuIcon: string;
  icon: string | null;
  visualId: number | null;
  visualName: string | null;
};

export async function insertMenu(db: Db | Transaction<Database>, appId: number, values: MenuValues & { sortNum: number }): Promise<number> {
  const row = await db
    .insertInto('appMenu')
    .values({ appId, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateMenu(
  db: Db | Transaction<Database>,
  appId: number,
  menuId: number,
  values: Partial<MenuValues> & { sortNum?: number },
): Promise<void> {
  await db.updateTable('appMenu').set(values).where('appId', '=', appId).where('id', '=', menuId).execute();
}

/** The next sortNum among the siblings under `parentId`. */
export async function nextSortNum(db: Db, appId: number, parentId: number): Promise<number> {
  const row = await db
    .selectFrom('appMenu')
    .select((eb) => eb.fn.max<number | null>('sortNum').as('n'))
    .where('appId', '=', appId)
    .where('parentId', '=', parentId)
    .executeTakeFirst();
  return (row?.n ?? 0) + 1;
}

export async function deleteMenus(db: Db | Transaction<Database>, appId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('appMenu')
    .where('appId', '=', appId)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function touchApp(db: Db | Transaction<Database>, id: number): Promise<void> {
  await db.updateTable('app').set({ updateTime: new Date() }).where('id', '=', id).execute();
}

/** Boards by id with what decides who may see them. */
export function findBoardsForMenus(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('board')
    .select(['id', 'kind', 'title', 'publicStatus', 'createUserId'])
    .where('id', 'in', [...ids])
    .execute();
}

// ---------------------------------------------------------------------------------------
// The full-screen frame

export async function findUserExtJson(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('sysUser').select('userExtJson').where('id', '=', userId).executeTakeFirst();
  return row?.userExtJson ?? null;
}

export async function readConfig(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom('sysConfig').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function writeConfig(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('sysConfig')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
