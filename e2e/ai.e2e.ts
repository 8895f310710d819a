import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { formulaAnswer, sqlAnswer, startFakeOpenAi, type FakeChatRequest, type FakeOpenAi } from '../apps/server/src/modules/ai/testing/fake-openai.ts';
import { createOrdersDataset } from './api-fixtures.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * AI assistance (issue 25) in Chromium: an administrator configures the endpoint (a local
 * OpenAI-compatible fake this test starts, which checks the bearer key), asks AI 生成 SQL in
 * the SQL-view drawer — the first answer names a column that does not exist, the product
 * repairs it once and previews the second — keeps it with 使用此SQL, then has AI 生成公式
 * write a computed field's formula and saves the dataset with it.
 */
const KEY = 'sk-e2e-fake-key-42';
const QUESTION = '各省订购成功的订单数，从高到低';
const RIGHT_SQL = "SELECT province, count(*) AS n FROM orders WHERE status = '订购成功' GROUP BY province ORDER BY n DESC";
const DESCRIPTION = '金额的两倍';

function reply(request: FakeChatRequest) {
  const asked = request.messages.find((m) => m.role === 'user')!.content;
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (asked === QUESTION)
    return turn === 0
      ? sqlAnswer('SELECT provnce, count(*) AS n FROM orders GROUP BY provnce')
      : sqlAnswer(RIGHT_SQL, '按省份统计状态为订购成功的订单数，按数量从高到低排序');
  if (asked === DESCRIPTION) return formulaAnswer('[金额] * 2', '金额乘以 2');
  return sqlAnswer('SELECT 1');
}

describe('AI assistance', () => {
  let app: E2EApp;
  let fake: FakeOpenAi;
  let browser: Browser;
  let page: Page;
  let token: string;
  let cubeId: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: KEY, reply });
    app = await startApp();
    token = await apiLogin(app);
    ({ cubeId } = await createOrdersDataset(app, token, { category: 'AI 分析', name: 'AI 订单', publicStatus: 0 }));
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `ai-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fake?.close();
  });

  const isCall =
    (path: string, method = 'POST') =>
    (r: Response) =>
      new URL(r.url()).pathname === path && r.request().method() === method;

  it('before an administrator configures it, AI 生成 SQL says what to configure', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?id=${cubeId}`);
    await page.getByTestId('dataset-editor').waitFor();
    await page.getByRole('tab', { name: 'SQL视图' }).click();
    await page.getByTestId('ds-add-view').click();
    const drawer = page.getByTestId('sql-view-drawer');
    await drawer.locator('.cm-editor').waitFor();
    await drawer.getByTestId('ai-sql-open').click();
    await page.getByTestId('ai-not-configured').getByText('请管理员在【系统设置 → AI 助手】中填写接口地址、模型和 API Key').waitFor();
    await screenshot(page, 'ai-not-configured');
    expect(fake.requests).toHaveLength(0);
  });

  it('configures the endpoint in 系统设置 → AI 助手; the key comes back masked', async () => {
    await page.goto(`${app.url}/system/settings`);
    const card = page.getByTestId('ai-settings');
    await card.getByTestId('ai-baseUrl').waitFor();
    await card.getByTestId('ai-baseUrl').fill(fake.baseUrl);
    await card.getByTestId('ai-model').fill('fake-sql-1');
    await card.getByTestId('ai-apiKey').fill(KEY);
    await card.getByTestId('ai-enabled').click();
    expect(await card.getByTestId('ai-temperature').inputValue()).toBe('0.1');
    const [saved] = await Promise.all([page.waitForResponse(isCall('/api/ai/settings', 'PUT')), card.getByTestId('ai-save').click()]);
    expect(saved.status()).toBe(200);
    await page.locator('.ant-message').getByText('保存成功').first().waitFor();
    await card.getByText('已设置（****** 表示保留原值，清空则删除）').waitFor();
    await card.getByTestId('ai-apiKey').scrollIntoViewIfNeeded();
    await screenshot(page, 'ai-settings');
    expect(await apiCall<{ enabled: boolean }>(app, token, 'GET', '/api/ai/status')).toMatchObject({ enabled: true });
  });

  it('generates SQL in the SQL-view drawer: repaired once, previewed, kept with 使用此SQL', async () => {
    await page.goto(`${app.url}/newbi/dataset/edit?id=${cubeId}`);
    await page.getByTestId('dataset-editor').waitFor();
    await page.getByRole('tab', { name: 'SQL视图' }).click();
    await page.getByTestId('ds-add-view').click();
    const drawer = page.getByTestId('sql-view-drawer');
    await drawer.locator('.cm-editor').waitFor();
    await drawer.getByTestId('ai-sql-open').click();
    const panel = page.getByTestId('ai-sql-panel');
    await panel.getByTestId('ai-sql-question').fill(QUESTION);
    const [generated] = await Promise.all([page.waitForResponse(isCall('/api/ai/sql')), panel.getByTestId('ai-sql-generate').click()]);
    expect(generated.status()).toBe(200);
    await panel.getByTestId('ai-sql-repaired').getByText('已根据执行错误自动修正 1 次').waitFor();
    await panel
      .getByTestId('ai-sql-repaired')
      .getByText(/provnce/)
      .waitFor();
    expect(await panel.getByTestId('ai-sql-text').innerText()).toBe(RIGHT_SQL);
    await panel.getByTestId('ai-sql-explanation').getByText('按省份统计状态为订购成功的订单数').waitFor();
    const rows = panel.getByTestId('ai-sql-preview').locator('.ant-table-tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(1);
    await screenshot(page, 'ai-sql-panel');
    // The bearer key reached the endpoint, and the repair turn carried the engine's error.
    expect(fake.requests.length).toBe(2);
    expect(fake.requests[1]!.messages.at(-1)!.content).toContain('provnce');

    await panel.getByTestId('ai-sql-use').click();
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => drawer.locator('.cm-content').innerText()).toContain("WHERE status = '订购成功'");
    const [previewed] = await Promise.all([page.waitForResponse(isCall('/api/sqlview/preview')), drawer.getByTestId('sql-view-preview').click()]);
    expect(previewed.status()).toBe(200);
    await drawer.getByTestId('sql-view-result').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'ai-sql-used');
    await page.locator('.ant-drawer-bottom .ant-drawer-close').click();
    await drawer.locator('.cm-editor').waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: '数据表' }).click();
  });

  it('generates a formula in the computed-field dialog and saves the dataset with the field', async () => {
    await page.getByTestId('ds-new-computed').click();
    const dialog = page.getByTestId('cf-dialog');
    await dialog.getByTestId('ai-formula-open').click();
    await dialog.getByTestId('ai-formula-description').fill(DESCRIPTION);
    const [generated] = await Promise.all([page.waitForResponse(isCall('/api/ai/formula')), dialog.getByTestId('ai-formula-generate').click()]);
    expect(generated.status()).toBe(200);
    expect(await dialog.getByTestId('ai-formula-text').innerText()).toBe('[金额] * 2');
    await screenshot(page, 'ai-formula-panel');
    await dialog.getByTestId('ai-formula-use').click();
    await expect.poll(() => dialog.getByTestId('cf-formula').inputValue()).toBe('[金额] * 2');
    await dialog.getByTestId('cf-title').fill('双倍金额');
    const [checked] = await Promise.all([page.waitForResponse(isCall('/api/query/formula-check')), dialog.getByTestId('cf-ok').click()]);
    expect(checked.status()).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('ds-fields-ZHIBIAO').getByTestId('ds-field-双倍金额').waitFor();
    const [saved] = await Promise.all([page.waitForResponse(isCall('/api/dataset/cubes')), page.getByTestId('ds-save').click()]);
    expect(saved.status()).toBe(200);
    const fields = await apiCall<{ columnTitle: string; columnFormula: string | null; columnAttr: string }[]>(
      app,
      token,
      'GET',
      `/api/dataset/cubes/${cubeId}/fields`,
    );
    expect(fields.find((f) => f.columnTitle === '双倍金额')).toMatchObject({ columnAttr: 'VIRTUAL', columnFormula: '[金额] * 2' });
    const logs = await apiCall<{ purpose: string; accepted: boolean; outcome: string }[]>(app, token, 'GET', '/api/ai/logs');
    expect(
      logs
        .filter((l) => l.accepted)
        .map((l) => l.purpose)
        .sort(),
    ).toEqual(['formula', 'sql']);
  });
});
