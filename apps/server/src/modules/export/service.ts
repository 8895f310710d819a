import type { Readable } from 'node:stream';
import {
  boardMessages,
  EXPORT_KEEP_DAYS,
  EXPORTABLE_CHART_TYPES,
  exportFileName,
  exportMessages,
  type ChartType,
  type ExportCreateParsed,
  type ExportTask,
  type Page,
  type TaskEntry,
} from '@shutu/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { parseRange } from '../../platform/files/range.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts';
import { page } from '../../platform/http/envelope.ts';
import { requireViewableBoard, findChart } from '../board/index.ts';
import type { Caller } from '../perm/index.ts';
import { planExport } from './run-export.ts';
import { sendExportJob } from './recovery.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import {
  deleteTask,
  deleteTasks,
  failStaleRunning,
  findTask,
  findTaskEntryPage,
  findTaskPage,
  findTasksCreatedBefore,
  insertTask,
  resetFailedTask,
  updateTask,
  type ExportTaskRow,
  type TaskEntryFilter,
  type TaskFilter,
} from './repo.ts';

/** Rules of export tasks (docs/exports.md); the workbook itself is run-export.ts. */

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toTask(row: ExportTaskRow): ExportTask {
  return {
    id: row.id,
    boardId: row.boardId,
    boardTitle: row.boardTitle,
    chartKey: row.chartKey,
    fileName: row.fileName,
    format: row.format,
    status: row.status,
    progress: row.progress,
    rowCount: row.rowCount,
    totalRows: row.totalRows,
    fileSize: row.fileSize === null ? null : Number(row.fileSize),
    errMsg: row.errMsg,
    createTime: iso(row.createTime)!,
    startTime: iso(row.startTime),
    finishTime: iso(row.finishTime),
  };
}

/**
 * Export (spec 1 §2.10): the caller must be allowed to see the board (403 没有此大屏权限),
 * the chart must exist (404) and show data (EXPORTABLE_CHART_TYPES; else 400 该图表不支持导出).
 * The task is stored as waiting and handed to the 'chart-export' job; without a job queue
 * the call answers 503 任务服务未启动 and stores nothing.
 */
export async function createExport(ctx: AppContext, caller: Caller, body: ExportCreateParsed): Promise<ExportTask> {
  const board = await requireViewableBoard(ctx, caller, body.boardId);
  const chart = await findChart(ctx.db, board.id, body.chartKey);
  if (!chart) throw notFound(boardMessages.chartNotFound);
  if (!EXPORTABLE_CHART_TYPES.includes(chart.name as ChartType)) throw badRequest(exportMessages.chartNotExportable);
  // What the job would refuse is refused now (a column hidden from the caller or the board's creator, …).
  await planExport(ctx, caller, { boardId: board.id, chartKey: chart.chartKey }, { links: body.links, params: body.params });
  const jobs = ctx.jobs;
  if (!jobs) throw new AppError(503, exportMessages.jobsOff);
  const id = await insertTask(ctx.db, {
    userId: caller.userId,
    boardId: board.id,
    chartKey: chart.chartKey,
    fileName: exportFileName(body.fileName, chart.title || board.title, body.format),
    format: body.format,
    request: JSON.stringify({ links: body.links, params: body.params }),
  });
  // The answer is the task as submitted (waiting): read before the job is sent, since a worker may
  // take it up before this call answers.
  const submitted = toTask((await findTask(ctx.db, id))!);
  try {
    await sendExportJob(jobs, id);
  } catch (error) {
    await deleteTask(ctx.db, id);
    throw error;
  }
  return submitted;
}

/**
 * Retry (任务管理 重试): the caller's failed task — e.g. one a restart interrupted — runs again
 * as the same task, with the links and parameters first asked for; any other status is
 * 400 只有失败的导出任务可以重试. Board and permissions are checked again when it runs.
 */
export async function retryExport(ctx: AppContext, caller: Caller, id: number): Promise<ExportTask> {
  const task = await requireOwnTask(ctx, caller, id);
  const jobs = ctx.jobs;
  if (!jobs) throw new AppError(503, exportMessages.jobsOff);
  if (!(await resetFailedTask(ctx.db, id))) throw badRequest(exportMessages.retryOnlyFailed);
  if (task.filePath) await fileStorage(ctx).delete(keyOfPath(task.filePath));
  const resubmitted = toTask((await findTask(ctx.db, id))!);
  try {
    await sendExportJob(jobs, id);
  } catch (error) {
    await updateTask(ctx.db, id, { status: 'failed', errMsg: exportMessages.failed, finishTime: new Date() });
    throw error;
  }
  return resubmitted;
}

export async function listTasks(ctx: AppContext, filter: TaskFilter, current: number, size: number): Promise<Page<ExportTask>> {
  const { rows, total } = await findTaskPage(ctx.db, filter, (current - 1) * size, size);
  return page(rows.map(toTask), total, current, size);
}

/** 任务管理: the caller's export and slideshow PDF tasks, one list (docs/exports.md "任务管理"). */
export async function listTaskEntries(ctx: AppContext, filter: TaskEntryFilter, current: number, size: number): Promise<Page<TaskEntry>> {
  const { rows, total } = await findTaskEntryPage(ctx.db, filter, (current - 1) * size, size);
  const entries = rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    fileName: r.fileName,
    source: r.source,
    sourceId: r.sourceId,
    rowCount: r.rowCount,
    totalRows: r.totalRows,
    pages: r.pages,
    status: r.status,
    progress: r.progress,
    fileSize: r.fileSize === null ? null : Number(r.fileSize),
    errMsg: r.errMsg,
    createTime: iso(r.createTime)!,
    finishTime: iso(r.finishTime),
  }));
  return page(entries, total, current, size);
}

/** A task of the caller's own: anyone else's (administrators included) is 404 导出任务不存在. */
export async function requireOwnTask(ctx: AppContext, caller: Caller, id: number): Promise<ExportTaskRow> {
  const task = await findTask(ctx.db, id);
  if (!task || task.userId !== caller.userId) throw notFound(exportMessages.taskNotFound);
  return task;
}

/**
 * The finished file of the caller's task: a stream of it (of the asked `Range` only, when one
 * is asked: a browser resuming a download) from the file storage, its name and whole size (404
 * while not done or once removed). An unsatisfiable range opens nothing (body null).
 */
export async function exportFile(
  ctx: AppContext,
  caller: Caller,
  id: number,
  rangeHeader?: string,
): Promise<{ body: Readable | null; fileName: string; size: number; format: ExportTaskRow['format']; range: ReturnType<typeof parseRange> }> {
  const task = await requireOwnTask(ctx, caller, id);
  if (task.status !== 'done' || !task.filePath) throw notFound(exportMessages.taskNotFound);
  const files = fileStorage(ctx);
  const key = keyOfPath(task.filePath);
  const stat = await files.stat(key);
  if (!stat) throw notFound(exportMessages.fileMissing);
  const range = parseRange(rangeHeader, stat.size);
  if (range === 'unsatisfiable') return { body: null, fileName: task.fileName, size: stat.size, format: task.format, range };
  const body = await files.get(key, range ?? undefined);
  if (!body) throw notFound(exportMessages.fileMissing);
  return { body, fileName: task.fileName, size: stat.size, format: task.format, range };
}

/** Deletes the caller's task and its file. A running task's job finds its row gone and its file is removed by the next sweep. */
export async function removeTask(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const task = await requireOwnTask(ctx, caller, id);
  await deleteTask(ctx.db, id);
  if (task.filePath) await fileStorage(ctx).delete(keyOfPath(task.filePath));
}

/**
 * Backstop only: a task still running this long after it started, with no run left to recover
 * (a task from before job runs were recorded). A task whose process dies is handed back to the
 * queue within a minute by the recovery sweep (export/recovery.ts, platform/jobs/recovery.ts).
 */
export const STALE_RUNNING_MS = 6 * 3600_000;
export const EXPORT_CLEANUP_JOB = 'export-cleanup';

/**
 * Housekeeping of exports (hourly): tasks older than EXPORT_KEEP_DAYS go with their files;
 * tasks left running by a stopped process are marked failed.
 */
export async function cleanupExports(ctx: AppContext, log: Logger, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - EXPORT_KEEP_DAYS * 86_400_000);
  let removed = 0;
  for (;;) {
    const old = await findTasksCreatedBefore(ctx.db, before, 500);
    if (old.length === 0) break;
    for (const task of old) {
      if (task.filePath)
        await fileStorage(ctx)
          .delete(keyOfPath(task.filePath))
          .catch(() => undefined);
    }
    removed += await deleteTasks(
      ctx.db,
      old.map((t) => t.id),
    );
    if (old.length < 500) break;
  }
  const stale = await failStaleRunning(ctx.db, new Date(now.getTime() - STALE_RUNNING_MS), INTERRUPTED_MESSAGE, now);
  if (removed > 0 || stale > 0) log.info({ removed, stale }, 'export housekeeping done');
  return removed;
}
