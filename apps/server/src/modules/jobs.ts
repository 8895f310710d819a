import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../platform/jobs/boss.ts';

/**
 * Every domain module's background jobs. The serving and worker processes start them on
 * pg-boss (server.ts, main.ts); tests start them with `createTestServer(..., { jobs: true })`.
 */
export function moduleJobs(_ctx: AppContext, _log: Logger): JobDefinition[] {
  return [];
}
