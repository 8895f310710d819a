import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { hashToken } from '../../platform/auth/tokens.ts';
import { loadConfig } from '../../platform/config.ts';
import { closeRenderer, isRendererAvailable } from '../../platform/render/renderer.ts';
import { imageSize, startTestPages, type TestPages } from '../../platform/render/test-pages.ts';
import { startTestS3Server, type TestS3Server } from '../../platform/files/s3-test-server.ts';
import { boardThumbnailJob, thumbnailDir } from './thumbnail.ts';

/**
 * Thumbnails end to end, with a stand-in for the web app's /openview page: a save enqueues
 * the job, the server's Chromium renders the page as the board's creator, the card image
 * appears under /api/board/thumbnails/, and the previous image goes on the next save.
 */
const kinds = await storeKinds();
const silent = pino({ level: 'silent' });
/** What the jobs warned about (a render that failed): named when a wait times out. */
const warnings: string[] = [];
const jobLog = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line.trim()) });
// The test server's configuration (no environment): Chromium at its default path.
const runnable = isRendererAvailable(loadConfig({}).chromiumPath) || process.env.CI === 'true';
type Headers = Record<string, string>;

/** Polls until `check` gives a value; fails after the deadline (no fixed sleeps). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${warnings.length ? `; the jobs warned: ${warnings.join('\n')}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Every store with files in the data directory, and PGlite with files in an S3 bucket (docs/storage.md).
const cases = [...kinds.map((kind) => ({ kind, files: 'local' as const })), { kind: 'pglite' as const, files: 's3' as const }];

describe.skipIf(!runnable).each(cases)('board thumbnails on $kind, files $files', ({ kind, files }) => {
  let s3: TestS3Server | undefined;
  let pages: TestPages;
  let server: TestServer;
  let admin: Headers;
  let creator: { id: number; headers: Headers };
  let categoryId: number;

  const board = (title: string, extra: Partial<BoardSave> = {}): BoardSave => ({
    title,
    categoryId,
    publicStatus: 0,
    content: { type: 'screen', width: 1920, height: 1080, layout: [{ i: 't1', x: 0, y: 0, w: 400, h: 120 }] },
    charts: [{ key: 't1', name: 'text', ext: { filterList: [], text: title } }],
    ...extra,
  });
  const save = async (body: BoardSave): Promise<number> => {
    const res = await call(server, 'POST', '/api/board/boards', { headers: creator.headers, payload: body });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };
  const backgroundOf = async (id: number): Promise<string | null> =>
    (await call(server, 'GET', `/api/board/boards/${id}`, { headers: admin })).body.data.backgroundUrl;
  const thumbnailChanged = (id: number, from: string | null) =>
    eventually(async () => {
      const url = await backgroundOf(id);
      return url !== null && url !== from ? url : undefined;
    }, `a new thumbnail of board ${id}`);
  /** Whether the image is stored: a file under the data directory, or an object in the bucket. */
  const stored = (url: string) =>
    s3 ? s3.objectKeys().includes(`thumbnails/${path.basename(url)}`) : fs.existsSync(path.join(thumbnailDir(server.ctx.config), path.basename(url)));

  beforeAll(async () => {
    pages = await startTestPages();
    server = await createTestServer(kind, {}, { jobs: true, selfUrl: pages.url, jobLog });
    if (files === 's3') {
      s3 = await startTestS3Server();
      server.ctx.config.files = s3.config;
    }
    admin = await server.login();
    const user = await createUser(server, admin);
    creator = { id: user.id, headers: await server.login(user.account, user.password) };
    categoryId = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '缩略图' } })).body.data.id;
  });
  afterAll(async () => {
    if (server) await closeRenderer(server.ctx);
    await server?.close();
    await pages?.close();
    await s3?.stop();
  });

  it('renders a card-sized JPEG after a save, as the creator, and replaces it on the next save', async () => {
    const id = await save(board('华东销售大屏'));
    const first = await thumbnailChanged(id, null);
    expect(first).toMatch(new RegExp(`^/api/board/thumbnails/${id}-[0-9a-f]{24}\\.jpg$`));

    // Anyone may fetch it without signing in (an <img>), as a JPEG the size of a card.
    const image = await server.app.inject({ method: 'GET', url: first });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toContain('immutable');
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(imageSize(image.rawPayload)).toEqual({ format: 'jpeg', width: 480, height: 270 });

    // The page was opened with a view token of the creator, revoked once rendered.
    const opened = pages.requested.find((u) => u.startsWith(`/openview/${id}?token=`))!;
    const token = new URL(opened, pages.url).searchParams.get('token')!;
    const row = await server.ctx.db.selectFrom('authToken').select(['userId', 'revokedAt']).where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(row.userId).toBe(creator.id);
    expect(row.revokedAt).not.toBeNull();

    expect(stored(first)).toBe(true);
    await save(board('华东销售大屏（改）', { id }));
    const second = await thumbnailChanged(id, first);
    expect(stored(second)).toBe(true);
    // The old file goes right after the new URL is committed (a file cannot join the transaction).
    await eventually(async () => (stored(first) ? undefined : true), 'the previous thumbnail file to go');
    const gone = await call(server, 'GET', first);
    expect([gone.status, gone.body.msg]).toEqual([404, '缩略图不存在']);
  }, 180_000);

  it('renders quick boards in a desktop window and gives a copy its own image, keeping the original', async () => {
    const id = await save(board('快速看板', { content: { type: 'quick', layout: [{ i: 't1', x: 0, y: 0, w: 8, h: 4 }] } }));
    const original = await thumbnailChanged(id, null);
    const image = await server.app.inject({ method: 'GET', url: original });
    expect(imageSize(image.rawPayload)).toEqual({ format: 'jpeg', width: 480, height: 300 });

    const copy = await call(server, 'POST', `/api/board/boards/${id}/copy`, { headers: creator.headers });
    expect(copy.status, copy.raw.body).toBe(200);
    const copied = await thumbnailChanged(copy.body.data, original);
    expect(copied).toMatch(new RegExp(`^/api/board/thumbnails/${copy.body.data}-`));
    // The original still shows its own file.
    expect(await backgroundOf(id)).toBe(original);
    expect(stored(original)).toBe(true);
  }, 180_000);

  it('does not render again for a save that an earlier render already showed', async () => {
    const id = await save(board('合并渲染'));
    await thumbnailChanged(id, null);
    const job = boardThumbnailJob(server.ctx, silent);
    const visits = () => pages.requested.filter((u) => u.startsWith(`/openview/${id}?`)).length;
    const before = visits();
    await job.handle({ boardId: id, requestedAt: Date.now() });
    expect(visits()).toBe(before + 1);
    // Asked for before the render above started: already shown, skipped.
    await job.handle({ boardId: id, requestedAt: Date.now() - 60_000 });
    expect(visits()).toBe(before + 1);
  });

  it('leaves the thumbnail alone when Chromium is missing', async () => {
    const id = await save(board('没有浏览器'));
    const current = await thumbnailChanged(id, null);
    const withoutChromium = { ...server.ctx, config: { ...server.ctx.config, chromiumPath: '/nonexistent/chromium' } };
    await boardThumbnailJob(withoutChromium, silent).handle({ boardId: id, requestedAt: Date.now() });
    expect(await backgroundOf(id)).toBe(current);
  });

  it('answers 404 for names it did not make', async () => {
    for (const url of [
      '/api/board/thumbnails/..%2F..%2Fetc%2Fpasswd',
      '/api/board/thumbnails/1-abc.png',
      '/api/board/thumbnails/1-abc.jpg',
      '/api/board/thumbnails/.jpg.tmp',
    ]) {
      const res = await call(server, 'GET', url);
      expect([res.status, res.body.msg], url).toEqual([404, '缩略图不存在']);
    }
  });
});
