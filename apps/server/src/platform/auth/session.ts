import type { Kysely } from 'kysely';
import { PERMISSION_CODES, tokenScopeSchema, type TokenScope } from '@shutu/contracts';
import type { Database } from '../db/schema.ts';
import { CoherentMemo, publishEverywhere, type HasBus } from '../cache/coherent.ts';
import { hashToken } from './tokens.ts';

/** Who is calling: resolved once per request from the bearer token. */
export interface Session {
  userId: number;
  account: string;
  isAdministrator: boolean;
  permissions: Set<string>;
  token: string;
  /**
   * Set when the token was handed out by a share link: what it may read. Such a session is
   * refused on every route not marked shareable, and on boards outside `scope.boards`.
   */
  scope?: TokenScope | null;
  /** The user still has the initial password: access.ts refuses all but a few routes. */
  mustChangePassword?: boolean;
}

/**
 * How long a resolved session is reused for the same token in this process. Revoking a token
 * (logout, disable, password change, share link off) and any change of users, roles or groups
 * drop every kept session here and in the other processes (cache bus topics 'session' and
 * 'perm'); this bounds only a change racing its own commit, which the bus covers too: on
 * PostgreSQL the tables' triggers notify at COMMIT (watch.ts) and a missed notice is caught by
 * the version poll (POLL_MS); on PGlite a read cannot run inside another's open transaction
 * (one connection). It was 2 s: every request after a pause of 2 s paid two store queries
 * (the token and the roles' permissions), ≈ 20–200 ms on a loaded box (issue 26, bench/query).
 * A token's own expiry is checked on every use.
 */
export const SESSION_MEMO_MS = 30_000;
const sessions = new CoherentMemo<(Session & { expiresAt: number }) | undefined>(['session', 'perm'], SESSION_MEMO_MS);

/** After a committed change of what sessions carry (a role's permissions): every process reads them again. */
export function forgetSessions(): void {
  publishEverywhere('session');
}

/**
 * findSession, kept for SESSION_MEMO_MS per token (the per-request lookup of every API call).
 * A token that resolves to nothing is not kept (a flood of made-up tokens cannot fill memory).
 */
export async function findSessionCached(holder: HasBus, db: Kysely<Database>, token: string): Promise<Session | undefined> {
  const now = Date.now();
  const found = await sessions.get(holder, token, () => findSessionRow(db, token), now);
  if (!found) {
    sessions.delete(holder, token);
    return undefined;
  }
  return found.expiresAt > now ? found : undefined;
}

export async function findSession(db: Kysely<Database>, token: string): Promise<Session | undefined> {
  const found = await findSessionRow(db, token);
  if (!found) return undefined;
  const { expiresAt: _expiresAt, ...session } = found;
  return session;
}

async function findSessionRow(db: Kysely<Database>, token: string): Promise<(Session & { expiresAt: number }) | undefined> {
  const row = await db
    .selectFrom('authToken as t')
    .innerJoin('sysUser as u', 'u.id', 't.userId')
    .select(['u.id', 'u.account', 'u.isAdministrator', 'u.mustChangePassword', 't.scope', 't.expiresAt'])
    .where('t.tokenHash', '=', hashToken(token))
    .where('t.revokedAt', 'is', null)
    .where('t.expiresAt', '>', new Date())
    .where('u.status', '=', 1)
    .executeTakeFirst();
  if (!row) return undefined;
  const permissions = row.isAdministrator ? new Set(PERMISSION_CODES) : await findUserPermissions(db, row.id);
  return {
    userId: row.id,
    account: row.account,
    isAdministrator: row.isAdministrator,
    permissions,
    token,
    scope: parseScope(row.scope),
    mustChangePassword: row.mustChangePassword,
    expiresAt: new Date(row.expiresAt).getTime(),
  };
}

/** A stored scope; one that does not parse scopes the token to nothing rather than to everything. */
function parseScope(stored: unknown): TokenScope | null {
  if (stored === null || stored === undefined) return null;
  const value = typeof stored === 'string' ? safeJson(stored) : stored;
  const parsed = tokenScopeSchema.safeParse(value);
  return parsed.success ? parsed.data : { share: 0, boards: [], ppt: null };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function findUserPermissions(db: Kysely<Database>, userId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('sysUserRole as ur')
    .innerJoin('sysRolePermission as rp', 'rp.roleId', 'ur.roleId')
    .select('rp.code')
    .distinct()
    .where('ur.userId', '=', userId)
    .execute();
  return new Set(rows.map((r) => r.code));
}
