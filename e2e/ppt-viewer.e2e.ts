import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, ARTIFACTS, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * The slideshow viewer (spec 1 §2.10, §4, §5, §9) over two demo boards: paging with keys and
 * buttons with the warnings at both ends, auto-play in the full-screen form, and a two-page PDF
 * rendered by the server with the 保密 watermark, downloaded through the dialog; the 订阅幻灯片
 * dialog (an unconfigured channel blocks saving; DingTalk, once configured, saves a 'ppt' subscription).
 */
describe('slideshow viewer', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let boards: { id: number; title: string }[];
  let pptId: number;
  let autoPptId: number;

  const state = () => page.locator('html').getAttribute('data-board-state');
  const currentTitle = () => page.getByTestId('ppt-current-title').textContent();
  const waitReady = () => page.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '3000' });
    token = await apiLogin(app);
    const visual = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=visual&current=1&size=50');
    const report = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=report&current=1&size=50');
    boards = [visual.records.find((b) => b.title === '销售概览')!, report.records.find((b) => b.title === '订单明细报表')!];
    expect(boards.every(Boolean)).toBe(true);
    const visualIds = boards.map((b) => b.id);
    pptId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/ppt/slideshows', { ppName: '月度经营汇报', visualIds })).id;
    autoPptId = (
      await apiCall<{ id: number }>(app, token, 'POST', '/api/ppt/slideshows', { ppName: '自动播放', visualIds, settings: { autoPlay: true, interval: 3 } })
    ).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `ppt-viewer-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('pages with keys 37/39 and the arrows, warning at both ends, the address following the dashboard', async () => {
    await page.goto(`${app.url}/newbi/ppt/view/${pptId}`);
    await waitReady();
    expect(await page.getByTestId('ppt-name').textContent()).toBe('月度经营汇报');
    expect(await currentTitle()).toBe('销售概览');
    await page.waitForURL(`**/newbi/ppt/view/${pptId}/${boards[0]!.id}`);
    await screenshot(page, 'ppt-viewer');

    await page.keyboard.press('ArrowLeft');
    await page.getByText('已经是第一个了').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(`**/newbi/ppt/view/${pptId}/${boards[1]!.id}`);
    expect(await currentTitle()).toBe('订单明细报表');
    await waitReady();
    await page.getByTestId('ppt-next').click();
    await page.getByText('已经是最后一个了').waitFor();
    await page.getByTestId('ppt-prev').click();
    await page.waitForURL(`**/newbi/ppt/view/${pptId}/${boards[0]!.id}`);
    // Back on a visited dashboard: shown again at once, its charts kept.
    expect(await state()).toBe('ready');
    expect(await page.getByTestId('ppt-prev').getAttribute('title')).toBe('上一页');
    expect(await page.getByTestId('ppt-next').getAttribute('title')).toBe('下一页');
    for (const label of ['订阅幻灯片', '导出pdf', '全屏', '收藏幻灯片', '归档幻灯片']) await page.getByRole('button', { name: label }).first().waitFor();
  });

  it('exports both dashboards to one PDF with the watermark, with the estimate and elapsed seconds while it renders', async () => {
    await page.getByTestId('ppt-export-pdf').click();
    await page.getByText('全部', { exact: true }).click();
    expect(await page.getByTestId('ppt-pdf-watermark-text').inputValue()).toBe('保密');
    await page.getByTestId('ppt-pdf-submit').click();
    expect(await page.getByTestId('ppt-pdf-estimate').textContent()).toBe('预计 10–20 秒');
    expect(await page.getByTestId('ppt-pdf-elapsed').textContent()).toMatch(/^已用时 \d+ 秒$/);
    // Done: 下载 PDF saves the file under the slideshow's name.
    await page.getByTestId('ppt-pdf-download').waitFor({ timeout: 120_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ppt-pdf-download').click()]);
    expect(file.suggestedFilename()).toBe('月度经营汇报.pdf');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const pdfPath = path.join(ARTIFACTS, 'ppt-export.pdf');
    await file.saveAs(pdfPath);

    const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2\n/);
    const text = execFileSync('pdftotext', ['-raw', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('销售概览');
    expect(text).toContain('订单明细报表');
    expect(text.replace(/\s+/g, '').match(/保密/g)?.length ?? 0).toBeGreaterThan(10);
    // Pictures of the pages for a person to look at.
    execFileSync('pdftoppm', ['-png', '-r', '40', pdfPath, path.join(ARTIFACTS, 'ppt-export-page')]);
    expect(fs.readdirSync(ARTIFACTS).filter((f) => /^ppt-export-page-\d+\.png$/.test(f))).toHaveLength(2);
    await page.keyboard.press('Escape');
  });

  it('subscribes to the slideshow from the viewer: name by default, an unconfigured email blocks 保存, DingTalk saves', async () => {
    await page.goto(`${app.url}/newbi/ppt/view/${pptId}`);
    await waitReady();
    await page.getByTestId('ppt-subscribe').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('subscription-subtitle') });
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-title').textContent()).toBe('月度经营汇报');
    expect(await dialog.getByTestId('subscription-title').inputValue()).toBe('月度经营汇报');
    const save = dialog.getByTestId('subscription-save');
    // Email is the default method and no mail server is configured: red message, 保存 disabled.
    const unusable = dialog.getByTestId('subscription-unusable');
    await unusable.getByText('未配置邮件服务器，请联系管理员').waitFor();
    type Styles = { getComputedStyle(el: unknown): { color: string } };
    expect(await unusable.evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).color)).toBe('rgb(255, 77, 79)');
    expect(await save.isDisabled()).toBe(true);

    // The administrator configures a DingTalk robot (nothing is sent: the check only needs its address).
    await apiCall(app, token, 'PUT', '/api/system/notify', { dingtalkWebhook: 'http://127.0.0.1:9/robot/send?access_token=e2e' });
    await dialog.getByTestId('subscription-notify-type').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="钉钉"]').click();
    await expect.poll(() => save.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await dialog.getByTestId('subscription-unusable').count()).toBe(0);
    await save.click();
    await page.getByText('已订阅').first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    const mine = await apiCall<{ records: { dataType: string; dataId: number; notifyType: string; notifyTitle: string; subTitle: string }[] }>(
      app,
      token,
      'GET',
      '/api/subscription/subscriptions',
    );
    expect(mine.records).toEqual([
      expect.objectContaining({ dataType: 'ppt', dataId: pptId, notifyType: 'dingtalk', notifyTitle: '月度经营汇报', subTitle: '月度经营汇报' }),
    ]);
  });

  it('auto-plays in the full-screen form: the next dashboard after the interval, wrapping to the first', async () => {
    await page.goto(`${app.url}/fullpowerpoint/${autoPptId}/0`);
    await waitReady();
    expect(await page.getByTestId('ppt-topbar').count()).toBe(0);
    expect(await page.getByTestId('ppt-page-indicator').textContent()).toBe('1 / 2');
    await screenshot(page, 'ppt-viewer-full');
    await page.waitForURL(`**/fullpowerpoint/${autoPptId}/${boards[1]!.id}`, { timeout: 30_000 });
    expect(await page.getByTestId('ppt-page-indicator').textContent()).toBe('2 / 2');
    await page.waitForURL(`**/fullpowerpoint/${autoPptId}/${boards[0]!.id}`, { timeout: 30_000 });
    expect(await page.getByTestId('ppt-page-indicator').textContent()).toBe('1 / 2');
  });
});
