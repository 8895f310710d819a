import { EXPORT_JOB, type ExportJobData } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { runExportTask } from './run-export.ts';
import { cleanupExports, EXPORT_CLEANUP_JOB } from './service.ts';

/** The export module's jobs: writing one export, and the hourly sweep of old exports. */
export function exportJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const write: JobDefinition<ExportJobData> = {
    name: EXPORT_JOB,
    handle: (data) => runExportTask(ctx, log, data.taskId),
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
