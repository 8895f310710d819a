import { appMessages } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import { grantedIds, type Caller } from '../perm/index.ts';
import { isPublished, mayEditApp } from './model.ts';
import { findApp, type AppRow } from './repo.ts';

/**
 * Who may do what with an app (docs/apps.md "Who sees an app").
 *
 * - Edit (fields, menus, delete): administrators and the creator.
 * - Open in the viewer and list at /m: administrators any app; everyone else only published
 *   apps that they created or that are granted to one of their groups (perm_grant kind 'app').
 * - Grant: administrators, published apps only.
 * The boards behind the menus keep their own permission (没有此大屏权限), checked when opened.
 */

export async function mayOpenApp(ctx: AppContext, caller: Caller, row: Pick<AppRow, 'id' | 'publishStatus' | 'createUserId'>): Promise<boolean> {
  if (caller.isAdministrator) return true;
  if (!isPublished(row)) return false;
  if (row.createUserId !== null && row.createUserId === caller.userId) return true;
  const granted = await grantedIds(ctx, caller, 'app');
  return granted.all || granted.ids.has(row.id);
}

/** Ids granted to a non-administrator's groups; undefined for administrators (they see all). */
export async function appVisibilityOf(ctx: AppContext, caller: Caller): Promise<{ userId: number; grantedIds: number[] } | undefined> {
  const granted = await grantedIds(ctx, caller, 'app');
  if (granted.all) return undefined;
  return { userId: caller.userId, grantedIds: [...granted.ids] };
}

/** 404 应用不存在. */
export async function requireApp(ctx: AppContext, id: number): Promise<AppRow> {
  const row = await findApp(ctx.db, id);
  if (!row) throw notFound(appMessages.notFound);
  return row;
}

/** The app, if the caller may change it: 404, 403 只能修改或删除自己创建的应用. */
export async function requireEditableApp(ctx: AppContext, caller: Caller, id: number): Promise<AppRow> {
  const row = await requireApp(ctx, id);
  if (!mayEditApp(caller, row)) throw forbidden(appMessages.notOwned);
  return row;
}

/** The app, if the caller may open it: 404; 403 应用未发布 / 没有此应用权限. */
export async function requireOpenableApp(ctx: AppContext, caller: Caller, id: number): Promise<AppRow> {
  const row = await requireApp(ctx, id);
  if (await mayOpenApp(ctx, caller, row)) return row;
  throw forbidden(!isPublished(row) && !caller.isAdministrator ? appMessages.notPublished : appMessages.forbidden);
}
