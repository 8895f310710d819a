import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ordersField, createOrdersDataset } from './api-fixtures.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/**
 * Alerts (issue 19; docs/alerts.md), the screens beyond the first alert: 预警设置 (SMS templates with
 * their variables, the three SMS providers with their own fields and defaults, the third-party push
 * endpoint, secrets answered as ******) and the editor's recipients by department tree, where-
 * conditions combined with 或, quiet hours and attached reports.
 */
describe('alert settings and the editor', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    token = await apiLogin(app);
    const dept = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/departments', { deptName: '华南销售部', parentId: 0 });
    const sub = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/departments', { deptName: '广州组', parentId: dept.id });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'south1', password: md5('south123'), name: '南区经理', deptId: dept.id });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'south2', password: md5('south123'), name: '广州专员', deptId: sub.id });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'north1', password: md5('north123'), name: '北区经理' });
    await createOrdersDataset(app, token, {
      category: '预警演示',
      name: '订单预警数据',
      publicStatus: 1,
      fields: [
        ordersField('province', 'province', '省份'),
        ordersField('orderId', 'order_id', '订单数', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' }),
        ordersField('orderTime', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const choose = async (testId: string, title: string) => {
    await page.getByTestId(testId).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: title }).first().click();
  };

  it('预警设置: an SMS template with its variables, a provider with its defaults, the push endpoint; secrets come back as ******', async () => {
    await page.goto(`${app.url}/newbi/warning`);
    await page.getByTestId('alert-settings').click();
    await page.waitForURL(/\/newbi\/warning\/settings$/);

    await page.getByTestId('sms-template-add').click();
    await page.getByTestId('sms-template-name').fill('大额订单提醒');
    await page.getByTestId('sms-template-content').fill('${省份}今日订单${订单数}单，请关注');
    await page.getByTestId('sms-template-params').getByText('订单数').waitFor();
    await page.getByTestId('sms-template-ok').click();
    await page.getByText('保存成功').first().waitFor();
    await page.getByRole('cell', { name: '大额订单提醒' }).waitFor();
    const templates = await apiCall<{ templateName: string; templateParams: string; category: string }[]>(app, token, 'GET', '/api/alert/sms/templates');
    expect(templates.find((t) => t.templateName === '大额订单提醒')).toMatchObject({ templateParams: '省份,订单数', category: 'aliyun' });
    await screenshot(page, 'alert-sms-templates');

    await page.getByRole('tab', { name: '短信服务商' }).click();
    // Each provider with its own fields: qiniu's accessKey is its SecretId, tencent's appId its SmsSdkAppId, the regions' defaults shown.
    await page.getByTestId('sms-provider-qiniu').getByText('SecretId').waitFor();
    await page.getByTestId('sms-provider-tencent').getByText('SmsSdkAppId').waitFor();
    expect(await page.getByTestId('sms-aliyun-regionId').inputValue()).toBe('cn-hangzhou');
    expect(await page.getByTestId('sms-tencent-regionId').inputValue()).toBe('ap-beijing');
    await page.getByTestId('sms-tencent-templateId').fill('1234567');
    await page.getByTestId('sms-tencent-accessKey').fill('AKIDe2e');
    await page.getByTestId('sms-tencent-secretKey').fill('tencent-e2e-secret');
    await page.getByTestId('sms-tencent-appId').fill('1400000001');
    await page.getByTestId('sms-tencent-save').click();
    await page.getByText('保存成功').first().waitFor();
    await expect.poll(() => page.getByTestId('sms-tencent-secretKey').inputValue()).toBe('******');
    const providers = await apiCall<{ category: string; secretKey: string; regionId: string; appId: string }[]>(app, token, 'GET', '/api/alert/sms/providers');
    expect(providers.find((p) => p.category === 'tencent')).toMatchObject({ secretKey: '******', regionId: 'ap-beijing', appId: '1400000001' });
    await screenshot(page, 'alert-sms-providers');

    await page.getByRole('tab', { name: '第三方推送设置' }).click();
    await page.getByTestId('push-url').fill('not a url');
    await page.getByTestId('push-save').click();
    await page.getByText('推送地址须以 http:// 或 https:// 开头').first().waitFor();
    await page.getByTestId('push-url').fill('https://push.example.com/alerts');
    await page.getByTestId('push-secret').fill('push-e2e-secret');
    await page.getByTestId('push-save').click();
    await expect.poll(() => page.getByTestId('push-secret').inputValue()).toBe('******');
    expect(await apiCall(app, token, 'GET', '/api/alert/push')).toEqual({ url: 'https://push.example.com/alerts', secret: '******' });
    await screenshot(page, 'alert-push-settings');
  });

  it("the editor: recipients by department tree, the field picker's active area, conditions with 或, quiet hours and an attached report", async () => {
    await page.goto(`${app.url}/newbi/warning/edit`);
    await page.getByTestId('alert-name').fill('南方订单预警');
    // The department adds its users and those of its sub-departments.
    await page.getByTestId('alert-depts').click();
    await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: '华南销售部' }).click();
    await page.getByTestId('alert-users').getByText('南区经理').waitFor();
    await page.getByTestId('alert-users').getByText('广州专员').waitFor();
    expect(await page.getByTestId('alert-users').getByText('北区经理').count()).toBe(0);

    await choose('alert-dataset', '订单预警数据（');
    // The field picker: the active area chooses where a clicked field goes (spec 3 §2).
    const area = (name: string) => page.getByTestId('alert-picker-area').getByText(name, { exact: true }).click();
    await page.getByTestId('alert-pick-省份').click();
    await area('指标');
    await page.getByTestId('alert-pick-订单数').click();
    await area('时间');
    await page.getByTestId('alert-pick-订购时间').click();
    await area('筛选');
    await page.getByTestId('alert-pick-省份').click();
    await page.getByTestId('alert-pick-省份').click();
    await page.getByTestId('alert-dimensions').getByText('省份').waitFor();
    await page.getByTestId('alert-measures').getByText('订单数').waitFor();
    await page.getByTestId('alert-time-column').getByText('订购时间').waitFor();
    await page.getByTestId('alert-condition-item-0-value').locator('input').fill('广东');
    await page.getByTestId('alert-condition-item-1-value').locator('input').fill('浙江');
    await page.getByTestId('alert-relation').getByText('或（任一满足）').click();
    await page.getByText('月', { exact: true }).click();
    await page.getByTestId('alert-preview').click();
    const table = page.getByTestId('alert-preview-table');
    await table.locator('tbody tr').first().waitFor();
    await expect.poll(async () => (await table.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual(['广东', '浙江']);

    await page.getByTestId('alert-quiet').locator('input').first().click();
    await page.getByTestId('alert-quiet').locator('input').first().fill('22:00');
    await page.keyboard.press('Enter');
    await page.getByTestId('alert-quiet').locator('input').nth(1).fill('07:00');
    await page.keyboard.press('Enter');
    // A date condition: 订购时间 介于 two days.
    await area('筛选');
    await page.getByTestId('alert-pick-订购时间').click();
    await page.getByTestId('alert-condition-item-2-value').locator('input').first().click();
    await page.getByTestId('alert-condition-item-2-value').locator('input').first().fill('2026-01-01');
    await page.keyboard.press('Enter');
    await page.getByTestId('alert-condition-item-2-value').locator('input').nth(1).fill('2026-12-31');
    await page.keyboard.press('Enter');
    // One field, two values joined by its own 或 (the item's connectType), and a relative date
    // condition (the last 5000 days, counted from each check).
    await page.getByTestId('alert-condition-item-1-add-condition').click();
    await page.getByTestId('alert-condition-item-1-value-c1').locator('input').fill('上海');
    await page.getByTestId('alert-condition-item-1-connect').click();
    await page.getByTestId('alert-pick-订购时间').click();
    await choose('alert-condition-item-3-time-type', '相对时间');
    await page.getByTestId('alert-condition-item-3-value').locator('.ft-count input').fill('5000');
    const previewed = page.waitForResponse((r) => r.url().includes('/api/alert/preview'));
    await page.getByTestId('alert-preview').click();
    expect((await previewed).status()).toBe(200);
    await choose('alert-reports', '销售概览');
    await page.keyboard.press('Escape');
    await screenshot(page, 'alert-editor-conditions');

    await page.getByTestId('alert-save').click();
    await page.waitForURL(/\/newbi\/warning\/edit\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const saved = await apiCall<Record<string, unknown>>(app, token, 'GET', `/api/alert/alerts/${id}`);
    expect(saved).toMatchObject({ filterRelationJson: 'OR', quietStart: '22:00', quietEnd: '07:00', visualDataJson: [{ title: '销售概览' }] });
    expect(
      (saved.filterJson as { connectTime: string; conditions: { function: string; values: string[] }[] }[]).map((f) => [f.connectTime, f.conditions[0]]),
    ).toEqual([
      ['where', expect.objectContaining({ function: 'eq', values: ['广东'] })],
      ['where', expect.objectContaining({ function: 'eq', values: ['浙江'] })],
      ['where', expect.objectContaining({ function: 'between', values: ['2026-01-01', '2026-12-31'] })],
      ['where', expect.objectContaining({ function: 'between', timeType: 'relative', countType: 'left', values: [5000], dateType: 'DAY' })],
    ]);
    expect((saved.filterJson as unknown[])[1]).toMatchObject({ connectType: 'or', conditions: [{ values: ['浙江'] }, { values: ['上海'] }] });
    expect(String(saved.warnUserIds).split(',')).toHaveLength(2);
    // The department itself is kept too: whoever is in it when a notice goes out is notified.
    expect(String(saved.warnDeptIds).split(',')).toHaveLength(1);
  });
});
