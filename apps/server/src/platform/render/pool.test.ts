import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { RenderError, RenderPool, isRendererAvailable } from './pool.ts';
import { imageSize, startTestPages, type TestPages } from './test-pages.ts';

/**
 * The headless Chromium pool against pages of a local http server: it waits for the page's
 * board state, refuses 'refused' and 'error', times out, shares one browser between
 * renders, renders at most N pages at once and relaunches a crashed browser.
 */
const chromiumPath = loadConfig().chromiumPath;
// CI installs Chromium in the global setup; a developer machine without it skips.
const runnable = isRendererAvailable(chromiumPath) || process.env.CI === 'true';

describe.skipIf(!runnable)('render pool', () => {
  let pages: TestPages;
  let pool: RenderPool;

  beforeAll(async () => {
    pages = await startTestPages();
    pool = new RenderPool({ executablePath: chromiumPath, maxPages: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    await pages?.close();
  });

  it('renders a page with Chinese text to a PNG of the viewport size once the page says ready', async () => {
    const png = await pool.renderPage({ url: `${pages.url}/ready?delay=300`, width: 800, height: 600, format: 'png' });
    expect(imageSize(png)).toEqual({ format: 'png', width: 800, height: 600 });
    // The bar drawn at the bottom is in the image: the page had rendered, not a blank tab.
    expect(png.length).toBeGreaterThan(5_000);
    if (process.env.RENDER_ARTIFACTS) fs.writeFileSync(path.join(os.tmpdir(), 'render-pool-chinese.png'), png);
  });

  it('renders JPEG and shrinks with a device scale factor below 1 (thumbnails)', async () => {
    const jpeg = await pool.renderPage({ url: `${pages.url}/ready`, width: 1920, height: 1080, deviceScaleFactor: 0.25, format: 'jpeg', quality: 90 });
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(imageSize(jpeg)).toEqual({ format: 'jpeg', width: 480, height: 270 });
  });

  it('times out with 渲染超时 when the page never leaves loading', async () => {
    const error = await pool.renderPage({ url: `${pages.url}/never`, width: 400, height: 300, format: 'png', timeoutMs: 1_500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error).toMatchObject({ reason: 'timeout', message: '渲染超时' });
  });

  it('refuses pages that say refused or error, and pages that answer 404', async () => {
    const refused = await pool.renderPage({ url: `${pages.url}/refused`, width: 400, height: 300, format: 'png' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: 'refused', message: '渲染页面拒绝访问（没有权限或链接已失效）', status: 403 });
    const failed = await pool.renderPage({ url: `${pages.url}/error`, width: 400, height: 300, format: 'png' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ reason: 'failed', message: '渲染页面加载失败' });
    const missing = await pool.renderPage({ url: `${pages.url}/missing`, width: 400, height: 300, format: 'png' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ reason: 'failed', message: '渲染页面无法打开（HTTP 404）' });
  });

  it('reuses one browser and renders at most two pages at once', async () => {
    const launchesBefore = pool.stats().launches;
    const renders = Array.from({ length: 5 }, (_, i) =>
      pool.renderPage({ url: `${pages.url}/ready?delay=400&n=${i}`, width: 320, height: 200, format: 'png' }),
    );
    const images = await Promise.all(renders);
    expect(images.map((png) => imageSize(png).width)).toEqual([320, 320, 320, 320, 320]);
    const stats = pool.stats();
    expect(stats.launches).toBe(launchesBefore);
    expect(stats.peakActive).toBe(2);
    expect([stats.active, stats.waiting]).toEqual([0, 0]);
    expect(pages.requested.filter((u) => u.startsWith('/ready?delay=400')).length).toBe(5);
  });

  it('launches a new browser when the old one went away', async () => {
    const before = pool.stats().launches;
    expect(before).toBeGreaterThanOrEqual(1);
    await pool.currentBrowser()!.close();
    const png = await pool.renderPage({ url: `${pages.url}/ready`, width: 300, height: 200, format: 'png' });
    expect(imageSize(png)).toMatchObject({ width: 300, height: 200 });
    expect(pool.stats().launches).toBe(before + 1);
  });
});

describe('render pool without Chromium', () => {
  it('says Chromium is not installed instead of failing obscurely', async () => {
    const pool = new RenderPool({ executablePath: '/nonexistent/chromium' });
    expect(pool.isAvailable()).toBe(false);
    const error = await pool.renderPage({ url: 'http://127.0.0.1:9/', width: 100, height: 100, format: 'png' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'unavailable', message: '服务器未安装 Chromium，无法生成图片' });
    expect(pool.stats().launches).toBe(0);
    await pool.close();
  });
});
