import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/** The dataset editor (spec 2 §2 "Dataset editor layout", §4, §5 "Dataset"): a dataset from two demo tables. */
describe('dataset editor', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let warehouseId: number;
  let categoryId: number;
  let savedId: number;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '经营分析', parentId: 0 });
    categoryId = category.id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-editor-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const isPost = (path: string) => (r: Response) => new URL(r.url()).pathname === path && r.request().method() === 'POST';
  const isColumns = (r: Response) => /\/api\/datasource\/\d+\/columns/.test(new URL(r.url()).pathname);
  const toast = (text: string | RegExp) => page.locator('.ant-message').getByText(text).first();
  const drawer = () => page.locator('.ant-drawer').filter({ has: page.getByTestId('join-ok') });
  const nodes = () => page.locator('[data-testid^="ds-node-"]');

  /** HTML5 drag and drop with one shared DataTransfer, so the app's own MIME data travels. */
  async function dragTable(source: Locator, target: () => Locator) {
    // (The e2e project has no DOM library: the constructor is the page's.)
    const dt = await page.evaluateHandle(() => new (globalThis as unknown as { DataTransfer: new () => object }).DataTransfer());
    await source.dispatchEvent('dragstart', { dataTransfer: dt });
    // The drop slots appear once a drag has started.
    await target().waitFor();
    await target().dispatchEvent('dragenter', { dataTransfer: dt });
    await target().dispatchEvent('dragover', { dataTransfer: dt });
    await target().dispatchEvent('drop', { dataTransfer: dt });
    await source.dispatchEvent('dragend', { dataTransfer: dt });
    await dt.dispose();
  }

  /** Opens the select in a join-key row and picks the option titled `option`. */
  async function pickKey(row: number, side: 0 | 1, search: string, option: string) {
    await drawer().getByTestId(`join-key-${row}`).locator('.ant-select').nth(side).click();
    await page.keyboard.type(search);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
  }

  it('opens an empty editor for the warehouse with the category chosen', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?sourceid=${warehouseId}&ws=${categoryId}`);
    await page.getByTestId('dataset-editor').waitFor();
    await page.getByTestId('ds-table-orders').waitFor();
    await page.getByTestId('ds-canvas-drop').getByText('将左侧数据表拖拽到此处开始').waitFor();
    await page.getByTestId('ds-form').getByText('经营分析').waitFor();
    await screenshot(page, 'dataset-editor-empty');
  });

  it('drops orders on the canvas and previews its rows', async () => {
    const columns = page.waitForResponse(isColumns);
    const preview = page.waitForResponse(isPost('/api/query/preview'));
    await dragTable(page.getByTestId('ds-table-orders'), () => page.getByTestId('ds-canvas-drop'));
    expect((await columns).status()).toBe(200);
    await expect.poll(() => nodes().count()).toBe(1);
    await page.getByTestId('ds-fields-WEIDU').getByTestId('ds-field-省份').waitFor();
    await page.getByTestId('ds-fields-ZHIBIAO').getByTestId('ds-field-订购金额（元）').waitFor();
    expect((await preview).status()).toBe(200);
    await page.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-editor-orders');
  });

  it('joins provinces through the join drawer (join keys required)', async () => {
    const orders = nodes().first();
    const alias = (await orders.getAttribute('data-testid'))!.replace('ds-node-', '');
    await dragTable(page.getByTestId('ds-table-provinces'), () => page.getByTestId(`ds-slot-${alias}`));
    await drawer().getByText('编辑表关联').waitFor();
    expect(await drawer().getByTestId('join-source-name').innerText()).toBe('产品订购记录');
    await drawer().getByTestId('join-ok').click();
    await drawer().getByTestId('join-error').getByText('请补充连接字段').waitFor();
    await pickKey(0, 0, '省份', '省份');
    await pickKey(0, 1, 'province_name', '省份名称（province_name）');
    await screenshot(page, 'dataset-editor-join-drawer');
    const preview = page.waitForResponse(isPost('/api/query/preview'));
    await drawer().getByTestId('join-ok').click();
    await drawer().waitFor({ state: 'hidden' });
    await expect.poll(() => nodes().count()).toBe(2);
    const res = await preview;
    expect(res.status()).toBe(200);
    const body = JSON.parse(Buffer.from((res.request().postDataJSON() as { payload: string }).payload, 'base64').toString('utf8')) as {
      model: { joins: { joinType: string; joinKeys: { sourceKey: string; targetKey: string }[] }[] };
    };
    expect(body.model.joins).toMatchObject([{ joinType: 'LEFT_JOIN', joinKeys: [{ sourceKey: 'province', targetKey: 'province_name' }] }]);
    await page.getByTestId('ds-fields-WEIDU').getByTestId('ds-field-大区').waitFor();
    await page.getByTestId('ds-preview').getByRole('columnheader', { name: '大区' }).waitFor();
    await page.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-editor-joined');
  });

  it('adds a computed field: required parts, duplicate title, the engine\'s error position, field insertion', async () => {
    await page.getByTestId('ds-new-computed').click();
    const dialog = page.getByTestId('cf-dialog');
    await dialog.waitFor();
    const error = dialog.getByTestId('cf-error');
    await dialog.getByTestId('cf-ok').click();
    await error.getByText('请补充完整').waitFor();
    await dialog.getByTestId('cf-title').fill('省份');
    await dialog.getByTestId('cf-formula').fill('SUM([订购金额（元）])');
    await dialog.getByTestId('cf-ok').click();
    await error.getByText('字段展示名重复').waitFor();
    await dialog.getByTestId('cf-title').fill('客单价');
    await dialog.getByTestId('cf-formula').fill('SUM([订购金额（元）]) /');
    const [checked] = await Promise.all([page.waitForResponse(isPost('/api/query/formula-check')), dialog.getByTestId('cf-ok').click()]);
    expect(checked.status()).toBe(400);
    await error.getByText(/公式第\d+个字符处有误/).waitFor();
    await dialog.getByTestId('cf-error-position').locator('mark').waitFor();
    await screenshot(page, 'dataset-editor-computed-error');

    const formula = dialog.getByTestId('cf-formula');
    await formula.fill('');
    await dialog.getByTestId('cf-field-订购金额（元）').click();
    await expect.poll(() => formula.inputValue()).toBe('[订购金额（元）]');
    await formula.press('End');
    await formula.pressSequentially(' / ');
    await dialog.getByTestId('cf-field-订单编号').click();
    await expect.poll(() => formula.inputValue()).toBe('[订购金额（元）] / [订单编号]');
    await screenshot(page, 'dataset-editor-computed');
    const [ok] = await Promise.all([page.waitForResponse(isPost('/api/query/formula-check')), dialog.getByTestId('cf-ok').click()]);
    expect(ok.status()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('ds-fields-ZHIBIAO').getByTestId('ds-field-客单价').waitFor();
    await page.getByTestId('ds-preview').getByRole('columnheader', { name: '客单价' }).waitFor();
  });

  it('refuses to save without a name', async () => {
    await page.getByTestId('ds-save').click();
    await toast('请填写名称').waitFor();
    await screenshot(page, 'dataset-editor-name-required');
  });

  it('saves with a name: the first save asks for the permission, then the address has the id', async () => {
    await page.getByTestId('ds-form').getByPlaceholder('请输入数据集名称').fill('订购省份分析');
    await page.getByTestId('ds-save').click();
    const dialog = page.getByTestId('ds-save-dialog');
    await dialog.waitFor();
    await screenshot(page, 'dataset-editor-save-dialog');
    await dialog.getByText('公开', { exact: true }).click();
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/dataset/cubes')), dialog.getByTestId('ds-perm-ok').click()]);
    expect(saved.status()).toBe(200);
    await page.waitForURL(/\/newbi\/dataset\/edit\?id=\d+$/);
    savedId = Number(new URL(page.url()).searchParams.get('id'));
    expect(savedId).toBeGreaterThan(0);
    await toast('保存成功').waitFor();
    const detail = await apiCall<{ cubeName: string; publicStatus: number; workspaceId: number; cubeTableNames: { tableName: string }[] }>(
      app,
      token,
      'GET',
      `/api/dataset/cubes/${savedId}`,
    );
    expect(detail).toMatchObject({ cubeName: '订购省份分析', publicStatus: 1, workspaceId: categoryId });
    expect(detail.cubeTableNames.map((t) => t.tableName)).toEqual(['orders', 'provinces']);
    const fields = await apiCall<{ columnTitle: string; columnAttr: string; columnFormula: string | null }[]>(
      app,
      token,
      'GET',
      `/api/dataset/cubes/${savedId}/fields`,
    );
    expect(fields.find((f) => f.columnTitle === '客单价')).toMatchObject({ columnAttr: 'VIRTUAL', columnFormula: '[订购金额（元）] / [订单编号]' });
    await screenshot(page, 'dataset-editor-saved');
  });

  it('reopens the saved dataset with both tables and its name', async () => {
    await page.reload();
    await page.getByTestId('dataset-editor').waitFor();
    await expect.poll(() => nodes().count()).toBe(2);
    await expect.poll(() => nodes().allInnerTexts()).toEqual(['产品订购记录', '省份维表']);
    expect(await page.getByTestId('ds-form').getByPlaceholder('请输入数据集名称').inputValue()).toBe('订购省份分析');
    await page.getByTestId('ds-form').getByText('经营分析').waitFor();
    await page.getByTestId('ds-fields-ZHIBIAO').getByTestId('ds-field-客单价').waitFor();
    await page.getByTestId('ds-preview').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-editor-reopened');
  });
});
