import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** One demo-warehouse table (orders) as a dataset, as the editor would save it. */
function ordersDataset(workspaceId: number, datasourceId: number, cubeName: string, publicStatus: 0 | 1) {
  const normal = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
    id,
    columnName,
    columnTitle,
    tableAliasName: 'o',
    columnAttr: 'NORMAL',
    ...extra,
  });
  return {
    cubeData: { cubeName, workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus },
    datasourceId,
    columnList: [
      normal('province', 'province', '省份'),
      normal('channel', 'channel_name', '渠道'),
      normal('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
    ],
  };
}

/** 数据集 list with categories, and the 数据集 tab of 权限设置 (spec 2 §2, §5 "Dataset", §7). */
describe('dataset list and dataset grants', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let warehouseId: number;
  let groupId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const plain = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', { account: 'analyst', password: md5('analyst1'), name: '分析员' });
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '数据分析' });
    const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
      permName: '分析组',
      typeId: type.id,
      permJson: { userList: [{ id: plain.id, name: '' }] },
    });
    groupId = group.id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const confirmBox = () => page.locator('.ant-modal-confirm');
  const category = (name: string) => page.getByTestId('dset-category').filter({ hasText: name });
  const row = (name: string) => page.getByTestId('dataset-list').locator('tr.ant-table-row').filter({ hasText: name });
  const toast = (text: string | RegExp) => page.locator('.ant-message').getByText(text).first();
  const is = (method: string, path: string | RegExp) => (r: { url(): string; request(): { method(): string } }) => {
    const p = new URL(r.url()).pathname;
    return r.request().method() === method && (typeof path === 'string' ? p === path : path.test(p));
  };

  /** Adds a category through the dialog, under `parent` when given. */
  async function addCategory(name: string, parent?: string) {
    await page.getByRole('button', { name: '新增分类' }).click();
    await dialog().getByLabel('分类名称').fill(name);
    if (parent) {
      await dialog().getByTestId('category-parent').click();
      await page.locator('.ant-select-dropdown:visible').getByTitle(parent, { exact: true }).click();
    }
    const [saved] = await Promise.all([
      page.waitForResponse(is('POST', '/api/dataset/categories')),
      dialog()
        .getByRole('button', { name: /保\s*存/ })
        .click(),
    ]);
    expect(saved.status()).toBe(200);
    await dialog().waitFor({ state: 'hidden' });
    const body = (await saved.json()) as { data: { id: number } };
    ids[name] = body.data.id;
    await category(name).waitFor();
  }

  it('opens 数据集 from the 数据准备 menu, and adds a category and a sub-category (name required)', async () => {
    expect(await menuLabels(page)).toContain('数据集');
    await page.locator('.app-menu').getByText('数据集').click();
    await page.waitForURL('**/newbi/dataset');
    await page.getByRole('heading', { name: '数据集' }).waitFor();
    // A new installation holds the demo content's dataset (category 示例).
    await row('订单分析').waitFor();
    await screenshot(page, 'dataset-demo');

    await page.getByRole('button', { name: '新增分类' }).click();
    await dialog()
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await dialog().getByText('请填写分类名').first().waitFor();
    await screenshot(page, 'dataset-category-form');
    await dialog()
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await dialog().waitFor({ state: 'hidden' });

    await addCategory('经营分析');
    await addCategory('订单主题', '经营分析');
    expect(await page.getByTestId('dset-category').allInnerTexts()).toEqual(['全部', '示例', '经营分析', '订单主题']);
    await screenshot(page, 'dataset-categories');
  });

  it('lists a dataset saved through the API, filters by category and searches it', async () => {
    ids['订单明细'] = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', ordersDataset(ids['订单主题']!, warehouseId, '订单明细', 0));
    ids['公开订单'] = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', ordersDataset(ids['经营分析']!, warehouseId, '公开订单', 1));

    await Promise.all([page.waitForResponse(is('GET', '/api/dataset/cubes')), category('经营分析').click()]);
    await row('订单明细').waitFor();
    await row('公开订单').waitFor();
    expect(await row('订单明细').innerText()).toMatch(/示例数据仓库[\s\S]*单表[\s\S]*权限组控制/);
    expect(await row('公开订单').innerText()).toContain('公开');
    await screenshot(page, 'dataset-list');

    await Promise.all([page.waitForResponse(is('GET', '/api/dataset/cubes')), category('订单主题').click()]);
    await row('公开订单').waitFor({ state: 'detached' });
    await row('订单明细').waitFor();

    await category('全部').click();
    await page.getByPlaceholder('数据集名称').fill('公开');
    await Promise.all([
      page.waitForResponse((r) => is('GET', '/api/dataset/cubes')(r) && r.url().includes('cubeName=')),
      page.getByRole('button', { name: /搜\s*索/ }).click(),
    ]);
    await row('订单明细').waitFor({ state: 'detached' });
    await row('公开订单').waitFor();
    await screenshot(page, 'dataset-search');
    await page.getByPlaceholder('数据集名称').fill('');
    await Promise.all([page.waitForResponse(is('GET', '/api/dataset/cubes')), page.getByRole('button', { name: /搜\s*索/ }).click()]);
    await row('订单明细').waitFor();
  });

  it('refuses to delete a category that still holds datasets, with the server message', async () => {
    await category('订单主题').hover();
    await category('订单主题').getByRole('button', { name: '删除' }).click();
    await confirmBox().getByText('确定删除?').waitFor();
    const [res] = await Promise.all([
      page.waitForResponse(is('DELETE', /\/api\/dataset\/categories\/\d+$/)),
      confirmBox().getByRole('button', { name: '确定' }).click(),
    ]);
    expect(res.status()).toBe(409);
    await toast(/该分类下还有 1 个数据集/).waitFor();
    await screenshot(page, 'dataset-category-refused');
  });

  it('新建数据集 chooses a data source and a category, then opens the editor', async () => {
    await category('订单主题').click();
    await page.getByTestId('dataset-add').click();
    await dialog().getByText('新建数据集').waitFor();
    await dialog().getByTestId('new-dataset-source').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('示例数据仓库', { exact: true }).click();
    await screenshot(page, 'dataset-new-dialog');
    await dialog()
      .getByRole('button', { name: /下一步/ })
      .click();
    await page.waitForURL(`**/newbi/dataset/edit?sourceid=${warehouseId}&ws=${ids['订单主题']}`);
    await page.goBack();
    await page.waitForURL('**/newbi/dataset');
    await page.getByRole('heading', { name: '数据集' }).waitFor();
  });

  it('grants the dataset to a group in the 数据集 tab of 权限设置, and shows its row permission', async () => {
    await page.goto(`${app.url}/system/authGroupSetting?id=${groupId}&name=${encodeURIComponent('分析组')}`);
    await page.getByRole('heading', { name: '权限设置：分析组' }).waitFor();
    await page.getByRole('tab', { name: '数据集' }).click();
    const item = (name: string) => page.getByTestId('grant-cube').filter({ hasText: name });
    // The tab opens on the first category: the demo content's 示例.
    await item('订单分析').waitFor();
    await Promise.all([
      page.waitForResponse(is('GET', `/api/dataset/auth/${groupId}/cubes`)),
      page.getByTestId('dset-category').filter({ hasText: '经营分析' }).click(),
    ]);
    await item('订单明细').waitFor();
    await item('公开订单').waitFor();
    expect(await page.getByTestId('grant-cube-count').innerText()).toBe('已选 0 / 共 2');

    await item('订单明细').getByRole('checkbox').check();
    const [saved] = await Promise.all([
      page.waitForResponse(is('PUT', `/api/dataset/auth/${groupId}/cubes`)),
      page.getByRole('button', { name: /保\s*存/ }).click(),
    ]);
    expect(saved.request().postDataJSON()).toEqual({ cubeWorkspaceId: ids['经营分析'], dataIdList: [ids['订单明细']] });
    await toast('保存成功').waitFor();
    await screenshot(page, 'dataset-grant-tab');

    // The grants of 订单主题 itself: the save also refetches those of 经营分析, which may answer first.
    await Promise.all([
      page.waitForResponse(
        (r) => is('GET', `/api/dataset/auth/${groupId}/cubes`)(r) && new URL(r.url()).searchParams.get('cubeWorkspaceId') === String(ids['订单主题']),
      ),
      page.getByTestId('dset-category').filter({ hasText: '订单主题' }).click(),
    ]);
    await page.getByTestId('grant-cube-count').filter({ hasText: '已选 1 / 共 1' }).waitFor();
    expect(await item('订单明细').getByRole('checkbox').isChecked()).toBe(true);

    await item('订单明细')
      .getByRole('button', { name: /行权限/ })
      .click();
    await page.getByText('该权限组在此数据集上没有行权限过滤器：成员可以看到全部行和字段').waitFor();
    await screenshot(page, 'dataset-row-perm-none');
    await page.locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer').waitFor({ state: 'hidden' });

    // A filter made through the API reads back as text.
    const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${ids['订单明细']}/fields`);
    const byTitle = Object.fromEntries(fields.map((f) => [f.columnTitle, f.id]));
    await apiCall(app, token, 'POST', '/api/dataset/perm-filters', {
      cubeDataId: ids['订单明细'],
      dataPermId: groupId,
      cubePermName: '一号过滤器',
      filterJson: { relation: 'AND', conditions: [{ cubeColumnId: byTitle['省份'], conditions: [{ function: 'in', values: ['江苏', '浙江'] }] }], filters: [] },
      excludeColumnIds: String(byTitle['金额']),
    });
    await Promise.all([
      page.waitForResponse(is('GET', `/api/dataset/auth/${groupId}/cubes/${ids['订单明细']}`)),
      item('订单明细')
        .getByRole('button', { name: /行权限/ })
        .click(),
    ]);
    const panel = page.getByTestId('row-perm');
    await panel.getByText('一号过滤器').waitFor();
    await panel.getByText('【省份】 属于 [“江苏”、“浙江”]').waitFor();
    await panel.getByText('金额').waitFor();
    await screenshot(page, 'dataset-row-perm');
    await page.locator('.ant-drawer-close').click();
  });

  it('a plain user sees only public and granted datasets, without 删除', async () => {
    ids['私有报表'] = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', ordersDataset(ids['经营分析']!, warehouseId, '私有报表', 0));
    const analyst = await newPage(browser);
    await loginThroughPage(analyst, app, 'analyst', 'analyst1');
    expect(await menuLabels(analyst)).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '预警管理',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
    await analyst.goto(`${app.url}/newbi/dataset`);
    const list = analyst.getByTestId('dataset-list');
    await list.getByText('订单明细').waitFor();
    await list.getByText('公开订单').waitFor();
    expect(await list.getByText('私有报表').count()).toBe(0);
    expect(await list.getByRole('button', { name: /删\s*除/ }).count()).toBe(0);
    await screenshot(analyst, 'dataset-list-member');
    await analyst.context().close();
  });

  it('deletes a dataset after 确定删除?', async () => {
    await page.goto(`${app.url}/newbi/dataset`);
    await row('私有报表').waitFor();
    await row('私有报表')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await confirmBox().getByText('确定删除?').waitFor();
    await screenshot(page, 'dataset-delete-confirm');
    const [res] = await Promise.all([
      page.waitForResponse(is('DELETE', /\/api\/dataset\/cubes\/\d+$/)),
      confirmBox().getByRole('button', { name: '确定' }).click(),
    ]);
    expect(res.status()).toBe(200);
    await row('私有报表').waitFor({ state: 'detached' });
    await row('订单明细').waitFor();
  });
});
