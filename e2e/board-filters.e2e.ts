import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { createOrdersDataset } from './api-fixtures.ts';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

type Row = Record<string, string | number | null>;
interface ChartData {
  dataList: Row[];
}
interface SavedChart {
  key: string;
  name: string;
  title: string;
  ext: { filterList: unknown[]; autoLink?: boolean | null; autoLinkExclude?: string[] | null };
}

/**
 * Board-wide filters (issue 16): a quick report built in the editor with a 下拉筛选 and three
 * charts over the same dataset, no 联动 set up. Choosing a province in the preview filters all
 * three (their numbers are the dataset preview's for that province); unticking one chart in the
 * filter's 应用到图表 leaves that chart on the whole data. Chart titles default to their fields.
 */
describe('board-wide filters', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let cubeId: number;
  let ids: Record<string, number>;
  let category: number;
  let boardId: number;
  const keys = { filter: '', bar: '', card: '', table: '' };

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    ({ cubeId, fieldIds: ids } = await createOrdersDataset(app, token, { category: '筛选测试', name: '订单（全局筛选）', publicStatus: 1 }));
    category = (await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'report', categoryValue: '筛选报表', parentId: 0 })).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `board-filters-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const editorCharts = () => page.locator('[data-testid="editor-chart"]');
  const panel = () => page.getByTestId('chart-config-panel');

  /** Adds a chart from the palette (it becomes the selected one) and fills its field lists. */
  async function addChart(type: string, picks: [title: string, slot: 'rows' | 'measures'][]): Promise<string> {
    const before = await editorCharts().count();
    await page.locator(`[data-testid="palette-item"][data-type="${type}"]`).click();
    await expect.poll(() => editorCharts().count()).toBe(before + 1);
    const key = (await editorCharts().nth(before).getAttribute('data-chart-key'))!;
    await expect.poll(() => panel().getAttribute('data-chart')).toBe(key);
    for (const [title, slot] of picks) await panel().locator(`[data-testid="ccp-field"][data-title="${title}"] [data-testid="ccp-add-${slot}"]`).click();
    return key;
  }

  async function save(): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/board/boards') && r.request().method() === 'POST'),
      page.getByTestId('save-board').click(),
    ]);
    const envelope = (await response.json()) as { success: boolean; msg: string; data: number };
    expect(envelope.success, envelope.msg).toBe(true);
    await page.getByText('保存成功').first().waitFor();
    return envelope.data;
  }

  const getCharts = async () => (await apiCall<{ charts: SavedChart[] }>(app, token, 'GET', `/api/board/boards/${boardId}`)).charts;

  /** The sum of 金额 by 省份 from the dataset preview, optionally for one province. */
  async function expectedByProvince(province?: string): Promise<Map<string, number>> {
    const preview = await apiCall<ChartData>(app, token, 'POST', '/api/dataset/preview', {
      cubeDataId: cubeId,
      request: {
        dimensions: [{ fieldId: ids['省份'] }],
        measures: [{ fieldId: ids['金额'], aggregation: 'SUM' }],
        ...(province ? { where: { relation: 'AND', conditions: [{ cubeColumnId: ids['省份'], conditions: [{ function: 'in', values: [province] }] }] } } : {}),
      },
    });
    return new Map(preview.dataList.map((r) => [String(r.d0), Number(r.m0)]));
  }
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const byProvince = (data: ChartData) => new Map(data.dataList.map((r) => [String(r.d0), Number(r.m0)]));

  /** The next chart-data answer of `key`, with or without links. */
  const answerOf = (p: Page, key: string, withLinks: boolean) =>
    p
      .waitForResponse((r: Response) => {
        if (new URL(r.url()).pathname !== '/api/board/chart-data' || r.request().method() !== 'POST') return false;
        const body = r.request().postDataJSON() as { chartKey?: string; links?: unknown[] };
        return body.chartKey === key && (body.links?.length ?? 0) > 0 === withLinks;
      })
      .then(async (r) => ({ links: (r.request().postDataJSON() as { links?: unknown[] }).links ?? [], data: ((await r.json()) as { data: ChartData }).data }));

  /** Opens the preview in a new tab and chooses `province` in the filter once every chart is drawn. */
  async function previewAndChoose(province: string, filteredKeys: string[]) {
    const preview = await newPage(browser);
    await loginThroughPage(preview, app);
    await preview.goto(`${app.url}/newbi/preview/${boardId}`);
    await preview.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    const chartIn = (key: string) => preview.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);
    const answers = Object.fromEntries(filteredKeys.map((k) => [k, answerOf(preview, k, true)]));
    await chartIn(keys.filter).locator('.ant-select').click();
    await preview.keyboard.type(province);
    await preview.locator('.ant-select-dropdown:visible').getByTitle(province, { exact: true }).click();
    await preview.keyboard.press('Escape');
    return { preview, chartIn, answers };
  }

  it('a dropdown filter filters every chart of its dataset without any 联动; titles default to the fields', async () => {
    await page.goto(`${app.url}/newbi/report/quickEdit?ds=${cubeId}&cg=${category}`);
    await page.getByTestId('board-editor').waitFor();
    keys.filter = await addChart('filterSelect', [['省份', 'rows']]);
    keys.bar = await addChart('bar', [
      ['省份', 'rows'],
      ['金额', 'measures'],
    ]);
    keys.card = await addChart('card', [['金额', 'measures']]);
    keys.table = await addChart('table', [
      ['省份', 'rows'],
      ['金额', 'measures'],
    ]);
    // Titles follow the fields, dimensions then measures.
    const titleOf = (key: string) => page.locator(`[data-testid="editor-chart"][data-chart-key="${key}"]`).getAttribute('data-title');
    expect(await titleOf(keys.bar)).toBe('省份 · 金额');
    expect(await titleOf(keys.card)).toBe('金额');
    expect(await titleOf(keys.filter)).toBe('省份');
    await page.getByTestId('board-title').fill('省份筛选报表');
    boardId = await save();
    const saved = await getCharts();
    // No chart carries a link: the filter applies board-wide.
    expect(saved.every((c) => c.ext.filterList.length === 0)).toBe(true);
    expect(saved.find((c) => c.key === keys.filter)!.ext.autoLink).toBe(true);

    const all = await expectedByProvince();
    const province = [...all.keys()].sort()[0]!;
    const only = await expectedByProvince(province);
    expect(only.size).toBe(1);
    expect(total(only)).toBeLessThan(total(all));

    const { preview, chartIn, answers } = await previewAndChoose(province, [keys.bar, keys.card, keys.table]);
    const link = [{ fieldId: ids['省份'], function: 'in', values: [province] }];
    const bar = await answers[keys.bar]!;
    expect(bar.links).toEqual(link);
    expect(byProvince(bar.data)).toEqual(only);
    const card = await answers[keys.card]!;
    expect(card.links).toEqual(link);
    expect(Number(card.data.dataList[0]!.m0)).toBeCloseTo(total(only), 2);
    const table = await answers[keys.table]!;
    expect(byProvince(table.data)).toEqual(only);
    // What the page shows: one bar, one table row of that province, every chart filtered once.
    for (const key of [keys.bar, keys.card, keys.table]) await expect.poll(() => chartIn(key).getAttribute('data-link-count')).toBe('1');
    await expect.poll(() => chartIn(keys.bar).getAttribute('data-row-count')).toBe('1');
    await expect.poll(() => chartIn(keys.table).locator('tbody tr.ant-table-row').count()).toBe(1);
    expect(await chartIn(keys.table).locator('tbody tr.ant-table-row').first().innerText()).toContain(province);
    await screenshot(preview, 'board-filters-preview');
    await preview.context().close();
  });

  it('unticking a chart in the filter settings leaves that chart on the whole data', async () => {
    await page.goto(`${app.url}/newbi/report/quickEdit?id=${boardId}`);
    await page.getByTestId('board-editor').waitFor();
    await page.locator(`[data-testid="editor-chart"][data-chart-key="${keys.filter}"]`).click();
    await expect.poll(() => panel().getAttribute('data-chart')).toBe(keys.filter);
    await panel().getByRole('tab', { name: '联动' }).click();
    const targets = panel().getByTestId('ccp-target');
    await expect.poll(() => targets.evaluateAll((els) => els.map((e) => e.getAttribute('data-chart')))).toEqual([keys.bar, keys.card, keys.table]);
    const cardTarget = panel().locator(`[data-testid="ccp-target"][data-chart="${keys.card}"]`);
    expect(await cardTarget.innerText()).toContain('金额');
    await cardTarget.locator('input[type="checkbox"]').uncheck();
    await expect.poll(() => cardTarget.locator('input[type="checkbox"]').isChecked()).toBe(false);
    await screenshot(page, 'board-filters-settings');
    await save();
    expect((await getCharts()).find((c) => c.key === keys.filter)!.ext.autoLinkExclude).toEqual([keys.card]);

    const all = await expectedByProvince();
    const province = [...all.keys()].sort()[0]!;
    const only = await expectedByProvince(province);
    const { preview, chartIn, answers } = await previewAndChoose(province, [keys.bar, keys.table]);
    expect(byProvince((await answers[keys.bar]!).data)).toEqual(only);
    expect(byProvince((await answers[keys.table]!).data)).toEqual(only);
    // The card kept the whole data: never filtered, and its answer is the grand total.
    await expect.poll(() => chartIn(keys.bar).getAttribute('data-link-count')).toBe('1');
    expect(await chartIn(keys.card).getAttribute('data-link-count')).toBe('0');
    const cardAnswer = await apiCall<ChartData>(app, token, 'POST', '/api/board/chart-data', { boardId, chartKey: keys.card });
    expect(Number(cardAnswer.dataList[0]!.m0)).toBeCloseTo(total(all), 2);
    expect(await chartIn(keys.card).getAttribute('data-loading')).toBeNull();
    await screenshot(preview, 'board-filters-optout');
    await preview.context().close();
  });
});
