import type { Kysely } from 'kysely';
import { zhCN, type UserInfo } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import type { Session } from '../../platform/auth/session.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/password.ts';
import { revokeUserTokens } from '../../platform/auth/tokens.ts';
import { fieldError, notFound } from '../../platform/http/errors.ts';
import { findPasswordHash, findProfile, findRoleIds, updatePasswordHash, updateProfileFields, type ProfileFields } from './repo.ts';

export async function getUserInfo(db: Kysely<Database>, session: Session): Promise<UserInfo> {
  const user = await findProfile(db, session.userId);
  if (!user) throw notFound(zhCN.userNotFound);
  const roleIds = await findRoleIds(db, session.userId);
  return { ...user, roleIds, permissions: [...session.permissions].sort() };
}

/** Personal settings, tab 0: the caller edits their own avatar, names, phone and email. */
export async function updateProfile(db: Kysely<Database>, session: Session, fields: ProfileFields): Promise<UserInfo> {
  if (!(await updateProfileFields(db, session.userId, fields))) throw notFound(zhCN.userNotFound);
  return getUserInfo(db, session);
}

/**
 * Personal settings, tab 1. The schema already refused a mismatched confirmation and a
 * new password equal to the old one; here the old one must match the stored hash.
 * Every other session of the user ends; the one that changed the password stays, and a
 * pending 修改初始密码 (must_change_password) is over.
 */
export async function changePassword(db: Kysely<Database>, session: Session, oldPassword: string, newPassword: string): Promise<void> {
  const stored = await findPasswordHash(db, session.userId);
  if (stored === undefined) throw notFound(zhCN.userNotFound);
  if (!(await verifyPassword(stored, oldPassword))) throw fieldError('oldPassword', zhCN.oldPasswordWrong);
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, session.userId, passwordHash);
    await revokeUserTokens(trx, session.userId, session.token);
  });
}
