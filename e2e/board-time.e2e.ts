import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createOrdersDataset } from './api-fixtures.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { chartAnswer } from './board-answers.ts';

type Row = Record<string, string | number | null>;
interface ChartData {
  dataList: Row[];
  fieldDict: { alias: string; granularity: string | null }[];
  total: number | null;
}

/**
 * Time on charts (issue 16): a line chart on a datetime field with no granularity chosen plots
 * one point a month (13 months of demo orders), in time order; clicking a month of the 按月汇总
 * table filters the linked 订单明细 to that month's orders (as many as the dataset counts for the
 * month), not to the orders of its first midnight; the editor shows the chosen unit as 自动（月）.
 */
describe('time on charts', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let cubeId: number;
  let ids: Record<string, number>;
  let boardId: number;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    ({ cubeId, fieldIds: ids } = await createOrdersDataset(app, token, { category: '时间测试', name: '订单（时间）', publicStatus: 1 }));
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '时间看板' });
    const white = { bgColor: '#ffffff', titleFontColor: '#1f2d3d' };
    const sum = { fieldId: ids['金额']!, aggregation: 'SUM' };
    const time = ids['订购时间']!;
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      kind: 'visual',
      title: '订单时间看板',
      categoryId: category.id,
      publicStatus: 1,
      content: { type: 'screen', width: 1920, height: 1200, bgColor: '#e9eef5' },
      charts: [
        {
          key: 'trend',
          name: 'line',
          title: '订购时间 · 金额',
          dataconfig: { cubeId, rowParamList: [{ fieldId: time }], indexParamList: [sum] },
          site: { x: 20, y: 20, w: 1880, h: 420, ...white },
        },
        {
          key: 'months',
          name: 'table',
          title: '按月汇总',
          dataconfig: { cubeId, rowParamList: [{ fieldId: time }], indexParamList: [sum, { fieldId: ids['订单编号']!, aggregation: 'COUNT' }] },
          site: { x: 20, y: 460, w: 700, h: 720, ...white },
        },
        {
          key: 'orders',
          name: 'detail',
          title: '订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: ids['订单编号']! }, { fieldId: time }, { fieldId: ids['省份']! }, { fieldId: ids['金额']! }],
            pageSize: 15,
          },
          site: { x: 740, y: 460, w: 1160, h: 720, ...white },
          ext: { filterList: [{ linkFrom: 'months', linkKey: time }] },
        },
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `board-time-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const answerOf = (key: string, withLinks: boolean) => chartAnswer<ChartData>(page, key, withLinks);
  const chart = (key: string) => page.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);

  /** Orders of one month ('2026-05') as the dataset preview counts them. */
  async function ordersIn(month: string): Promise<number> {
    const preview = await apiCall<ChartData>(app, token, 'POST', '/api/dataset/preview', {
      cubeDataId: cubeId,
      request: {
        measures: [{ fieldId: ids['订单编号'], aggregation: 'COUNT' }],
        where: { relation: 'AND', conditions: [{ cubeColumnId: ids['订购时间'], conditions: [{ function: 'eq', values: [month] }] }] },
      },
    });
    return Number(preview.dataList[0]!.m0);
  }

  it('the line plots one point a month in time order; a click on a month filters the linked orders to that month', async () => {
    // The first answer comes in the board's batch; linked ones per chart.
    const trend = chartAnswer<ChartData>(page, 'trend', false);
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    const { data } = await trend;
    expect(data.fieldDict[0]!.granularity).toBe('MONTH');
    const months = data.dataList.map((r) => String(r.d0));
    expect(months.length).toBeGreaterThanOrEqual(12);
    expect(months).toEqual([...months].sort());
    expect(months.every((m) => /^\d{4}-\d{2}-01T00:00:00$/.test(m))).toBe(true);

    // The 按月汇总 table lists the same months, oldest first, as yyyy-MM.
    const month = months[3]!.slice(0, 7);
    const row = chart('months').locator('tr', { hasText: month }).first();
    await row.waitFor();
    const firstRow = await chart('months').locator('tbody tr.ant-table-row').first().innerText();
    expect(firstRow).toContain(months[0]!.slice(0, 7));

    const filtered = answerOf('orders', true);
    await row.click();
    const { links, data: orders } = await filtered;
    expect(links).toEqual([{ fieldId: ids['订购时间'], function: 'in', values: [months[3]], granularity: 'MONTH' }]);
    expect(orders.total).toBe(await ordersIn(month));
    expect(orders.total!).toBeGreaterThan(15);
    const timeAlias = orders.fieldDict[1]!.alias;
    expect(orders.dataList.every((r) => String(r[timeAlias]).startsWith(month))).toBe(true);
    await expect.poll(() => chart('orders').getAttribute('data-link-count')).toBe('1');
    await chart('orders').locator('tbody tr.ant-table-row', { hasText: month }).first().waitFor();
    await screenshot(page, 'board-time');
  });

  it('the editor shows the granularity the server chose as 自动（月）', async () => {
    await page.goto(`${app.url}/newbi/visual/bigdataEdit?id=${boardId}`);
    await page.locator('[data-testid="editor-chart"][data-chart-key="trend"]').click();
    const select = page.getByTestId('chart-config-panel').getByTestId('ccp-item-granularity').first();
    await expect.poll(() => select.innerText(), { timeout: 30_000 }).toBe('自动（月）');
    await screenshot(page, 'board-time-editor');
  });
});
