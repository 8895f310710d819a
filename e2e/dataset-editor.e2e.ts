import { createHash } from 'node:crypto';
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
  let groupId: number;

  const md5 = (text: string) => createHash('md5').update(text).digest('hex');

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '经营分析', parentId: 0 });
    categoryId = category.id;
    // A permission group holding the administrator and a member, granted the two demo tables.
    const me = await apiCall<{ id: number }>(app, token, 'GET', '/api/auth/info');
    const member = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', { account: 'zhejiang', password: md5('zhejiang1'), name: '浙江销售' });
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '区域销售' });
    const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
      permName: '浙江销售组',
      typeId: type.id,
      permJson: {
        userList: [
          { id: me.id, name: '' },
          { id: member.id, name: '' },
        ],
      },
    });
    groupId = group.id;
    await apiCall(app, token, 'PUT', `/api/perm/groups/${groupId}/datasources/${warehouseId}`, {
      tableNames: [
        { schema: 'main', name: 'orders' },
        { schema: 'main', name: 'provinces' },
      ],
    });
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

  it("adds a computed field: required parts, duplicate title, the engine's error position, field insertion", async () => {
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

  it("saves with a name: the first save asks for the permission (the user's groups ticked), then the address has the id", async () => {
    await page.getByTestId('ds-form').getByPlaceholder('请输入数据集名称').fill('订购省份分析');
    await page.getByTestId('ds-save').click();
    const dialog = page.getByTestId('ds-save-dialog');
    await dialog.waitFor();
    await dialog.getByText('权限组', { exact: true }).click();
    await dialog.getByText('浙江销售组').waitFor();
    expect(await dialog.getByRole('checkbox', { name: '浙江销售组' }).isChecked()).toBe(true);
    await screenshot(page, 'dataset-editor-save-dialog');
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
    expect(detail).toMatchObject({ cubeName: '订购省份分析', publicStatus: 0, workspaceId: categoryId });
    expect(detail.cubeTableNames.map((t) => t.tableName)).toEqual(['orders', 'provinces']);
    expect(await apiCall<number[]>(app, token, 'GET', `/api/dataset/auth/${groupId}/cubes?cubeWorkspaceId=${categoryId}`)).toContain(savedId);
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

  /** The 省份 column of the preview table, cell by cell. */
  async function previewProvinces(p: Page): Promise<string[]> {
    const table = p.getByTestId('ds-preview');
    await table.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    const headers = await table.locator('thead th').allInnerTexts();
    const index = headers.findIndex((h) => h.trim() === '省份');
    expect(index).toBeGreaterThanOrEqual(0);
    return table.locator(`.ant-table-tbody tr.ant-table-row td:nth-child(${index + 1})`).allInnerTexts();
  }

  it('opens the global filter with its parameter controls, and the drawers of the left panel', async () => {
    await page.getByTestId('ds-global-filter').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '全局过滤' });
    await dialog.getByText('管理全局参数').waitFor();
    await dialog.getByTestId('gf-add-item').click();
    await dialog.getByTestId('gf-item-0-use-param').waitFor();
    await screenshot(page, 'dataset-editor-global-filter');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: '文件表' }).click();
    await page.getByTestId('ds-upload-file').click();
    const upload = page.locator('.ant-drawer').filter({ hasText: '上传文件' });
    await upload.locator('.ant-upload-drag').waitFor();
    await screenshot(page, 'dataset-editor-upload-drawer');
    await upload.locator('.ant-drawer-close').click();
    await upload.locator('.ant-upload-drag').waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: 'SQL视图' }).click();
    await page.getByTestId('ds-add-view').click();
    const sql = page.getByTestId('sql-view-drawer');
    await sql.locator('.cm-editor').waitFor();
    await expect.poll(() => sql.getByTestId('sql-view-view-name').inputValue()).toMatch(/^V_SQL_\d{12}$/);
    await sql.getByTestId('sql-view-sql-name').fill('各省订单数');
    await sql.locator('.cm-content').click();
    await page.keyboard.type('SELECT province, COUNT(*) AS n FROM orders GROUP BY province ORDER BY n DESC');
    const [previewed] = await Promise.all([page.waitForResponse(isPost('/api/sqlview/preview')), sql.getByTestId('sql-view-preview').click()]);
    expect(previewed.status()).toBe(200);
    await sql.getByTestId('sql-view-result').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'dataset-editor-sql-drawer');
    await page.locator('.ant-drawer-bottom .ant-drawer-close').click();
    await sql.locator('.cm-editor').waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: '数据表' }).click();

    await page.getByRole('tab', { name: '批量配置' }).click();
    await page.getByTestId('ds-batch').getByTestId('batch-title-客单价').waitFor();
    await screenshot(page, 'dataset-editor-batch');
    await page.getByRole('tab', { name: '数据预览' }).click();
  });

  it('adds a permission filter for the group: 省份 = 浙江, saved with 添加 and then shown with 更新', async () => {
    const everyone = await previewProvinces(page);
    expect(new Set(everyone).size).toBeGreaterThan(1);
    await page.getByTestId('ds-perm-filter').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '权限过滤器' });
    await dialog.getByTestId('pf-add').click();
    const card = dialog.getByTestId('pf-0');
    expect(await card.getByTestId('pf-0-name').inputValue()).toBe('一号过滤器');
    await card.getByRole('button', { name: /选\s*择/ }).click();
    const picker = page.locator('.ant-modal').filter({ has: page.getByTestId('perm-panel-select') });
    await picker
      .getByTestId('perm-group-card')
      .filter({ hasText: '浙江销售组' })
      .getByRole('button', { name: /选\s*择/ })
      .click();
    await picker.waitFor({ state: 'hidden' });
    await card.getByTestId('auth-group-selected').getByText('浙江销售组').waitFor();
    await card.getByTestId('pf-0-conditions').click();
    await card.getByTestId('pf-0-ft-item-0-field').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('省份', { exact: true }).click();
    await card.getByTestId('pf-0-ft-item-0-value').locator('input').fill('浙江');
    await screenshot(page, 'dataset-editor-perm-filter');
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/dataset/perm-filters')), card.getByTestId('pf-0-save').click()]);
    expect(saved.status()).toBe(200);
    await card
      .getByTestId('pf-0-save')
      .getByText(/更\s*新/)
      .waitFor();
    const filters = await apiCall<{ dataPermId: number; cubePermName: string }[]>(app, token, 'GET', `/api/dataset/cubes/${savedId}/perm-filters`);
    expect(filters).toMatchObject([{ dataPermId: groupId, cubePermName: '一号过滤器' }]);
    await dialog.locator('.ant-modal-close').click();
    // Administrators see every row still.
    await page.getByTestId('ds-refresh').click();
    expect(new Set(await previewProvinces(page)).size).toBeGreaterThan(1);
  });

  it('previews as the member: read-only (not the creator), only the rows of 浙江', async () => {
    const memberPage = await newPage(browser);
    try {
      await loginThroughPage(memberPage, app, 'zhejiang', 'zhejiang1');
      await memberPage.goto(`${app.url}/newbi/dataset/edit?id=${savedId}`);
      await memberPage.getByTestId('dataset-readonly').waitFor();
      expect(await memberPage.getByTestId('ds-save').count()).toBe(0);
      const provinces = await previewProvinces(memberPage);
      expect(provinces.length).toBeGreaterThan(0);
      expect(new Set(provinces)).toEqual(new Set(['浙江']));
      await screenshot(memberPage, 'dataset-editor-member-preview');
    } finally {
      await memberPage.context().close();
    }
  });
});
