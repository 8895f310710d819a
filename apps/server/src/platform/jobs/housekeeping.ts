import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import { deleteStaleTokens } from '../auth/tokens.ts';
import type { JobDefinition } from './boss.ts';

export const HOUSEKEEPING_JOB = 'housekeeping';

/** Every ten minutes: expired or long-revoked tokens and old login failures go. */
export function housekeepingJob(db: Kysely<Database>, log: Logger): JobDefinition {
  return {
    name: HOUSEKEEPING_JOB,
    cron: '*/10 * * * *',
    async handle() {
      const tokens = await deleteStaleTokens(db);
      const hourAgo = new Date(Date.now() - 3600_000);
      const failures = await db.deleteFrom('authLoginFailure').where('failedAt', '<', hourAgo).executeTakeFirst();
      log.info({ tokens, failures: Number(failures.numDeletedRows) }, 'housekeeping done');
    },
  };
}
