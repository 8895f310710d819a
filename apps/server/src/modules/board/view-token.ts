import { BOARD_VIEW_TOKEN_MINUTES, zhCN, type BoardViewToken } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { issueToken } from '../../platform/auth/tokens.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { requireViewableBoard } from './access.ts';

/**
 * View tokens: what `/openview/{id}?token=…` signs in with (an iframe, the server's own
 * headless Chromium). A view token is an ordinary auth token of the user it is issued for,
 * living BOARD_VIEW_TOKEN_MINUTES instead of the session's hours; it is only handed out for a
 * board that user may see. It is not limited to that board (the page reads the board, its
 * charts and their data through the ordinary API, as the user): the short life is what
 * bounds it, and the renderer revokes its tokens once the page has rendered.
 */

const VIEW_TOKEN_HOURS = BOARD_VIEW_TOKEN_MINUTES / 60;

/** POST boards/:id/view-token: for the caller, if they may see the board (else 403 没有此大屏权限). */
export async function createViewToken(ctx: AppContext, caller: Caller, boardId: number): Promise<BoardViewToken> {
  await requireViewableBoard(ctx, caller, boardId);
  const { token, expiresAt } = await issueToken(ctx.db, caller.userId, VIEW_TOKEN_HOURS);
  return { token, expiresAt: expiresAt.toISOString() };
}

/**
 * For the server's own renderers (thumbnails, PDF, subscriptions): a view token of `userId`
 * for the board, checked like the route (an enabled user who may see it). Revoke it with
 * `revokeToken` once the render is done.
 */
export async function issueViewToken(ctx: AppContext, userId: number, boardId: number): Promise<BoardViewToken> {
  const user = await ctx.db.selectFrom('sysUser').select(['id', 'isAdministrator']).where('id', '=', userId).where('status', '=', 1).executeTakeFirst();
  if (!user) throw notFound(zhCN.userNotFound);
  return createViewToken(ctx, { userId: user.id, isAdministrator: user.isAdministrator }, boardId);
}
