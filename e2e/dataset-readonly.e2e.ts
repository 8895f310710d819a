import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Issue 16, a member who may read a dataset but not change it: it opens read-only with its
 * preview under the member's row filter, dates as yyyy-MM-dd and date-times as
 * yyyy-MM-dd HH:mm:ss, no 保存 or 删除, no error notice, and no refused call on the way.
 */
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const MEMBER = { account: 'duzhe', password: 'duzhe123' };

/** A file table: a date column (kept by the warehouse as midnight timestamps) and a date-time column. */
const CSV = [
  '城市,金额,签约日期,下单时间',
  '广州,120.5,2026-01-01,2026-09-22 16:25:59',
  '广州,80,2026-02-15,2026-09-23 08:00:00',
  '北京,300,2026-03-01,2026-09-24 12:30:00',
].join('\n');
const COLUMNS = [
  { comment: '城市', columnName: 'city', columnType: 'STRING' },
  { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
  { comment: '签约日期', columnName: 'sign_day', columnType: 'DATETIME' },
  { comment: '下单时间', columnName: 'order_at', columnType: 'DATETIME' },
];

describe('dataset read-only for a member', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let cubeId: number;
  const refused: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    const token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    const warehouseId = sources.records.find((s) => s.isBuiltin)!.id;

    const form = new FormData();
    form.set('tableName', 'readonly_sales');
    form.set('tableComment', '签约销售');
    form.set('dsId', String(warehouseId));
    form.set('tableColumnList', JSON.stringify(COLUMNS));
    form.set('file', new Blob([CSV], { type: 'text/csv' }), '签约销售.csv');
    const uploaded = await fetch(`${app.url}/api/filetable/tables`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);

    const ws = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '只读', parentId: 0 });
    const field = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
      id,
      columnName,
      columnTitle,
      tableAliasName: 'f',
      columnAttr: 'NORMAL',
      ...extra,
    });
    cubeId = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', {
      cubeData: { cubeName: '签约销售', workspaceId: ws.id, cubeTableNames: [{ tableName: 'readonly_sales', tableAliasName: 'f' }], publicStatus: 0 },
      datasourceId: warehouseId,
      columnList: [
        field('city', 'city', '城市'),
        field('signDay', 'sign_day', '签约日期', { viewDataType: 'DATETIME' }),
        field('orderAt', 'order_at', '下单时间', { viewDataType: 'DATETIME' }),
        field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      ],
    });
    const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`);
    const cityId = fields.find((f) => f.columnTitle === '城市')!.id;

    // The member reads the dataset through a group, limited to 广州; the group has no table of the warehouse.
    const member = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', {
      account: MEMBER.account,
      password: md5(MEMBER.password),
      name: '读者',
    });
    const [type] = await apiCall<{ id: number }[]>(app, token, 'GET', '/api/perm/types');
    const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
      permName: '读者组',
      typeId: type!.id,
      permJson: { userList: [{ id: member.id, name: '读者' }] },
    });
    await apiCall(app, token, 'PUT', `/api/dataset/auth/${group.id}/cubes`, { cubeWorkspaceId: ws.id, dataIdList: [cubeId] });
    await apiCall(app, token, 'POST', '/api/dataset/perm-filters', {
      cubeDataId: cubeId,
      dataPermId: group.id,
      cubePermName: '一号过滤器',
      filterJson: {
        relation: 'AND',
        conditions: [{ cubeColumnId: cityId, connectType: 'and', conditions: [{ function: 'eq', values: ['广州'] }] }],
        filters: [],
      },
    });

    browser = await launchBrowser();
    page = await newPage(browser);
    page.on('response', (r) => {
      if (r.status() >= 400 && new URL(r.url()).pathname.startsWith('/api/'))
        refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await loginThroughPage(page, app, MEMBER.account, MEMBER.password);
  }, 180_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-readonly-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens read-only with the rows of the member, readable dates, no edit controls and no error', async () => {
    refused.length = 0;
    consoleErrors.length = 0;
    await page.goto(`${app.url}/newbi/dataset/edit?id=${cubeId}`);
    const view = page.getByTestId('dataset-readonly');
    await view.waitFor();
    const preview = view.getByTestId('ds-preview');
    await preview.locator('tbody tr.ant-table-row').first().waitFor();
    const rows = await preview
      .locator('tbody tr.ant-table-row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    const headers = await preview.locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(['城市', '签约日期', '下单时间', '金额']);
    // Only 广州, the member's row filter; the date column date-only, the date-time column with its time.
    expect(rows.sort()).toEqual([
      ['广州', '2026-01-01', '2026-09-22 16:25:59', '120.5'],
      ['广州', '2026-02-15', '2026-09-23 08:00:00', '80'],
    ]);
    expect(await view.getByText('只读', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: /保\s*存/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /删\s*除/ }).count()).toBe(0);
    expect(await page.locator('.ant-message-error, .ant-notification-notice-error, .ant-alert-error').count()).toBe(0);
    await screenshot(page, 'dataset-readonly');
    expect(refused).toEqual([]);
    expect(consoleErrors.filter((e) => /403|Forbidden|权限/.test(e))).toEqual([]);

    await view.getByRole('tab', { name: /字段/ }).click();
    await view.getByTestId('ds-readonly-fields').getByText('签约日期').waitFor();
  });
});
