import type { z } from 'zod';
import {
  formatMessage,
  permMessages,
  type MyPermGroup,
  type Page,
  type PermGroup,
  type PermJson,
  type PermMember,
  type PermType,
  type permGroupPageQuerySchema,
  type permGroupSaveSchema,
  type permTypeSaveSchema,
} from '@shutu/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../platform/db/schema.ts';
import { page } from '../../platform/http/envelope.ts';
import { conflict, fieldError, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import { parsePermJson } from './access-repo.ts';
import { groupIdsOf, invalidatePermissions } from './permissions.ts';
import {
  countGroupsOfType,
  deleteGroup as deleteGroupRow,
  deleteType as deleteTypeRow,
  deptNames,
  findGroup,
  findType,
  findTypeForShare,
  findTypeForUpdate,
  insertGroup,
  insertType,
  listGroupsByIds,
  listTypes as listTypeRows,
  pageGroups,
  roleNames,
  updateGroup,
  updateType,
  userNames,
  type GroupRow,
} from './repo.ts';

export type PermTypeSaveBody = z.output<typeof permTypeSaveSchema>;
export type PermGroupSaveBody = z.output<typeof permGroupSaveSchema>;
export type PermGroupPageBody = z.output<typeof permGroupPageQuerySchema>;

/**
 * Permission groups and their categories (spec 2 §3 "Permission group", §5 "Permission
 * groups", §7 "Permission groups and other grants"). Every change throws the permission
 * service's cached answers away.
 */

/** Names are unique, case-insensitively: the unique indexes decide, so a race ends in the same 409. */
async function withNameConflict<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// Types

export function listTypes(ctx: AppContext): Promise<PermType[]> {
  return listTypeRows(ctx.db);
}

/** Creates a type, or updates the one with `id` (a missing sortNum keeps the old order). */
export async function saveType(ctx: AppContext, body: PermTypeSaveBody): Promise<PermType> {
  const id = await withNameConflict(permMessages.typeNameTaken, async () => {
    if (!body.id) return insertType(ctx.db, { typeName: body.typeName, sortNum: body.sortNum ?? 0 });
    const values = body.sortNum === null || body.sortNum === undefined ? { typeName: body.typeName } : { typeName: body.typeName, sortNum: body.sortNum };
    if ((await updateType(ctx.db, body.id, values)) === 0) throw notFound(permMessages.typeNotFound);
    return body.id;
  });
  invalidatePermissions(ctx);
  const saved = await findType(ctx.db, id);
  if (!saved) throw notFound(permMessages.typeNotFound);
  return saved;
}

/**
 * Deletes a type no group uses. The type is locked `for update` while its groups are
 * counted, so no group can be saved into it between the count and the delete.
 */
export async function deleteType(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await findTypeForUpdate(trx, id))) throw notFound(permMessages.typeNotFound);
    const count = await countGroupsOfType(trx, id);
    if (count > 0) throw conflict(formatMessage(permMessages.typeInUse, { count }));
    await deleteTypeRow(trx, id);
  });
  invalidatePermissions(ctx);
}

// ---------------------------------------------------------------------------------------
// Groups

function toGroup(row: GroupRow): PermGroup {
  return {
    id: row.id,
    permName: row.permName,
    typeId: row.typeId,
    typeName: row.typeName,
    permJson: parsePermJson(row.permJson),
    createTime: new Date(row.createTime).toISOString(),
    updateTime: new Date(row.updateTime).toISOString(),
  };
}

export async function groupPage(ctx: AppContext, query: PermGroupPageBody): Promise<Page<PermGroup>> {
  const { current, size } = query;
  const { rows, total } = await pageGroups(ctx.db, { permName: query.permName, typeId: query.typeId }, (current - 1) * size, size);
  return page(rows.map(toGroup), total, current, size);
}

export async function getGroup(ctx: AppContext, id: number): Promise<PermGroup> {
  const row = await findGroup(ctx.db, id);
  if (!row) throw notFound(permMessages.groupNotFound);
  return toGroup(row);
}

type Db = Kysely<Database>;

/** The lists of permJson, what the error message calls their members, and where their current names are. */
const MEMBER_LISTS: readonly [keyof PermJson, string, (db: Db, ids: readonly number[]) => Promise<Map<number, string>>][] = [
  ['dpList', '部门', deptNames],
  ['roleList', '角色', roleNames],
  ['userList', '用户', userNames],
  ['blackUserList', '黑名单用户', userNames],
];

/**
 * The member lists as stored: each id once, every one existing (else 400 naming the first
 * missing member as the form showed it), and every name the current one — a department's
 * or role's name, a user's real name or else their name — whatever the form sent.
 */
async function refreshMembers(db: Db, permJson: PermJson): Promise<PermJson> {
  const refreshed = { dpList: [], roleList: [], userList: [], blackUserList: [] } as PermJson;
  for (const [list, what, namesOf] of MEMBER_LISTS) {
    const unique = [...new Map(permJson[list].map((m) => [m.id, m] as const)).values()];
    const names = await namesOf(
      db,
      unique.map((m) => m.id),
    );
    const members: PermMember[] = [];
    for (const member of unique) {
      const name = names.get(member.id);
      if (name === undefined) throw fieldError(`permJson.${list}`, formatMessage(permMessages.memberMissing, { what, name: member.name || String(member.id) }));
      members.push({ id: member.id, name });
    }
    refreshed[list] = members;
  }
  return refreshed;
}

/** Creates a group, or updates the one with `id`. Its type must exist and stays locked until the save commits. */
export async function saveGroup(ctx: AppContext, body: PermGroupSaveBody): Promise<PermGroup> {
  const permJson = await refreshMembers(ctx.db, body.permJson);
  const values = { permName: body.permName, typeId: body.typeId, permJson: JSON.stringify(permJson) };
  const id = await withNameConflict(permMessages.groupNameTaken, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (!(await findTypeForShare(trx, body.typeId))) throw fieldError('typeId', permMessages.typeNotFound);
      if (!body.id) return insertGroup(trx, values);
      if ((await updateGroup(trx, body.id, values)) === 0) throw notFound(permMessages.groupNotFound);
      return body.id;
    }),
  );
  invalidatePermissions(ctx);
  return getGroup(ctx, id);
}

/** Deletes a group with all its grants. */
export async function deleteGroup(ctx: AppContext, id: number): Promise<void> {
  if ((await deleteGroupRow(ctx.db, id)) === 0) throw notFound(permMessages.groupNotFound);
  invalidatePermissions(ctx);
}

/** The groups a user belongs to (my auth groups), by their type's order, then by name. */
export async function myGroups(ctx: AppContext, userId: number): Promise<MyPermGroup[]> {
  return listGroupsByIds(ctx.db, await groupIdsOf(ctx, userId));
}
