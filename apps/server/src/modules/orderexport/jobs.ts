import { ORDER_EXPORT_JOB, type OrderExportJobData } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { findTask, moveTask, RESUME_RUN, updateTask } from './repo.ts';
import { FAILED_STEP, runOrderExport } from './run.ts';
import { cleanupExpired, ORDER_EXPORT_CLEANUP_JOB } from './service.ts';

/**
 * How often a task is taken up again after its process died. A query that brings its process
 * down would do so on every try: after this many the task fails honestly instead.
 */
export const MAX_RESUMES = 2;

/** The order-export job and the hourly sweep of expired files. */
export function orderExportJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const run: JobDefinition<OrderExportJobData> = {
    name: ORDER_EXPORT_JOB,
    handle: (data, jobRun) => runOrderExport(ctx, log, data.taskId, jobRun?.id ?? null),
    // The process running it died (kill -9, a crash): the task of exactly that run is resumed in
    // the step it was in — extraction after its last written block (run.ts) — by a new job, up
    // to MAX_RESUMES times; then it fails in that step (1 → 3, 4 → 6, 7 → 8) with a reason the
    // user can act on. Never left running.
    abandoned: async (data, jobRun) => {
      const task = await findTask(ctx.db, data.taskId);
      const failed = task && FAILED_STEP[task.taskStatus1];
      if (!task || failed === undefined) return;
      if (task.resumes < MAX_RESUMES && ctx.jobs) {
        if (await updateTask(ctx.db, task.id, { runId: RESUME_RUN, resumes: task.resumes + 1 }, jobRun.id)) {
          await ctx.jobs.send(ORDER_EXPORT_JOB, { taskId: task.id } satisfies OrderExportJobData, { retryLimit: 1 });
          log.warn({ taskId: task.id, status: task.taskStatus1, rows: Number(task.progress) }, 'order export interrupted: task resumed');
        }
        return;
      }
      if (await moveTask(ctx.db, task.id, failed, Number(task.progress), jobRun.id, { errorMsg: INTERRUPTED_MESSAGE })) {
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
