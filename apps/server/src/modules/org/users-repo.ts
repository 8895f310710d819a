import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

/** An ILIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface UserFilter {
  keyword?: string | undefined;
  /** The department and everything below it. */
  deptId?: number | undefined;
}

export interface UserRow {
  id: number;
  account: string;
  name: string;
  realName: string | null;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  userExtJson: string | null;
  deptId: number | null;
  deptName: string | null;
  isAdministrator: boolean;
  status: number;
  createTime: Date;
}

function userQuery(db: Db) {
  return db
    .selectFrom('sysUser as u')
    .leftJoin('sysDept as d', 'd.id', 'u.deptId')
    .select([
      'u.id',
      'u.account',
      'u.name',
      'u.realName',
      'u.avatar',
      'u.phone',
      'u.email',
      'u.userExtJson',
      'u.deptId',
      'd.deptName',
      'u.isAdministrator',
      'u.status',
      'u.createTime',
    ]);
}

/** Ids of a department and all its descendants, as a subquery. */
function deptSubtree(db: Db, rootId: number) {
  return db
    .withRecursive('subtree(id)', (qb) =>
      qb
        .selectFrom('sysDept')
        .select('id')
        .where('id', '=', rootId)
        .union((qb2) => qb2.selectFrom('sysDept as c').innerJoin('subtree', 'subtree.id', 'c.parentId').select('c.id')),
    )
    .selectFrom('subtree')
    .select('subtree.id');
}

function applyFilter(db: Db, filter: UserFilter) {
  return (eb: ExpressionBuilder<Database & { u: Database['sysUser'] }, 'u'>) => {
    const conditions = [];
    if (filter.keyword) {
      const p = containsPattern(filter.keyword);
      conditions.push(eb.or([eb('u.account', 'ilike', p), eb('u.name', 'ilike', p), eb('u.realName', 'ilike', p), eb('u.phone', 'ilike', p)]));
    }
    if (filter.deptId !== undefined) conditions.push(eb('u.deptId', 'in', deptSubtree(db, filter.deptId)));
    return eb.and(conditions);
  };
}

export async function listUsers(db: Db, filter: UserFilter, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
  const where = applyFilter(db, filter);
  const [rows, count] = await Promise.all([
    userQuery(db).where(where).orderBy('u.id').offset(offset).limit(limit).execute(),
    db
      .selectFrom('sysUser as u')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return userQuery(db).where('u.id', '=', id).executeTakeFirst();
}

/** Locks the user's row until the transaction ends, so two edits of one user serialise. */
export function findUserForUpdate(db: Db, id: number) {
  return db.selectFrom('sysUser').select(['id', 'isAdministrator', 'status']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findUserIdByAccount(db: Db, account: string): Promise<number | undefined> {
  return db
    .selectFrom('sysUser')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['account']), '=', account.toLowerCase()))
    .executeTakeFirst()
    .then((row) => row?.id);
}

export async function findRoleIdsOf(db: Db, userIds: number[]): Promise<Map<number, number[]>> {
  const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db.selectFrom('sysUserRole').select(['userId', 'roleId']).where('userId', 'in', userIds).orderBy('roleId').execute();
  for (const row of rows) byUser.get(row.userId)?.push(row.roleId);
  return byUser;
}

/** Which of `ids` exist; `for share` (in id order, like the tree moves) keeps them until the transaction ends. */
export async function existingDeptIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('sysDept').select('id').where('id', 'in', ids).orderBy('id').forShare().execute();
  return new Set(rows.map((r) => r.id));
}

export async function existingRoleIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('sysRole').select('id').where('id', 'in', ids).orderBy('id').forShare().execute();
  return new Set(rows.map((r) => r.id));
}

export interface UserValues {
  name: string;
  realName: string | null;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  userExtJson: string | null;
  deptId: number | null;
  isAdministrator: boolean;
}

export async function insertUser(db: Db, values: UserValues & { account: string; passwordHash: string }): Promise<number> {
  const row = await db
    .insertInto('sysUser')
    .values({ ...values, status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Db, id: number, values: Partial<UserValues & { status: number; passwordHash: string }>): Promise<void> {
  await db
    .updateTable('sysUser')
    .set({ ...values, updateTime: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function replaceUserRoles(db: Db, userId: number, roleIds: number[]): Promise<void> {
  await db.deleteFrom('sysUserRole').where('userId', '=', userId).execute();
  if (roleIds.length)
    await db
      .insertInto('sysUserRole')
      .values(roleIds.map((roleId) => ({ userId, roleId })))
      .execute();
}
