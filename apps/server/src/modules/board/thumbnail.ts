import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { API, type BoardContentParsed } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import type { Config } from '../../platform/config.ts';
import { fileStorage } from '../../platform/files/storage.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { JobDefinition } from '../../platform/jobs/boss.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { parseContent } from './model.ts';
import { findBoard } from './repo.ts';
import { issueViewToken } from './view-token.ts';

/**
 * Board thumbnails (the card image of the list, spec 1 §2.1; `backgroundUrl`): after every
 * save or copy a job renders the board's /openview page in the server's headless Chromium
 * and stores a small JPEG as `thumbnails/<file>` in the file storage (docs/rendering.md,
 * docs/storage.md: the data directory by default, or the S3 bucket).
 */

export const BOARD_THUMBNAIL_JOB = 'board-thumbnail';
/** Card-sized: the list shows cards about this wide. */
export const THUMBNAIL_WIDTH = 480;
/** Plenty for a 480 px card image; the spec's full quality is for image export. */
export const THUMBNAIL_QUALITY = 90;
/** Quick boards are a responsive grid: rendered in a common desktop window. */
export const QUICK_BOARD_VIEWPORT = { width: 1440, height: 900 } as const;
const THUMBNAIL_URL_PREFIX = API.board.thumbnail.replace(':file', '');
/** Only names this module made: no path separators, no dots but the extension. */
const THUMBNAIL_FILE = /^[a-z0-9-]+\.jpg$/;

export const thumbnailMessages = {
  notFound: '缩略图不存在',
} as const;

export interface ThumbnailJobData {
  boardId: number;
  /** When the save that asked for it happened (ms); a render started later already shows it. */
  requestedAt?: number;
}

/** The storage key of a thumbnail file. */
export const thumbnailKey = (file: string) => `thumbnails/${file}`;

/** Where thumbnails lie when the file storage is the local directory (tests look there). */
export const thumbnailDir = (config: Config) => `${config.files.kind === 'local' && config.files.dir ? config.files.dir : config.dataDir}/thumbnails`;

/**
 * Asks for a fresh thumbnail of the board (after a save or copy). Without a job queue (an
 * API-only test) or with thumbnails turned off (SHUTU_THUMBNAILS=0) nothing happens, and a failure to enqueue does not fail the save that
 * triggered it: the thumbnail only stays as it was until the next save.
 */
export async function requestThumbnail(ctx: AppContext, boardId: number): Promise<void> {
  if (!ctx.jobs || !ctx.config.thumbnails) return;
  const data: ThumbnailJobData = { boardId, requestedAt: Date.now() };
  // One retry: only a render whose process died is retried (the handler itself never throws).
  await ctx.jobs.send(BOARD_THUMBNAIL_JOB, data, { singletonKey: `board-${boardId}`, retryLimit: 1 }).catch(() => null);
}

/**
 * The job. A burst of saves sends a burst of jobs; the queue works them one at a time, and
 * a job asked for before the last render of that board started is skipped, since that render
 * already showed its save. Failures (no Chromium, timeout, page error) are logged and the
 * board keeps its previous thumbnail: a thumbnail is never worth a retry storm.
 */
export function boardThumbnailJob(ctx: AppContext, log: Logger): JobDefinition<ThumbnailJobData> {
  const lastStarted = new Map<number, number>();
  return {
    name: BOARD_THUMBNAIL_JOB,
    // One queued render per board (singletonKey board-{id}); a save while one runs queues the next.
    policy: 'short',
    async handle({ boardId, requestedAt }) {
      if (requestedAt !== undefined && requestedAt < (lastStarted.get(boardId) ?? 0)) {
        log.debug({ boardId }, 'board thumbnail already rendered since it was asked for');
        return;
      }
      lastStarted.set(boardId, Date.now());
      try {
        const url = await renderThumbnail(ctx, boardId);
        log.info({ boardId, url }, 'board thumbnail rendered');
      } catch (error) {
        log.warn({ err: error, boardId }, 'board thumbnail not rendered');
      }
    },
  };
}

/** Viewport and scale: screen boards at their design width (no taller than wide), quick boards in a desktop window. */
export function thumbnailViewport(content: BoardContentParsed): { width: number; height: number; deviceScaleFactor: number } {
  const { width, height } = content.type === 'quick' ? QUICK_BOARD_VIEWPORT : { width: content.width, height: Math.min(content.height, content.width) };
  return { width, height, deviceScaleFactor: THUMBNAIL_WIDTH / width };
}

/**
 * Renders the board as the user it belongs to and makes the result its thumbnail; returns
 * the new URL, or null when the board is gone. The previous file is deleted unless another
 * board (a copy) still shows it.
 */
export async function renderThumbnail(ctx: AppContext, boardId: number): Promise<string | null> {
  if (!ctx.selfUrl) throw new Error('the server does not know its own URL (selfUrl): cannot render');
  const board = await findBoard(ctx.db, boardId);
  if (!board) return null;
  const viewer = await viewerOf(ctx, board.createUserId);
  const { token } = await issueViewToken(ctx, viewer, boardId);
  let image: Buffer;
  try {
    image = await rendererOf(ctx).renderPage({
      url: `${ctx.selfUrl}/openview/${boardId}?token=${encodeURIComponent(token)}`,
      ...thumbnailViewport(parseContent(board.content)),
      format: 'jpeg',
      quality: THUMBNAIL_QUALITY,
    });
  } finally {
    await revokeToken(ctx.db, token);
  }

  const files = fileStorage(ctx);
  const file = `${boardId}-${randomBytes(12).toString('hex')}.jpg`;
  // Stored whole or not at all: a reader never sees half a file.
  await files.put(thumbnailKey(file), image, { contentType: 'image/jpeg' });
  const url = THUMBNAIL_URL_PREFIX + file;

  // Locked so that two renders of one board each delete the file the other replaced.
  const swapped = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('board').select('backgroundUrl').where('id', '=', boardId).forUpdate().executeTakeFirst();
    if (!row) return undefined;
    // Not an edit: update_time stays.
    await trx.updateTable('board').set({ backgroundUrl: url }).where('id', '=', boardId).execute();
    return { previous: row.backgroundUrl };
  });
  if (!swapped) {
    await files.delete(thumbnailKey(file));
    return null;
  }
  await removeThumbnail(ctx, swapped.previous);
  return url;
}

/**
 * Deletes the thumbnail file behind a background URL, when it is one of ours and no board
 * shows it any more (copies share their original's file until their own render).
 */
export async function removeThumbnail(ctx: AppContext, backgroundUrl: string | null): Promise<void> {
  const file = thumbnailFileOf(backgroundUrl);
  if (!file) return;
  const stillShown = await ctx.db.selectFrom('board').select('id').where('backgroundUrl', '=', backgroundUrl).executeTakeFirst();
  if (stillShown) return;
  await fileStorage(ctx).delete(thumbnailKey(file));
}

/** The file name behind one of our thumbnail URLs, or undefined. */
export function thumbnailFileOf(backgroundUrl: string | null): string | undefined {
  if (!backgroundUrl?.startsWith(THUMBNAIL_URL_PREFIX)) return undefined;
  const file = backgroundUrl.slice(THUMBNAIL_URL_PREFIX.length);
  return THUMBNAIL_FILE.test(file) ? file : undefined;
}

/**
 * GET thumbnails/:file: the image. Public (an <img> cannot send the bearer token); a name
 * carries 96 random bits, so only who was shown the URL can fetch it. A new render gets a
 * new name, so the image may be cached for good.
 */
export async function readThumbnail(ctx: AppContext, file: string): Promise<Buffer> {
  if (!THUMBNAIL_FILE.test(file)) throw notFound(thumbnailMessages.notFound);
  // A card image of some tens of KB: read whole.
  const image = await fileStorage(ctx).read(thumbnailKey(file));
  if (!image) throw notFound(thumbnailMessages.notFound);
  return image;
}

/** Who the render signs in as: the creator while enabled, else the first enabled administrator. */
async function viewerOf(ctx: AppContext, createUserId: number | null): Promise<number> {
  if (createUserId !== null) {
    const creator = await ctx.db.selectFrom('sysUser').select('id').where('id', '=', createUserId).where('status', '=', 1).executeTakeFirst();
    if (creator) return creator.id;
  }
  const admin = await ctx.db.selectFrom('sysUser').select('id').where('isAdministrator', '=', true).where('status', '=', 1).orderBy('id').executeTakeFirst();
  if (!admin) throw new Error('no enabled user to render the board as');
  return admin.id;
}
