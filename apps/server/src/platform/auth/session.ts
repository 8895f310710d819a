import type { Kysely } from 'kysely';
import { PERMISSION_CODES } from '@shutu/contracts';
import type { Database } from '../db/schema.ts';
import { hashToken } from './tokens.ts';

/** Who is calling: resolved once per request from the bearer token. */
export interface Session {
  userId: number;
  account: string;
  isAdministrator: boolean;
  permissions: Set<string>;
  token: string;
}

export async function findSession(db: Kysely<Database>, token: string): Promise<Session | undefined> {
  const row = await db
    .selectFrom('authToken as t')
    .innerJoin('sysUser as u', 'u.id', 't.userId')
    .select(['u.id', 'u.account', 'u.isAdministrator'])
    .where('t.tokenHash', '=', hashToken(token))
    .where('t.revokedAt', 'is', null)
    .where('t.expiresAt', '>', new Date())
    .where('u.status', '=', 1)
    .executeTakeFirst();
  if (!row) return undefined;
  const permissions = row.isAdministrator ? new Set(PERMISSION_CODES) : await findUserPermissions(db, row.id);
  return { userId: row.id, account: row.account, isAdministrator: row.isAdministrator, permissions, token };
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
