import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * The browser sends MD5(password) as hex; that digest is what we hash again, slowly,
 * with argon2id. MD5 only keeps the clear password off the wire and out of logs.
 */
export const hashPassword = (md5Hex: string): Promise<string> => hash(md5Hex.toLowerCase());

export async function verifyPassword(stored: string, md5Hex: string): Promise<boolean> {
  try {
    return await verify(stored, md5Hex.toLowerCase());
  } catch {
    return false;
  }
}

/** What a browser would send for a clear password; used by seeding and tests. */
export const md5Hex = (clear: string): string => createHash('md5').update(clear, 'utf8').digest('hex');

/**
 * A secret that is not an account password (a share link's access password): hashed as typed,
 * case and all. Account passwords go through hashPassword (the browser's MD5 hex).
 */
export const hashSecret = (clear: string): Promise<string> => hash(clear);

export async function verifySecret(stored: string, clear: string): Promise<boolean> {
  try {
    return await verify(stored, clear);
  } catch {
    return false;
  }
}
