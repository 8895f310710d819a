import type { Kysely } from 'kysely';
import { PERMISSION_CODES, zhCN, type Role, type RoleNode } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { conflict, fieldError, notFound } from '../../platform/http/errors.ts';
import { buildTree, createsCycle } from './tree.ts';
import {
  countRoleChildren,
  deleteRole as deleteRoleRow,
  findRole,
  findRoleForShare,
  findRoleForUpdate,
  findRolePermissions,
  insertRole,
  listRoles,
  lockRoleLinks,
  replaceRolePermissions,
  updateRole as updateRoleRow,
} from './tree-repo.ts';
import type { AppContext } from '../../context.ts';
import { invalidatePermissions } from '../perm/index.ts';
import { forgetSessions } from '../../platform/auth/session.ts';

type Db = Kysely<Database>;

export interface RoleFields {
  parentId: number;
  roleName: string;
  sort: number;
  permissions: string[];
}

export async function roleTree(db: Db): Promise<RoleNode[]> {
  const [roles, permissions] = await Promise.all([listRoles(db), findRolePermissions(db)]);
  return buildTree(roles.map((r) => ({ ...r, permissions: permissions.get(r.id) ?? [] })));
}

async function getRole(db: Db, id: number): Promise<Role> {
  const row = await findRole(db, id);
  if (!row) throw notFound(zhCN.roleNotFound);
  const permissions = await findRolePermissions(db, [id]);
  return { ...row, permissions: permissions.get(id) ?? [] };
}

/** Only codes of the catalogue may be granted; duplicates collapse. */
function checkedPermissions(codes: string[]): string[] {
  if (codes.some((code) => !PERMISSION_CODES.includes(code))) throw fieldError('permissions', zhCN.permissionUnknown);
  return [...new Set(codes)].sort();
}

export async function createRole(db: Db, { permissions, ...fields }: RoleFields): Promise<Role> {
  const codes = checkedPermissions(permissions);
  const id = await db.transaction().execute(async (trx) => {
    if (fields.parentId !== 0 && !(await findRoleForShare(trx, fields.parentId))) throw fieldError('parentId', zhCN.roleNotFound);
    const roleId = await insertRole(trx, fields);
    await replaceRolePermissions(trx, roleId, codes);
    return roleId;
  });
  return getRole(db, id);
}

/** Replaces the role's fields and its whole permission list; takes effect on the next request of its users. */
export async function updateRole(db: Db, id: number, { permissions, ...fields }: RoleFields): Promise<Role> {
  const codes = checkedPermissions(permissions);
  await db.transaction().execute(async (trx) => {
    const links = await lockRoleLinks(trx);
    if (!links.some((r) => r.id === id)) throw notFound(zhCN.roleNotFound);
    if (fields.parentId !== 0) {
      if (createsCycle(links, id, fields.parentId)) throw fieldError('parentId', zhCN.parentInvalid);
      if (!links.some((r) => r.id === fields.parentId)) throw fieldError('parentId', zhCN.roleNotFound);
    }
    await updateRoleRow(trx, id, fields);
    await replaceRolePermissions(trx, id, codes);
  });
  // Sessions carry their role's permissions: every process reads them again (platform/auth/session.ts).
  forgetSessions();
  return getRole(db, id);
}

/** A role without sub-roles may go; its users simply lose it. */
export async function deleteRole(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await findRoleForUpdate(trx, id))) throw notFound(zhCN.roleNotFound);
    if ((await countRoleChildren(trx, id)) > 0) throw conflict(zhCN.roleHasChildren);
    await deleteRoleRow(trx, id);
  });
  // Membership follows departments and roles: the permission service's cached answers go.
  invalidatePermissions(ctx);
}
