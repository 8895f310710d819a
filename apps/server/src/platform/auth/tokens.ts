import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The token travels to the client once; the store keeps only its SHA-256. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Kysely<Database>, userId: number, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db.insertInto('authToken').values({ tokenHash: hashToken(token), userId, expiresAt }).execute();
  return { token, expiresAt };
}

export async function revokeToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.updateTable('authToken').set({ revokedAt: new Date() }).where('tokenHash', '=', hashToken(token)).where('revokedAt', 'is', null).execute();
}

/** Revokes every live token of a user: password reset, disable. */
export async function revokeUserTokens(db: Kysely<Database>, userId: number, exceptToken?: string): Promise<void> {
  let query = db.updateTable('authToken').set({ revokedAt: new Date() }).where('userId', '=', userId).where('revokedAt', 'is', null);
  if (exceptToken) query = query.where('tokenHash', '<>', hashToken(exceptToken));
  await query.execute();
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
