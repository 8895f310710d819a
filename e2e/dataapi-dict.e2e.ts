import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 保存为枚举字典 in Chromium (issue 17, spec 2 §2/§5; docs/dataapi.md "Pick-lists"): a saved
 * type-1 API answering ID / VALUE / PID rows (全国 and the provinces under it) opened in
 * /apiedit1; saving a dictionary before a preview says 请先预览, an empty name 请输入字典名; after
 * the preview the dictionary is saved from the whole answer and then listed with its tree.
 */
describe('data APIs: save a preview as an enumeration dictionary', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let apiId: number;

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    token = await apiLogin(app);
    const categoryId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/dataapi/categories', { categoryName: '字典来源' })).id;
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    const warehouse = sources.records.find((s) => s.isBuiltin) ?? sources.records[0]!;
    apiId = (
      await apiCall<{ id: number }>(app, token, 'POST', '/api/dataapi/apis', {
        categoryId,
        apiKey: 'province_tree',
        apiName: '省份字典',
        apiType: 1,
        datasourceId: warehouse.id,
        querySql: "SELECT DISTINCT province AS id, province AS value, 'CN' AS pid FROM orders UNION ALL SELECT 'CN', '全国', NULL",
      })
    ).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('asks for a preview and a name, then saves the ID/VALUE/PID tree and lists it', async () => {
    await page.goto(`${app.url}/apiedit1?id=${apiId}`);
    await expect.poll(() => page.getByTestId('dataapi-key').inputValue()).toBe('province_tree');

    await page.getByTestId('dataapi-save-dict').click();
    await page.getByText('请先预览').first().waitFor();
    expect(await page.getByTestId('dataapi-dict-name').count()).toBe(0);

    await page.getByTestId('dataapi-preview').click();
    await page.getByTestId('dataapi-preview-summary').waitFor();
    await page.getByTestId('dataapi-chart-table').getByText('全国').first().waitFor();

    await page.getByTestId('dataapi-save-dict').click();
    await page.getByTestId('dataapi-dict-name').waitFor();
    const ok = page.locator('.ant-modal-footer .ant-btn-primary');
    await ok.click();
    await page.getByText('请输入字典名').first().waitFor();
    await page.getByTestId('dataapi-dict-name').fill('省份树');
    await screenshot(page, 'dataapi-dict-dialog');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/dataapi/dicts') && r.request().method() === 'POST');
    await ok.click();
    expect((await saved).status()).toBe(200);
    await page.getByText('保存成功').first().waitFor();
    await page.getByTestId('dataapi-dict-name').waitFor({ state: 'detached' });

    const dicts = await apiCall<{ keyCode: string; apiId: number | null; content: { key: unknown; value: unknown; children?: { value: unknown }[] }[] }[]>(
      app,
      token,
      'GET',
      '/api/dataapi/dicts',
    );
    const dict = dicts.find((d) => d.keyCode === '省份树');
    expect(dict?.apiId).toBe(apiId);
    expect(dict?.content).toHaveLength(1);
    expect(dict?.content[0]).toMatchObject({ key: 'CN', value: '全国' });
    const provinces = (dict?.content[0]?.children ?? []).map((c) => c.value);
    expect(provinces).toContain('广东');
    expect(provinces.length).toBeGreaterThan(5);
  });
});
