import type { Kysely } from 'kysely';
import { permJsonSchema, type PermJson, type TableRef } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';
import type { GroupMembers, UserFacts } from './membership.ts';

type Db = Kysely<Database>;

/** permJson as stored; a row written by an older version still parses (missing lists are empty). */
export function parsePermJson(text: string): PermJson {
  try {
    return permJsonSchema.parse(JSON.parse(text));
  } catch {
    return { dpList: [], roleList: [], userList: [], blackUserList: [] };
  }
}

/** Every group with its member lists: the permission service resolves membership in memory. */
export async function listGroupMembers(db: Db): Promise<GroupMembers[]> {
  const rows = await db.selectFrom('permGroup').select(['id', 'permJson']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, permJson: parsePermJson(r.permJson) }));
}

export async function listDeptParents(db: Db): Promise<Map<number, number>> {
  const rows = await db.selectFrom('sysDept').select(['id', 'parentId']).execute();
  return new Map(rows.map((r) => [r.id, r.parentId]));
}

/** Department and roles of a user; undefined when there is no such user. */
export async function findUserFacts(db: Db, userId: number): Promise<UserFacts | undefined> {
  const user = await db.selectFrom('sysUser').select(['id', 'deptId']).where('id', '=', userId).executeTakeFirst();
  if (!user) return undefined;
  const roles = await db.selectFrom('sysUserRole').select('roleId').where('userId', '=', userId).execute();
  return { userId, deptId: user.deptId, roleIds: roles.map((r) => r.roleId) };
}

/** Whether a user is an administrator; undefined when there is no such user. */
export async function findUserRole(db: Db, userId: number): Promise<{ userId: number; isAdministrator: boolean } | undefined> {
  const user = await db.selectFrom('sysUser').select(['id', 'isAdministrator']).where('id', '=', userId).executeTakeFirst();
  return user && { userId: user.id, isAdministrator: user.isAdministrator };
}

/** Tables granted to any of the groups, per data source. */
export async function listTableGrantsOfGroups(db: Db, permIds: readonly number[]): Promise<Map<number, TableRef[]>> {
  const bySource = new Map<number, TableRef[]>();
  if (permIds.length === 0) return bySource;
  const rows = await db.selectFrom('permGrantTable').select(['datasourceId', 'tableSchema', 'tableName']).distinct().where('permId', 'in', permIds).execute();
  for (const row of rows) {
    const list = bySource.get(row.datasourceId) ?? [];
    list.push({ schema: row.tableSchema, name: row.tableName });
    bySource.set(row.datasourceId, list);
  }
  return bySource;
}

/** Resource ids of one kind granted to any of the groups. */
export async function listGrantedIdsOfGroups(db: Db, permIds: readonly number[], kind: string): Promise<Set<number>> {
  if (permIds.length === 0) return new Set();
  const rows = await db.selectFrom('permGrant').select('resourceId').distinct().where('permId', 'in', permIds).where('kind', '=', kind).execute();
  return new Set(rows.map((r) => r.resourceId));
}
