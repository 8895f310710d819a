import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 点击热力图 beyond the demo website (issue 22, docs/heatmap.md): an administrator adds a site
 * and gets its write key and tag on 网站与写入密钥; a shop on another origin that refuses framing
 * (X-Frame-Options: DENY) includes the tracker with that key; three clicks there come back on the
 * heat map over the server's screenshot of the shop at the width shown; the site is then disabled
 * (its batches refused) and deleted with its clicks.
 */
describe('点击热力图：网站、写入密钥与截图', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let shop: http.Server;
  let shopUrl = '';
  let writeKey = '';
  const title = '外部商城-首页';

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    // The shop: another origin, refusing to be framed, with the product's tracker on the key the test sets.
    shop = http.createServer((req, res) => {
      res.setHeader('x-frame-options', 'DENY');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      const button = (label: string, left: number, top: number) =>
        `<button style="position:absolute;left:${left}%;top:${top}px;width:20%;height:60px;font-size:20px">${label}</button>`;
      res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title>
        <script src="${app.url}/tracker/shutu-track.js" data-write-key="${writeKey}" defer></script></head>
        <body style="margin:0;font-family:sans-serif;position:relative;height:1400px;background:linear-gradient(#fff7e6,#e6f4ff)">
        <h1 style="margin:0;padding:24px;background:#fa541c;color:#fff">外部商城 · 不允许被嵌入</h1>
        ${button('手机专区', 10, 200)}${button('家电专区', 40, 500)}${button('会员中心', 70, 900)}</body></html>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/shop.html`;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `heatmap-sites-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => shop?.close(resolve));
  });

  it('adds a site on 网站与写入密钥 and shows its key and tag', async () => {
    await page.goto(`${app.url}/newbi/heatmap`);
    await page.getByTestId('heatmap-sites-link').click();
    await page.getByRole('heading', { name: '网站与写入密钥' }).waitFor();
    await page.getByTestId('site-add').click();
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('请输入网站名称').waitFor();
    await page.getByTestId('site-name').fill('外部商城');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/heatmap/sites') && r.request().method() === 'POST');
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    writeKey = ((await (await created).json()) as { data: { writeKey: string } }).data.writeKey;
    const row = page.locator('tr', { hasText: '外部商城' });
    await row.getByText(writeKey).waitFor();
    await row.locator('.ant-table-row-expand-icon').click();
    await page.getByText(`data-write-key="${writeKey}"`).waitFor();
    await screenshot(page, 'heatmap-sites');
  });

  it('shows clicks on a site that refuses framing over the server’s screenshot of it', async () => {
    const visitor = await newPage(browser, { width: 1280, height: 900 });
    await visitor.goto(shopUrl);
    await visitor.waitForFunction('"shutuTrack" in window');
    for (const label of ['手机专区', '家电专区', '会员中心']) await visitor.getByRole('button', { name: label }).click();
    await visitor.goto('about:blank');
    await eventually(
      async () => {
        const sites = await apiCall<{ writeKey: string; acceptedEvents: number }[]>(app, token, 'GET', '/api/heatmap/sites');
        return sites.find((s) => s.writeKey === writeKey)?.acceptedEvents === 3 ? true : undefined;
      },
      'three clicks of the shop at the server',
      30_000,
    );
    await visitor.context().close();

    await page.goto(`${app.url}/newbi/heatmap`);
    await page.getByTestId('heatmap-title').click();
    await page.keyboard.type('外部商城');
    await page.locator('.ant-select-item-option').filter({ hasText: title }).click();
    await page.getByTestId('heatmap-range').first().click();
    await page.getByText('最近一周').click();
    await page.getByTestId('heatmap-query').click();
    const result = page.getByTestId('heatmap-result');
    await result.waitFor();
    expect(await result.getAttribute('data-total')).toBe('3');
    await page.getByTestId('heatmap-shot-reason').getByText('该网站禁止被其他网站嵌入（X-Frame-Options: DENY）', { exact: false }).waitFor();
    const shot = page.getByTestId('heatmap-shot');
    await shot.waitFor();
    await page.waitForFunction(
      'document.querySelector("[data-testid=heatmap-shot]").complete && document.querySelector("[data-testid=heatmap-shot]").naturalHeight > 0',
    );
    // Taken at the width shown, as tall as the page; the layer covers it and holds the three clicks.
    const box = await page.getByTestId('heatmap-box').boundingBox();
    const shotWidth = Number(await shot.getAttribute('data-shot-width'));
    expect(Math.abs(shotWidth - box!.width)).toBeLessThan(24);
    expect(await shot.evaluate((img) => (img as unknown as { naturalHeight: number }).naturalHeight)).toBe(1400);
    expect(await page.getByTestId('heatmap-layer').getAttribute('data-points')).toBe('3');
    await page.locator('iframe.heatmap-frame').waitFor({ state: 'detached' });
    await screenshot(page, 'heatmap-screenshot-fallback');
  });

  it('disables the site (its batches refused) and deletes it with its clicks', async () => {
    await page.goto(`${app.url}/newbi/heatmap-sites`);
    const row = page.locator('tr', { hasText: '外部商城' });
    await row.getByRole('switch').click();
    await row.getByText('停用').waitFor();
    const refused = await fetch(`${app.url}/track/batch`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ writeKey, events: [{ event: 'clickScreen', x: 1, y: 1, pageWidth: 1280, url: shopUrl, title, distinctId: 'x' }] }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { msg: string }).msg).toBe('该网站已停用，不再接收点击事件');
    await row.getByText('删除').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await row.waitFor({ state: 'detached' });
    const titles = await apiCall<{ title: string }[]>(app, token, 'GET', '/api/heatmap/titles');
    expect(titles.some((t) => t.title === title)).toBe(false);
  });
});
