import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * The external (type 2) and parameter-table (type 3) editors in Chromium (issue 17;
 * docs/dataapi.md): an external API against a weather service this test starts on 127.0.0.1 —
 * URL, a request header, a JavaScript handler reshaping the answer, a parameter with a default —
 * saved (address → ?id=) and previewed; the service saw the header and the parameter. A type-3
 * API over the demo orders — data source, table, a required STRING parameter on province —
 * saved, previewed with a value typed in the preview card (as a table, then bars), and called published.
 */
describe('data-API editors: external and parameter table', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let categoryName: string;
  let weather: http.Server;
  let weatherUrl: string;
  const seen: { city: string | null; header: string | undefined }[] = [];

  beforeAll(async () => {
    weather = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ city: url.searchParams.get('city'), header: req.headers['x-weather-token'] as string | undefined });
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(
        JSON.stringify({
          code: 0,
          list: [
            { city: url.searchParams.get('city'), day: '周一', temp: 21 },
            { city: url.searchParams.get('city'), day: '周二', temp: 18 },
            { city: url.searchParams.get('city'), day: '周三', temp: 25 },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
    weatherUrl = `http://127.0.0.1:${(weather.address() as AddressInfo).port}/weather`;
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    token = await apiLogin(app);
    categoryName = '外部与参数表';
    await apiCall(app, token, 'POST', '/api/dataapi/categories', { categoryName });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => weather?.close(resolve));
  });

  const pick = async (testId: string, text: string) => {
    await page.getByTestId(testId).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  };

  it('refuses a host outside the allow-list, then saves and previews an external API through its handler', async () => {
    await page.goto(`${app.url}/apiedit1?type=2`);
    await pick('dataapi-category', categoryName);
    await page.getByTestId('dataapi-key').fill('weather_warm');
    await page.getByTestId('dataapi-name').fill('温暖的日子');
    await page.getByTestId('dataapi-url').fill(weatherUrl);
    await page.getByRole('button', { name: '添加请求头' }).click();
    const headers = page.getByTestId('dataapi-headers');
    await headers.getByPlaceholder('名称').fill('X-Weather-Token');
    await headers.getByPlaceholder('值').fill('t-123');
    await page.getByTestId('dataapi-js').fill('function (data) {\n  return data.list.filter(function (r) { return r.temp >= 20; });\n}');
    await page.getByTestId('dataapi-add-param').click();
    await page.getByTestId('param-key-0').fill('city');
    await page
      .locator('tr', { has: page.getByTestId('param-key-0') })
      .getByPlaceholder('默认值')
      .fill('杭州');

    // 127.0.0.1 is not on the administrators' list yet: the server says which host.
    await page.getByTestId('dataapi-save').click();
    await page.getByText('接口地址的主机【127.0.0.1】不在允许列表中，请联系管理员').first().waitFor();
    expect(page.url()).not.toMatch(/\?id=/);
    await apiCall(app, token, 'PUT', '/api/dataapi/settings', { allowedHosts: ['127.0.0.1'] });

    // A handler that does not compile: 请检查语法, nothing saved.
    const handler = await page.getByTestId('dataapi-js').inputValue();
    await page.getByTestId('dataapi-js').fill('function (data) { return data.list.filter(');
    await page.getByTestId('dataapi-save').click();
    await page.getByText('请检查语法').first().waitFor();
    await page.getByTestId('dataapi-js').fill(handler);

    await page.getByTestId('dataapi-save').click();
    await page.waitForURL(/\/apiedit1\?id=\d+$/);
    await page.getByTestId('dataapi-preview').click();
    await page.getByTestId('dataapi-preview-summary').waitFor();
    const table = page.getByTestId('dataapi-chart-table');
    await table.locator('.ant-table-row').first().waitFor();
    // The handler kept the two warm days of the city given by the parameter's default.
    expect(await table.locator('.ant-table-row').count()).toBe(2);
    expect(await table.textContent()).toContain('周三');
    expect(await table.textContent()).not.toContain('周二');
    expect(seen.at(-1)).toEqual({ city: '杭州', header: 't-123' });
    await screenshot(page, 'dataapi-external-editor');

    // Published: the caller's parameter replaces the default.
    const res = await fetch(`${app.url}/open/api/weather_warm?city=${encodeURIComponent('苏州')}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { city: string; temp: number }[] };
    expect(body.data.map((r) => r.temp)).toEqual([21, 25]);
    expect(body.data[0]!.city).toBe('苏州');
  });

  it('builds a parameter-table API: columns, a required parameter, preview with a typed value, published call', async () => {
    await page.goto(`${app.url}/apiedit3`);
    await pick('dataapi-category', categoryName);
    await page.getByTestId('dataapi-key').fill('orders_by_province');
    await page.getByTestId('dataapi-name').fill('按省份查订单');
    // The spec's order of messages: the data source is asked for before the table.
    await page.getByTestId('dataapi-save').click();
    await page.getByText('请选择数据源').first().waitFor();
    await page.getByTestId('dataapi-datasource').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await page.getByTestId('dataapi-save').click();
    await page.getByText('请选择数据表').first().waitFor();
    await pick('dataapi-table', 'orders');

    await page.getByRole('button', { name: '添加参数' }).click();
    const row = page.locator('.dataapi-editor-main .ant-table-row').first();
    await row.locator('input').first().fill('省份');
    await row.locator('.ant-select').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'province' }).first().click();
    expect(await row.locator('input').nth(2).inputValue()).toBe('province');
    await row.getByPlaceholder('长度').fill('32');
    await row.locator('.ant-switch').click();

    await page.getByTestId('dataapi-save').click();
    await page.waitForURL(/\/apiedit3\?id=\d+$/);
    const saved = await apiCall<{ queryParam: unknown[] }>(app, token, 'GET', '/api/dataapi/by-key/orders_by_province');
    expect(saved.queryParam).toEqual([{ title: '省份', columnName: 'province', paramName: 'province', columnType: 'STRING(32)', optionalStatus: 1 }]);

    await page.getByTestId('dataapi-param-values').getByLabel('省份').fill('广东');
    await page.getByRole('button', { name: /刷新/ }).click();
    await page.getByTestId('dataapi-preview-summary').waitFor();
    // The preview's table is drawn by the chart parts loaded on first use: until it mounts, the last
    // table on the page is the parameter table (the locator resolves again on every poll).
    const table = page.locator('.dataapi-editor-main .ant-table').last();
    await expect.poll(async () => (await table.textContent()) ?? '', { timeout: 30_000 }).toContain('广东');
    expect(await table.textContent()).not.toContain('浙江');
    await screenshot(page, 'dataapi-type3-editor');

    // The chart preview, as in /apiedit1: amount made an indicator, then drawn as bars.
    const amountRow = page.locator('.dataapi-field', { has: page.getByTestId('dataapi-field-amount') });
    await amountRow.locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="指标"]').click();
    await page.getByTestId('dataapi-panel-indicators').getByText('amount').waitFor();
    await page.getByTestId('dataapi-kinds').getByText('柱状图').click();
    await page.getByTestId('dataapi-chart-bar').locator('canvas').first().waitFor();
    await screenshot(page, 'dataapi-type3-bar');
    // Drag reordering: the province tag dropped on the first row tag goes before it.
    const rowTags = page.getByTestId('dataapi-panel-rows').locator('.ant-tag');
    expect(await rowTags.first().textContent()).toBe('order_id');
    await rowTags.filter({ hasText: /^province$/ }).dragTo(rowTags.first());
    await expect.poll(() => rowTags.first().textContent()).toBe('province');
    expect(await rowTags.nth(1).textContent()).toBe('order_id');

    const missing = await fetch(`${app.url}/open/api/orders_by_province`, { headers: { Authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { msg: string }).msg).toBe('缺少必填参数【province】');
    const res = await fetch(`${app.url}/open/api/orders_by_province?province=${encodeURIComponent('广东')}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { province: string }[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(new Set(body.data.map((r) => r.province))).toEqual(new Set(['广东']));
  });
});
