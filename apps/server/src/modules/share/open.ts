import {
  SHARE_PASSWORD_ATTEMPTS_PER_MINUTE,
  SHARE_TOKEN_MINUTES,
  shareMessages,
  type ShareLinkType,
  type ShareOpenRefusal,
  type ShareOpenResult,
} from '@shutu/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { verifySecret } from '../../platform/auth/password.ts';
import type { Session } from '../../platform/auth/session.ts';
import { issueScopedToken } from '../../platform/auth/tokens.ts';
import { AppError } from '../../platform/http/errors.ts';
import { listGroupsOf, groupIdsOf, type Caller } from '../perm/index.ts';
import { statusOf, viewableContent, type SharedContent } from './content.ts';
import { findLinkByCode, type ShareLinkRow } from './repo.ts';

/**
 * Opening a share link (POST open/{code}, no login needed): checks the link, then hands out a
 * token SCOPED to the shared boards (docs/shares.md), of
 *
 * - the link's OWNER for a login-free link: the visitor sees exactly the rows the owner may
 *   see (the owner's permission filters apply; the owner must still be allowed to see the
 *   content, else the link is gone);
 * - the VISITOR for an account-matching link: they must be signed in, be a member of one of
 *   the groups the link is granted to when it is granted to any (第三方链接 tab), and be
 *   allowed to see the content themself (403 没有此大屏权限); their own filters apply.
 *
 * Either way the rows are someone's filtered rows, never unfiltered ones. Refusals carry
 * `data.reason` (ShareOpenRefusal) so the page can show a form or a panel.
 */

const refuse = (status: number, message: string, reason: ShareOpenRefusal) => new AppError(status, message, { reason });

/**
 * Wrong passwords per link code in the last minute, in the store (share_open_failure, 0037): every
 * server process sharing it counts them together, so N processes do not allow N times the limit.
 */
const WINDOW_MS = 60_000;
/** Failures before this instant are not counted (tests start from a clean slate). */
let countFrom = 0;

async function recentFailures(ctx: AppContext, code: string, now: number): Promise<number> {
  const since = new Date(Math.max(now - WINDOW_MS, countFrom));
  const result = await sql<{ n: number }>`select count(*)::int as n from share_open_failure where code = ${code} and failed_at > ${since}`.execute(ctx.db);
  return result.rows[0]?.n ?? 0;
}

async function recordFailure(ctx: AppContext, code: string, now: number): Promise<void> {
  await sql`insert into share_open_failure (code, failed_at) values (${code}, ${new Date(now)})`.execute(ctx.db);
  // Only the last minute matters: what is older goes (the table holds one minute of wrong guesses).
  await sql`delete from share_open_failure where failed_at < ${new Date(now - WINDOW_MS)}`.execute(ctx.db);
}

/** Tests start from a clean slate: failures recorded so far no longer count in this process. */
export function resetShareAttempts(): void {
  countFrom = Date.now();
}

async function checkPassword(ctx: AppContext, link: ShareLinkRow, password: string | null | undefined): Promise<void> {
  if (!link.passwordHash) return;
  const now = Date.now();
  if ((await recentFailures(ctx, link.code, now)) >= SHARE_PASSWORD_ATTEMPTS_PER_MINUTE) throw refuse(429, shareMessages.tooManyAttempts, 'tooMany');
  if (!password) throw refuse(401, shareMessages.passwordRequired, 'password');
  if (!(await verifySecret(link.passwordHash, password))) {
    await recordFailure(ctx, link.code, now);
    throw refuse(403, shareMessages.passwordWrong, 'passwordWrong');
  }
}

/** The enabled owner of a login-free link, as a caller. */
async function ownerOf(ctx: AppContext, link: ShareLinkRow): Promise<Caller | undefined> {
  const user = await ctx.db
    .selectFrom('sysUser')
    .select(['id', 'isAdministrator'])
    .where('id', '=', link.createUserId)
    .where('status', '=', 1)
    .executeTakeFirst();
  return user ? { userId: user.id, isAdministrator: user.isAdministrator } : undefined;
}

/** An account-matching link granted to groups opens only for their members (and the owner, and administrators). */
async function checkGroups(ctx: AppContext, link: ShareLinkRow, visitor: Caller): Promise<void> {
  if (visitor.isAdministrator || visitor.userId === link.createUserId) return;
  const allowed = await listGroupsOf(ctx, 'link', link.id);
  if (allowed.length === 0) return;
  const mine = new Set(await groupIdsOf(ctx, visitor.userId));
  if (!allowed.some((id) => mine.has(id))) throw refuse(403, shareMessages.groupForbidden, 'forbidden');
}

export async function openLink(ctx: AppContext, code: string, password: string | null | undefined, visitor: Session | undefined): Promise<ShareOpenResult> {
  const link = await findLinkByCode(ctx.db, code);
  if (!link || !link.enabled) throw refuse(404, shareMessages.linkGone, 'gone');
  if (link.expireTime && new Date(link.expireTime).getTime() <= Date.now()) throw refuse(410, shareMessages.linkExpired, 'expired');
  const linkType: ShareLinkType = link.linkType === 1 ? 1 : 0;

  let viewer: Caller;
  if (linkType === 1) {
    // A token handed out by another link is not a signed-in visitor.
    if (!visitor || visitor.scope) throw refuse(401, shareMessages.loginRequired, 'login');
    viewer = { userId: visitor.userId, isAdministrator: visitor.isAdministrator };
    await checkPassword(ctx, link, password);
    await checkGroups(ctx, link, viewer);
  } else {
    await checkPassword(ctx, link, password);
    const owner = await ownerOf(ctx, link);
    if (!owner) throw refuse(404, shareMessages.linkGone, 'gone');
    viewer = owner;
  }

  let content: SharedContent;
  try {
    content = await viewableContent(ctx, viewer, link.dataType, link.dataId);
  } catch (error) {
    const status = statusOf(error);
    // The visitor may not see it: say so. The owner no longer may, or it is gone: the link is gone.
    if (status === 403 && linkType === 1) throw refuse(403, error instanceof Error ? error.message : shareMessages.forbidden, 'forbidden');
    if (status === 403 || status === 404) throw refuse(404, shareMessages.linkGone, 'gone');
    throw error;
  }

  const ttlEnd = Date.now() + SHARE_TOKEN_MINUTES * 60_000;
  const expiresAt = new Date(link.expireTime ? Math.min(ttlEnd, new Date(link.expireTime).getTime()) : ttlEnd);
  const { token } = await issueScopedToken(ctx.db, viewer.userId, { share: link.id, boards: content.boardIds, ppt: content.ppt }, expiresAt);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    dataType: link.dataType,
    dataId: link.dataId,
    title: content.title,
    linkType,
    boardIds: content.boardIds,
  };
}
