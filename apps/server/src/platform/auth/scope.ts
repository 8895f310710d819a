import { shareMessages, type TokenScope } from '@shutu/contracts';
import { forbidden } from '../http/errors.ts';

/**
 * Scoped tokens (docs/shares.md): a token handed out by a share link names the boards (and
 * the slideshow) it may read. access.ts refuses it on routes not marked shareable; the
 * shareable routes' services call these with the id they are asked for. A caller without a
 * scope (an ordinary session, a job acting for a user) passes.
 */
export interface MaybeScoped {
  scope?: TokenScope | null;
}

/** 403 没有此大屏权限 when a scoped caller asks for a board outside its scope. */
export function assertInScope(caller: MaybeScoped, boardId: number): void {
  if (caller.scope && !caller.scope.boards.includes(boardId)) throw forbidden(shareMessages.forbidden);
}

/** 403 when a scoped caller asks for a slideshow other than the shared one. */
export function assertPptInScope(caller: MaybeScoped, pptId: number): void {
  if (caller.scope && caller.scope.ppt !== pptId) throw forbidden(shareMessages.scopeRefused);
}

/** 403 for a scoped caller: what it asks is not a shared board's saved content (an editor's unsaved chart, say). */
export function assertUnscoped(caller: MaybeScoped): void {
  if (caller.scope) throw forbidden(shareMessages.scopeRefused);
}
