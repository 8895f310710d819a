import type { Kysely } from 'kysely';
import { zhCN, type Page, type User } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import type { Session } from '../../platform/auth/session.ts';
import { hashPassword } from '../../platform/auth/password.ts';
import { revokeUserTokens } from '../../platform/auth/tokens.ts';
import { page } from '../../platform/http/envelope.ts';
import { badRequest, conflict, fieldError, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import {
  existingDeptIds,
  existingRoleIds,
  findRoleIdsOf,
  findUser,
  findUserForUpdate,
  findUserIdByAccount,
  insertUser,
  listUsers as listUserRows,
  replaceUserRoles,
  updateUser as updateUserRow,
  type UserFilter,
  type UserRow,
  type UserValues,
} from './users-repo.ts';
import type { AppContext } from '../../context.ts';
import { invalidatePermissions } from '../perm/index.ts';

type Db = Kysely<Database>;

export interface UserFields extends UserValues {
  roleIds: number[];
}

function toUser(row: UserRow, roleIds: number[]): User {
  return { ...row, roleIds, createTime: new Date(row.createTime).toISOString() };
}

export async function listUsers(db: Db, query: UserFilter & { current: number; size: number }): Promise<Page<User>> {
  const { current, size } = query;
  const { rows, total } = await listUserRows(db, query, (current - 1) * size, size);
  const roles = await findRoleIdsOf(
    db,
    rows.map((r) => r.id),
  );
  return page(
    rows.map((r) => toUser(r, roles.get(r.id) ?? [])),
    total,
    current,
    size,
  );
}

export async function getUser(db: Db, id: number): Promise<User> {
  const row = await findUser(db, id);
  if (!row) throw notFound(zhCN.userNotFound);
  const roles = await findRoleIdsOf(db, [id]);
  return toUser(row, roles.get(id) ?? []);
}

/** The department and roles must exist; checked inside the writing transaction. */
async function checkReferences(db: Db, fields: UserFields): Promise<void> {
  if (fields.deptId !== null && !(await existingDeptIds(db, [fields.deptId])).has(fields.deptId)) {
    throw fieldError('deptId', zhCN.deptNotFound);
  }
  const found = await existingRoleIds(db, fields.roleIds);
  if (fields.roleIds.some((id) => !found.has(id))) throw fieldError('roleIds', zhCN.roleNotFound);
}

const unique = (ids: number[]) => [...new Set(ids)];

function splitFields({ roleIds, ...values }: UserFields): { values: UserValues; roleIds: number[] } {
  return { values, roleIds: unique(roleIds) };
}

export async function createUser(ctx: AppContext, input: UserFields & { account: string; password: string }): Promise<User> {
  const db = ctx.db;
  const { account, password, ...fields } = input;
  if ((await findUserIdByAccount(db, account)) !== undefined) throw conflict(zhCN.accountExists);
  const passwordHash = await hashPassword(password);
  const { values, roleIds } = splitFields(fields);
  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      await checkReferences(trx, { ...values, roleIds });
      const userId = await insertUser(trx, { ...values, account, passwordHash });
      await replaceUserRoles(trx, userId, roleIds);
      return userId;
    });
  } catch (error) {
    // Two creates of one account raced past the check above; the unique index stopped one.
    if (isUniqueViolation(error)) throw conflict(zhCN.accountExists);
    throw error;
  }
  // Membership follows a user's department and roles: the permission service's cached answers go.
  invalidatePermissions(ctx);
  return getUser(db, id);
}

/** Replaces a user's editable fields and roles. An administrator cannot demote themselves. */
export async function updateUser(ctx: AppContext, session: Session, id: number, fields: UserFields): Promise<User> {
  const db = ctx.db;
  const { values, roleIds } = splitFields(fields);
  await db.transaction().execute(async (trx) => {
    const current = await findUserForUpdate(trx, id);
    if (!current) throw notFound(zhCN.userNotFound);
    if (id === session.userId && current.isAdministrator && !values.isAdministrator) throw badRequest(zhCN.cannotDemoteSelf);
    await checkReferences(trx, { ...values, roleIds });
    await updateUserRow(trx, id, values);
    await replaceUserRoles(trx, id, roleIds);
  });
  // Membership follows a user's department and roles, and an owner's rights their administrator flag.
  invalidatePermissions(ctx);
  return getUser(db, id);
}

/** Enables or disables an account; disabling ends every session of it at once. */
export async function setUserStatus(db: Db, session: Session, id: number, status: 0 | 1): Promise<User> {
  if (id === session.userId && status === 0) throw badRequest(zhCN.cannotDisableSelf);
  await db.transaction().execute(async (trx) => {
    if (!(await findUserForUpdate(trx, id))) throw notFound(zhCN.userNotFound);
    await updateUserRow(trx, id, { status });
    if (status === 0) await revokeUserTokens(trx, id);
  });
  return getUser(db, id);
}

/**
 * An administrator sets a new password for a user, whose sessions all end. Resetting
 * one's own password this way keeps the session that did it.
 */
export async function resetPassword(db: Db, session: Session, id: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    if (!(await findUserForUpdate(trx, id))) throw notFound(zhCN.userNotFound);
    await updateUserRow(trx, id, { passwordHash });
    await revokeUserTokens(trx, id, id === session.userId ? session.token : undefined);
  });
}
