import fs from 'node:fs';
import path from 'node:path';
import { EXPORT_JOB, type ExportJobData } from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import { LocalFileStorage } from '../../platform/files/storage-local.ts';
import type { JobRun } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { failRunTask, findTask, requeueRunTask } from './repo.ts';
import { exportFilePath } from './run-export.ts';

/**
 * An export whose process died (issue 27; docs/exports.md "Interrupted exports"). The recovery
 * sweep of a live process hands the dead run to the job's `abandoned` hook exactly once
 * (platform/jobs/recovery.ts takes the run row atomically); here the task of exactly that run
 * goes back to `waiting` (a conditional UPDATE on its run id: a run already taken over, retried
 * or finished changes nothing) and a new job is sent, which a live process claims and runs from
 * the start. The number of automatic re-runs travels in the job's data: after
 * MAX_AUTOMATIC_RERUNS the task fails with 服务重启或异常退出，任务已中断，请重试 — an export that
 * brings its process down (memory) would otherwise do so forever.
 */

/** Re-runs after a dead process before the task fails honestly (3 attempts in all). */
export const MAX_AUTOMATIC_RERUNS = 2;

/** The job's data: the task, and how many times it was already re-run after a dead process. */
export type ExportRunData = ExportJobData & { reruns?: number };

/** The job of a task: retryLimit 1 for a job whose taker died before it recorded its run (the claim makes a second delivery do nothing). */
export const sendExportJob = (jobs: NonNullable<AppContext['jobs']>, taskId: number, reruns = 0) =>
  jobs.send(EXPORT_JOB, (reruns > 0 ? { taskId, reruns } : { taskId }) satisfies ExportRunData, { retryLimit: 1 });

const TEMP = /^\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the half-written temp files of a task's file (local or shared directory: the dead
 * run's `<key>.<random>.tmp`). In a bucket the dead run's unfinished multipart upload is never
 * visible and the re-run uploads the same key, so one object exists.
 */
export async function removePartialFiles(ctx: AppContext, relative: string): Promise<number> {
  const files = fileStorage(ctx);
  if (!(files instanceof LocalFileStorage)) return 0;
  const file = files.pathOf(keyOfPath(relative));
  const base = path.basename(file);
  let names: string[];
  try {
    names = await fs.promises.readdir(path.dirname(file));
  } catch {
    return 0;
  }
  const partial = names.filter((name) => name.startsWith(base) && TEMP.test(name.slice(base.length)));
  for (const name of partial) await fs.promises.rm(path.join(path.dirname(file), name), { force: true });
  return partial.length;
}

/** The `abandoned` hook of the export job: re-run the dead run's task, or fail it after MAX_AUTOMATIC_RERUNS. */
export async function recoverExport(ctx: AppContext, log: Logger, data: ExportRunData, run: JobRun): Promise<void | 'handed-on'> {
  const reruns = data.reruns ?? 0;
  const task = await findTask(ctx.db, data.taskId);
  if (!task || task.runId !== run.id) return;
  const jobs = ctx.jobs;
  if (reruns < MAX_AUTOMATIC_RERUNS && jobs) {
    if (!(await requeueRunTask(ctx.db, task.id, run.id))) return;
    await removePartialFiles(ctx, exportFilePath(task.userId, task.id, task.format));
    try {
      await sendExportJob(jobs, task.id, reruns + 1);
      log.warn({ taskId: task.id, reruns: reruns + 1 }, 'export interrupted: task handed back to the queue');
      return 'handed-on';
    } catch (error) {
      // Not sent: the task must not wait for a job that never comes.
      await failRunTask(ctx.db, task.id, null, INTERRUPTED_MESSAGE, new Date());
      throw error;
    }
  }
  if (await failRunTask(ctx.db, task.id, run.id, INTERRUPTED_MESSAGE, new Date())) {
    await removePartialFiles(ctx, exportFilePath(task.userId, task.id, task.format));
    log.warn({ taskId: task.id, reruns }, 'export interrupted again: task failed');
  }
}
