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
/** The distinct values of the preview's 大区 column, its position read on each call (the table re-renders with the new answer). */
async function regionsShown(table: Locator): Promise<string[]> {
  const headers = await table.locator('thead th').allInnerTexts();
  const column = headers.findIndex((h) => h.trim() === '大区') + 1;
  if (column === 0) return [];
  return [...new Set(await table.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${column})`).allInnerTexts())];
}

describe('SQL views in the dataset editor, as an analyst', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let warehouseId: number;
  let outsiderToken: string;
  let cubeId: number;

  const md5 = (text: string) => createHash('md5').update(text).digest('hex');

  beforeAll(async () => {
    app = await startApp();
    const token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '分析师' });
    // The analyst may set global filters (cube_filter_row); an enumeration dictionary of regions exists.
    const role = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/roles', { roleName: '数据分析师', permissions: ['cube_filter_row'] });
    await apiCall(app, token, 'POST', '/api/dataapi/dicts', {
      keyCode: '大区字典',
      content: JSON.stringify([
        { key: '华东', value: '华东', children: [{ key: '上海', value: '上海' }] },
        { key: '华北', value: '华北' },
      ]),
    });
    const users = [];
    for (const [u, roleIds] of [
      [ANALYST, [role.id]],
      [OUTSIDER, []],
    ] as const) {
      users.push(
        await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', { account: u.account, password: md5(u.password), name: u.account, roleIds }),
      );
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
    // The analyst uploads a CSV into the source their group may write, then writes a view over it and a warehouse table.
    const analystToken = await apiLogin(app, ANALYST.account, ANALYST.password);
    const form = new FormData();
    form.set('tableName', 'sales_targets');
    form.set('tableComment', '省份目标');
    form.set('dsId', String(warehouseId));
    form.set(
      'tableColumnList',
      JSON.stringify([
        { comment: '省份', columnName: 'province', columnType: 'STRING' },
        { comment: '目标', columnName: 'target', columnType: 'NUMBER' },
      ]),
    );
    form.set('file', new Blob(['省份,目标\n广东,30000\n浙江,20000\n'], { type: 'text/csv' }), '省份目标.csv');
    const uploaded = await fetch(`${app.url}/api/filetable/tables`, { method: 'POST', headers: { Authorization: `Bearer ${analystToken}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    await apiCall(app, analystToken, 'POST', '/api/sqlview/views', {
      datasourceId: warehouseId,
      sqlName: '省份订购汇总',
      viewName: VIEW,
      sqlStatement:
        'select o.province, sum(o.amount) as total, count(*) as orders_count, max(t.target) as target from orders o left join sales_targets t on t.province = o.province group by o.province',
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
    for (const name of ['province', 'total', 'orders_count', 'target']) await columns.getByText(name, { exact: true }).waitFor();
    await dialog.getByRole('tab', { name: '数据预览' }).click();
    await dialog.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-sqlview-field-preview');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('drops the view on the canvas and previews its rows', async () => {
    await dragTable(page.getByTestId(`ds-table-${VIEW}`), () => page.getByTestId('ds-canvas-drop'));
    await expect.poll(() => page.locator('[data-testid^="ds-node-"]').count(), { timeout: 15_000 }).toBe(1);
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

  it('joins provinces to the view and saves the dataset for the analyst group', async () => {
    const node = page.locator('[data-testid^="ds-node-"]').first();
    const alias = (await node.getAttribute('data-testid'))!.replace('ds-node-', '');
    await page.getByRole('tab', { name: '数据表' }).click();
    await dragTable(page.getByTestId('ds-table-provinces'), () => page.getByTestId(`ds-slot-${alias}`));
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('join-ok') });
    await drawer.getByText('编辑表关联').waitFor();
    const pick = async (side: 0 | 1, search: string, option: string) => {
      await drawer.getByTestId('join-key-0').locator('.ant-select').nth(side).click();
      await page.keyboard.type(search);
      await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    };
    await pick(0, 'province', 'province');
    await pick(1, 'province_name', '省份名称（province_name）');
    await drawer.getByTestId('join-ok').click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('[data-testid^="ds-node-"]').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('ds-fields-WEIDU').getByTestId('ds-field-大区').waitFor();

    await page.getByTestId('ds-form').getByPlaceholder('请输入数据集名称').fill('省份目标达成');
    await page.getByTestId('ds-save').click();
    const dialog = page.getByTestId('ds-save-dialog');
    await dialog.waitFor();
    const [saved] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/dataset/cubes' && r.request().method() === 'POST'),
      dialog.getByTestId('ds-perm-ok').click(),
    ]);
    expect(saved.status()).toBe(200);
    await page.waitForURL(/\/newbi\/dataset\/edit\?id=\d+$/);
    cubeId = Number(new URL(page.url()).searchParams.get('id'));
    // the saved dataset reopens with the view and provinces joined, and reads its rows
    await page.getByTestId('dataset-editor').waitFor();
    await expect.poll(() => page.locator('[data-testid^="ds-node-"]').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-sqlview-saved');
  });

  it('filters the dataset by a dictionary pick-list (global filter)', async () => {
    await page.getByTestId('ds-global-filter').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '全局过滤' });
    await dialog.getByTestId('gf-add-item').click();
    const choose = async (testId: string, option: string) => {
      await dialog.getByTestId(testId).click();
      await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    };
    await choose('gf-item-0-field', '大区');
    await choose('gf-item-0-source-kind', '字典');
    await choose('gf-item-0-source-dict', '大区字典');
    // The value input opens once the dictionary is there: a tree select, its regions with their provinces.
    await dialog.locator('.ant-tree-select[data-testid="gf-item-0-value"]:not(.ant-select-disabled)').waitFor();
    await dialog.getByTestId('gf-item-0-value').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-tree-title').getByText('华东', { exact: true }).click();
    await screenshot(page, 'dataset-sqlview-dict-filter');
    const preview = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/query/preview' && r.request().method() === 'POST');
    await dialog.getByTestId('gf-ok').click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await preview).status()).toBe(200);
    const table = page.getByTestId('ds-preview');
    await expect
      .poll(() => regionsShown(table), {
        // The new rows render after the answer: on a loaded machine well after vitest's default second.
        timeout: 15_000,
      })
      .toEqual(['华东']);
  });

  it('filters the dataset by a data-API pick-list (enumSource 2, issue 17)', async () => {
    // The administrator publishes a type-1 API listing the regions; the analyst is granted its table (provinces).
    const admin = await apiLogin(app);
    const category = await apiCall<{ id: number }>(app, admin, 'POST', '/api/dataapi/categories', { categoryName: '筛选接口' });
    await apiCall(app, admin, 'POST', '/api/dataapi/apis', {
      categoryId: category.id,
      apiKey: 'region_list',
      apiName: '大区列表',
      apiType: 1,
      datasourceId: warehouseId,
      querySql: 'SELECT DISTINCT region FROM provinces ORDER BY region',
    });
    await page.getByTestId('ds-global-filter').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '全局过滤' });
    const choose = async (testId: string, option: string) => {
      await dialog.getByTestId(testId).click();
      await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    };
    // The dictionary filter of the test before becomes a data-API one: its values are the API's answer, read as the analyst.
    const options = page.waitForResponse((r) => /\/api\/dataapi\/apis\/\d+\/options/.test(new URL(r.url()).pathname));
    await choose('gf-item-0-source-kind', '数据接口');
    await choose('gf-item-0-source-api', '大区列表');
    expect((await options).status()).toBe(200);
    await dialog.locator('[data-testid="gf-item-0-value"]:not(.ant-select-disabled)').waitFor();
    await dialog.getByTestId('gf-item-0-value').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('华北', { exact: true }).click();
    await screenshot(page, 'dataset-sqlview-api-filter');
    const preview = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/query/preview' && r.request().method() === 'POST');
    await dialog.getByTestId('gf-ok').click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await preview).status()).toBe(200);
    const table = page.getByTestId('ds-preview');
    await expect
      .poll(() => regionsShown(table), {
        // The new rows render after the answer: on a loaded machine well after vitest's default second.
        timeout: 15_000,
      })
      .toEqual(['华北']);
  });

  it('refuses the view to a member without the table grant', async () => {
    const preview = await fetch(`${app.url}/api/dataset/preview`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${outsiderToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cubeDataId: cubeId, request: { dimensions: [], measures: [], detail: false } }),
    });
    expect(preview.status).toBe(403);
    const res = await fetch(`${app.url}/api/datasource/${warehouseId}/columns?tableName=${VIEW}`, { headers: { Authorization: `Bearer ${outsiderToken}` } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { msg: string }).msg).toBe(`没有数据表【${VIEW}】的使用权限，请联系管理员授权`);
    const views = await apiCall<{ viewName: string }[]>(app, outsiderToken, 'GET', `/api/sqlview/views?datasourceId=${warehouseId}`);
    expect(views.map((v) => v.viewName)).not.toContain(VIEW);
  });
});
