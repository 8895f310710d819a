import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import { sharedWindow } from '../../platform/ratelimit/shared-window.ts';

/**
 * The per-key rate window (calls per minute, docs/dataapi.md "Rate limit"): the shared window of
 * scope `dataapi` (platform/ratelimit/shared-window.ts), counted by every process together. Every
 * call counts, refused ones included, so a client hammering past its limit stays refused.
 */

const MINUTE_MS = 60_000;

/** Counts one call of the key; answers the calls of the current minute so far (this one included). */
export function countCall(db: Kysely<Database>, accessKey: string): Promise<number> {
  return sharedWindow(db, 'dataapi', MINUTE_MS).count(accessKey);
}
