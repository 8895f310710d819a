import { pptMessages, type BoardAuth, type groupPptAuthSaveSchema, type pptAuthSaveSchema } from '@shutu/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { fieldError, notFound } from '../../platform/http/errors.ts';
import {
  checkGrantableGroups,
  invalidatePermissions,
  listGrants,
  listGroupsOf,
  replaceGrants,
  setGroupsOf,
  PUBLIC_STATUS,
  type Caller,
} from '../perm/index.ts';
import { findPpt, findSlideshowIds, setPptPublicStatus } from './repo.ts';

export type PptAuthSaveBody = z.output<typeof pptAuthSaveSchema>;
export type GroupPptAuthSaveBody = z.output<typeof groupPptAuthSaveSchema>;

/**
 * Slideshow authorisation, administrators only (the routes say so), as boards': one
 * slideshow's public status and groups, and the 幻灯片 tab of a group (grant kind 'ppt').
 * Favourites and archives are their owner's alone and are never granted.
 */

async function requireSlideshow(ctx: AppContext, id: number) {
  const row = await findPpt(ctx.db, id);
  if (!row || row.visualType !== 0) throw notFound(pptMessages.notFound);
  return row;
}

export async function getPptAuth(ctx: AppContext, id: number): Promise<BoardAuth> {
  const row = await requireSlideshow(ctx, id);
  return { publicStatus: row.publicStatus, permIds: await listGroupsOf(ctx, 'ppt', id) };
}

/** Public (1) drops every group grant; restricted (0) makes the groups exactly dataPermIdList. */
export async function savePptAuth(ctx: AppContext, caller: Caller, id: number, body: PptAuthSaveBody): Promise<BoardAuth> {
  await requireSlideshow(ctx, id);
  const groups = body.publicStatus === PUBLIC_STATUS.public ? [] : await checkGrantableGroups(ctx, caller, body.dataPermIdList);
  // The public status and the groups change together or not at all.
  await ctx.db.transaction().execute(async (trx) => {
    await setPptPublicStatus(trx, id, body.publicStatus);
    await setGroupsOf(ctx, 'ppt', id, groups, trx);
  });
  invalidatePermissions(ctx);
  return getPptAuth(ctx, id);
}

/** The slideshows granted to a group. */
export function groupPptAuthList(ctx: AppContext, permId: number): Promise<number[]> {
  return listGrants(ctx, permId, 'ppt');
}

/** The group's slideshow grants become pptIdList (each must be a slideshow: 400 otherwise). */
export async function groupPptAuthSave(ctx: AppContext, permId: number, body: GroupPptAuthSaveBody): Promise<number[]> {
  const ids = [...new Set(body.pptIdList)];
  const known = new Set(await findSlideshowIds(ctx.db, ids));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw fieldError('pptIdList', `${pptMessages.notFound}：${missing}`);
  await replaceGrants(ctx, permId, 'ppt', ids);
  return groupPptAuthList(ctx, permId);
}
