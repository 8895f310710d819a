import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createOrdersDataset, ordersField } from './api-fixtures.ts';
import { ARTIFACTS, apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import path from 'node:path';

/**
 * Issue 16, pie labels that fit: pies of a few, about a dozen and thirty-one slices at the size
 * a board gives them (620 × 390 on a 1920 design, as the demo dashboard's channel pie), with
 * and without a legend. Canvas text cannot be read, so each pie is kept as a picture for a
 * person to look at (e2e/artifacts/pie-labels*.png): no label cut to "省公司: 4…".
 */
describe('pie labels at board size', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let boardId: number;

  const PIES = [
    { key: 'status', field: '订购状态', title: '订购状态占比（3 项）', option: {} },
    { key: 'channel', field: '渠道', title: '渠道销售占比（11 项，带图例）', option: {} },
    { key: 'channelNoLegend', field: '渠道', title: '渠道销售占比（环形，无图例）', option: { donut: true, showLegend: false } },
    { key: 'province', field: '省份', title: '各省销售占比（31 项）', option: {} },
  ] as const;

  beforeAll(async () => {
    app = await startApp();
    const token = await apiLogin(app);
    const { cubeId, fieldIds } = await createOrdersDataset(app, token, {
      category: '饼图',
      name: '订单（饼图）',
      publicStatus: 1,
      fields: [
        ordersField('province', 'province', '省份'),
        ordersField('channel', 'channel_name', '渠道'),
        ordersField('status', 'status', '订购状态'),
        ordersField('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      ],
    });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '饼图' });
    const sum = { fieldId: fieldIds['金额']!, aggregation: 'SUM' };
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      kind: 'visual',
      title: '饼图标签',
      categoryId: category.id,
      publicStatus: 1,
      content: { type: 'screen', width: 1920, height: 900, bgColor: '#e9eef5' },
      charts: PIES.map((pie, i) => ({
        key: pie.key,
        name: 'pie',
        title: pie.title,
        dataconfig: { cubeId, rowParamList: [{ fieldId: fieldIds[pie.field]! }], indexParamList: [sum], sortList: [{ ...sum, direction: 'DESC' }] },
        option: pie.option,
        site: { x: 20 + (i % 3) * 640, y: 20 + Math.floor(i / 3) * 420, w: 620, h: 390, bgColor: '#ffffff', titleFontColor: '#1f2d3d' },
      })),
    });
    browser = await launchBrowser();
    page = await newPage(browser, { width: 1920, height: 1000 });
    await loginThroughPage(page, app);
  }, 180_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `pie-labels-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const chart = (key: string) => page.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);

  it('draws every pie with its slices, kept as pictures to look at', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    const slices = { status: 3, channel: 11, channelNoLegend: 11, province: 31 };
    for (const pie of PIES) {
      await expect.poll(() => chart(pie.key).getAttribute('data-row-count'), { timeout: 30_000 }).toBe(String(slices[pie.key]));
      await chart(pie.key).locator('canvas').first().waitFor();
    }
    // Ready: every chart has rendered (ECharts' finished event, animations done).
    await page.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    await screenshot(page, 'pie-labels');
    for (const pie of PIES) await chart(pie.key).screenshot({ path: path.join(ARTIFACTS, `pie-labels-${pie.key}.png`) });
    expect(await page.getByTestId('board-chart').count()).toBe(PIES.length);
  });
});
