import type { z } from 'zod';
import { DEFAULT_WATERMARK_TEXT, type App, type AppDetail, type appSaveSchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { removeGrantsOf, type Caller } from '../perm/index.ts';
import { appVisibilityOf, requireApp, requireEditableApp, requireOpenableApp } from './access.ts';
import { menuTree, toApp } from './model.ts';
import { deleteAppRow, findApp, findApps, findMenus, insertApp, updateApp, type AppRow } from './repo.ts';

export type AppSaveBody = z.output<typeof appSaveSchema>;

/** Apps (spec 1 §2.12, §3 "App", §5; docs/apps.md): list, detail, save, delete, the viewer's reads. */

/** The apps the caller may edit: administrators all, others their own. */
export async function listEditableApps(ctx: AppContext, caller: Caller): Promise<App[]> {
  const rows = await findApps(ctx.db, { ownerId: caller.isAdministrator ? undefined : caller.userId });
  return rows.map((r) => toApp(r, caller));
}

/** The apps the caller may open on a phone (/m). */
export async function listOpenableApps(ctx: AppContext, caller: Caller): Promise<App[]> {
  const visibleTo = await appVisibilityOf(ctx, caller);
  const rows = await findApps(ctx.db, { published: !caller.isAdministrator, visibleTo });
  return rows.map((r) => toApp(r, caller));
}

async function detailOf(ctx: AppContext, caller: Caller, row: AppRow): Promise<AppDetail> {
  return { ...toApp(row, caller), menus: menuTree(await findMenus(ctx.db, row.id)) };
}

/** The editor's detail (app detail + menu list). */
export async function getAppDetail(ctx: AppContext, caller: Caller, id: number): Promise<AppDetail> {
  return detailOf(ctx, caller, await requireEditableApp(ctx, caller, id));
}

/** The viewer's detail: 403 for an unpublished app (non-administrators) or one not granted. */
export async function getOpenableApp(ctx: AppContext, caller: Caller, id: number): Promise<AppDetail> {
  return detailOf(ctx, caller, await requireOpenableApp(ctx, caller, id));
}

/** Creates (no appId) or updates an app's fields; menus are saved on their own. */
export async function saveApp(ctx: AppContext, caller: Caller, body: AppSaveBody): Promise<AppDetail> {
  const values = {
    appName: body.appName,
    appIcon: body.appIcon || null,
    appDescription: body.appDescription || null,
    publishStatus: body.publishStatus,
    menuShowType: body.menuShowType,
    waterMarkStatus: body.waterMarkStatus,
    waterMarkText: body.waterMarkText || DEFAULT_WATERMARK_TEXT,
  };
  let id: number;
  if (body.appId) {
    await requireEditableApp(ctx, caller, body.appId);
    id = body.appId;
    await updateApp(ctx.db, id, values);
  } else {
    id = await insertApp(ctx.db, { ...values, createUserId: caller.userId });
  }
  const saved = await findApp(ctx.db, id);
  return detailOf(ctx, caller, saved ?? (await requireApp(ctx, id)));
}

/** Deletes an app with its menus and its grants. */
export async function deleteApp(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireEditableApp(ctx, caller, id);
  await deleteAppRow(ctx.db, id);
  await removeGrantsOf(ctx, 'app', id);
}
