import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/**
 * 首页 (issue 16): a new administrator lands on it, is offered the guided path through the demo
 * content, uploads a CSV from it and ends on the new table; a board opened from it comes back
 * under 最近访问 and can be starred. A member without data sources gets only what they may do.
 */
describe('首页', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let warehouseId: number;

  beforeAll(async () => {
    app = await startApp();
    const token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'reader', password: md5('reader123'), name: '只读用户' });
    browser = await launchBrowser();
    page = await newPage(browser);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `home-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const isVisitOf = (kind: string) => (r: Response) =>
    r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/home/visits' && (r.request().postDataJSON() as { kind: string }).kind === kind;

  it('lands an administrator on 首页 with the guided path through the demo content', async () => {
    await loginThroughPage(page, app);
    await page.waitForURL((u) => u.pathname === '/home');
    expect((await menuLabels(page))[0]).toBe('首页');
    await page.getByRole('heading', { name: '您好，系统管理员' }).waitFor();
    const guide = page.getByTestId('home-guide');
    await guide.getByText('从示例开始').waitFor();
    expect(await guide.getByTestId('home-guide-datasource').getAttribute('href')).toBe('/system/datasource');
    expect(await guide.getByTestId('home-guide-dataset').getAttribute('href')).toMatch(/^\/newbi\/dataset\/edit\?id=\d+$/);
    expect(await guide.getByTestId('home-guide-board').getAttribute('href')).toMatch(/^\/newbi\/preview\/\d+$/);
    await guide.getByText('「订单分析」：关联订单、用户和省份三张表').waitFor();
    // Nothing opened yet: the sections say how they fill, they are not blank.
    await page.getByTestId('home-recent').getByText('还没有访问记录：打开一个大屏或幻灯片，它就会出现在这里').waitFor();
    await page.getByTestId('home-favourite-boards').getByText('还没有收藏的大屏').waitFor();
    await page.getByTestId('home-new-dataset').waitFor();
    await page.getByTestId('home-new-board').waitFor();
    await screenshot(page, 'home-fresh');
  });

  it('uploads a CSV from 首页 and ends on the new table in the dataset editor', async () => {
    await page.getByTestId('dataset-upload-file').click();
    const drawer = page.getByTestId('file-upload-drawer');
    // Several usable sources: the chooser comes first, the built-in warehouse preselected.
    const chooser = page.locator('.ant-modal').filter({ hasText: '上传到数据源' });
    await Promise.race([drawer.waitFor(), chooser.waitFor()]);
    if (await chooser.isVisible()) await chooser.getByRole('button', { name: /下\s*一\s*步/ }).click();
    await drawer.waitFor();

    const csv = '区域,月份,回款额\n华东,2026-01,3200.5\n华南,2026-01,2100\n华北,2026-02,1890\n';
    await drawer.locator('input[type=file]').setInputFiles({ name: '区域回款.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await drawer.getByText('华东').first().waitFor();
    await page.getByTestId('file-table-name').fill('region_payment');
    await screenshot(page, 'home-upload-drawer');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/filetable/tables'),
      page.getByTestId('file-upload-ok').click(),
    ]);
    expect(created.status()).toBe(200);

    await page.waitForURL((u) => u.pathname === '/newbi/dataset/edit');
    const url = new URL(page.url());
    expect(url.searchParams.get('sourceid')).toBe(String(warehouseId));
    expect(url.searchParams.get('tableName')).toBe('region_payment');
    await page.getByTestId('dataset-editor').waitFor();
    await page.locator('[data-testid^="ds-node-"]').first().waitFor();
    await page.getByTestId('ds-preview').getByText('华东').waitFor();
    await screenshot(page, 'home-upload-editor');
  });

  it('lists a board opened from 首页 under 最近访问 on coming back, and stars it', async () => {
    await page.goto(`${app.url}/`);
    await page.waitForURL((u) => u.pathname === '/home');
    const [visit] = await Promise.all([page.waitForResponse(isVisitOf('board')), page.getByTestId('home-guide-board').click()]);
    expect(visit.status()).toBe(200);
    await page.getByTestId('board-title').getByText('销售概览').waitFor();

    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/home');
    const recent = page.getByTestId('home-recent');
    const card = recent.getByTestId('home-item').filter({ hasText: '销售概览' });
    await card.waitFor();
    expect(await card.innerText()).toContain('大屏');

    const [starred] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.startsWith('/api/home/favourite-boards/')),
      card.getByRole('button', { name: '收藏 销售概览' }).click(),
    ]);
    expect(starred.status()).toBe(200);
    await page.getByTestId('home-favourite-boards').getByTestId('home-item').filter({ hasText: '销售概览' }).waitFor();
    await recent.getByRole('button', { name: '取消收藏 销售概览' }).waitFor();
    await screenshot(page, 'home-recent');
  });

  it('gives a member without data sources only 新建大屏 and the demo steps they may open', async () => {
    const member = await newPage(browser);
    // Which data sources the member may use decides the dataset actions: wait for the answer.
    const usable = member.waitForResponse((r) => new URL(r.url()).pathname === '/api/datasource/usable');
    await loginThroughPage(member, app, 'reader', 'reader123');
    await member.waitForURL((u) => u.pathname === '/home');
    await usable;
    const guide = member.getByTestId('home-guide');
    await guide.getByTestId('home-guide-board').waitFor();
    await guide.getByTestId('home-guide-dataset').waitFor();
    expect(await guide.getByTestId('home-guide-datasource').count()).toBe(0);
    await member.getByTestId('home-new-board').waitFor();
    expect(await member.getByTestId('home-new-dataset').count()).toBe(0);
    expect(await member.getByTestId('dataset-upload-file').count()).toBe(0);
    await member.getByTestId('home-shared').getByText('暂无他人通过权限组共享给您的大屏').waitFor();
    await screenshot(member, 'home-member');
    await member.context().close();
  });
});
