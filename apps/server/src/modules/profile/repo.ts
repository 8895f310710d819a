import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

export function findProfile(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('sysUser')
    .select(['id', 'account', 'name', 'realName', 'avatar', 'phone', 'email', 'deptId', 'isAdministrator', 'mustChangePassword'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function findRoleIds(db: Kysely<Database>, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('sysUserRole').select('roleId').where('userId', '=', userId).orderBy('roleId').execute();
  return rows.map((r) => r.roleId);
}

export function findPasswordHash(db: Kysely<Database>, userId: number): Promise<string | undefined> {
  return db
    .selectFrom('sysUser')
    .select('passwordHash')
    .where('id', '=', userId)
    .executeTakeFirst()
    .then((row) => row?.passwordHash);
}

export interface ProfileFields {
  avatar: string | null;
  name: string;
  realName: string | null;
  phone: string | null;
  email: string | null;
}

/** Returns whether the user still exists. */
export async function updateProfileFields(db: Kysely<Database>, userId: number, fields: ProfileFields): Promise<boolean> {
  const result = await db
    .updateTable('sysUser')
    .set({ ...fields, updateTime: new Date() })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A password the user chose themselves: also ends a pending 修改初始密码. */
export async function updatePasswordHash(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('sysUser').set({ passwordHash, mustChangePassword: false, updateTime: new Date() }).where('id', '=', userId).execute();
}
