import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import { deleteOlderThan, fileStorage } from '../../platform/files/storage.ts';
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
/** Folder of the images in the file storage (the data directory or the S3 bucket, docs/storage.md). */
const IMAGE_PREFIX = 'alert-files/';

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
  const file = `${randomBytes(12).toString('hex')}.jpg`;
  await fileStorage(ctx).put(`${IMAGE_PREFIX}${file}`, data, { contentType: 'image/jpeg' });
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

export async function readAlertImage(ctx: AppContext, file: string): Promise<Readable> {
  if (!FILE_NAME.test(file)) throw notFound();
  const body = await fileStorage(ctx).get(`${IMAGE_PREFIX}${file}`);
  if (!body) throw notFound();
  return body;
}

/** Removes images older than ALERT_IMAGE_KEEP_DAYS (the tick calls it). */
export async function removeOldAlertImages(ctx: AppContext, now = Date.now()): Promise<void> {
  await deleteOlderThan(fileStorage(ctx), IMAGE_PREFIX, new Date(now - ALERT_IMAGE_KEEP_DAYS * 86_400_000));
}
