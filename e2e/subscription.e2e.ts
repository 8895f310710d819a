import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mailHeader, startRobotReceiver, startSmtpServer, type LocalSmtpServer, type RobotReceiver } from '../apps/server/test/notify-servers.ts';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Subscriptions (spec 1 §2.9, §4, §5, §7): with the SMTP server and the DingTalk robot pointing
 * at local stand-ins, subscribe the demo board 销售概览 by email and by DingTalk through the
 * preview's 订阅 dialog (an unconfigured 飞书 blocks saving), send both through 立即发送 (the
 * same job and log as a due time; docs/subscriptions.md), and check what arrived: the mail with
 * the rendered board attached, the DingTalk message correctly signed with the image link — then
 * both rows in 订阅日志.
 */
describe('subscriptions', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let smtp: LocalSmtpServer;
  let robots: RobotReceiver;
  let boardId: number;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    robots = await startRobotReceiver({ dingtalk: 'SEC-e2e-secret' });
    app = await startApp({ SHUTU_DEMO_SCALE: '1000' });
    token = await apiLogin(app);
    await apiCall(app, token, 'PUT', '/api/system/notify', {
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpSecure: false,
      smtpFrom: 'shutu-bi@example.com',
      dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=e2e`,
      dingtalkSecret: 'SEC-e2e-secret',
    });
    await apiCall(app, token, 'PUT', '/api/profile', { name: '系统管理员', email: 'boss@example.com' });
    const boards = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=visual&size=100');
    boardId = boards.records.find((b) => b.title === '销售概览')!.id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await robots?.close();
  });

  const dialog = () => page.locator('.ant-modal').filter({ has: page.getByTestId('subscription-subtitle') });
  const chooseNotifyType = async (label: string) => {
    await dialog().getByTestId('subscription-notify-type').click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
  };
  const saveButton = () => dialog().getByTestId('subscription-save');

  it('subscribes by email and DingTalk from the preview; an unconfigured channel blocks saving', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('board-subscribe').click();
    await dialog().waitFor();
    expect(await dialog().locator('.ant-modal-title').textContent()).toBe('销售概览');
    expect(await dialog().getByTestId('subscription-title').inputValue()).toBe('销售概览');
    await expect.poll(() => saveButton().isEnabled()).toBe(true);

    await chooseNotifyType('飞书');
    await dialog().getByText('未配置飞书机器人，请联系管理员').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);
    await screenshot(page, 'subscription-dialog');

    await chooseNotifyType('邮件');
    await expect.poll(() => saveButton().isEnabled()).toBe(true);
    await dialog().getByTestId('subscription-title').fill('销售日报（邮件）');
    await saveButton().click();
    await page.getByText('已订阅').first().waitFor();
    await dialog().waitFor({ state: 'detached' });

    await page.getByTestId('board-subscribe').click();
    await dialog().waitFor();
    await chooseNotifyType('钉钉');
    await expect.poll(() => saveButton().isEnabled()).toBe(true);
    await dialog().getByTestId('subscription-title').fill('销售日报（钉钉）');
    await dialog().getByText('周', { exact: true }).click();
    await dialog().getByTestId('subscription-weekday').waitFor();
    await saveButton().click();
    await dialog().waitFor({ state: 'detached' });

    const mine = await apiCall<{ records: { notifyTitle: string; notifyType: string; triggerPeriod: string }[] }>(
      app,
      token,
      'GET',
      '/api/subscription/subscriptions',
    );
    expect(mine.records.map((s) => [s.notifyTitle, s.notifyType, s.triggerPeriod]).sort()).toEqual([
      ['销售日报（邮件）', 'email', 'day'],
      ['销售日报（钉钉）', 'dingtalk', 'week'],
    ]);
  });

  it('sends the rendered board by mail and to the signed DingTalk robot, and logs both', async () => {
    await page.goto(`${app.url}/newbi/mine/subscription-log`);
    await page.getByRole('tab', { name: '我的订阅' }).click();
    const sendButtons = page.locator('[data-testid^="subscription-send-"]');
    await sendButtons.first().waitFor();
    expect(await sendButtons.count()).toBe(2);
    await sendButtons.nth(0).click();
    await sendButtons.nth(1).click();

    const mail = await eventually(() => smtp.mails[0], 'the mail');
    expect(mail.to).toEqual(['boss@example.com']);
    expect(mailHeader(mail.data, 'Subject')).toBe('销售日报（邮件）');
    expect(mail.data).toContain('Content-ID: <page-1@shutu>');
    const attached = /Content-ID: <page-1@shutu>\r\n(?:.+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.data)![1]!;
    const jpeg = Buffer.from(attached.replace(/\r\n/g, ''), 'base64');
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(jpeg.length).toBeGreaterThan(20_000);

    const ding = await eventually(() => robots.requests[0], 'the DingTalk message');
    expect(ding).toMatchObject({ path: '/dingtalk/robot/send', signed: true, query: { access_token: 'e2e' } });
    const text = (ding.body.markdown as { text: string }).text;
    expect(text).toContain('### 销售日报（钉钉）');
    const imageUrl = /!\[销售概览\.jpg\]\((http[^)]+)\)/.exec(text)![1]!;
    const image = await fetch(imageUrl);
    expect(image.headers.get('content-type')).toBe('image/jpeg');

    await page.getByRole('tab', { name: '发送记录' }).click();
    await eventually(
      async () => {
        await page.getByTestId('log-search').click();
        const rows = await page.locator('.ant-table-tbody tr.ant-table-row').allTextContents();
        return rows.filter((r) => r.includes('成功')).length === 2 ? rows : undefined;
      },
      'two successful log rows',
      60_000,
    ).then((rows) => {
      expect(rows.some((r) => r.includes('邮件') && r.includes('系统管理员'))).toBe(true);
      expect(rows.some((r) => r.includes('钉钉'))).toBe(true);
    });
    await page.getByText('详情').first().click();
    await page.getByTestId('log-detail').getByText('销售概览.jpg', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('log-detail').waitFor({ state: 'hidden' });
    await screenshot(page, 'subscription-log');
  });
});
