import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startRobotReceiver, type RobotReceiver } from '../apps/server/test/notify-servers.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 时区 (issue 16; docs/decisions.md "Time zone"): the browser runs in UTC, the installation in
 * Asia/Shanghai. A daily 8:00 subscription made in the 订阅 dialog (which says 北京时间 beside the
 * hour) shows 下次发送 …08:00:00（北京时间） in 我的订阅, not 00:00:00. An administrator then sets
 * 系统设置 → 时区 to Asia/Tokyo, and the same subscription is due at 08:00:00（UTC+09:00）.
 */
describe('time zone', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let robots: RobotReceiver;
  let boardId: number;

  beforeAll(async () => {
    robots = await startRobotReceiver({ dingtalk: 'SEC-tz' });
    app = await startApp({ SHUTU_THUMBNAILS: '0' });
    token = await apiLogin(app);
    await apiCall(app, token, 'PUT', '/api/system/notify', { dingtalkWebhook: `${robots.url}/dingtalk/robot/send?access_token=tz`, dingtalkSecret: 'SEC-tz' });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '时区' });
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      title: '每日早报',
      categoryId: category.id,
      content: { type: 'quick', layout: [] },
      charts: [],
      publicStatus: 1,
    });
    browser = await launchBrowser();
    // The browser's own clock is UTC: every time shown must still be on the installation's clock.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'UTC' });
    page = await context.newPage();
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `timezone-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await robots?.close();
  });

  const dialog = () => page.locator('.ant-modal').filter({ has: page.getByTestId('subscription-subtitle') });
  const nextSend = async () => {
    await page.goto(`${app.url}/newbi/mine/subscription-log`);
    await page.getByRole('tab', { name: '我的订阅' }).click();
    const cell = page.locator('[data-testid^="subscription-next-"]').first();
    await cell.waitFor();
    return cell.textContent();
  };

  it('a daily 8:00 subscription is due at 08:00:00（北京时间） in a browser running in UTC', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.getByTestId('board-subscribe').click();
    await dialog().waitFor();
    await dialog().getByTestId('subscription-notify-type').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="钉钉"]').click();
    await expect.poll(() => dialog().getByTestId('subscription-save').isEnabled()).toBe(true);
    expect(await dialog().getByTestId('subscription-hour').textContent()).toContain('08:00');
    expect(await dialog().getByTestId('subscription-zone').textContent()).toBe('北京时间');
    await screenshot(page, 'timezone-dialog');
    await dialog().getByTestId('subscription-save').click();
    await dialog().waitFor({ state: 'detached' });

    expect(await nextSend()).toMatch(/^\d{4}-\d{2}-\d{2} 08:00:00（北京时间）$/);
    const row = await page.locator('.ant-table-tbody tr.ant-table-row').first().textContent();
    expect(row).toContain('每日 8:00');
    await screenshot(page, 'timezone-subscriptions-shanghai');
  });

  it('系统设置 → 时区 set to Asia/Tokyo: the subscription stays at 8:00, now on the Tokyo clock', async () => {
    await page.goto(`${app.url}/system/settings`);
    const card = page.getByTestId('time-zone-settings');
    await card.getByTestId('time-zone-current').getByText('当前：北京时间', { exact: false }).waitFor();
    await card.getByTestId('time-zone').click();
    await page.keyboard.type('东京');
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="东京（Asia/Tokyo，UTC+09:00）"]');
    await option.waitFor();
    await option.click();
    await card.getByTestId('time-zone-save').click();
    await page.getByText('保存成功').first().waitFor();
    await card.getByTestId('time-zone-current').getByText('当前：东京（Asia/Tokyo，UTC+09:00）', { exact: false }).waitFor();
    await screenshot(page, 'timezone-settings');

    expect(await nextSend()).toMatch(/^\d{4}-\d{2}-\d{2} 08:00:00（UTC\+09:00）$/);
    await screenshot(page, 'timezone-subscriptions-tokyo');
    const mine = await apiCall<{ records: { nextTime: string }[] }>(app, token, 'GET', '/api/subscription/subscriptions');
    // 08:00 in Tokyo is 23:00 UTC the day before.
    expect(mine.records[0]!.nextTime).toMatch(/T23:00:00\.000Z$/);

    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.getByTestId('board-subscribe').click();
    await dialog().waitFor();
    expect(await dialog().getByTestId('subscription-zone').textContent()).toBe('东京（Asia/Tokyo，UTC+09:00）');
  });
});
