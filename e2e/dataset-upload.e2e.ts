import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, type E2EApp } from './harness.ts';
import { openUploadDrawer, startUploadSession } from './upload-drawer.ts';

/** 上传文件 on the dataset list (issue 16): the editor's upload drawer, then the editor on the new table. */
describe('upload a file from the dataset list', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let warehouseId: number;

  beforeAll(async () => {
    ({ app, warehouseId, browser, page } = await startUploadSession());
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `dataset-upload-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('uploads a UTF-8 CSV and lands in the editor with the new table dropped in', async () => {
    const drawer = await openUploadDrawer(page, app);

    const csv = '门店,城市,销售额\n南京路店,上海,1200.5\n西湖店,杭州,860\n春熙路店,成都,990\n';
    await drawer.locator('input[type=file]').setInputFiles({ name: '门店销售.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await drawer.getByText('南京路店').first().waitFor();
    expect(await page.getByTestId('file-table-comment').inputValue()).toBe('门店销售');
    await page.getByTestId('file-table-name').fill('store_sales');
    await screenshot(page, 'dataset-upload-drawer');

    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/filetable/tables'),
      page.getByTestId('file-upload-ok').click(),
    ]);
    expect(created.status()).toBe(200);
    // The file went once: the confirm names what the structure call kept.
    const confirmBody = created.request().postData() ?? '';
    expect(confirmBody).toMatch(/name="fileToken"\r\n\r\n[0-9a-f]{32}\r\n/);
    expect(confirmBody).not.toContain('南京路店');
    await page.waitForURL((u) => u.pathname === '/newbi/dataset/edit');
    const url = new URL(page.url());
    expect(url.searchParams.get('sourceid')).toBe(String(warehouseId));
    expect(url.searchParams.get('tableName')).toBe('store_sales');

    await page.getByTestId('dataset-editor').waitFor();
    const node = page.locator('[data-testid^="ds-node-"]');
    await node.first().waitFor();
    expect(await node.count()).toBe(1);
    expect(await node.first().innerText()).toContain('store_sales');
    await page.getByTestId('ds-field-门店').first().waitFor();
    await page.getByTestId('ds-field-销售额').first().waitFor();
    await page.getByTestId('ds-preview').getByText('南京路店').waitFor();
    await screenshot(page, 'dataset-upload-editor');
    // Listed among the source's file tables.
    await page.getByRole('tab', { name: '文件表' }).click();
    await page.getByTestId('ds-table-store_sales').waitFor();
  });
});
