import { ORDER_EXPORT_JOB, type OrderExportJobData } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { findTask, moveTask } from './repo.ts';
import { FAILED_STEP, runOrderExport } from './run.ts';
import { cleanupExpired, ORDER_EXPORT_CLEANUP_JOB } from './service.ts';

/** The order-export job and the hourly sweep of expired files. */
export function orderExportJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const run: JobDefinition<OrderExportJobData> = {
    name: ORDER_EXPORT_JOB,
    handle: (data, jobRun) => runOrderExport(ctx, log, data.taskId, jobRun?.id ?? null),
    // The process running it died (kill -9, a crash): the task of exactly that run fails in the
    // step it was in (1 → 3, 4 → 6, 7 → 8) with a reason the user can act on, never left running.
    // Not re-run by itself: a query that brought its process down would do so again.
    abandoned: async (data, jobRun) => {
      const task = await findTask(ctx.db, data.taskId);
      const failed = task && FAILED_STEP[task.taskStatus1];
      if (task && failed !== undefined && (await moveTask(ctx.db, task.id, failed, Number(task.progress), jobRun.id, { errorMsg: INTERRUPTED_MESSAGE }))) {
        log.warn({ taskId: task.id, status: failed }, 'order export interrupted: task failed');
      }
    },
  };
  const cleanup: JobDefinition = {
    name: ORDER_EXPORT_CLEANUP_JOB,
    cron: '41 * * * *',
    handle: async () => {
      await cleanupExpired(ctx, log);
    },
  };
  return [run as JobDefinition, cleanup];
}
