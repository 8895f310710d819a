import type { Kysely, Selectable } from 'kysely';
import type { Database, ShareLinkTable } from '../../platform/db/schema.ts';
import { containsPattern } from '../org/index.ts';

type Db = Kysely<Database>;

export type ShareLinkRow = Selectable<ShareLinkTable> & { createUserName: string | null };

const COLUMNS = [
  'l.id',
  'l.code',
  'l.dataType',
  'l.dataId',
  'l.visualDataTitle',
  'l.purpose',
  'l.linkType',
  'l.passwordHash',
  'l.expireTime',
  'l.enabled',
  'l.createUserId',
  'l.createTime',
  'l.updateTime',
] as const;

function selectLinks(db: Db) {
  return db
    .selectFrom('shareLink as l')
    .leftJoin('sysUser as u', 'u.id', 'l.createUserId')
    .select([...COLUMNS, 'u.name as createUserName']);
}

export function findLink(db: Db, id: number): Promise<ShareLinkRow | undefined> {
  return selectLinks(db).where('l.id', '=', id).executeTakeFirst();
}

export function findLinkByCode(db: Db, code: string): Promise<ShareLinkRow | undefined> {
  return selectLinks(db).where('l.code', '=', code).executeTakeFirst();
}

export interface LinkFilter {
  /** Only this user's links; undefined: everyone's (administrators). */
  ownerId?: number | undefined;
  title?: string | undefined;
  linkType?: number | undefined;
}

export async function findLinkPage(db: Db, filter: LinkFilter, offset: number, limit: number): Promise<{ rows: ShareLinkRow[]; total: number }> {
  let query = db.selectFrom('shareLink as l');
  if (filter.ownerId !== undefined) query = query.where('l.createUserId', '=', filter.ownerId);
  if (filter.title) query = query.where('l.visualDataTitle', 'ilike', containsPattern(filter.title));
  if (filter.linkType !== undefined) query = query.where('l.linkType', '=', filter.linkType);
  const [count, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    query
      .leftJoin('sysUser as u', 'u.id', 'l.createUserId')
      .select([...COLUMNS, 'u.name as createUserName'])
      .orderBy('l.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function insertLink(
  db: Db,
  values: Pick<ShareLinkTable, 'code' | 'dataType' | 'dataId' | 'visualDataTitle' | 'passwordHash' | 'expireTime' | 'createUserId'> & {
    purpose: string;
    linkType: number;
  },
): Promise<number> {
  const row = await db.insertInto('shareLink').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLink(
  db: Db,
  id: number,
  values: { purpose?: string; enabled?: boolean; passwordHash?: string | null; expireTime?: Date | null },
): Promise<void> {
  await db
    .updateTable('shareLink')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteLink(db: Db, id: number): Promise<void> {
  await db.deleteFrom('shareLink').where('id', '=', id).execute();
}

/** The ids among `ids` that are account-matching links. */
export async function findAccountMatchingIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('shareLink')
    .select('id')
    .where('id', 'in', [...ids])
    .where('linkType', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}
