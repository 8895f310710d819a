import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Data APIs in Chromium (issue 17; docs/dataapi.md): build a type-1 API in /apiedit1 — data source
 * and table from the field browser, a field inserted into the SQL, a typed parameter — save (the
 * address moves to ?id=), preview it as table and bar; create an access key (the secret shown once),
 * call the published API over HTTP with it (bearer and signature, a replay refused), and find the call with its p95 in 调用日志; the API is in
 * the list and in the OpenAPI page.
 */
describe('data APIs', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let categoryId: number;
  const apiKey = 'sales_by_province';

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    token = await apiLogin(app);
    categoryId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/dataapi/categories', { categoryName: '销售' })).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const pick = async (testId: string, text: string) => {
    await page.getByTestId(testId).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  };

  it('builds, saves and previews a SQL API as table and bar', async () => {
    await page.goto(`${app.url}/apiedit1?ws=${categoryId}`);
    await page.getByTestId('dataapi-key').fill(apiKey);
    await page.getByTestId('dataapi-name').fill('各省销售额');
    await page.getByTestId('dataapi-datasource').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await pick('dataapi-table-select', 'orders');
    await page.getByTestId('dataapi-browser-field-province').waitFor();

    // The SQL: the copy icon inserts the field name where the cursor is.
    await page.locator('[data-testid="dataapi-sql"] .cm-content').click();
    await page.keyboard.insertText('SELECT ');
    await page.getByTestId('dataapi-insert-province').click();
    await page.keyboard.insertText(', SUM(amount) AS amount FROM orders WHERE amount >= ${min} GROUP BY province ORDER BY amount DESC');
    await page.keyboard.press('Escape'); // closes the SQL completion list

    await page.getByTestId('dataapi-add-param').click();
    await page.getByTestId('param-key-0').fill('min');
    const paramRow = page.locator('tr', { has: page.getByTestId('param-key-0') });
    await paramRow.locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="数字"]').click();
    await paramRow.locator('input.ant-input-number-input').fill('10');
    expect(await page.getByTestId('dataapi-param-values').count()).toBe(1);

    await page.getByTestId('dataapi-save').click();
    await page.waitForURL(/\/apiedit1\?id=\d+$/);
    await page.getByText('保存成功').first().waitFor();

    await page.getByTestId('dataapi-preview').click();
    await page.getByTestId('dataapi-preview-summary').waitFor();
    await page.getByTestId('dataapi-chart-table').locator('.ant-table-row').first().waitFor();
    expect(await page.getByTestId('dataapi-panel-rows').textContent()).toContain('province');
    await screenshot(page, 'dataapi-editor-table');

    // amount is an indicator: set it so, then draw bars.
    const amountRow = page.locator('.dataapi-field', { has: page.getByTestId('dataapi-field-amount') });
    await amountRow.locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="指标"]').click();
    // Its kind changed, it moved from the row panel to the indicators; clicking it again adds no duplicate.
    await page.getByTestId('dataapi-panel-indicators').getByText('amount').waitFor();
    expect(await page.getByTestId('dataapi-panel-rows').textContent()).not.toContain('amount');
    await page.getByTestId('dataapi-field-amount').click();
    expect(await page.getByTestId('dataapi-panel-indicators').locator('.ant-tag').count()).toBe(1);
    await page.getByTestId('dataapi-kinds').getByText('柱状图').click();
    await page.getByTestId('dataapi-chart-bar').locator('canvas').first().waitFor();
    await screenshot(page, 'dataapi-editor-bar');

    // The pivot: province as a column dimension gives one header per province over the indicator.
    await page.getByTestId('dataapi-panel-rows').locator('.ant-tag', { hasText: 'province' }).locator('.ant-tag-close-icon').click();
    await page.getByTestId('dataapi-field-province').dragTo(page.getByTestId('dataapi-panel-cols'));
    await page.getByTestId('dataapi-kinds').getByText('透视表').click();
    await page.getByTestId('dataapi-chart-pivot').locator('th', { hasText: '广东' }).first().waitFor();
    await screenshot(page, 'dataapi-editor-pivot');

    await page.goto(`${app.url}/newbi/dataapi`);
    expect(await page.getByTestId(`dataapi-status-${apiKey}`).textContent()).toBe('上线');
    await screenshot(page, 'dataapi-list');
  });

  it('creates an access key, calls the API with it over HTTP and sees the call in the log', async () => {
    await page.goto(`${app.url}/system/dataapi`);
    await page.getByTestId('dataapi-new-key').click();
    await page.getByTestId('dataapi-key-name').fill('报表系统');
    await pick('dataapi-key-apis', apiKey);
    await page
      .locator('.ant-modal:visible')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    const secret = (await page.getByTestId('dataapi-created-secret').textContent())!.trim();
    expect(secret).toMatch(/^sk_/);
    await screenshot(page, 'dataapi-key-secret');
    await page.locator('.ant-modal:visible').getByRole('button', { name: '我已保存' }).click();
    // Shown once: the list has the access key, never the secret.
    expect(await page.locator('main').textContent()).not.toContain(secret);

    const refused = await fetch(`${app.url}/open/api/${apiKey}`);
    expect(refused.status).toBe(401);
    const res = await fetch(`${app.url}/open/api/${apiKey}?min=50`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { province: string; amount: unknown }[] };
    expect(body.success).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
    expect(Object.keys(body.data[0]!)).toEqual(['province', 'amount']);

    // A signed call: HMAC-SHA256 of access key, timestamp and nonce; the same nonce again is a replay.
    const accessKey = (await page.locator('main').getByText(/^ak_/).first().textContent())!.trim();
    const signed = (nonce: string) => {
      const timestamp = String(Date.now());
      const signature = createHmac('sha256', secret).update(`${accessKey}\n${timestamp}\n${nonce}`).digest('hex');
      return fetch(`${app.url}/open/api/${apiKey}`, {
        headers: { 'X-Access-Key': accessKey, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signature },
      });
    };
    const nonce = randomUUID();
    expect((await signed(nonce)).status).toBe(200);
    expect((await signed(nonce)).status).toBe(401);

    await page.getByRole('tab', { name: '调用日志' }).click();
    const log = page.getByTestId('dataapi-logs').locator('.ant-table-row', { hasText: apiKey });
    await log.filter({ hasText: '200' }).first().waitFor();
    await log.filter({ hasText: '401' }).first().waitFor();
    expect(await page.getByTestId('dataapi-stats').locator('.ant-table-row', { hasText: apiKey }).textContent()).toMatch(/毫秒/);
    await screenshot(page, 'dataapi-call-log');
  });

  it('renders the OpenAPI document of the published APIs', async () => {
    await page.goto(`${app.url}/newbi/dataapi/docs`);
    const card = page.getByTestId('openapi-api').filter({ hasText: '各省销售额' });
    await card.waitFor();
    expect(await card.textContent()).toContain(`/open/api/${apiKey}`);
    expect(await card.textContent()).toContain('min');
    await screenshot(page, 'dataapi-docs');
  });
});
