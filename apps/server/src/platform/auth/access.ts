import type { FastifyInstance, FastifyRequest } from 'fastify';
import { shareMessages, zhCN, type PermissionCode } from '@shutu/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { HasBus } from '../cache/coherent.ts';
import { findSessionCached, type Session } from './session.ts';

/**
 * Who may call a route. Every /api route must declare one; registration fails otherwise,
 * so a forgotten guard is a start-up error, not an open door.
 */
export type Access = 'public' | 'user' | 'admin' | { permission: PermissionCode };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The route may be called with a token handed out by a share link (it reads a board or a
     * slideshow, and its service checks the id against the token's scope: scope.ts). Every
     * other route refuses such a token with 403.
     */
    shareable?: boolean;
    /**
     * The route stays open to a user who must still change the initial password (the password
     * change itself, logout, current-user info); every other route answers 403 请先修改初始密码.
     */
    beforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    session: Session | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** `holder` (the app context) keys the session memo and carries the cache bus that clears it. */
export function installAccessControl(app: FastifyInstance, db: Kysely<Database>, holder: HasBus = {}): void {
  app.decorateRequest('session', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.method !== 'HEAD' && !route.config?.access) {
      throw new Error(`route ${String(route.method)} ${route.url} declares no access`);
    }
  });

  // onRequest: a caller without the right is refused before its body is even parsed.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    const session = token ? await findSessionCached(holder, db, token) : undefined;
    if (!session) throw unauthorized();
    if (session.scope && request.routeOptions.config.shareable !== true) throw forbidden(shareMessages.scopeRefused);
    // A share link's token is not a sign-in: it reads what its link names whatever the creator's password.
    if (session.mustChangePassword && !session.scope && request.routeOptions.config.beforePasswordChange !== true) {
      throw forbidden(zhCN.passwordChangeRequired);
    }
    request.session = session;
    if (access === 'user') return;
    if (access === 'admin') {
      if (!session.isAdministrator) throw forbidden();
      return;
    }
    if (!session.permissions.has(access.permission)) throw forbidden();
  });
}

/** The caller of a route whose access is not 'public'. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized();
  return request.session;
}
