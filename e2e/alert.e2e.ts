import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mailHeader, decodeMimeHeader, startSmtpServer, type LocalSmtpServer } from '../apps/server/test/notify-servers.ts';
import { startFakeSmsProvider, type FakeSmsProvider } from '../apps/server/test/sms-servers.ts';
import { ordersField, createOrdersDataset } from './api-fixtures.ts';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Alerts (issue 19; docs/alerts.md): with SMTP pointing at a local stand-in, build an alert on the
 * demo orders in the editor — a dimension, a measure with a threshold, the time column, months —
 * preview it, save it (the address gets its id), run 立即检查 from the list and see the mail arrive
 * and the check in 预警日志.
 */
/** The first image/jpeg part of a raw MIME mail, decoded. */
function jpegPartOf(raw: string): Buffer {
  const at = raw.search(/Content-Type: image\/jpeg/i);
  if (at < 0) throw new Error('no image/jpeg part in the mail');
  const part = raw.slice(at);
  const body = part.slice(part.search(/\r?\n\r?\n/)).trimStart();
  return Buffer.from(body.slice(0, body.search(/\r?\n--/)).replace(/\s+/g, ''), 'base64');
}

describe('alerts', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let smtp: LocalSmtpServer;
  let aliyun: FakeSmsProvider;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    aliyun = await startFakeSmsProvider('aliyun', { 'LTAI-e2e': 'aliyun-e2e-secret' });
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    const token = await apiLogin(app);
    await apiCall(app, token, 'PUT', '/api/system/notify', { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false, smtpFrom: 'shutu-bi@example.com' });
    await apiCall(app, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com', phone: '13900000001' });
    await apiCall(app, token, 'PUT', '/api/alert/sms/providers', {
      category: 'aliyun',
      templateId: 'SMS_E2E',
      accessKey: 'LTAI-e2e',
      secretKey: 'aliyun-e2e-secret',
      signName: '数图',
      endpoint: aliyun.url,
    });
    await apiCall(app, token, 'POST', '/api/alert/sms/templates', {
      templateName: '订单量短信',
      templateContent: '${省份}订单${订单数}单',
      category: 'aliyun',
    });
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
    await smtp?.close();
    await aliyun?.close();
  });

  const choose = async (testId: string, title: string) => {
    await page.getByTestId(testId).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: title }).first().click();
  };

  it('builds, previews and saves an alert, then a check mails the recipient and is logged', async () => {
    await page.goto(`${app.url}/newbi/warning`);
    await page.getByTestId('alert-add').click();
    await page.waitForURL(/\/newbi\/warning\/edit$/);
    await page.getByTestId('alert-name').fill('订单量预警');
    await choose('alert-users', '系统管理员');
    await page.keyboard.press('Escape');
    await choose('alert-dataset', '订单预警数据（');
    await choose('alert-dimensions', '省份');
    await page.keyboard.press('Escape');
    await choose('alert-measures', '订单数');
    await page.keyboard.press('Escape');
    await page.getByTestId('alert-add-threshold').click();
    await choose('alert-time-column', '订购时间');
    await page.getByText('月', { exact: true }).click();
    await expect.poll(() => page.getByTestId('alert-range').textContent()).toMatch(/时间范围：\d{4}-\d{2}-01 至 \d{4}-\d{2}-\d{2}/);
    // The demo board 销售概览 attached: its link in every notice, its image in the mail.
    await choose('alert-reports', '销售概览');
    await page.keyboard.press('Escape');
    await page.getByTestId('alert-preview').click();
    await page.getByTestId('alert-preview-table').locator('tbody tr').first().waitFor();
    await screenshot(page, 'alert-editor');

    await page.getByTestId('alert-save').click();
    await page.getByText('保存成功').first().waitFor();
    await page.waitForURL(/\/newbi\/warning\/edit\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));

    await page.goto(`${app.url}/newbi/warning`);
    await page.getByTestId(`alert-check-${id}`).click();
    await page.getByText('已加入检查队列').first().waitFor();
    const mail = await eventually(
      () => smtp.mails.find((m) => decodeMimeHeader(mailHeader(m.data, 'subject') ?? '') === '【预警】订单量预警'),
      'the alert mail',
    );
    expect(mail.to).toEqual(['boss@example.com']);
    // The board rendered by Chromium as the alert's owner, inline in the mail as a real JPEG.
    const jpeg = jpegPartOf(mail.data);
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(jpeg.length).toBeGreaterThan(20_000);

    await page.goto(`${app.url}/newbi/warning/log?alertId=${id}`);
    await page.getByText('开始预警').waitFor();
    await page.getByText('邮件 已发送').waitFor();
    // The rows the check kept, as the owner read them.
    await page.locator('.ant-table-row-expand-icon').first().click();
    await page
      .getByTestId('alert-check-rows')
      .getByText(/触发数据（\d+ \/ \d+ 行）/)
      .waitFor();
    await page.getByTestId('alert-check-rows').getByRole('columnheader', { name: '省份' }).waitFor();
    await screenshot(page, 'alert-log');
    await page.goto(`${app.url}/newbi/warning`);
    await page.getByText('预警中').first().waitFor();
    await screenshot(page, 'alert-list');
  });

  it('an SMS alert maps every template variable to a field and texts through the signed provider', async () => {
    await page.goto(`${app.url}/newbi/warning/edit`);
    await page.getByTestId('alert-name').fill('订单量短信预警');
    await choose('alert-users', '系统管理员');
    await page.keyboard.press('Escape');
    await choose('alert-dataset', '订单预警数据（');
    await choose('alert-dimensions', '省份');
    await page.keyboard.press('Escape');
    await choose('alert-measures', '订单数');
    await page.keyboard.press('Escape');
    await choose('alert-time-column', '订购时间');
    await page.getByText('月', { exact: true }).click();
    await page.getByTestId('alert-sms').click();
    await choose('alert-sms-template', '订单量短信');
    await choose('alert-sms-param-省份', '省份');
    await page.getByTestId('alert-save').click();
    await page.getByText('请完成【订单数】字段参数').first().waitFor();
    await choose('alert-sms-param-订单数', '订单数');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'alert-sms');
    await page.getByTestId('alert-save').click();
    await page.waitForURL(/\/newbi\/warning\/edit\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    await page.goto(`${app.url}/newbi/warning`);
    await page.getByTestId(`alert-check-${id}`).click();
    const sms = await eventually(() => aliyun.received.find((r) => r.accepted), 'the signed SMS');
    expect(sms.phones).toEqual(['13900000001']);
    expect(Object.keys(sms.params)).toEqual(['省份', '订单数']);
    expect((sms.params as Record<string, string>)['订单数']).toMatch(/^\d+$/);
  });
});
