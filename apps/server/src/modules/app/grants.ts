import type { z } from 'zod';
import { appMessages, formatMessage, type AppGrantable, type groupAppAuthSaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../platform/http/errors.ts';
import { listGrants, replaceGrants } from '../perm/index.ts';
import { isPublished } from './model.ts';
import { findApps, findAppsByIds } from './repo.ts';

export type GroupAppAuthSaveBody = z.output<typeof groupAppAuthSaveSchema>;

/**
 * The 应用 tab of a permission group (spec 2 §3, §6, §7 authListByGroup / authSaveByGroup /
 * appList), administrators only (the routes say so). Only published apps are offered and
 * accepted (docs/apps.md "Publish status"); a grant outlives unpublishing but opens nothing
 * until the app is published again.
 */

/** appList: the published apps a group can be granted. */
export async function grantableApps(ctx: AppContext): Promise<AppGrantable[]> {
  const rows = await findApps(ctx.db, { published: true });
  return rows.map((r) => ({ appId: r.id, appName: r.appName, appIcon: r.appIcon }));
}

/** authListByGroup: the app ids granted to the group (404 权限组不存在). */
export function groupAppAuthList(ctx: AppContext, permId: number): Promise<number[]> {
  return listGrants(ctx, permId, 'app');
}

/** authSaveByGroup: the group's app grants become appIdList; each must be a published app. */
export async function groupAppAuthSave(ctx: AppContext, permId: number, body: GroupAppAuthSaveBody): Promise<number[]> {
  const ids = [...new Set(body.appIdList)];
  const rows = new Map((await findAppsByIds(ctx.db, ids)).map((r) => [r.id, r]));
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) throw fieldError('appIdList', `${appMessages.notFound}：${id}`);
    if (!isPublished(row)) throw fieldError('appIdList', formatMessage(appMessages.grantUnpublished, { name: row.appName }));
  }
  await replaceGrants(ctx, permId, 'app', ids);
  return groupAppAuthList(ctx, permId);
}
