import { EXPORT_JOB, type ExportJobData } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { failRunTask } from './repo.ts';
import { runExportTask } from './run-export.ts';
import { cleanupExports, EXPORT_CLEANUP_JOB } from './service.ts';

/** The export module's jobs: writing one export, and the hourly sweep of old exports. */
export function exportJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const write: JobDefinition<ExportJobData> = {
    name: EXPORT_JOB,
    handle: (data, run) => runExportTask(ctx, log, data.taskId, run?.id ?? null),
    // The process writing it died: the task of that run fails at once with a reason the user
    // can act on (任务管理 重试), rather than staying 导出中. Not re-run by itself: an export
    // that brought its process down would do so again.
    abandoned: async (data, run) => {
      if (await failRunTask(ctx.db, data.taskId, run.id, INTERRUPTED_MESSAGE, new Date())) log.warn({ taskId: data.taskId }, 'export interrupted: task failed');
    },
  };
  const cleanup: JobDefinition = {
    name: EXPORT_CLEANUP_JOB,
    cron: '23 * * * *',
    handle: async () => {
      await cleanupExports(ctx, log);
    },
  };
  return [write as JobDefinition, cleanup];
}
