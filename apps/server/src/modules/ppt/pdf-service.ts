import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { cleanFileName, exportMessages, pptMessages, type pptPrintSchema, type PptPdfTask } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import type { Caller } from '../perm/index.ts';
import { requireViewablePpt } from './access.ts';
import {
  deletePdfTask,
  deletePdfTasks,
  failStalePdfTasks,
  findPdfTask,
  findPdfTasksCreatedBefore,
  insertPdfTask,
  resetFailedPdfTask,
  updatePdfTask,
  type PdfTaskRow,
} from './pdf-repo.ts';

/**
 * PDF export of a slideshow (spec 1 §2.10 导出pdf, §3 "Print form", §5, §9; docs/slideshows.md
 * "Viewer and PDF"): the request becomes a task, the 'ppt-pdf' job renders each chosen
 * dashboard in the server's Chromium and assembles one PDF (pdf-job.ts, pdf-document.ts).
 */

export const PPT_PDF_JOB = 'ppt-pdf';
export const PPT_PDF_CLEANUP_JOB = 'ppt-pdf-cleanup';
/** Finished files are kept this long (like Excel exports). */
export const PDF_KEEP_DAYS = 7;
/**
 * Backstop only: running this long after its start with no job run left to recover (a task from
 * before job runs were recorded). A task whose process dies fails within a minute (pdf-job.ts `abandoned`).
 */
export const PDF_STALE_RUNNING_MS = 3 * 3600_000;

export const pdfMessages = {
  submitted: '已提交导出任务',
  taskNotFound: '导出任务不存在',
  fileMissing: '导出文件已不存在，请重新导出',
  notReady: 'PDF 尚未生成完成',
  jobsOff: '任务服务未启动',
  failed: 'PDF 导出失败',
  userMissing: '导出用户不存在或已停用',
} as const;

export interface PdfJobData {
  taskId: string;
}

/** A PDF's file name: the slideshow's name without characters file systems refuse. */
export function pdfFileName(ppName: string): string {
  return `${Array.from(cleanFileName(ppName) || '幻灯片')
    .slice(0, 100)
    .join('')}.pdf`;
}

/**
 * The dashboards a print form asks for, in the slideshow's order, among those the caller may
 * see: 1 the current one (pagelist[0]), 2 all, 3 the chosen ones.
 */
export function chosenBoards(form: { page: 1 | 2 | 3; pagelist: readonly number[] }, visible: readonly number[]): number[] {
  if (form.page === 2) return [...visible];
  if (form.page === 1) return visible.includes(form.pagelist[0]!) ? [form.pagelist[0]!] : [];
  const chosen = new Set(form.pagelist);
  return visible.filter((id) => chosen.has(id));
}

export function toPdfTask(row: PdfTaskRow): PptPdfTask {
  return {
    id: row.id,
    status: row.status,
    pages: row.pages,
    rendered: row.rendered,
    fileName: row.fileName,
    errMsg: row.errMsg,
    createTime: new Date(row.createTime).toISOString(),
  };
}

type PrintForm = z.output<typeof pptPrintSchema>;

/**
 * POST slideshows/:id/pdf: the caller must see the slideshow (404 / 403); the pages are the
 * chosen dashboards the caller may see — none: 400 暂无可用于导出的数据…. Stored as waiting and
 * handed to the job; without a job queue 503 任务服务未启动 and nothing is stored.
 */
export async function createPdfTask(ctx: AppContext, caller: Caller, pptId: number, form: PrintForm): Promise<PptPdfTask> {
  const { ppt, boardIds } = await requireViewablePpt(ctx, caller, pptId);
  const pages = chosenBoards(form, boardIds);
  if (pages.length === 0) throw badRequest(pptMessages.exportEmpty);
  const jobs = ctx.jobs;
  if (!jobs) throw new AppError(503, pdfMessages.jobsOff);
  const id = randomUUID();
  await insertPdfTask(ctx.db, {
    id,
    userId: caller.userId,
    pptId: ppt.id,
    fileName: pdfFileName(ppt.ppName),
    boardIds: JSON.stringify(pages),
    watermark: form.watermark && form.shuiyin.trim() ? form.shuiyin.trim() : null,
    pages: pages.length,
  });
  try {
    await sendPdfJob(jobs, id);
  } catch (error) {
    await deletePdfTask(ctx.db, id);
    throw error;
  }
  return toPdfTask((await findPdfTask(ctx.db, id))!);
}

/**
 * One retry: a job whose process died before it recorded its run is expired by pg-boss and
 * retried; the claim (waiting → running) makes any second delivery do nothing.
 */
const sendPdfJob = (jobs: NonNullable<AppContext['jobs']>, taskId: string) => jobs.send(PPT_PDF_JOB, { taskId } satisfies PdfJobData, { retryLimit: 1 });

/**
 * Retry (任务管理 重试), as for Excel exports: the caller's failed task — e.g. one a restart
 * interrupted — runs again as the same task with the same pages and watermark; any other
 * status is 400 只有失败的导出任务可以重试. The slideshow and the dashboards the owner may see
 * are checked again when it runs; the run that claims it owns it (run_id).
 */
export async function retryPdfTask(ctx: AppContext, caller: Caller, id: string): Promise<PptPdfTask> {
  const task = await requireOwnPdfTask(ctx, caller, id);
  const jobs = ctx.jobs;
  if (!jobs) throw new AppError(503, pdfMessages.jobsOff);
  if (!(await resetFailedPdfTask(ctx.db, id))) throw badRequest(exportMessages.retryOnlyFailed);
  if (task.filePath) await fileStorage(ctx).delete(keyOfPath(task.filePath));
  try {
    await sendPdfJob(jobs, id);
  } catch (error) {
    await updatePdfTask(ctx.db, id, { status: 'failed', errMsg: pdfMessages.failed, finishTime: new Date() });
    throw error;
  }
  return toPdfTask((await findPdfTask(ctx.db, id))!);
}

/** Deletes the caller's task (任务管理 删除) and its file; a running one's job finds its row gone. */
export async function removePdfTask(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  const task = await requireOwnPdfTask(ctx, caller, id);
  await deletePdfTask(ctx.db, id);
  if (task.filePath) await fileStorage(ctx).delete(keyOfPath(task.filePath));
}

/** A task of the caller's own: anyone else's (administrators included) is 404 导出任务不存在. */
export async function requireOwnPdfTask(ctx: AppContext, caller: Caller, id: string): Promise<PdfTaskRow> {
  const task = await findPdfTask(ctx.db, id);
  if (!task || task.userId !== caller.userId) throw notFound(pdfMessages.taskNotFound);
  return task;
}

/** The finished PDF of the caller's task: a stream of it from the file storage, its name and size. */
export async function pdfFile(ctx: AppContext, caller: Caller, id: string): Promise<{ body: Readable; fileName: string; size: number }> {
  const task = await requireOwnPdfTask(ctx, caller, id);
  if (task.status !== 'done' || !task.filePath) throw notFound(task.status === 'failed' ? (task.errMsg ?? pdfMessages.failed) : pdfMessages.notReady);
  const files = fileStorage(ctx);
  const key = keyOfPath(task.filePath);
  const stat = await files.stat(key);
  const body = stat && (await files.get(key));
  if (!stat || !body) throw notFound(pdfMessages.fileMissing);
  return { body, fileName: task.fileName, size: stat.size };
}

/** Housekeeping (hourly): tasks older than PDF_KEEP_DAYS go with their files; tasks left running by a stopped process fail. */
export async function cleanupPdfTasks(ctx: AppContext, log: Logger, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - PDF_KEEP_DAYS * 86_400_000);
  let removed = 0;
  for (;;) {
    const old = await findPdfTasksCreatedBefore(ctx.db, before, 500);
    for (const task of old) {
      if (task.filePath)
        await fileStorage(ctx)
          .delete(keyOfPath(task.filePath))
          .catch(() => undefined);
    }
    removed += await deletePdfTasks(
      ctx.db,
      old.map((t) => t.id),
    );
    if (old.length < 500) break;
  }
  const stale = await failStalePdfTasks(ctx.db, new Date(now.getTime() - PDF_STALE_RUNNING_MS), INTERRUPTED_MESSAGE, now);
  if (removed > 0 || stale > 0) log.info({ removed, stale }, 'ppt pdf housekeeping done');
  return removed;
}
