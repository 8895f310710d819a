import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

interface ListItem {
  id: number;
  title: string;
  backgroundUrl: string | null;
}

/** A board of one text chart: needs no dataset, so the list's own behaviour is what is tested. */
function textBoard(title: string, categoryId: number) {
  return {
    kind: 'visual',
    title,
    categoryId,
    content: { type: 'screen', width: 1280, height: 720, bgColor: '#0b1f3a' },
    charts: [
      {
        key: 'note',
        name: 'text',
        title: '说明',
        site: { x: 80, y: 80, w: 800, h: 240 },
        option: { fontSize: 48, color: '#ffffff' },
        ext: { text: `${title}：本月销售额同比增长 12%` },
      },
    ],
  };
}

/**
 * The board list beyond what its component test covers (spec 1 §2.1): the demo boards a new
 * user sees at first login, drag to reorder (persisted through the sort call), copy with its
 * confirmation, and real thumbnails rendered by the server's Chromium after a save.
 */
describe('board list', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let categoryId: number;
  const titles = ['季度经营看板', '渠道分析看板', '区域销售看板'];

  beforeAll(async () => {
    app = await startApp({ SHUTU_THUMBNAILS: '1' });
    token = await apiLogin(app);
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '经营分析', parentId: 0 });
    categoryId = category.id;
    for (const title of titles) await apiCall(app, token, 'POST', '/api/board/boards', textBoard(title, categoryId));
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `board-list-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const listOfCategory = () => apiCall<{ records: ListItem[] }>(app, token, 'GET', `/api/board/boards?kind=visual&current=1&size=50&categoryId=${categoryId}`);
  const cardTitles = (p: Page) => p.locator('[data-testid="board-card"] .board-card-title').allInnerTexts();

  async function openCategory(p: Page) {
    await p.goto(`${app.url}/newbi/visual`);
    await p.locator('.board-side').getByText('经营分析', { exact: true }).click();
    await p.getByText('可视化大屏 · 经营分析').waitFor();
    await p.locator('[data-testid="board-card"]').first().waitFor();
  }

  it('shows the demo dashboards to a new user at first login', async () => {
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'viewer1', password: md5('viewer123'), name: '看板用户' });
    const viewer = await newPage(browser);
    await loginThroughPage(viewer, app, 'viewer1', 'viewer123');
    await viewer.goto(`${app.url}/newbi/visual`);
    await viewer.locator('[data-testid="board-card"]').first().waitFor();
    const seen = await cardTitles(viewer);
    expect(seen.length).toBeGreaterThan(0);
    // The demo boards are public; boards of the admin's own category are public too (default), the demo ones come first in their category.
    expect(seen.some((t) => t.includes('销售'))).toBe(true);
    await viewer.context().close();
  });

  it('reorders cards by dragging and keeps the order after a reload', async () => {
    await openCategory(page);
    // The grid swaps from 全部 to the category's boards once its list arrives.
    await expect.poll(async () => (await cardTitles(page)).sort()).toEqual([...titles].sort());
    const before = await cardTitles(page);
    const cards = page.locator('[data-testid="board-card"]');
    const [sorted] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/board/sort') && r.request().method() === 'PUT'),
      cards.nth(2).dragTo(cards.nth(0)),
    ]);
    expect(sorted.ok()).toBe(true);
    const expected = [before[2]!, before[0]!, before[1]!];
    await expect.poll(() => cardTitles(page)).toEqual(expected);
    expect((await listOfCategory()).records.map((b) => b.title)).toEqual(expected);
    await page.reload();
    await page.locator('.board-side').getByText('经营分析', { exact: true }).click();
    await expect.poll(() => cardTitles(page)).toEqual(expected);
  });

  it('copies a board after the confirmation', async () => {
    await openCategory(page);
    const card = page.locator('[data-testid="board-card"]').filter({ hasText: '渠道分析看板' });
    await card.hover();
    await card.getByRole('button', { name: '复制' }).click();
    await page.getByText('确定复制该报表?').waitFor();
    await Promise.all([
      page.waitForResponse((r) => /\/api\/board\/boards\/\d+\/copy$/.test(r.url())),
      page
        .locator('.ant-modal-confirm')
        .getByRole('button', { name: /确\s*定/ })
        .click(),
    ]);
    await page.getByText('复制成功').waitFor();
    await page.locator('[data-testid="board-card"]').filter({ hasText: '渠道分析看板-副本' }).waitFor();
    const copy = (await listOfCategory()).records.find((b) => b.title === '渠道分析看板-副本');
    expect(copy).toBeDefined();
  });

  it('shows the thumbnail the server rendered after the save', async () => {
    // Each save queues a render of /openview/{id} in the server's Chromium.
    const target = '区域销售看板';
    const thumbnailOf = async () => (await listOfCategory()).records.find((b) => b.title === target)?.backgroundUrl ?? null;
    await expect.poll(thumbnailOf, { timeout: 90_000, interval: 500 }).toMatch(/^\/api\/board\/thumbnails\/[a-z0-9-]+\.jpg$/);
    const board = { backgroundUrl: await thumbnailOf() };
    const res = await fetch(`${app.url}${board!.backgroundUrl}`);
    expect(res.headers.get('content-type')).toContain('image/jpeg');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);

    await openCategory(page);
    const img = page.locator('[data-testid="board-card"]').filter({ hasText: target }).locator('.board-card-thumb img');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    await screenshot(page, 'board-list-thumbnails');
  });
});
