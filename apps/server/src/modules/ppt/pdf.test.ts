import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_STATE_ATTRIBUTE, type BoardSave } from '@shutu/contracts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { hasCommand } from '../../../test/system-packages.ts';
import { hashToken } from '../../platform/auth/tokens.ts';
import { loadConfig } from '../../platform/config.ts';
import { startTestS3Server } from '../../platform/files/s3-test-server.ts';
import { closeRenderer, isRendererAvailable } from '../../platform/render/renderer.ts';

/**
 * Slideshow PDF export end to end, with a stand-in for the web app's /fullpowerpoint page (a
 * local http server): the job renders each dashboard in the server's Chromium with a view token
 * of the exporting user and assembles one PDF — a page per dashboard at its size, the
 * watermark as real text. Run on the embedded store only: the rendering is what is tested, and
 * one Chromium run per CI is enough.
 */
const runnable = (isRendererAvailable(loadConfig({}).chromiumPath) && hasCommand('pdfinfo')) || process.env.CI === 'true';
type Headers = Record<string, string>;

/** Polls until `check` gives a value (no fixed sleeps). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface StandIn {
  url: string;
  requested: string[];
  /** Board id → what the page shows: a title, a grid height for quick boards, or a refusal. */
  boards: Map<number, { title: string; quickHeight?: number; refuse?: boolean }>;
  close(): Promise<void>;
}

/** /fullpowerpoint/{ppid}/{boardId}: the dashboard's title on a dark stage, ready after 50 ms (or refused). Anything else: ready. */
async function startStandIn(): Promise<StandIn> {
  const requested: string[] = [];
  const boards: StandIn['boards'] = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requested.push(url.pathname + url.search);
    const match = /^\/fullpowerpoint\/\d+\/(\d+)$/.exec(url.pathname);
    const board = match ? boards.get(Number(match[1])) : undefined;
    const state = board?.refuse ? 'refused' : 'ready';
    const grid = board?.quickHeight
      ? `<div data-testid="board-quick-grid" style="height:${board.quickHeight}px;background:linear-gradient(#1d3557,#457b9d)"></div>`
      : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="zh-CN" ${BOARD_STATE_ATTRIBUTE}="loading"><head><meta charset="utf-8">
<style>html,body{margin:0;background:#0b1f3a;color:#fff;font-family:'Noto Sans CJK SC',sans-serif}h1{margin:0;padding:40px;font-size:56px}</style></head>
<body><div data-ppt-current="true"><h1>${board?.title ?? '页面'}</h1>${grid}</div>
<script>setTimeout(() => document.documentElement.setAttribute('${BOARD_STATE_ATTRIBUTE}', '${state}'), 50)</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    boards,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!runnable)('slideshow PDF export', () => {
  let pages: StandIn;
  let server: TestServer;
  let admin: Headers;
  let other: Headers;
  let screenId: number;
  let quickId: number;
  let refusedId: number;
  let pptId: number;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ppt-pdf-'));

  const saveBoard = async (body: BoardSave): Promise<number> => {
    const res = await call(server, 'POST', '/api/board/boards', { headers: admin, payload: body });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };
  const exportPdf = async (payload: Record<string, unknown>, headers = admin) => call(server, 'POST', `/api/ppt/slideshows/${pptId}/pdf`, { headers, payload });
  const finished = (taskId: string) =>
    eventually(async () => {
      const task = (await call(server, 'GET', `/api/ppt/pdf-tasks/${taskId}`, { headers: admin })).body.data;
      return task.status === 'done' || task.status === 'failed' ? task : undefined;
    }, `pdf task ${taskId}`);

  beforeAll(async () => {
    pages = await startStandIn();
    server = await createTestServer('pglite', {}, { jobs: true, selfUrl: pages.url });
    admin = await server.login();
    const user = await createUser(server, admin);
    other = await server.login(user.account, user.password);
    const categoryId = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '幻灯片素材' } })).body
      .data.id;
    const text = (title: string) => ({ charts: [{ key: 't1', name: 'text' as const, ext: { filterList: [], text: title } }] });
    screenId = await saveBoard({
      title: '华东销售大屏',
      categoryId,
      publicStatus: 1,
      content: { type: 'screen', width: 1280, height: 720, layout: [{ i: 't1', x: 0, y: 0, w: 400, h: 120 }] },
      ...text('华东'),
    });
    quickId = await saveBoard({
      title: '渠道快速看板',
      categoryId,
      publicStatus: 1,
      content: { type: 'quick', layout: [{ i: 't1', x: 0, y: 0, w: 8, h: 4 }] },
      ...text('渠道'),
    });
    refusedId = await saveBoard({
      title: '拒绝访问的大屏',
      categoryId,
      publicStatus: 1,
      content: { type: 'screen', width: 1280, height: 720, layout: [] },
      charts: [],
    });
    pages.boards.set(screenId, { title: '华东销售大屏' });
    pages.boards.set(quickId, { title: '渠道快速看板', quickHeight: 2000 });
    pages.boards.set(refusedId, { title: '拒绝访问的大屏', refuse: true });
    const ppt = await call(server, 'POST', '/api/ppt/slideshows', {
      headers: admin,
      payload: { ppName: '月度经营/汇报', visualIds: [screenId, quickId, refusedId] },
    });
    expect(ppt.status, ppt.raw.body).toBe(200);
    pptId = ppt.body.data.id;
  }, 120_000);
  afterAll(async () => {
    if (server) await closeRenderer(server.ctx);
    await server?.close();
    await pages?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('renders the chosen dashboards into one watermarked PDF, a page per dashboard at its size', async () => {
    const started = await exportPdf({ page: 3, pagelist: [quickId, screenId], watermark: true, shuiyin: '保密' });
    expect(started.status, started.raw.body).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'waiting', pages: 2, rendered: 0, fileName: '月度经营_汇报.pdf' });
    const task = await finished(started.body.data.id);
    expect(task).toMatchObject({ status: 'done', pages: 2, rendered: 2, errMsg: null });

    // Each page was opened as the exporting user, with a view token revoked afterwards, in the slideshow's order.
    const opened = pages.requested.filter((u) => u.startsWith(`/fullpowerpoint/${pptId}/`));
    expect(opened.map((u) => u.split('?')[0])).toEqual([`/fullpowerpoint/${pptId}/${screenId}`, `/fullpowerpoint/${pptId}/${quickId}`]);
    expect(opened.every((u) => u.includes('print=1'))).toBe(true);
    const token = new URL(opened[0]!, pages.url).searchParams.get('token')!;
    const row = await server.ctx.db.selectFrom('authToken').select(['userId', 'revokedAt']).where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(row.userId).toBe(1);
    expect(row.revokedAt).not.toBeNull();

    const file = await server.app.inject({ method: 'GET', url: `/api/ppt/pdf-tasks/${task.id}/file`, headers: admin });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('月度经营_汇报.pdf')}`);
    const pdfPath = path.join(tmp, 'export.pdf');
    fs.writeFileSync(pdfPath, file.rawPayload);

    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '2', pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2\n/);
    expect(info).toMatch(/Title:\s+月度经营\/汇报/);
    // 1280 × 720 px = 960 × 540 pt; the quick board 1440 wide and as tall as its grid (2000 px + the title).
    const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
    expect(sizes[0]).toEqual([960, 540]);
    expect(sizes[1]![0]).toBe(1080);
    expect(sizes[1]![1]).toBeGreaterThan(1500);

    // The watermark and the dashboards' titles are real text in the PDF.
    const text = execFileSync('pdftotext', ['-raw', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('华东销售大屏');
    expect(text).toContain('渠道快速看板');
    // pdftotext puts each glyph of a 45° line on its own line: read without line breaks.
    expect(text.replace(/\s+/g, '').match(/保密/g)?.length ?? 0).toBeGreaterThan(10);
    // And page 1 draws: a PNG of it at 50 dpi is the page's size.
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdfPath, path.join(tmp, 'page')]);
    const png = fs.readFileSync(path.join(tmp, 'page-1.png'));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([667, 375]);

    // Another user cannot see the task or its file.
    const foreign = await call(server, 'GET', `/api/ppt/pdf-tasks/${task.id}`, { headers: other });
    expect([foreign.status, foreign.body.msg]).toEqual([404, '导出任务不存在']);
  }, 180_000);

  it('fails with 暂无可用于导出的数据… when no page renders, and asks for a page type', async () => {
    const started = await exportPdf({ page: 1, pagelist: [refusedId], watermark: false });
    expect(started.status, started.raw.body).toBe(200);
    const task = await finished(started.body.data.id);
    expect(task).toMatchObject({ status: 'failed', errMsg: '暂无可用于导出的数据，请检查报表图片是否存在！' });
    const file = await call(server, 'GET', `/api/ppt/pdf-tasks/${task.id}/file`, { headers: admin });
    expect(file.status).toBe(404);

    const none = await exportPdf({ page: 3, pagelist: [] });
    expect([none.status, none.body.msg]).toEqual([400, '请选择导出类型！']);
    const outside = await exportPdf({ page: 1, pagelist: [999_999] });
    expect([outside.status, outside.body.msg]).toEqual([400, '暂无可用于导出的数据，请检查报表图片是否存在！']);
  }, 120_000);
  it('with the file storage in an S3 bucket, the PDF lands in the bucket, downloads from it and goes with its task', async () => {
    const s3 = await startTestS3Server();
    const local = server.ctx.config.files;
    server.ctx.config.files = s3.config;
    try {
      const started = await exportPdf({ page: 1, pagelist: [screenId], watermark: false });
      const task = await finished(started.body.data.id);
      expect(task).toMatchObject({ status: 'done', pages: 1, errMsg: null });
      expect(s3.objectKeys()).toContain(`pdf/1/${task.id}.pdf`);
      expect(fs.existsSync(path.join(server.ctx.config.dataDir, 'pdf', '1', `${task.id}.pdf`))).toBe(false);

      const file = await server.app.inject({ method: 'GET', url: `/api/ppt/pdf-tasks/${task.id}/file`, headers: admin });
      expect(file.statusCode).toBe(200);
      expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
      const pdfPath = path.join(tmp, 'from-bucket.pdf');
      fs.writeFileSync(pdfPath, file.rawPayload);
      expect(execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);

      expect((await call(server, 'DELETE', `/api/ppt/pdf-tasks/${task.id}`, { headers: admin })).status).toBe(200);
      expect(s3.objectKeys()).not.toContain(`pdf/1/${task.id}.pdf`);
    } finally {
      server.ctx.config.files = local;
      await s3.stop();
    }
  }, 120_000);
});
