import type { AppContext } from '../../context.ts';
import { groupIdsOf, type Caller, type Granted } from './permissions.ts';

/**
 * The write permission of a data-source grant (issue 28): a group may be allowed to upload file
 * tables into a source it is granted tables of. Read per request (no snapshot): uploads are rare
 * and a revoked right must apply at once.
 */

/** The sources the caller may upload into: all for administrators, else those a group of theirs may write. */
export async function writableSources(ctx: AppContext, caller: Caller): Promise<Granted> {
  if (caller.isAdministrator) return { all: true };
  const groups = await groupIdsOf(ctx, caller.userId);
  if (groups.length === 0) return { all: false, ids: new Set() };
  const rows = await ctx.db.selectFrom('permGrantWrite').select('datasourceId').distinct().where('permId', 'in', groups).execute();
  return { all: false, ids: new Set(rows.map((r) => r.datasourceId)) };
}

/** The sources a group may write. */
export async function listWritableSources(ctx: AppContext, permId: number): Promise<Set<number>> {
  const rows = await ctx.db.selectFrom('permGrantWrite').select('datasourceId').where('permId', '=', permId).execute();
  return new Set(rows.map((r) => r.datasourceId));
}

/** Sets or clears a group's write permission on a source. */
export async function setSourceWritable(ctx: AppContext, permId: number, datasourceId: number, writable: boolean): Promise<void> {
  if (!writable) {
    await ctx.db.deleteFrom('permGrantWrite').where('permId', '=', permId).where('datasourceId', '=', datasourceId).execute();
    return;
  }
  await ctx.db
    .insertInto('permGrantWrite')
    .values({ permId, datasourceId })
    .onConflict((oc) => oc.columns(['permId', 'datasourceId']).doNothing())
    .execute();
}
