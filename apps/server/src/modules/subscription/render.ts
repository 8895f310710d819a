import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { API, apiPath } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { revokeToken } from '../../platform/auth/tokens.ts';
import type { Config } from '../../platform/config.ts';
import { deleteOlderThan, fileStorage } from '../../platform/files/storage.ts';
import { notFound } from '../../platform/http/errors.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { parseContent, findBoard, QUICK_BOARD_VIEWPORT, issueViewToken } from '../board/index.ts';
import { linkBaseUrl } from '../system/index.ts';

/**
 * Rendering a subscription's boards (docs/subscriptions.md "Rendering"): each board's
 * /openview page in the server's Chromium, signed in as the subscriber (a view token, revoked
 * right after), so the images show exactly what the subscriber may see. Screen boards at their
 * design size, quick boards 1440 wide over their full height; JPEG at full quality.
 */
export interface RenderedPage {
  /** Board title (the file is `${title}.jpg`). */
  title: string;
  image: Buffer;
  width: number;
  height: number;
  /** The same page at a lower JPEG quality. */
  reencode: (quality: number) => Promise<Buffer>;
}

export type RenderBoard = (ctx: AppContext, userId: number, boardId: number) => Promise<RenderedPage>;

/** The CSS size of a JPEG (its SOF marker); the renderer draws at 1 device pixel per CSS pixel. */
export function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

export const renderBoardWithChromium: RenderBoard = async (ctx, userId, boardId) => {
  if (!ctx.selfUrl) throw new Error('the server does not know its own URL (selfUrl): cannot render');
  const board = await findBoard(ctx.db, boardId);
  if (!board) throw notFound();
  const content = parseContent(board.content);
  const quick = content.type === 'quick';
  const viewport = quick ? QUICK_BOARD_VIEWPORT : { width: content.width, height: content.height };
  const shoot = async (quality: number) => {
    const { token } = await issueViewToken(ctx, userId, boardId);
    try {
      return await rendererOf(ctx).renderPage({
        url: `${ctx.selfUrl}/openview/${boardId}?token=${encodeURIComponent(token)}`,
        ...viewport,
        fullPage: quick,
        format: 'jpeg',
        quality,
      });
    } finally {
      await revokeToken(ctx.db, token);
    }
  };
  const image = await shoot(100);
  const size = jpegSize(image) ?? viewport;
  return { title: board.title, image, ...size, reencode: shoot };
};

/**
 * Images and PDFs the robots link to: `subscription-files/{24 hex}.{jpg|pdf}` in the file storage
 * (the data directory or the S3 bucket, docs/storage.md: any process can serve them),
 * served publicly under API.subscription.image (an unguessable name, like thumbnails), removed
 * after SUBSCRIPTION_FILE_KEEP_DAYS.
 */
export const SUBSCRIPTION_FILE_KEEP_DAYS = 7;
const FILE_NAME = /^[a-f0-9]{24}\.(jpg|pdf)$/;
const FILE_PREFIX = 'subscription-files/';
/** Where the files lie when the file storage is the local directory. */
export const subscriptionFileDir = (config: Config) =>
  `${config.files.kind === 'local' && config.files.dir ? config.files.dir : config.dataDir}/subscription-files`;

export async function storeSubscriptionFile(ctx: AppContext, data: Buffer, extension: 'jpg' | 'pdf'): Promise<string | undefined> {
  // The recipients' robots and clients fetch these: 公开访问地址, else PUBLIC_URL, else this server's own address.
  const base = await linkBaseUrl(ctx, ctx.selfUrl);
  if (!base) return undefined;
  const file = `${randomBytes(12).toString('hex')}.${extension}`;
  await fileStorage(ctx).put(`${FILE_PREFIX}${file}`, data, { contentType: extension === 'pdf' ? 'application/pdf' : 'image/jpeg' });
  return `${base}${apiPath(API.subscription.image, { file })}`;
}

/** The file as a stream from the file storage (a PDF may be some MB). */
export async function readSubscriptionFile(ctx: AppContext, file: string): Promise<Readable> {
  if (!FILE_NAME.test(file)) throw notFound();
  const body = await fileStorage(ctx).get(`${FILE_PREFIX}${file}`);
  if (!body) throw notFound();
  return body;
}

export async function removeOldSubscriptionFiles(ctx: AppContext, now = Date.now()): Promise<void> {
  await deleteOlderThan(fileStorage(ctx), FILE_PREFIX, new Date(now - SUBSCRIPTION_FILE_KEEP_DAYS * 24 * 3600_000));
}
