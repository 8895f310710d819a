import { randomBytes } from 'node:crypto';
import { SHARE_CODE_LENGTH, shareMessages, shareRoutes, type Page, type ShareAuthSave, type ShareLink, type ShareLinkType } from '@shutu/contracts';
import type { z } from 'zod';
import type { shareLinkCreateSchema, shareLinkUpdateSchema, shareListQuerySchema } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { hashSecret } from '../../platform/auth/password.ts';
import { revokeShareTokens } from '../../platform/auth/tokens.ts';
import { fieldError, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import { page } from '../../platform/http/envelope.ts';
import { listGrants, removeGrantsOf, replaceGrants, type Caller } from '../perm/index.ts';
import { viewableContent } from './content.ts';
import { deleteLink, findAccountMatchingIds, findLink, findLinkPage, insertLink, updateLink, type ShareLinkRow } from './repo.ts';

/**
 * Share links (docs/shares.md): create, list, change, delete, and the share-authorisation
 * panel (which groups may use an account-matching link). Opening a link is open.ts.
 */

type CreateBody = z.output<typeof shareLinkCreateSchema>;
type UpdateBody = z.output<typeof shareLinkUpdateSchema>;
type ListQuery = z.output<typeof shareListQuerySchema>;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function toShareLink(row: ShareLinkRow, origin: string, now = Date.now()): ShareLink {
  return {
    id: row.id,
    code: row.code,
    dataType: row.dataType,
    dataId: row.dataId,
    visualDataTitle: row.visualDataTitle,
    purpose: row.purpose,
    shortLink: `${origin}${shareRoutes.open(row.code)}`,
    linkType: (row.linkType === 1 ? 1 : 0) as ShareLinkType,
    hasPassword: row.passwordHash !== null,
    expireTime: iso(row.expireTime),
    expired: row.expireTime !== null && new Date(row.expireTime).getTime() <= now,
    enabled: row.enabled,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    createTime: iso(row.createTime)!,
  };
}

/** URL-safe random characters (base64url: 6 bits each, 60 bits for 10). */
const newCode = () =>
  randomBytes(Math.ceil((SHARE_CODE_LENGTH * 3) / 4))
    .toString('base64url')
    .slice(0, SHARE_CODE_LENGTH);

function futureOrNull(expireTime: string | null | undefined): Date | null {
  if (!expireTime) return null;
  const at = new Date(expireTime);
  if (at.getTime() <= Date.now()) throw fieldError('expireTime', shareMessages.expireInPast);
  return at;
}

/** Create a link to content the caller may see (403 没有此大屏权限 otherwise). */
export async function createLink(ctx: AppContext, caller: Caller, body: CreateBody, origin: string): Promise<ShareLink> {
  const expireTime = futureOrNull(body.expireTime);
  const content = await viewableContent(ctx, caller, body.dataType, body.dataId);
  const passwordHash = body.password ? await hashSecret(body.password) : null;
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await insertLink(ctx.db, {
        code: newCode(),
        dataType: body.dataType,
        dataId: body.dataId,
        visualDataTitle: content.title,
        purpose: body.purpose,
        linkType: body.linkType,
        passwordHash,
        expireTime,
        createUserId: caller.userId,
      });
      return toShareLink((await findLink(ctx.db, id))!, origin);
    } catch (error) {
      // 60 random bits collide about never; when they do, draw again.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** Share list: the caller's links (administrators: everyone's), newest first. */
export async function listLinks(ctx: AppContext, caller: Caller, query: ListQuery, origin: string): Promise<Page<ShareLink>> {
  const { current, size } = query;
  const { rows, total } = await findLinkPage(
    ctx.db,
    { ownerId: caller.isAdministrator ? undefined : caller.userId, title: query.title, linkType: query.linkType },
    (current - 1) * size,
    size,
  );
  const now = Date.now();
  return page(
    rows.map((r) => toShareLink(r, origin, now)),
    total,
    current,
    size,
  );
}

/** The link, if the caller may change it (its creator, administrators). */
async function requireOwnLink(ctx: AppContext, caller: Caller, id: number): Promise<ShareLinkRow> {
  const link = await findLink(ctx.db, id);
  if (!link) throw notFound(shareMessages.linkNotFound);
  if (!caller.isAdministrator && link.createUserId !== caller.userId) throw forbidden(shareMessages.notOwned);
  return link;
}

/**
 * Change purpose, enabled, password (null removes it), expiry (null: permanent). Disabling,
 * a new password or a new expiry revokes the tokens the link handed out: visitors open it again.
 */
export async function changeLink(ctx: AppContext, caller: Caller, id: number, body: UpdateBody, origin: string): Promise<ShareLink> {
  await requireOwnLink(ctx, caller, id);
  const values: Parameters<typeof updateLink>[2] = {};
  if (body.purpose !== undefined) values.purpose = body.purpose;
  if (body.enabled !== undefined) values.enabled = body.enabled;
  if (body.password !== undefined) values.passwordHash = body.password ? await hashSecret(body.password) : null;
  if (body.expireTime !== undefined) values.expireTime = futureOrNull(body.expireTime);
  await updateLink(ctx.db, id, values);
  if (body.enabled === false || body.password || body.expireTime !== undefined) await revokeShareTokens(ctx.db, id);
  return toShareLink((await findLink(ctx.db, id))!, origin);
}

export async function removeLink(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireOwnLink(ctx, caller, id);
  await deleteLink(ctx.db, id);
  await revokeShareTokens(ctx.db, id);
  await removeGrantsOf(ctx, 'link', id);
}

/** Get auth share: the account-matching links granted to the group. */
export function shareAuthList(ctx: AppContext, dataPermId: number): Promise<number[]> {
  return listGrants(ctx, dataPermId, 'link');
}

/** Save auth share: the group's links become linkIdList; each must be an account-matching link (400 otherwise). */
export async function shareAuthSave(ctx: AppContext, body: ShareAuthSave): Promise<number[]> {
  const ids = [...new Set(body.linkIdList)];
  const known = new Set(await findAccountMatchingIds(ctx.db, ids));
  if (ids.some((id) => !known.has(id))) throw fieldError('linkIdList', shareMessages.linkIdsUnknown);
  await replaceGrants(ctx, body.dataPermId, 'link', ids);
  return shareAuthList(ctx, body.dataPermId);
}
