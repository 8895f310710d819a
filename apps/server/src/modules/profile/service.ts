import type { Kysely } from 'kysely';
import { zhCN, type UserInfo } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import type { Session } from '../../platform/auth/session.ts';
import { notFound } from '../../platform/http/errors.ts';

export async function getUserInfo(db: Kysely<Database>, session: Session): Promise<UserInfo> {
  const user = await db
    .selectFrom('sysUser')
    .select(['id', 'account', 'name', 'realName', 'avatar', 'phone', 'email', 'deptId', 'isAdministrator'])
    .where('id', '=', session.userId)
    .executeTakeFirst();
  if (!user) throw notFound(zhCN.userNotFound);
  const roles = await db.selectFrom('sysUserRole').select('roleId').where('userId', '=', session.userId).execute();
  return { ...user, roleIds: roles.map((r) => r.roleId), permissions: [...session.permissions].sort() };
}
