import { permMessages, type GrantKind } from '@shutu/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../platform/db/schema.ts';
import { fieldError, forbidden, notFound } from '../../platform/http/errors.ts';
import { groupIdsOf, invalidatePermissions, type Caller } from './permissions.ts';
import {
  findGroup,
  listGrantIds,
  listGroupIdsOf,
  listGroupsByIds,
  removeGrantsOf as removeGrantRows,
  replaceGrants as replaceGrantRows,
  setGroupsOf as setGroupRows,
} from './repo.ts';

/**
 * What a permission group is granted (spec 2 §7 "Permission groups and other grants"): the
 * generic grants other modules (datasets, slides, screens, reports, apps, links) store through
 * the wrappers below; tables of data sources are datasource/table-grants.ts. Every change
 * throws the permission service's cached answers away.
 */

/** A kind of resource granted through the generic grant table (data sources have their own). */
export type ResourceKind = Exclude<GrantKind, 'datasource'>;

export async function requireGroup(ctx: AppContext, permId: number): Promise<void> {
  if (!(await findGroup(ctx.db, permId))) throw notFound(permMessages.groupNotFound);
}

/** Resource ids of a kind granted to the group (404 when there is no such group). */
export async function listGrants(ctx: AppContext, permId: number, kind: ResourceKind): Promise<number[]> {
  await requireGroup(ctx, permId);
  return listGrantIds(ctx.db, permId, kind);
}

/**
 * The group's grants of a kind become `ids`; with `within`, only those among `within` are
 * replaced (saving a report grant replaces the selection for the chosen category).
 */
export async function replaceGrants(ctx: AppContext, permId: number, kind: ResourceKind, ids: readonly number[], within?: readonly number[]): Promise<void> {
  const found = await replaceGrantRows(ctx.db, permId, kind, ids, within);
  invalidatePermissions(ctx);
  if (!found) throw notFound(permMessages.groupNotFound);
}

/** The groups a resource is granted to. */
export function listGroupsOf(ctx: AppContext, kind: ResourceKind, resourceId: number): Promise<number[]> {
  return listGroupIdsOf(ctx.db, kind, resourceId);
}

/**
 * The groups a resource is granted to become exactly `permIds` (check them with
 * checkGrantableGroups first). Given the transaction that saves the resource, the grants are
 * written in it — a resource is never saved with the wrong grants — and the caller throws the
 * permission service's cached answers away once it commits (invalidatePermissions).
 */
export async function setGroupsOf(
  ctx: AppContext,
  kind: ResourceKind,
  resourceId: number,
  permIds: readonly number[],
  trx?: Transaction<Database>,
): Promise<void> {
  await setGroupRows(trx ?? ctx.db, kind, resourceId, permIds);
  if (!trx) invalidatePermissions(ctx);
}

/**
 * The groups `caller` may grant a resource to (dataPermIdList of a first save, a board's
 * authorisation): existing ones (field error 权限组不存在); a non-administrator only their own
 * (403 只能选择自己所在的权限组).
 */
export async function checkGrantableGroups(ctx: AppContext, caller: Caller, requested: readonly number[]): Promise<number[]> {
  const ids = [...new Set(requested)];
  if (ids.length === 0) return [];
  const found = new Set((await listGroupsByIds(ctx.db, ids)).map((g) => g.id));
  if (ids.some((id) => !found.has(id))) throw fieldError('dataPermIdList', permMessages.groupNotFound);
  if (!caller.isAdministrator) {
    const mine = new Set(await groupIdsOf(ctx, caller.userId));
    if (ids.some((id) => !mine.has(id))) throw forbidden(permMessages.groupNotMine);
  }
  return ids;
}

/** Removes every grant of a resource; its module calls this when the resource is deleted. */
export async function removeGrantsOf(ctx: AppContext, kind: ResourceKind, resourceId: number): Promise<void> {
  await removeGrantRows(ctx.db, kind, resourceId);
  invalidatePermissions(ctx);
}
