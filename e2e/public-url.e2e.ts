import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 公开访问地址 (issue 16; docs/decisions.md): the server starts with PUBLIC_URL, which the settings
 * page shows as the default; an administrator sets 公开访问地址 in 系统设置, and the share dialog
 * of a board then shows a link under that address — not the address the browser used.
 */
describe('public base URL of links', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let boardId: number;

  beforeAll(async () => {
    app = await startApp({ PUBLIC_URL: 'https://env.example.com/', SHUTU_THUMBNAILS: '0' });
    const token = await apiLogin(app);
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '对外' });
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      title: '对外看板',
      categoryId: category.id,
      content: { type: 'quick', layout: [] },
      charts: [],
      publicStatus: 1,
    });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `public-url-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const shareLinkOfBoard = async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.getByTestId('board-share').click();
    const dialog = page.locator('.ant-modal');
    await dialog.getByText('分享「对外看板」').waitFor();
    await dialog.getByTestId('share-create').click();
    await dialog.getByTestId('share-created').waitFor();
    return dialog.getByTestId('share-link').inputValue();
  };

  it('the share dialog uses PUBLIC_URL while 公开访问地址 is empty', async () => {
    await page.goto(`${app.url}/system/settings`);
    const card = page.getByTestId('public-url-settings');
    await card.getByTestId('public-url-default').getByText('留空时使用环境变量 PUBLIC_URL：https://env.example.com').waitFor();
    expect(await card.getByTestId('public-url').inputValue()).toBe('');
    expect(await shareLinkOfBoard()).toMatch(/^https:\/\/env\.example\.com\/share\/[A-Za-z0-9_-]{10}$/);
  });

  it('an administrator sets 公开访问地址 in 系统设置; a bad one is refused; the share dialog then links under it', async () => {
    await page.goto(`${app.url}/system/settings`);
    const card = page.getByTestId('public-url-settings');
    const input = card.getByTestId('public-url');
    await input.fill('bi.example.com');
    await card.getByTestId('public-url-save').click();
    await card.getByText(/^公开访问地址格式不正确/).waitFor();

    await input.fill('https://BI.example.com/shutu/');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/system/public-url') && r.request().method() === 'PUT'),
      card.getByTestId('public-url-save').click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByText('保存成功').first().waitFor();
    await expect.poll(() => input.inputValue()).toBe('https://bi.example.com/shutu');
    await screenshot(page, 'public-url-saved');

    // Saved, not just shown: a reload reads it back.
    await page.reload();
    await expect.poll(() => page.getByTestId('public-url').inputValue()).toBe('https://bi.example.com/shutu');

    const link = await shareLinkOfBoard();
    expect(link).toMatch(/^https:\/\/bi\.example\.com\/shutu\/share\/[A-Za-z0-9_-]{10}$/);
    expect(link).not.toContain(app.url);
    await screenshot(page, 'public-url-share-dialog');
  });
});
