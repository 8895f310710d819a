import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Issue 16, the dataset editor's ways in and out: no data source in the address picks one in
 * place, 返回 goes to the dataset list, an id of no dataset is the not-found page, and the first
 * save of an administrator in no permission group defaults to 公开 with 确定 enabled.
 */
describe('dataset editor: ways in and out', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let warehouse: { id: number; dsDb: string };
  let categoryId: number;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const usable = await apiCall<{ id: number; dsDb: string }[]>(app, token, 'GET', '/api/datasource/usable');
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    const builtinId = sources.records.find((s) => s.isBuiltin)!.id;
    warehouse = usable.find((s) => s.id === builtinId)!;
    categoryId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '出入口', parentId: 0 })).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-editor-ways-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const isPost = (path: string) => (r: Response) => new URL(r.url()).pathname === path && r.request().method() === 'POST';

  it('without parameters picks the warehouse in place, which opens the editor on it', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit`);
    const picker = page.getByTestId('ds-pick-source');
    await picker.getByText('请选择数据源', { exact: true }).first().waitFor();
    await screenshot(page, 'dataset-editor-pick-source');
    await picker.getByTestId('ds-source-select').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(warehouse.dsDb, { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('sourceid') === String(warehouse.id));
    await page.getByTestId('dataset-editor').waitFor();
    await page.getByTestId('ds-table-orders').waitFor();
  });

  it('返回 goes to the dataset list', async () => {
    await page.getByTestId('ds-back').click();
    await page.waitForURL((url) => url.pathname === '/newbi/dataset');
    await page
      .getByRole('button', { name: /新建数据集/ })
      .first()
      .waitFor();
  });

  it('an id of no dataset shows 页面不存在 with its link home', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?id=999999`);
    await page.getByText('页面不存在', { exact: true }).waitFor();
    expect(await page.getByTestId('dataset-editor').count()).toBe(0);
    await screenshot(page, 'dataset-editor-not-found');
    await page.getByRole('button', { name: /返回首页/ }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/newbi/dataset/edit'));
  });

  it('the first save of the administrator defaults to 公开 with 确定 enabled', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?sourceid=${warehouse.id}&ws=${categoryId}&tableName=orders`);
    await page.getByTestId('dataset-editor').waitFor();
    await page.locator('[data-testid^="ds-node-"]').first().waitFor();
    await page.getByTestId('ds-form').getByText('出入口').waitFor();
    await page.getByTestId('ds-form').getByPlaceholder('请输入数据集名称').fill('公开的订单');
    await page.getByTestId('ds-save').click();
    const dialog = page.getByTestId('ds-save-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: '公开' }).isChecked()).toBe(true);
    expect(await dialog.getByTestId('ds-perm-ok').isEnabled()).toBe(true);
    await screenshot(page, 'dataset-editor-save-public');
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/dataset/cubes')), dialog.getByTestId('ds-perm-ok').click()]);
    expect(saved.status()).toBe(200);
    await page.waitForURL(/\/newbi\/dataset\/edit\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    expect(await apiCall<{ publicStatus: number }>(app, token, 'GET', `/api/dataset/cubes/${id}`)).toMatchObject({ publicStatus: 1 });
  });
});
