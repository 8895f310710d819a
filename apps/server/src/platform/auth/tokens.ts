import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { TokenScope } from '@shutu/contracts';
import type { Database } from '../db/schema.ts';
import { publishEverywhere } from '../cache/coherent.ts';

/** The token travels to the client once; the store keeps only its SHA-256. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Kysely<Database>, userId: number, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db
    .insertInto('authToken')
    .values({ tokenHash: hashToken(token), userId, expiresAt })
    .execute();
  return { token, expiresAt };
}

/**
 * A token of `userId` that may read only what `scope` names (a share link's content), until
 * `expiresAt`. See access.ts: every route not marked shareable refuses it.
 */
export async function issueScopedToken(db: Kysely<Database>, userId: number, scope: TokenScope, expiresAt: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('authToken')
    .values({ tokenHash: hashToken(token), userId, expiresAt, scope: JSON.stringify(scope) })
    .execute();
  return { token, expiresAt };
}

/**
 * Every process forgets its kept sessions (session.ts). Inside a transaction the change is not
 * visible yet when we publish, so a session read again in between could be kept: publish once
 * more shortly after, when the transaction has almost always committed (SESSION_MEMO_MS bounds the rest).
 */
function sessionsChanged(db: Kysely<Database>): void {
  publishEverywhere('session');
  if (db.isTransaction) setTimeout(() => publishEverywhere('session'), 200).unref();
}

/** Revokes the live tokens a share link handed out (the link was disabled, deleted or its password changed). */
export async function revokeShareTokens(db: Kysely<Database>, linkId: number): Promise<void> {
  await db
    .updateTable('authToken')
    .set({ revokedAt: new Date() })
    .where(sql<string>`scope->>'share'`, '=', String(linkId))
    .where('revokedAt', 'is', null)
    .execute();
  sessionsChanged(db);
}

export async function revokeToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.updateTable('authToken').set({ revokedAt: new Date() }).where('tokenHash', '=', hashToken(token)).where('revokedAt', 'is', null).execute();
  sessionsChanged(db);
}

/** Revokes every live token of a user: password reset, disable. */
export async function revokeUserTokens(db: Kysely<Database>, userId: number, exceptToken?: string): Promise<void> {
  let query = db.updateTable('authToken').set({ revokedAt: new Date() }).where('userId', '=', userId).where('revokedAt', 'is', null);
  if (exceptToken) query = query.where('tokenHash', '<>', hashToken(exceptToken));
  await query.execute();
  sessionsChanged(db);
}

/** Housekeeping: drops tokens that expired or were revoked more than a day ago. */
export async function deleteStaleTokens(db: Kysely<Database>, now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const result = await db
    .deleteFrom('authToken')
    .where((eb) => eb.or([eb('expiresAt', '<', now), eb('revokedAt', '<', dayAgo)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
