import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../platform/jobs/boss.ts';
import { exportJobs } from './export/jobs.ts';
import { boardThumbnailJob } from './board/thumbnail.ts';
import { pptPdfJobs } from './ppt/pdf-job.ts';
import { subscriptionJobs } from './subscription/jobs.ts';
import { alertJobs } from './alert/index.ts';
import { orderExportJobs } from './orderexport/index.ts';
import { workflowJobs } from './workflow/index.ts';
import { audienceJobs } from './audience/index.ts';
import { cdpJobs } from './cdp/index.ts';

/**
 * Every domain module's background jobs. The serving and worker processes start them on
 * pg-boss (server.ts, main.ts); tests start them with `createTestServer(..., { jobs: true })`.
 */
export function moduleJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  return [
    ...exportJobs(ctx, log),
    boardThumbnailJob(ctx, log),
    ...pptPdfJobs(ctx, log),
    ...subscriptionJobs(ctx, log),
    ...alertJobs(ctx, log),
    ...orderExportJobs(ctx, log),
    ...workflowJobs(ctx, log),
    ...audienceJobs(ctx, log),
    ...cdpJobs(ctx, log),
  ];
}
