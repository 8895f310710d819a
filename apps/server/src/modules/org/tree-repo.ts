import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

type Db = Kysely<Database>;

// ---- departments ----

export function listDepartments(db: Db) {
  return db.selectFrom('sysDept').select(['id', 'parentId', 'deptName', 'sort']).orderBy('sort').orderBy('id').execute();
}

/** Every department's place in the tree, locked for the transaction: moves serialise, so two cannot form a loop. */
export function lockDepartmentLinks(db: Db) {
  return db.selectFrom('sysDept').select(['id', 'parentId']).orderBy('id').forUpdate().execute();
}

export function findDepartment(db: Db, id: number) {
  return db.selectFrom('sysDept').select(['id', 'parentId', 'deptName', 'sort']).where('id', '=', id).executeTakeFirst();
}

/** The row, locked `for share` so it cannot be deleted while a child or member is added. */
export function findDepartmentForShare(db: Db, id: number) {
  return db.selectFrom('sysDept').select('id').where('id', '=', id).forShare().executeTakeFirst();
}

export function findDepartmentForUpdate(db: Db, id: number) {
  return db.selectFrom('sysDept').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertDepartment(db: Db, values: { parentId: number; deptName: string; sort: number }): Promise<number> {
  const row = await db.insertInto('sysDept').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDepartment(db: Db, id: number, values: { parentId: number; deptName: string; sort: number }): Promise<void> {
  await db.updateTable('sysDept').set(values).where('id', '=', id).execute();
}

export async function countDepartmentChildren(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('sysDept')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parentId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countDepartmentUsers(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('sysUser')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deptId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteDepartment(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sysDept').where('id', '=', id).execute();
}

// ---- roles ----

export function listRoles(db: Db) {
  return db.selectFrom('sysRole').select(['id', 'parentId', 'roleName', 'sort']).orderBy('sort').orderBy('id').execute();
}

export function lockRoleLinks(db: Db) {
  return db.selectFrom('sysRole').select(['id', 'parentId']).orderBy('id').forUpdate().execute();
}

export function findRole(db: Db, id: number) {
  return db.selectFrom('sysRole').select(['id', 'parentId', 'roleName', 'sort']).where('id', '=', id).executeTakeFirst();
}

export function findRoleForShare(db: Db, id: number) {
  return db.selectFrom('sysRole').select('id').where('id', '=', id).forShare().executeTakeFirst();
}

export function findRoleForUpdate(db: Db, id: number) {
  return db.selectFrom('sysRole').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Permission codes by role id, each list sorted. */
export async function findRolePermissions(db: Db, roleIds?: number[]): Promise<Map<number, string[]>> {
  const byRole = new Map<number, string[]>();
  if (roleIds?.length === 0) return byRole;
  let query = db.selectFrom('sysRolePermission').select(['roleId', 'code']).orderBy('roleId').orderBy('code');
  if (roleIds) query = query.where('roleId', 'in', roleIds);
  for (const row of await query.execute()) {
    const codes = byRole.get(row.roleId) ?? [];
    codes.push(row.code);
    byRole.set(row.roleId, codes);
  }
  return byRole;
}

export async function insertRole(db: Db, values: { parentId: number; roleName: string; sort: number }): Promise<number> {
  const row = await db.insertInto('sysRole').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(db: Db, id: number, values: { parentId: number; roleName: string; sort: number }): Promise<void> {
  await db.updateTable('sysRole').set(values).where('id', '=', id).execute();
}

export async function replaceRolePermissions(db: Db, roleId: number, codes: string[]): Promise<void> {
  await db.deleteFrom('sysRolePermission').where('roleId', '=', roleId).execute();
  if (codes.length)
    await db
      .insertInto('sysRolePermission')
      .values(codes.map((code) => ({ roleId, code })))
      .execute();
}

export async function countRoleChildren(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('sysRole')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('parentId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deleting a role also takes it away from its users and drops its permissions (cascades). */
export async function deleteRole(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sysRole').where('id', '=', id).execute();
}
