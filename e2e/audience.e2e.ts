import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 人群 (issue 18 A, docs/audiences.md): an audience built in the browser from two demo datasets —
 * 订单分析 with a having rule (销售额 > 100) 交 a second dataset over the users table — previewed,
 * saved and refreshed; a 差 audience; a phone file with bad lines imported through 新建导入人群 and
 * intersected with a dataset audience. Sizes are checked against the API's own preview.
 */
describe('人群：数据集人群与导入人群', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    // The second demo dataset: the users table, in the demo dataset's category.
    const cubes = await apiCall<{ records: { id: number; cubeName: string; workspaceId: number; datasourceId: number }[] }>(
      app,
      token,
      'GET',
      '/api/dataset/cubes?size=100',
    );
    const demo = cubes.records.find((c) => c.cubeName === '订单分析')!;
    await apiCall(app, token, 'POST', '/api/dataset/cubes', {
      cubeData: { cubeName: '用户人群', workspaceId: demo.workspaceId, cubeTableNames: [{ tableName: 'users', tableAliasName: 'u' }], publicStatus: 1 },
      datasourceId: demo.datasourceId,
      columnList: [
        { id: 'phone', columnName: 'phone', columnTitle: '用户手机号', tableAliasName: 'u', columnAttr: 'NORMAL' },
        { id: 'province', columnName: 'province', columnTitle: '用户省份', tableAliasName: 'u', columnAttr: 'NORMAL' },
        { id: 'net', columnName: 'net_type', columnTitle: '终端网络', tableAliasName: 'u', columnAttr: 'NORMAL' },
      ],
    });
    await apiCall(app, token, 'POST', '/api/audience/categories', { name: '营销人群' });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `audience-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const choose = async (testId: string, title: string) => {
    await page.getByTestId(testId).click();
    // Long lists are virtual: searching brings the option into view (selects without search ignore the keys).
    await page.keyboard.type(title);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: title }).first().click();
  };
  const drop = async (name: string) => page.getByTestId(`audience-cube-${name}`).dragTo(page.getByTestId('audience-drop'), { targetPosition: { x: 40, y: 8 } });
  const previewTotal = async () => {
    const text = await page.getByTestId('audience-preview-total').innerText();
    await page.keyboard.press('Escape');
    return Number(/共 (\d+) 人/.exec(text)![1]);
  };
  const apiTotal = (defineRule: unknown[]) => apiCall<{ total: number }>(app, token, 'POST', '/api/audience/preview', { defineRule }).then((r) => r.total);
  const listRow = (name: string) => page.locator('tr', { hasText: name });

  let ids: { cube: number; phone: number; amount: number; user: number; userPhone: number } | null = null;
  const fieldIds = async () => {
    if (ids) return ids;
    const cubes = await apiCall<{ records: { id: number; cubeName: string }[] }>(app, token, 'GET', '/api/dataset/cubes?size=100');
    const of = async (name: string) => {
      const id = cubes.records.find((c) => c.cubeName === name)!.id;
      const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${id}/fields`);
      return { id, f: Object.fromEntries(fields.map((x) => [x.columnTitle, x.id])) };
    };
    const a = await of('订单分析');
    const b = await of('用户人群');
    ids = { cube: a.id, phone: a.f['手机号']!, amount: a.f['销售额']!, user: b.id, userPhone: b.f['用户手机号']! };
    return ids;
  };

  it('builds 订单分析 (销售额 > 100) 交 用户人群, previews, saves and refreshes it', async () => {
    await page.goto(`${app.url}/cdp/audience`);
    await page.getByTestId('audience-add').click();
    await page.waitForURL(/\/cdp\/audience\/edit$/);
    await page.getByTestId('audience-save').click();
    await page.getByText('请输入人群名称').first().waitFor();
    await drop('订单分析');
    await page.getByTestId('audience-card-0').waitFor();
    // The same dataset twice is refused.
    await drop('订单分析');
    await page.getByText('该数据集已选用过').waitFor();
    await drop('用户人群');
    await page.getByTestId('audience-card-1').waitFor();
    await page.getByTestId('audience-preview').click();
    await page.getByText('请选择数据集主键字段').waitFor();
    await choose('audience-card-0-key', '手机号');
    await choose('audience-card-1-key', '用户手机号');
    // Having: 销售额 (SUM) > 100.
    await page.getByTestId('audience-card-0-having-add-item').click();
    await choose('audience-card-0-having-item-0-field', '销售额');
    await choose('audience-card-0-having-item-0-fn', '大于');
    await page.getByTestId('audience-card-0-having-item-0-value').locator('input').first().fill('100');
    await choose('audience-card-0-outputs', '省份');
    await expect.poll(() => page.getByTestId('audience-card-1-connect').innerText()).toBe('交');
    await page.getByTestId('audience-preview').click();
    await page.getByTestId('audience-preview-table').locator('tbody tr').first().waitFor();
    await screenshot(page, 'audience-preview');
    const f = await fieldIds();
    const having = { relation: 'AND', conditions: [{ cubeColumnId: f.amount, conditions: [{ function: 'gt', values: [100] }] }], filters: [] };
    const expected = await apiTotal([
      { cubeId: f.cube, phoneField: f.phone, having },
      { cubeId: f.user, phoneField: f.userPhone, connectType: 'and' },
    ]);
    expect(expected).toBeGreaterThan(0);
    expect(await previewTotal()).toBe(expected);

    await page.getByTestId('audience-name').fill('高消费用户');
    await choose('audience-category', '营销人群');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/audience/save'));
    await page.getByTestId('audience-save').click();
    expect((await (await saved).json()).msg).toBe('保存成功');
    await page.waitForURL(/\/cdp\/audience\/edit\?id=\d+$/);
    await page.goto(`${app.url}/cdp/audience`);
    const row = listRow('高消费用户');
    await row.getByText('已完成').waitFor({ timeout: 60_000 });
    await expect.poll(() => row.locator('td').nth(4).innerText()).toBe(expected.toLocaleString('zh-CN'));
    await row.getByText('刷新').click();
    await page.getByText('已提交').waitFor();
    await row.getByText('已完成').waitFor({ timeout: 60_000 });
    await screenshot(page, 'audience-list');
    // 计算记录: the save's computation and the 刷新, both done with the same size.
    await row.getByText('计算记录').click();
    const done = page.getByTestId('audience-history').locator('tbody tr').filter({ hasText: '已完成' });
    await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(2);
    expect(await done.first().locator('td').nth(3).innerText()).toBe(expected.toLocaleString('zh-CN'));
  });

  it('saves a 差 audience: 订单分析 − 用户人群 (5G)', async () => {
    await page.goto(`${app.url}/cdp/audience/edit`);
    await drop('订单分析');
    await drop('用户人群');
    await choose('audience-card-0-key', '手机号');
    await choose('audience-card-1-key', '用户手机号');
    await page.getByTestId('audience-card-1-connect').click();
    await page.getByTestId('audience-card-1-connect').click();
    await expect.poll(() => page.getByTestId('audience-card-1-connect').innerText()).toBe('差');
    await page.getByTestId('audience-card-1-where-add-item').click();
    await choose('audience-card-1-where-item-0-field', '终端网络');
    await page.getByTestId('audience-card-1-where-item-0-value').locator('input').first().fill('5G');
    await page.keyboard.press('Enter');
    await page.getByTestId('audience-preview').click();
    const shown = await previewTotal();
    const f = await fieldIds();
    const expected = await apiTotal([
      { cubeId: f.cube, phoneField: f.phone },
      {
        cubeId: f.user,
        phoneField: f.userPhone,
        connectType: 'del',
        filter: {
          relation: 'AND',
          conditions: [{ cubeColumnId: (await fieldIdOf('用户人群', '终端网络'))!, conditions: [{ function: 'eq', values: ['5G'] }] }],
        },
      },
    ]);
    expect(shown).toBe(expected);
    await page.getByTestId('audience-name').fill('非5G订购用户');
    await choose('audience-category', '营销人群');
    await page.getByTestId('audience-save').click();
    await page.waitForURL(/\?id=\d+$/);
  });

  const fieldIdOf = async (cubeName: string, title: string) => {
    const cubes = await apiCall<{ records: { id: number; cubeName: string }[] }>(app, token, 'GET', '/api/dataset/cubes?size=100');
    const id = cubes.records.find((c) => c.cubeName === cubeName)!.id;
    const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${id}/fields`);
    return fields.find((x) => x.columnTitle === title)?.id;
  };

  it('imports a phone file with bad lines and intersects it with a dataset audience', async () => {
    const preview = await apiCall<{ dataList: { phone: string }[] }>(app, token, 'POST', '/api/audience/preview', {
      defineRule: [{ cubeId: (await fieldIds()).cube, phoneField: (await fieldIds()).phone }],
    });
    const phones = preview.dataList.slice(0, 3).map((r) => String(r.phone));
    const [a, b, c] = phones as [string, string, string];
    const text = [
      `+86 ${a.slice(0, 3)} ${a.slice(3, 7)} ${a.slice(7)}`,
      `${b.slice(0, 3)}-${b.slice(3, 7)}-${b.slice(7)}`,
      c,
      c,
      '12345',
      '电话号码',
      '19900000000',
    ].join('\n');
    await page.goto(`${app.url}/cdp/audience`);
    await page.getByTestId('audience-import-open').click();
    await page.getByTestId('audience-import-name').fill('活动名单');
    await page
      .locator('[data-testid="audience-import"] input[type="file"]')
      .setInputFiles({ name: '名单.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByTestId('audience-import-result').getByText('有效 4 个，无效 2 行，重复 1 个').waitFor();
    await screenshot(page, 'audience-import');
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await listRow('活动名单').getByText('已完成').waitFor();

    await page.goto(`${app.url}/cdp/audience/edit`);
    await drop('订单分析');
    await choose('audience-card-0-key', '手机号');
    await page.getByTestId('audience-group-活动名单').dragTo(page.getByTestId('audience-drop'));
    await page.getByTestId('audience-card-1').waitFor();
    await page.getByTestId('audience-preview').click();
    const table = page.getByTestId('audience-preview-table');
    await table.locator('tbody tr').first().waitFor();
    await expect.poll(async () => (await table.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual([...phones].sort());
    await screenshot(page, 'audience-import-intersect');
    await page.keyboard.press('Escape');
    await page.getByTestId('audience-name').fill('名单内订购用户');
    await choose('audience-category', '营销人群');
    await page.getByTestId('audience-save').click();
    await page.waitForURL(/\?id=\d+$/);
    await page.goto(`${app.url}/cdp/audience`);
    await eventually(async () => ((await listRow('名单内订购用户').innerText()).includes('已完成') ? true : undefined), '名单内订购用户 computed', 60_000);
    await expect.poll(() => listRow('名单内订购用户').locator('td').nth(4).innerText()).toBe('3');
  });
});
