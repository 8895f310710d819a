import path from 'node:path';
import type { Logger } from 'pino';
import type { Page } from 'playwright-core';
import { pptMessages, pptRoutes, type BoardContentParsed } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import { fileStorage, keyOfPath } from '../../platform/files/storage.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { INTERRUPTED_MESSAGE } from '../../platform/jobs/recovery.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { parseContent, findBoard, QUICK_BOARD_VIEWPORT, issueViewToken } from '../board/index.ts';
import type { Caller } from '../perm/index.ts';
import { requireViewablePpt } from './access.ts';
import { assemblePdf, type PdfPageImage } from './pdf-document.ts';
import { claimPdfTask, failRunPdfTask, findPdfTask, updatePdfTask } from './pdf-repo.ts';
import { cleanupPdfTasks, PPT_PDF_CLEANUP_JOB, PPT_PDF_JOB, pdfMessages, type PdfJobData } from './pdf-service.ts';

/**
 * The 'ppt-pdf' job: renders every dashboard of a task as its owner — the slideshow's own
 * full-screen page `/fullpowerpoint/{ppid}/{boardId}?token=…&print=1` in the server's Chromium,
 * with a short-lived view token revoked right after — as a JPEG at full quality, then
 * assembles the pictures into one PDF with the watermark (pdf-document.ts).
 */

/** The viewer's print flag: no chrome, no auto-play, no on-screen watermark (the PDF draws its own). */
export const PRINT_QUERY = 'print=1';
/** Where the viewer marks the dashboard it shows (the PDF renders that one). */
const CURRENT_QUICK_GRID = '[data-ppt-current="true"] [data-testid="board-quick-grid"]';
/** Longest page rendered (CSS px): a quick board taller than this is cut (PDF viewers cap page length). */
const MAX_PAGE_HEIGHT = 19_000;

/** The window a dashboard is rendered in: screen boards at their design size; quick boards 1440 wide, as tall as their grid. */
export function slideViewport(content: BoardContentParsed): { width: number; height: number; growToContent: boolean } {
  if (content.type === 'quick') return { ...QUICK_BOARD_VIEWPORT, growToContent: true };
  return { width: content.width, height: content.height, growToContent: false };
}

/** Quick boards: the window grows to the whole grid so the picture holds every chart. */
async function growToContent(page: Page, width: number, height: number): Promise<number> {
  // Expressions as strings: the server is compiled without the DOM library.
  const bottom = Number(await page.evaluate(`Math.ceil(document.querySelector(${JSON.stringify(CURRENT_QUICK_GRID)})?.getBoundingClientRect().bottom ?? 0)`));
  const full = Math.min(MAX_PAGE_HEIGHT, Math.max(height, bottom));
  if (full > height) {
    await page.setViewportSize({ width, height: full });
    // Two frames: layout and paint at the new size before the picture is taken.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))');
  }
  return full;
}

/** One dashboard as the owner sees it in the slideshow; null when it is gone. */
async function renderSlide(ctx: AppContext, owner: Caller, pptId: number, boardId: number): Promise<PdfPageImage | null> {
  const board = await findBoard(ctx.db, boardId);
  if (!board) return null;
  const viewport = slideViewport(parseContent(board.content));
  const { token } = await issueViewToken(ctx, owner.userId, boardId);
  const url = `${ctx.selfUrl}${pptRoutes.full(pptId, boardId)}?token=${encodeURIComponent(token)}&${PRINT_QUERY}`;
  try {
    return await rendererOf(ctx).withReadyPage({ url, width: viewport.width, height: viewport.height }, async (page) => {
      const height = viewport.growToContent ? await growToContent(page, viewport.width, viewport.height) : viewport.height;
      const image = await page.screenshot({ type: 'jpeg', quality: 100, animations: 'disabled' });
      return { image, width: viewport.width, height, title: board.title };
    });
  } finally {
    await revokeToken(ctx.db, token);
  }
}

const messageOf = (error: unknown) => (error instanceof AppError ? error.message : pdfMessages.failed);

/**
 * Runs one task: claims it (waiting → running, so a second delivery does nothing), checks the
 * owner and the slideshow again, renders page after page (progress saved after each; a page
 * that fails is left out and logged), and stores the PDF. No page at all: failed with
 * 暂无可用于导出的数据，请检查报表图片是否存在！. Once claimed, only this run (`runId`) writes to the
 * task; if its process dies, the job's `abandoned` hook fails it (pptPdfJobs).
 */
export async function runPdfTask(ctx: AppContext, log: Logger, taskId: string, runId: string | null = null): Promise<void> {
  if (!(await claimPdfTask(ctx.db, taskId, new Date(), runId))) return;
  const task = (await findPdfTask(ctx.db, taskId))!;
  const fail = (errMsg: string) => updatePdfTask(ctx.db, taskId, { status: 'failed', errMsg, finishTime: new Date() }, runId);
  try {
    if (!ctx.selfUrl) throw new Error('the server does not know its own URL (selfUrl): cannot render');
    const user = await ctx.db.selectFrom('sysUser').select(['id', 'isAdministrator']).where('id', '=', task.userId).where('status', '=', 1).executeTakeFirst();
    if (!user) return void (await fail(pdfMessages.userMissing));
    const owner: Caller = { userId: user.id, isAdministrator: user.isAdministrator };
    const { ppt, boardIds: visible } = await requireViewablePpt(ctx, owner, task.pptId);
    const wanted = (JSON.parse(task.boardIds) as number[]).filter((id) => visible.includes(id));

    const images: PdfPageImage[] = [];
    for (const [index, boardId] of wanted.entries()) {
      try {
        const image = await renderSlide(ctx, owner, ppt.id, boardId);
        if (image) images.push(image);
      } catch (error) {
        log.warn({ err: error, taskId, boardId }, 'slideshow page not rendered');
      }
      await updatePdfTask(ctx.db, taskId, { rendered: index + 1 }, runId);
    }
    if (images.length === 0) return void (await fail(pptMessages.exportEmpty));

    const pdf = await assemblePdf(rendererOf(ctx), images, { title: ppt.ppName, watermark: task.watermark });
    const relative = path.join('pdf', String(task.userId), `${taskId}.pdf`);
    // Into the file storage (data directory or S3 bucket), whole or not at all: a download never sees half a file.
    await fileStorage(ctx).put(keyOfPath(relative), pdf, { contentType: 'application/pdf' });
    await updatePdfTask(ctx.db, taskId, { status: 'done', rendered: task.pages, filePath: relative, finishTime: new Date() }, runId);
    log.info({ taskId, pages: images.length, bytes: pdf.length }, 'slideshow pdf written');
  } catch (error) {
    log.warn({ err: error, taskId }, 'slideshow pdf failed');
    await fail(messageOf(error));
  }
}

/** The jobs of the PDF export: one export, and the hourly sweep. */
export function pptPdfJobs(ctx: AppContext, log: Logger): JobDefinition[] {
  const write: JobDefinition<PdfJobData> = {
    name: PPT_PDF_JOB,
    handle: (data, run) => runPdfTask(ctx, log, data.taskId, run?.id ?? null),
    // The process rendering it died: the task fails at once (the viewer shows why; 导出pdf again retries).
    abandoned: async (data, run) => {
      if (await failRunPdfTask(ctx.db, data.taskId, run.id, INTERRUPTED_MESSAGE, new Date()))
        log.warn({ taskId: data.taskId }, 'slideshow pdf interrupted: task failed');
    },
  };
  const cleanup: JobDefinition = {
    name: PPT_PDF_CLEANUP_JOB,
    cron: '41 * * * *',
    handle: async () => {
      await cleanupPdfTasks(ctx, log);
    },
  };
  return [write as JobDefinition, cleanup];
}
