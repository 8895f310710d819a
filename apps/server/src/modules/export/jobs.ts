import { EXPORT_JOB } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { recoverExport, type ExportRunData } from './recovery.ts';
import { runExportTask } from './run-export.ts';
import { cleanupExports, EXPORT_CLEANUP_JOB } from './service.ts';

/** The export module's jobs: writing one export, and the hourly sweep of old exports. */
export function exportJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const write: JobDefinition<ExportRunData> = {
    name: EXPORT_JOB,
    handle: (data, run) => runExportTask(ctx, log, data.taskId, run?.id ?? null),
    // The process writing it died: the task of that run is handed back to the queue and run
    // again by a live process, up to MAX_AUTOMATIC_RERUNS times, then failed (recovery.ts).
    abandoned: (data, run) => recoverExport(ctx, log, data, run),
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
