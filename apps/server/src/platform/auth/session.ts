import type { Kysely } from 'kysely';
import { PERMISSION_CODES, tokenScopeSchema, type TokenScope } from '@shutu/contracts';
import type { Database } from '../db/schema.ts';
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

export async function findSession(db: Kysely<Database>, token: string): Promise<Session | undefined> {
  const row = await db
    .selectFrom('authToken as t')
    .innerJoin('sysUser as u', 'u.id', 't.userId')
    .select(['u.id', 'u.account', 'u.isAdministrator', 'u.mustChangePassword', 't.scope'])
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
