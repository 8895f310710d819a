import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, type E2EApp } from './harness.ts';
import { openUploadDrawer, startUploadSession } from './upload-drawer.ts';

/** The 订单 sheet as a user typed it: 下单时间 holds real dates (numbers with a date-time format), one 备注 is left empty. */
const HEADER = ['订单号', '客户', '金额', '下单时间', '备注'] as const;
const ORDERS = [
  { id: 1001, customer: '张三', amount: 1200.5, at: '2024-03-05 08:30:00', note: '首单' },
  { id: 1002, customer: '李四', amount: 860, at: '2024-03-06 14:05:09', note: '含逗号, 和"引号"' },
  { id: 1003, customer: '王五', amount: 99.99, at: '2024-12-31 23:59:59', note: null },
  { id: 1004, customer: '赵六', amount: -15.25, at: '2025-01-01 00:00:00', note: '退款：部分' },
  { id: 1005, customer: '孙七', amount: 0, at: '2024-02-29 12:00:00', note: '闰年二月' },
] as const;
/** A second sheet: the upload reads the first one only. */
const OTHER_SHEET = { name: '退货', header: ['订单号', '原因'], rows: [[9001, '第二张表不应导入']] } as const;

/** '2024-03-05 08:30:00' as the Date exceljs writes as that wall-clock serial (it counts days from 1899-12-30 in UTC). */
const wallClock = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

/** The workbook as Excel writes one: shared strings, a date-time number format on the date column, a second sheet after. */
async function writeWorkbook(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  book.creator = 'e2e';
  const sheet = book.addWorksheet('订单');
  sheet.addRow([...HEADER]);
  for (const o of ORDERS) sheet.addRow([o.id, o.customer, o.amount, wallClock(o.at), o.note ?? undefined]);
  sheet.getColumn(3).numFmt = '#,##0.00';
  sheet.getColumn(4).numFmt = 'yyyy-mm-dd hh:mm:ss';
  sheet.getColumn(4).width = 20;
  const other = book.addWorksheet(OTHER_SHEET.name);
  other.addRow([...OTHER_SHEET.header]);
  for (const r of OTHER_SHEET.rows) other.addRow([...r]);
  await book.xlsx.writeFile(file);
}

/** 上传文件 of an Excel workbook on the dataset list: the drawer's structure, then the table loaded with the file's values. */
describe('upload an xlsx from the dataset list', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let warehouseId: number;
  let tmpDir: string;
  let workbook: string;

  beforeAll(async () => {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-e2e-xlsx-'));
    workbook = path.join(tmpDir, '订单明细.xlsx');
    await writeWorkbook(workbook);
    ({ app, warehouseId, browser, page } = await startUploadSession());
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-upload-xlsx-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  it('reads the first sheet with its dates as date-times and loads exactly its rows', async () => {
    const drawer = await openUploadDrawer(page, app);

    const [structured] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/filetable/structure'),
      drawer.locator('input[type=file]').setInputFiles(workbook),
    ]);
    expect(structured.status()).toBe(200);
    // What the server read: the first sheet's header and rows, the dates as date-time texts.
    const structure = (
      (await structured.json()) as { data: { columns: { comment: string; columnName: string; columnType: string }[]; previewRows: Record<string, unknown>[] } }
    ).data;
    expect(structure.columns.map((c) => [c.comment, c.columnType])).toEqual([
      ['订单号', 'NUMBER'],
      ['客户', 'STRING'],
      ['金额', 'NUMBER'],
      ['下单时间', 'DATETIME'],
      ['备注', 'STRING'],
    ]);
    const names = structure.columns.map((c) => c.columnName);
    expect(structure.previewRows).toEqual(ORDERS.map((o) => Object.fromEntries(names.map((n, i) => [n, [o.id, o.customer, o.amount, o.at, o.note][i]]))));

    const preview = page.getByTestId('file-preview');
    await preview.getByText('张三').waitFor();
    expect(await page.getByTestId('file-table-comment').inputValue()).toBe('订单明细');

    // 字段配置: the header's texts, 金额 a number (数值), 下单时间 a date-time (日期/时间), the texts strings.
    const columns = page.getByTestId('file-columns');
    const original = await columns.locator('tbody tr.ant-table-row td:first-child').allInnerTexts();
    expect(original.map((s) => s.trim())).toEqual([...HEADER]);
    const types: string[] = [];
    for (let i = 0; i < HEADER.length; i++) types.push((await page.getByTestId(`file-col-type-${i}`).innerText()).trim());
    expect(types).toEqual(['数值', '字符串', '数值', '日期/时间', '字符串']);

    // 数据预览: the dates as the user typed them (no day serials such as 45356.35), Chinese and the quoted text intact.
    const previewRowsShown = preview.locator('tbody tr.ant-table-row');
    expect(await previewRowsShown.count()).toBe(ORDERS.length);
    const shown: string[][] = [];
    for (let i = 0; i < ORDERS.length; i++) shown.push((await previewRowsShown.nth(i).locator('td').allInnerTexts()).map((t) => t.trim()));
    expect(shown).toEqual(ORDERS.map((o) => [String(o.id), o.customer, String(o.amount), o.at, o.note ?? '']));
    const previewText = await preview.innerText();
    expect(previewText).not.toMatch(/\b4\d{4}\.\d+/);
    expect(previewText).not.toContain(OTHER_SHEET.rows[0][1]);

    await page.getByTestId('file-table-name').fill('xlsx_orders');
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'dataset-upload-xlsx-drawer');

    // The editor's first preview of the whole new table (all five fields).
    const previewed = page.waitForResponse(
      async (r) =>
        r.request().method() === 'POST' &&
        new URL(r.url()).pathname === '/api/query/preview' &&
        ((await r.json()) as { data?: { fieldDict?: unknown[] } }).data?.fieldDict?.length === HEADER.length,
    );
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/filetable/tables'),
      page.getByTestId('file-upload-ok').click(),
    ]);
    expect(created.status()).toBe(200);
    const table = ((await created.json()) as { data: { tableName: string; rowCount: number; columns: { columnType: string }[] } }).data;
    // Five rows: the first sheet's, none of the second's.
    expect(table.tableName).toBe('xlsx_orders');
    expect(table.rowCount).toBe(ORDERS.length);
    expect(table.columns.map((c) => c.columnType)).toEqual(['NUMBER', 'STRING', 'NUMBER', 'DATETIME', 'STRING']);
    await page.locator('.ant-message').getByText('上传成功').first().waitFor();
    await page.waitForURL((u) => u.pathname === '/newbi/dataset/edit');
    const url = new URL(page.url());
    expect(url.searchParams.get('sourceid')).toBe(String(warehouseId));
    expect(url.searchParams.get('tableName')).toBe('xlsx_orders');

    // The editor previews the new table: exactly the first sheet's rows, with the file's values.
    await page.getByTestId('dataset-editor').waitFor();
    const answer = (
      (await (await previewed).json()) as { data: { fieldDict: { alias: string; title: string; viewDataType: string }[]; dataList: Record<string, unknown>[] } }
    ).data;
    const alias = Object.fromEntries(answer.fieldDict.map((d) => [d.title, d.alias]));
    expect(Object.keys(alias).sort()).toEqual([...HEADER].sort());
    expect(Object.fromEntries(answer.fieldDict.map((d) => [d.title, d.viewDataType]))).toEqual({
      订单号: 'NUMBER',
      客户: 'STRING',
      金额: 'NUMBER',
      下单时间: 'DATETIME',
      备注: 'STRING',
    });
    const loaded = answer.dataList.map((r) => HEADER.map((h) => r[alias[h]!])).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(loaded).toEqual(ORDERS.map((o) => [o.id, o.customer, o.amount, o.at.replace(' ', 'T'), o.note]));

    // What the user reads in 数据预览: the same rows, dates as date-times, the empty 备注 empty.
    const grid = page.getByTestId('ds-preview');
    await grid.getByText('张三').waitFor();
    const titles = (await grid.locator('thead th').allInnerTexts()).map((t) => t.trim());
    const gridRows = grid.locator('tbody tr.ant-table-row');
    expect(await gridRows.count()).toBe(ORDERS.length);
    const seen: string[][] = [];
    for (let i = 0; i < ORDERS.length; i++) {
      const cells = (await gridRows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim());
      seen.push(HEADER.map((h) => cells[titles.indexOf(h)]!));
    }
    seen.sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(seen).toEqual(ORDERS.map((o) => [String(o.id), o.customer, String(o.amount), o.at, o.note ?? '']));
    expect(await grid.innerText()).not.toContain(OTHER_SHEET.rows[0][1]);
    await screenshot(page, 'dataset-upload-xlsx-editor');
  });
});
