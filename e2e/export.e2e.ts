import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { createOrdersDataset } from './api-fixtures.ts';

interface Task {
  id: number;
  fileName: string;
  status: string;
  rowCount: number;
}

/**
 * Table export (spec 1 §2.10, §7): in the preview, 导出 on a detail table opens 导出记录;
 * 点击导出 with a typed file name starts a background task; 下载 appears when it is done and
 * saves a workbook whose rows are the table's; 任务管理 lists the task.
 */
describe('table export', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let boardId: number;
  /** Every row of the detail table, as the chart-data call gives them. */
  let expected: Record<string, unknown>[];

  beforeAll(async () => {
    // A smaller warehouse than the default keeps the run short; still more rows than one progress step.
    app = await startApp({ SHUTU_DEMO_SCALE: '8000' });
    token = await apiLogin(app);
    const { cubeId, fieldIds: f } = await createOrdersDataset(app, token, { category: '经营数据', name: '订单', publicStatus: 1 });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '经营' });
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      title: '订单看板',
      categoryId: category.id,
      content: { type: 'quick', layout: [{ i: 'd1', x: 0, y: 0, w: 24, h: 10 }] },
      charts: [
        {
          key: 'd1',
          name: 'detail',
          title: '订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: f['省份'] }, { fieldId: f['订单编号'] }, { fieldId: f['订购时间'] }],
            indexParamList: [{ fieldId: f['金额'] }],
            sortList: [{ fieldId: f['订单编号'], direction: 'ASC' }],
            pageSize: 10,
          },
        },
      ],
    });
    expected = [];
    for (let current = 1; ; current++) {
      const data = await apiCall<{ dataList: Record<string, unknown>[]; total: number }>(app, token, 'POST', '/api/board/chart-data', {
        boardId,
        chartKey: 'd1',
        current,
        size: 1000,
      });
      expected.push(...data.dataList);
      if (expected.length >= data.total) break;
    }
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `export-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('exports the detail table from the preview and downloads a workbook with its rows', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    const chart = page.locator('[data-testid="board-chart"][data-chart-key="d1"]');
    await chart.waitFor();
    await chart.hover();
    await chart.getByTestId('chart-export').click();
    const popover = page.getByTestId('export-popover');
    await popover.waitFor();
    await expect(page.locator('.ant-popover-title').textContent()).resolves.toBe('导出记录');
    await expect(popover.getByTestId('export-file-name').inputValue()).resolves.toBe('订单明细');
    await popover.getByTestId('export-file-name').fill('全国订单明细');
    await popover.getByText('点击导出').click();
    await page.getByText('已提交导出任务').waitFor();
    const download = popover.getByTestId('export-download').first();
    await download.waitFor({ timeout: 60_000 });
    await expect(popover.getByTestId('export-record').first().textContent()).resolves.toContain('全国订单明细.xlsx');
    await screenshot(page, 'export-popover');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('全国订单明细.xlsx');
    const saved = await file.path();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(fs.readFileSync(saved) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['省份', '订单编号', '订购时间', '金额']);
    expect(rows.length - 1).toBe(expected.length);
    const asExcel = (r: Record<string, unknown>) => [r.d0, r.d1, typeof r.d2 === 'string' ? new Date(`${r.d2}Z`) : r.d2, r.d3];
    expect(rows.slice(1)).toEqual(expected.map(asExcel));
  });

  it('lists the task on 任务管理 with its rows and a download', async () => {
    await page.getByTestId('export-task-link').click();
    await page.waitForURL('**/newbi/mine/export');
    const row = page.getByTestId('export-task-row').first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('全国订单明细.xlsx');
    await expect(row.textContent()).resolves.toContain('已完成');
    await expect(row.textContent()).resolves.toContain(expected.length.toLocaleString('en-US'));
    await expect(row.textContent()).resolves.toContain('订单看板');
    const tasks = await apiCall<{ records: Task[] }>(app, token, 'GET', '/api/export/tasks?current=1&size=10');
    expect(tasks.records).toMatchObject([{ fileName: '全国订单明细.xlsx', status: 'done', rowCount: expected.length }]);
    await screenshot(page, 'export-tasks');
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('task-download').click()]);
    expect(file.suggestedFilename()).toBe('全国订单明细.xlsx');
  });
});
