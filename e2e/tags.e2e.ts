import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Tags (issue 18 B, docs/tags.md): the library leads to a tag's detail, whose ratio chart opens
 * another tag when one of its bars is clicked; a tag-driven audience is built, saved and updated
 * (with the spec's confirmation); three audiences are compared side by side with a difference view.
 */
describe('标签：标签库、标签详情、标签人群与画像对比', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let months: string[];

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    months = await apiCall<string[]>(app, token, 'GET', '/api/tag/months');
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `tags-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens a tag from the library, and a bar of its ratio chart switches to that tag', async () => {
    await page.goto(`${app.url}/cdp/tags`);
    await page.getByRole('heading', { name: '标签库' }).waitFor();
    await page.getByText('31个标签').waitFor();
    await screenshot(page, 'tags-library');
    await page.getByTestId('tag-search').locator('input').fill('流失');
    await page.getByTestId('tag-search').locator('input').press('Enter');
    await page.getByText('3个标签').waitFor();
    await page.getByTestId('tag-open-1026').click();
    await page.getByRole('heading', { name: '标签详情' }).waitFor();
    const detail = page.getByTestId('tag-detail');
    await expect.poll(() => detail.getAttribute('data-tag-id')).toBe('1026');
    await page.getByTestId('tag-info').getByText('高流失风险').first().waitFor();
    await page.getByText('标签占比（流失预警）').waitFor();
    // The ratio chart's bars: 高/中/低流失风险 of the newest month; the widget says where each is drawn.
    const chart = page.locator('.tag-ratio-chart');
    const points = await eventually(
      async () => {
        const raw = await chart.getAttribute('data-points');
        const parsed = raw ? (JSON.parse(raw) as [number, number][]) : [];
        return parsed.length === 3 ? parsed : undefined;
      },
      'the ratio bars',
      30_000,
    );
    await screenshot(page, 'tags-detail');
    const box = (await chart.locator('canvas').first().boundingBox())!;
    await page.mouse.click(box.x + points[1]![0], box.y + points[1]![1]);
    await expect.poll(() => detail.getAttribute('data-tag-id')).toBe('1027');
    await page.getByTestId('tag-info').getByText('中流失风险').first().waitFor();
    expect(await page.evaluate("localStorage.getItem('shutu.tagId')")).toBe('1027');
    // The panel expands to the full width and back.
    await page.getByTestId('tag-ratio-expand').click();
    await page.locator('.tag-panel-expanded').waitFor();
    await page.getByRole('button', { name: '收起' }).click();
    await expect.poll(() => page.locator('.tag-panel-expanded').count()).toBe(0);
    // The monthly trend shows the months of the range.
    await expect.poll(async () => JSON.parse((await page.locator('.tag-count-chart').getAttribute('data-points')) ?? '[]').length).toBe(12);
  });

  it('builds a tag-driven audience, saves it and updates it after the confirmation', async () => {
    await page.goto(`${app.url}/cdp/tag/audience`);
    await page.getByTestId('tag-editor').waitFor();
    for (const name of ['订购产品', '订购渠道', 'APP使用', '产品订购状态']) await page.getByTestId(`tag-rule-${name}`).waitFor();
    // Only the order status: remove the others; their library entries become selectable again.
    for (const name of ['订购产品', '订购渠道', 'APP使用']) await page.getByTestId(`tag-rule-${name}`).getByRole('button', { name: '移除' }).click();
    await page.getByTestId('tag-lib-订购产品').waitFor();
    await page.getByTestId('tag-rule-产品订购状态').getByLabel('新订购用户').check();
    await page.getByTestId('tag-save').click();
    await page.getByText('请填写人群名称').waitFor();
    await page.getByTestId('tag-group-name').fill('新订购用户人群');
    await page.getByTestId('tag-preview').click();
    await page.getByTestId('tag-size').waitFor();
    await page.getByTestId('tag-save').click();
    await page.getByText('保存成功').waitFor();
    await page.waitForURL(/\/cdp\/tag\/audience\?id=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const saved = await apiCall<{ size: number; status: string }>(app, token, 'GET', `/api/tag/audience?id=${id}`);
    expect(saved.status).toBe('done');
    expect(saved.size).toBeGreaterThan(0);
    // Update: 且 the 网络 group's 5G terminal users; the spec's confirmation first.
    await page.getByRole('tab', { name: '网络' }).click();
    await page.getByTestId('tag-lib-终端网络').click();
    await page.getByTestId('tag-rule-终端网络').getByLabel('5G终端用户').check();
    await page.getByTestId('tag-save').click();
    await page.locator('.ant-modal-confirm-title', { hasText: '更新人群后将会重新整理分析数据，确定更新吗？' }).waitFor();
    await screenshot(page, 'tags-audience-confirm');
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('已更新').waitFor();
    const updated = await eventually(async () => {
      const a = await apiCall<{ size: number; rules: { ruledetails: unknown[] } }>(app, token, 'GET', `/api/tag/audience?id=${id}`);
      return a.rules.ruledetails.length === 2 ? a : undefined;
    }, 'the updated audience');
    expect(updated.size).toBeLessThan(saved.size);
    await page.getByTestId('tag-rule-终端网络').waitFor();
    // An unknown audience: 人群不存在, and the editor opens empty for a new one.
    await page.goto(`${app.url}/cdp/tag/audience?id=999999`);
    await page.getByText('人群不存在').first().waitFor();
  });

  it('compares three audiences side by side, with the difference of two', async () => {
    const save = (groupName: string, ruledetails: unknown[]) =>
      apiCall<{ id: number }>(app, token, 'POST', '/api/tag/audience', {
        groupName,
        rules: { relationship: 'and', daterange: [months[2], months[0]], ruledetails },
        startAnalyseDate: months[2],
        endAnalyseDate: months[0],
      });
    const area = (province: string) => [{ level2name: '地区', type: 'area', values: [`p:${province}`], conditions: [] }];
    const ids = [
      (await save('广东用户', area('广东'))).id,
      (await save('浙江用户', area('浙江'))).id,
      (await save('高流失风险用户', [{ level2name: '流失预警', type: 'tag', values: ['1026'], conditions: [] }])).id,
    ];
    await page.goto(`${app.url}/cdp/profile/compare?type=tag&id=${ids.join(',')}`);
    await page.getByRole('heading', { name: '用户画像对比' }).waitFor();
    for (const id of ids) await page.getByTestId(`profile-block-${id}`).getByText('省份分布').waitFor();
    await page.getByTestId(`profile-block-${ids[0]}`).getByText('热门标签').waitFor();
    const diff = page.getByTestId('profile-diff');
    await diff.getByText('广东用户 与 浙江用户 的差异').waitFor();
    // Its first chart: 共有用户, 仅在广东用户, 仅在浙江用户.
    await expect.poll(async () => JSON.parse((await diff.locator('[data-points]').first().getAttribute('data-points')) ?? '[]').length).toBe(3);
    await expect.poll(() => page.locator('.profile-block canvas').count()).toBeGreaterThanOrEqual(12);
    await screenshot(page, 'tags-compare');
    // Removing one from the multi-select leaves two blocks.
    await page.getByTestId('profile-select').locator('.ant-select-selection-item-remove').last().click();
    await expect.poll(() => page.locator('.profile-block').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('id')).toBe(`${ids[0]},${ids[1]}`);
  });
});
