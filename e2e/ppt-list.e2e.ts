import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

interface PptRecord {
  id: number;
  ppName: string;
  visualIds: number[];
  visualType: number;
  cateId: number;
}

/**
 * Slideshow list and editor (spec 1 §2.10, §5): 新建幻灯片 opens the editor; the two demo
 * boards 销售概览 (可视化大屏) and 订单明细报表 (自助报表) are added and reordered; 保存 goes
 * back to the list showing the slideshow; 收藏幻灯片 in the viewer saves a favourite into a
 * category added inline, listed under 我的收藏.
 */
describe('slideshow list and editor', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '2000' });
    token = await apiLogin(app);
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `ppt-list-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('creates a slideshow from two demo boards in the editor and lists it', async () => {
    await page.goto(`${app.url}/newbi/ppt`);
    await page.getByTestId('ppt-create').click();
    await page.waitForURL('**/newbi/ppt/edit');
    await page.getByTestId('ppt-name-input').fill('经营月报幻灯片');
    await page.getByLabel('添加 销售概览').click();
    await page.getByText('自助报表', { exact: true }).click();
    await page.getByLabel('添加 订单明细报表').click();
    // Report first: 上移 moves it before the dashboard.
    await page.getByLabel('上移 订单明细报表').click();
    const order = () => page.getByTestId('ppt-selected-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-title')));
    await expect(order()).resolves.toEqual(['订单明细报表', '销售概览']);
    await page.getByTestId('ppt-autoplay').click();
    await page.getByTestId('ppt-interval').fill('20');
    await screenshot(page, 'ppt-editor');

    await page.getByTestId('ppt-save').click();
    await page.getByText('已保存').waitFor();
    await page.waitForURL(/\/newbi\/ppt$/);
    const row = page.locator('[data-testid="ppt-table-0"] tr', { hasText: '经营月报幻灯片' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('每 20 秒');

    const list = await apiCall<{ records: PptRecord[] }>(app, token, 'GET', '/api/ppt/slideshows?visualType=0');
    const saved = list.records.find((r) => r.ppName === '经营月报幻灯片')!;
    const boards = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=report&size=100');
    const report = boards.records.find((b) => b.title === '订单明细报表')!.id;
    expect(saved.visualIds).toHaveLength(2);
    expect(saved.visualIds[0]).toBe(report);
    await screenshot(page, 'ppt-list');
  });

  it('favourites the slideshow from the viewer into a new category', async () => {
    const list = await apiCall<{ records: PptRecord[] }>(app, token, 'GET', '/api/ppt/slideshows?visualType=0');
    const id = list.records.find((r) => r.ppName === '经营月报幻灯片')!.id;
    await page.goto(`${app.url}/newbi/ppt/view/${id}/0`);
    await page.getByTestId('ppt-favourite').click();
    const dialog = page.getByTestId('ppt-favourite-dialog');
    await dialog.waitFor();
    await expect(page.getByTestId('ppt-dialog-name').inputValue()).resolves.toBe('经营月报幻灯片');
    await page.getByTestId('ppt-dialog-name').fill('');
    await page.getByTestId('ppt-dialog-ok').click();
    await dialog.getByText('请填写幻灯片名称').waitFor();
    await page.getByTestId('ppt-dialog-name').fill('我的经营月报');
    await page.getByTestId('ppt-dialog-category').click();
    await page.getByTestId('ppt-dialog-new-category').fill('重点关注');
    await page.getByTestId('ppt-dialog-add-category').click();
    await page.locator('.ant-select-content, .ant-select-selection-item', { hasText: '重点关注' }).first().waitFor();
    await screenshot(page, 'ppt-favourite-dialog');
    await page.getByTestId('ppt-dialog-ok').click();
    await page.getByText('已收藏').waitFor();

    const favourites = await apiCall<{ records: PptRecord[] }>(app, token, 'GET', '/api/ppt/slideshows?visualType=1');
    expect(favourites.records.map((r) => r.ppName)).toEqual(['我的经营月报']);
    expect(favourites.records[0]!.cateId).toBeGreaterThan(0);

    await page.goto(`${app.url}/newbi/ppt`);
    await page.getByRole('tab', { name: '我的收藏' }).click();
    await page.locator('[data-testid="ppt-category"][data-name="重点关注"]').click();
    await page.locator('[data-testid="ppt-table-1"] tr', { hasText: '我的经营月报' }).waitFor();
    await screenshot(page, 'ppt-favourites');
  });
});
