import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { PlatformType } from '@shutu/contracts';
import { startFakeWechat, type FakeWechat } from '../apps/server/src/modules/cdp/testing/fake-wechat.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 平台接入 (issue 21, docs/platforms.md) against the fake open platform: an administrator points the
 * 微信公众号 platform type at it, authorises the account through the platform's page and the join
 * callback, sees it in the join list and on its information page, sets a request cycle, pulls the
 * fans by hand, previews them, edits one fan, reads the log — then the platform answers 45009 and
 * the failed pull is logged with its reason.
 */
describe('平台接入：授权、拉取、预览、粉丝与日志', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let fake: FakeWechat;
  let appId = 0;

  beforeAll(async () => {
    fake = await startFakeWechat({ pageSize: 10 });
    app = await startApp();
    const token = await apiLogin(app);
    const [wechat] = await apiCall<PlatformType[]>(app, token, 'GET', '/api/cdp/platform/list');
    await apiCall(app, token, 'POST', '/api/cdp/platform', {
      ...wechat,
      apiBaseUrl: fake.baseUrl,
      authPageUrl: fake.authPageUrl,
      componentAppId: fake.componentAppId,
      componentAppSecret: fake.componentAppSecret,
      messageToken: fake.messageToken,
    });
    expect(await fake.pushTicket(`${app.url}/api/cdp/ticket/${wechat!.id}`)).toBe(200);
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `platforms-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fake?.close();
  });

  const card = (table: string) => page.getByTestId(`task-${table}`);

  it('authorises the account through the platform page and the join callback', async () => {
    await page.goto(`${app.url}/system/platforms`);
    await page.getByRole('cell', { name: '微信公众号' }).waitFor();
    await screenshot(page, 'platforms-types');
    await page.goto(`${app.url}/cdp/join`);
    await page.getByRole('button', { name: '新增授权' }).click();
    await page.locator('.ant-modal').getByText('微信公众号').waitFor();
    await page.getByRole('button', { name: '前往授权' }).click();
    await page.waitForURL(/\/cdp\/join\/info\?id=\d+/, { timeout: 20_000 });
    appId = Number(new URL(page.url()).searchParams.get('id'));
    await page.getByText('数图示例公众号').first().waitFor();
    await page.getByText('已授权').waitFor();
    await page.getByText('扫码授权').waitFor();
    await screenshot(page, 'platforms-info');
  });

  it('lists the account in the join list with an empty cancel time and a log link', async () => {
    await page.goto(`${app.url}/cdp/join`);
    const row = page.locator('tr', { hasText: '数图示例公众号' });
    await row.getByText('- -').waitFor();
    await row.getByText('扫码授权').waitFor();
    expect(await row.getByRole('link', { name: '日志' }).getAttribute('href')).toBe(`/cdp/join/log?id=${appId}`);
    await screenshot(page, 'platforms-join-list');
  });

  it('sets a request cycle, pulls the fans by hand and previews them', async () => {
    await page.goto(`${app.url}/cdp/join/info?id=${appId}`);
    await card('wx_fans').getByRole('button', { name: '请求周期设置' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '请求周期设置' });
    await dialog.getByRole('spinbutton').fill('2');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await card('wx_fans').getByText('每 2 小时').waitFor();
    await card('wx_fans').getByRole('button', { name: '手动拉取' }).click();
    await page.getByText('已提交').waitFor();
    await card('wx_fans').getByText('正常').waitFor({ timeout: 30_000 });
    await card('wx_fans').getByRole('button', { name: '数据预览' }).click();
    const preview = page.locator('.ant-modal', { hasText: '数据预览' });
    await preview.getByRole('cell', { name: 'o_demo_0001' }).waitFor();
    await screenshot(page, 'platforms-preview');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });
  });

  it('edits one fan: the local name shows, the platform’s stays visible', async () => {
    await page.goto(`${app.url}/cdp/fans`);
    const row = page.locator(`tr[data-row-key="${appId}:o_demo_0001"]`);
    await row.getByText('张伟1').waitFor();
    await row.getByRole('button', { name: '编辑' }).click();
    await row.getByLabel('昵称').fill('张伟（重点客户）');
    await row.getByRole('button', { name: '保存' }).click();
    const saved = page.locator('tr', { hasText: '张伟（重点客户）' });
    await saved.getByText('平台：张伟1').waitFor();
    await screenshot(page, 'platforms-fans');
  });

  it('reads the log, then logs a failed pull (45009) with its reason', async () => {
    await page.goto(`${app.url}/cdp/join/info?id=${appId}`);
    await card('wx_fans').getByRole('button', { name: '查看日志' }).click();
    await page.waitForURL(/\/cdp\/join\/log\?id=\d+&taskId=\d+/);
    const ok = page.locator('tr', { hasText: '粉丝列表' }).first();
    await ok.getByText('正常').waitFor();
    await ok.getByRole('cell', { name: '25', exact: true }).waitFor();

    fake.failNext('/cgi-bin/user/get', 45009);
    await page.goto(`${app.url}/cdp/join/info?id=${appId}`);
    await card('wx_fans').getByRole('button', { name: '手动拉取' }).click();
    await card('wx_fans').getByText('异常').waitFor({ timeout: 30_000 });
    await page.goto(`${app.url}/cdp/join/log?id=${appId}`);
    const failed = page.locator('tr', { hasText: '接口调用超过每日限额（45009）' });
    await failed.getByText('异常').waitFor();
    await failed.getByText('数图示例公众号').waitFor();
    await screenshot(page, 'platforms-log');
  });
});
