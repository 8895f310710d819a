import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { NotifyImage } from '../../platform/notify/message.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { findBoard, issueViewToken, parseContent, QUICK_BOARD_VIEWPORT } from '../board/index.ts';
import { linkBaseUrl } from '../system/index.ts';

/**
 * The image of an alert's first attached board (docs/alerts.md "The message"): the board's
 * /openview page in the server's Chromium pool, signed in as the ALERT'S OWNER (a view token,
 * revoked right after) — the same rights the check read its rows with. Screen boards at their
 * design size, quick boards 1440 wide over their full height. The robots that take images by
 * URL (DingTalk, Feishu's link) fetch it from a public, unguessable address under
 * ALERT_IMAGE_ROUTE, kept ALERT_IMAGE_KEEP_DAYS.
 */

export const ALERT_IMAGE_ROUTE = '/api/alert/images/:file';
export const ALERT_IMAGE_KEEP_DAYS = 7;
const FILE_NAME = /^[a-f0-9]{24}\.jpg$/;
const imageDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'alert-files');

/** Renders `boardId` as `userId` sees it, as JPEG at `quality`. */
export type RenderAlertBoard = (ctx: AppContext, userId: number, boardId: number, quality: number) => Promise<{ title: string; image: Buffer }>;

export const renderBoardJpeg: RenderAlertBoard = async (ctx, userId, boardId, quality) => {
  if (!ctx.selfUrl) throw new Error('服务器未知自身地址，无法生成报表图片');
  const board = await findBoard(ctx.db, boardId);
  if (!board) throw notFound('报表不存在');
  const content = parseContent(board.content);
  const quick = content.type === 'quick';
  const { token } = await issueViewToken(ctx, userId, boardId);
  try {
    const image = await rendererOf(ctx).renderPage({
      url: `${ctx.selfUrl}/openview/${boardId}?token=${encodeURIComponent(token)}`,
      ...(quick ? QUICK_BOARD_VIEWPORT : { width: content.width, height: content.height }),
      fullPage: quick,
      format: 'jpeg',
      quality,
    });
    return { title: board.title, image };
  } finally {
    await revokeToken(ctx.db, token);
  }
};

/** Test seam: a test may count renders; production renders with Chromium. */
const renderers = new WeakMap<AppContext, RenderAlertBoard>();
export function setAlertBoardRenderer(ctx: AppContext, render: RenderAlertBoard): void {
  renderers.set(ctx, render);
}

async function storeImage(ctx: AppContext, data: Buffer): Promise<string | undefined> {
  const base = await linkBaseUrl(ctx, ctx.selfUrl);
  if (!base) return undefined;
  await fs.mkdir(imageDir(ctx), { recursive: true });
  const file = `${randomBytes(12).toString('hex')}.jpg`;
  await fs.writeFile(path.join(imageDir(ctx), `${file}.tmp`), data);
  await fs.rename(path.join(imageDir(ctx), `${file}.tmp`), path.join(imageDir(ctx), file));
  return `${base}${ALERT_IMAGE_ROUTE.replace(':file', file)}`;
}

/** The notice's image of the board, or the line saying why there is none (the notice goes out regardless). */
export async function boardImage(ctx: AppContext, ownerId: number, board: { id: number; title: string }): Promise<NotifyImage | string> {
  const render = renderers.get(ctx) ?? renderBoardJpeg;
  try {
    const { title, image } = await render(ctx, ownerId, board.id, 90);
    const name = `${(board.title || title).replace(/[\\/:*?"<>|]/g, '_')}.jpg`;
    return { name, data: image, url: await storeImage(ctx, image), reencode: async (quality) => (await render(ctx, ownerId, board.id, quality)).image };
  } catch (error) {
    return `报表【${board.title}】图片生成失败：${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function readAlertImage(ctx: AppContext, file: string): Promise<Buffer> {
  if (!FILE_NAME.test(file)) throw notFound();
  try {
    return await fs.readFile(path.join(imageDir(ctx), file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
    throw error;
  }
}

/** Removes images older than ALERT_IMAGE_KEEP_DAYS (the tick calls it). */
export async function removeOldAlertImages(ctx: AppContext, now = Date.now()): Promise<void> {
  const files = await fs.readdir(imageDir(ctx)).catch(() => [] as string[]);
  for (const file of files) {
    const stat = await fs.stat(path.join(imageDir(ctx), file)).catch(() => undefined);
    if (stat && now - stat.mtimeMs > ALERT_IMAGE_KEEP_DAYS * 86_400_000) await fs.rm(path.join(imageDir(ctx), file), { force: true });
  }
}
