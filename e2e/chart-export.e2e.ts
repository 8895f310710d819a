import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { createOrdersDataset, ORDER_FIELDS, ordersField } from './api-fixtures.ts';

/**
 * Exports as the user sees them (issue 16; docs/exports.md): 查看数据 of a bar chart offers 导出
 * as Excel and as CSV (UTF-8 with BOM) — the files hold the chart's dimension and measure
 * columns and its rows; a pivot's 导出 downloads its cross-tab with merged headers and 合计;
 * a slideshow's 导出PDF starts on 全部 and its task appears in 任务管理 beside the exports.
 */
describe('chart export', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let boardId: number;
  let pptId: number;
  /** The bar chart's rows as chart-data gives them (d0 省份, m0 金额). */
  let barRows: Record<string, unknown>[];
  let statuses: string[];

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '3000' });
    token = await apiLogin(app);
    const fields = [...ORDER_FIELDS, ordersField('status', 'status', '状态')];
    const { cubeId, fieldIds: f } = await createOrdersDataset(app, token, { category: '导出数据', name: '订单导出', publicStatus: 1, fields });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '导出' });
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      title: '经营导出看板',
      categoryId: category.id,
      content: {
        type: 'quick',
        layout: [
          { i: 'b1', x: 0, y: 0, w: 12, h: 8 },
          { i: 'p1', x: 12, y: 0, w: 12, h: 8 },
        ],
      },
      charts: [
        {
          key: 'b1',
          name: 'bar',
          title: '各省金额',
          // Sorted: without a sort the engine may return the provinces in another order on every read (the export reads again).
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: f['省份'] }],
            indexParamList: [{ fieldId: f['金额'], aggregation: 'SUM' }],
            sortList: [{ fieldId: f['省份'], direction: 'ASC' }],
          },
        },
        {
          key: 'p1',
          name: 'pivot',
          title: '各省各状态金额',
          option: { showTotal: true },
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: f['省份'] }],
            columnParamList: [{ fieldId: f['状态'] }],
            indexParamList: [
              { fieldId: f['金额'], aggregation: 'SUM' },
              { fieldId: f['订单编号'], aggregation: 'COUNT' },
            ],
            // Sorted by both dimensions: the columns come in one order on every read.
            sortList: [
              { fieldId: f['省份'], direction: 'ASC' },
              { fieldId: f['状态'], direction: 'ASC' },
            ],
          },
        },
      ],
    });
    barRows = (await apiCall<{ dataList: Record<string, unknown>[] }>(app, token, 'POST', '/api/board/chart-data', { boardId, chartKey: 'b1' })).dataList;
    const pivot = await apiCall<{ dataList: Record<string, unknown>[] }>(app, token, 'POST', '/api/board/chart-data', { boardId, chartKey: 'p1' });
    statuses = [...new Set(pivot.dataList.map((r) => String(r.d1)))];
    pptId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/ppt/slideshows', { ppName: '导出汇报', visualIds: [boardId] })).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `chart-export-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** 点击导出 in the open popover, then the new record's 下载 once it is done. */
  async function exportAndDownload(on: Page, format: 'Excel' | 'CSV', records: number): Promise<Download> {
    const popover = on.getByTestId('export-popover');
    await popover.waitFor();
    await popover.getByText(format, { exact: true }).click();
    await popover.getByText('点击导出').click();
    await on.getByText('已提交导出任务').first().waitFor();
    // The new record is first; 下载 shows once it is done.
    await popover
      .locator('[data-testid="export-record"]')
      .nth(records - 1)
      .waitFor();
    const first = popover.locator('[data-testid="export-record"]').first();
    await first.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    const [file] = await Promise.all([on.waitForEvent('download'), first.locator('[data-testid="export-download"]').click()]);
    return file;
  }

  it('查看数据 of a bar chart exports its 省份 and 金额 columns as Excel and as CSV with a BOM', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    const chart = page.locator('[data-testid="board-chart"][data-chart-key="b1"]');
    await chart.waitFor();
    await chart.hover();
    // The bar chart has 导出 in its header tools too, beside 查看数据.
    await chart.getByTestId('chart-export').waitFor();
    const [dataView] = await Promise.all([page.context().waitForEvent('page'), chart.getByTestId('chart-json').click()]);
    await dataView.getByTestId('chart-json-page').waitFor();
    await dataView.getByTestId('json-export').click();

    const xlsx = await exportAndDownload(dataView, 'Excel', 1);
    expect(xlsx.suggestedFilename()).toBe('各省金额.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(await xlsx.path()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['省份', '金额']);
    expect(rows.length - 1).toBe(barRows.length);
    expect(rows.slice(1).map((r) => r[0])).toEqual(barRows.map((r) => r.d0));

    const csv = await exportAndDownload(dataView, 'CSV', 2);
    expect(csv.suggestedFilename()).toBe('各省金额.csv');
    const bytes = fs.readFileSync(await csv.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('省份,金额');
    expect(lines.length - 1).toBe(barRows.length);
    await screenshot(dataView, 'chart-export-data-view');
    await dataView.close();
  });

  it('a pivot’s 导出 downloads its cross-tab: a merged header per status over its measures, 合计 row and column', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    const chart = page.locator('[data-testid="board-chart"][data-chart-key="p1"]');
    await chart.waitFor();
    await chart.hover();
    await chart.getByTestId('chart-export').click();
    const file = await exportAndDownload(page, 'Excel', 1);
    await screenshot(page, 'chart-export-pivot-popover');
    expect(file.suggestedFilename()).toBe('各省各状态金额.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(await file.path()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    // Row 1: 省份 (merged down), each status over its two measures, 合计 over two; row 2: the measures.
    expect(header(1)).toEqual(['省份', ...statuses.flatMap((s) => [s, s]), '合计', '合计']);
    expect(header(2)).toEqual(['省份', ...statuses.flatMap(() => ['金额', '订单编号']), '金额', '订单编号']);
    expect(sheet.model.merges).toEqual(expect.arrayContaining(['A1:A2', 'B1:C1']));
    expect(sheet.model.merges.length).toBeGreaterThanOrEqual(statuses.length + 2);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    expect(last[0]).toBe('合计');
    expect(sheet.getRow(sheet.rowCount).getCell(1).font?.bold).toBe(true);
  });

  it('a slideshow PDF starts on 全部 and its task is listed in 任务管理 beside the exports', async () => {
    await page.goto(`${app.url}/newbi/ppt/view/${pptId}`);
    await page.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    // The slide's charts carry the same tools: 导出 on the bar chart too.
    const slideBar = page.locator('[data-ppt-current="true"] [data-testid="board-chart"][data-chart-key="b1"]');
    await slideBar.hover();
    await slideBar.getByTestId('chart-export').click();
    await page.getByTestId('export-popover').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('ppt-export-pdf').click();
    await page.getByTestId('ppt-pdf-form').waitFor();
    expect(await page.getByLabel('全部').isChecked()).toBe(true);
    // 选择页 with nothing ticked: 开始导出 is off and says why.
    await page.getByText('选择页', { exact: true }).click();
    expect(await page.getByTestId('ppt-pdf-submit').isDisabled()).toBe(true);
    expect(await page.getByTestId('ppt-pdf-hint').textContent()).toBe('请至少选择一个大屏');
    await screenshot(page, 'chart-export-pdf-dialog-hint');
    await page.getByText('全部', { exact: true }).click();
    await page.getByTestId('ppt-pdf-submit').click();
    await page.getByTestId('ppt-pdf-progress').or(page.getByTestId('ppt-pdf-download')).first().waitFor();
    await page.getByTestId('ppt-pdf-tasks-link').click();
    await page.waitForURL('**/newbi/mine/export');
    const pdfRow = page.locator('[data-testid="export-task-row"][data-kind="pdf"]').first();
    await pdfRow.waitFor();
    expect(await pdfRow.textContent()).toContain('导出汇报.pdf');
    expect(await pdfRow.textContent()).toContain('幻灯片PDF');
    await page.locator('[data-testid="export-task-row"][data-kind="pdf"][data-status="done"]').first().waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-testid="export-task-row"][data-kind="chart"]').count()).toBe(3);
    await screenshot(page, 'chart-export-tasks');
    const [file] = await Promise.all([page.waitForEvent('download'), pdfRow.getByTestId('task-download').click()]);
    expect(file.suggestedFilename()).toBe('导出汇报.pdf');
  });
});
