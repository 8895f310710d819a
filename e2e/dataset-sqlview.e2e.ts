import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const ANALYST = { account: 'fenxi', password: 'fenxi123' };
const OUTSIDER = { account: 'pangren', password: 'pangren123' };
const VIEW = 'V_SQL_202611250900';

/**
 * Issue 28 in Chromium, as an analyst (not an administrator): a SQL view over a granted table
 * previewed from the left panel, dropped on the canvas and read; a category added from the
 * editor; a member without the table grant refused the view.
 */
describe('SQL views in the dataset editor, as an analyst', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let warehouseId: number;
  let outsiderToken: string;

  const md5 = (text: string) => createHash('md5').update(text).digest('hex');

  beforeAll(async () => {
    app = await startApp();
    const token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '分析师' });
    const users = [];
    for (const u of [ANALYST, OUTSIDER]) {
      users.push(await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', { account: u.account, password: md5(u.password), name: u.account }));
    }
    const grant = async (name: string, userId: number, tables: string[], writable: boolean) => {
      const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
        permName: name,
        typeId: type.id,
        permJson: { userList: [{ id: userId, name: '' }] },
      });
      await apiCall(app, token, 'PUT', `/api/perm/groups/${group.id}/datasources/${warehouseId}`, {
        tableNames: tables.map((name) => ({ schema: 'main', name })),
        writable,
      });
    };
    await grant('分析组', users[0]!.id, ['orders', 'provinces'], true);
    await grant('旁人组', users[1]!.id, ['provinces'], false);
    // The analyst's own view over a granted table.
    const analystToken = await apiLogin(app, ANALYST.account, ANALYST.password);
    await apiCall(app, analystToken, 'POST', '/api/sqlview/views', {
      datasourceId: warehouseId,
      sqlName: '省份订购汇总',
      viewName: VIEW,
      sqlStatement: 'select province, sum(amount) as total, count(*) as orders_count from orders group by province',
    });
    outsiderToken = await apiLogin(app, OUTSIDER.account, OUTSIDER.password);
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app, ANALYST.account, ANALYST.password);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-sqlview-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function dragTable(source: Locator, target: () => Locator) {
    const dt = await page.evaluateHandle(() => new (globalThis as unknown as { DataTransfer: new () => object }).DataTransfer());
    await source.dispatchEvent('dragstart', { dataTransfer: dt });
    await target().waitFor();
    await target().dispatchEvent('dragenter', { dataTransfer: dt });
    await target().dispatchEvent('dragover', { dataTransfer: dt });
    await target().dispatchEvent('drop', { dataTransfer: dt });
    await source.dispatchEvent('dragend', { dataTransfer: dt });
    await dt.dispose();
  }

  it("previews the view's fields from the left panel, before dropping it", async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?sourceid=${warehouseId}`);
    await page.getByTestId('dataset-editor').waitFor();
    await page.getByRole('tab', { name: 'SQL视图' }).click();
    await page.getByTestId(`ds-table-${VIEW}`).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`字段预览：省份订购汇总（${VIEW}）`).waitFor();
    const columns = dialog.getByTestId('ds-field-preview-columns');
    for (const name of ['province', 'total', 'orders_count']) await columns.getByText(name, { exact: true }).waitFor();
    await dialog.getByRole('tab', { name: '数据预览' }).click();
    await dialog.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-sqlview-field-preview');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('drops the view on the canvas and previews its rows', async () => {
    await dragTable(page.getByTestId(`ds-table-${VIEW}`), () => page.getByTestId('ds-canvas-drop'));
    await expect.poll(() => page.locator('[data-testid^="ds-node-"]').count()).toBe(1);
    await page.getByTestId('ds-fields-ZHIBIAO').getByTestId('ds-field-total').waitFor();
    await page.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-sqlview-canvas');
  });

  it('adds a category from the editor (请填写分类名) and selects it', async () => {
    await page.getByTestId('ds-add-category').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.getByText('请填写分类名').waitFor();
    await dialog.getByLabel('分类名称').fill('视图分析');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('ds-form').getByText('视图分析').waitFor();
    await screenshot(page, 'dataset-sqlview-category');
  });

  it('refuses the view to a member without the table grant', async () => {
    const res = await fetch(`${app.url}/api/datasource/${warehouseId}/columns?tableName=${VIEW}`, { headers: { Authorization: `Bearer ${outsiderToken}` } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { msg: string }).msg).toBe(`没有数据表【${VIEW}】的使用权限，请联系管理员授权`);
    const views = await apiCall<{ viewName: string }[]>(app, outsiderToken, 'GET', `/api/sqlview/views?datasourceId=${warehouseId}`);
    expect(views.map((v) => v.viewName)).not.toContain(VIEW);
  });
});
