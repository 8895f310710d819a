import type { Kysely } from 'kysely';
import { zhCN, type Department, type DepartmentNode } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import { conflict, fieldError, notFound } from '../../platform/http/errors.ts';
import { buildTree, createsCycle } from './tree.ts';
import {
  countDepartmentChildren,
  countDepartmentUsers,
  deleteDepartment as deleteDepartmentRow,
  findDepartment,
  findDepartmentForShare,
  findDepartmentForUpdate,
  insertDepartment,
  listDepartments,
  lockDepartmentLinks,
  updateDepartment as updateDepartmentRow,
} from './tree-repo.ts';
import type { AppContext } from '../../context.ts';
import { invalidatePermissions } from '../perm/index.ts';

type Db = Kysely<Database>;

export interface DepartmentFields {
  parentId: number;
  deptName: string;
  sort: number;
}

/** PostgreSQL's foreign_key_violation. */
const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23503';

export async function departmentTree(db: Db): Promise<DepartmentNode[]> {
  return buildTree(await listDepartments(db));
}

async function getDepartment(db: Db, id: number): Promise<Department> {
  const row = await findDepartment(db, id);
  if (!row) throw notFound(zhCN.deptNotFound);
  return row;
}

export async function createDepartment(ctx: AppContext, fields: DepartmentFields): Promise<Department> {
  const db = ctx.db;
  const id = await db.transaction().execute(async (trx) => {
    if (fields.parentId !== 0 && !(await findDepartmentForShare(trx, fields.parentId))) throw fieldError('parentId', zhCN.deptNotFound);
    return insertDepartment(trx, fields);
  });
  // Membership follows departments and roles: the permission service's cached answers go.
  invalidatePermissions(ctx);
  return getDepartment(db, id);
}

/** Renames, re-sorts or moves a department; it cannot move under itself or its own descendants. */
export async function updateDepartment(ctx: AppContext, id: number, fields: DepartmentFields): Promise<Department> {
  const db = ctx.db;
  await db.transaction().execute(async (trx) => {
    const links = await lockDepartmentLinks(trx);
    if (!links.some((d) => d.id === id)) throw notFound(zhCN.deptNotFound);
    if (fields.parentId !== 0) {
      if (createsCycle(links, id, fields.parentId)) throw fieldError('parentId', zhCN.parentInvalid);
      if (!links.some((d) => d.id === fields.parentId)) throw fieldError('parentId', zhCN.deptNotFound);
    }
    await updateDepartmentRow(trx, id, fields);
  });
  // Membership follows departments and roles: the permission service's cached answers go.
  invalidatePermissions(ctx);
  return getDepartment(db, id);
}

/** Only an empty department goes: no sub-departments, no users. */
export async function deleteDepartment(ctx: AppContext, id: number): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await findDepartmentForUpdate(trx, id))) throw notFound(zhCN.deptNotFound);
      if ((await countDepartmentChildren(trx, id)) > 0) throw conflict(zhCN.deptHasChildren);
      if ((await countDepartmentUsers(trx, id)) > 0) throw conflict(zhCN.deptHasUsers);
      await deleteDepartmentRow(trx, id);
    });
  } catch (error) {
    // A user was put into the department between the check and the delete.
    if (isForeignKeyViolation(error)) throw conflict(zhCN.deptHasUsers);
    throw error;
  }
  // Membership follows departments and roles: the permission service's cached answers go.
  invalidatePermissions(ctx);
}
