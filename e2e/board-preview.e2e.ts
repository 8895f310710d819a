import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { apiCall, apiLogin, demoWarehouseId, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { chartAnswer } from './board-answers.ts';

type Row = Record<string, string | number | null>;
interface ChartData {
  dataList: Row[];
  fieldDict: { alias: string; title: string }[];
}

/**
 * The board preview (spec 1 §2.10 layout, §9 scale): a screen board over the demo warehouse
 * with a province filter driving a bar, a pie, an anchored pivot; linkage, 清除联动, 导航, the
 * refused panel for a user outside the board's group, and /openview with a view token.
 */
describe('board preview', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let boardId: number;
  let cubeId: number;
  let ids: Record<string, number>;
  const outsider = { account: 'outsider', password: 'outsider1' };

  const md5 = (text: string) => createHash('md5').update(text).digest('hex');

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    const warehouseId = demoWarehouseId(sources.records);
    const workspace = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '经营分析', parentId: 0 });
    const field = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
      id,
      columnName,
      columnTitle,
      tableAliasName: 'o',
      columnAttr: 'NORMAL',
      ...extra,
    });
    // The save answers the new dataset's id.
    cubeId = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', {
      cubeData: { cubeName: '订单分析', workspaceId: workspace.id, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 1 },
      datasourceId: warehouseId,
      columnList: [
        field('province', 'province', '省份'),
        field('channel', 'channel_name', '渠道'),
        field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      ],
    });
    const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`);
    ids = Object.fromEntries(fields.map((f) => [f.columnTitle, f.id]));

    // The board is restricted to a group holding only the administrator.
    const me = await apiCall<{ id: number }>(app, token, 'GET', '/api/auth/info');
    await apiCall(app, token, 'POST', '/api/org/users', { account: outsider.account, password: md5(outsider.password), name: '外部用户' });
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '管理层' });
    const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
      permName: '管理层',
      typeId: type.id,
      permJson: { userList: [{ id: me.id, name: '' }] },
    });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '经营看板' });

    const white = { bgColor: '#ffffff', titleFontColor: '#1f2d3d' };
    const sum = { fieldId: ids['金额']!, aggregation: 'SUM' };
    const byAmount = [{ fieldId: ids['金额']!, aggregation: 'SUM', direction: 'DESC' }];
    // The save answers the board's id.
    boardId = await apiCall<number>(app, token, 'POST', '/api/board/boards', {
      kind: 'visual',
      title: '销售经营看板',
      categoryId: category.id,
      publicStatus: 0,
      dataPermIdList: [group.id],
      content: { type: 'screen', width: 1920, height: 1800, bgColor: '#e9eef5', anchorTextColor: '#1d39c4', anchorTextSize: 15 },
      charts: [
        {
          key: 'title',
          name: 'text',
          title: '',
          site: { x: 20, y: 10, w: 1880, h: 70, isSimple: true, zIndex: 1 },
          ext: { text: '2024 年度销售经营看板' },
          option: { fontSize: 32, color: '#1f2d3d', textAlign: 'center' },
        },
        {
          key: 'province',
          name: 'filterSelect',
          title: '省份筛选',
          dataconfig: { cubeId, rowParamList: [{ fieldId: ids['省份']! }] },
          site: { x: 20, y: 90, w: 480, h: 90, ...white },
        },
        {
          key: 'bar',
          name: 'bar',
          title: '各省销售额',
          dataconfig: { cubeId, rowParamList: [{ fieldId: ids['省份']! }], indexParamList: [sum], sortList: byAmount },
          site: { x: 20, y: 190, w: 1160, h: 480, ...white },
          ext: { filterList: [{ linkFrom: 'province', linkKey: ids['省份']! }] },
        },
        {
          key: 'pie',
          name: 'pie',
          title: '渠道销售占比',
          dataconfig: { cubeId, rowParamList: [{ fieldId: ids['渠道']! }], indexParamList: [sum] },
          site: { x: 1200, y: 190, w: 700, h: 480, ...white },
        },
        {
          key: 'pivot',
          name: 'pivot',
          title: '省份渠道透视',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: ids['省份']! }],
            columnParamList: [{ fieldId: ids['渠道']! }],
            indexParamList: [sum],
            sortList: byAmount,
          },
          site: { x: 20, y: 690, w: 1880, h: 530, anchor: '透视分析', ...white },
        },
        {
          key: 'detail',
          name: 'detail',
          title: '订单明细',
          dataconfig: {
            cubeId,
            rowParamList: [{ fieldId: ids['省份']! }, { fieldId: ids['渠道']! }],
            indexParamList: [{ fieldId: ids['金额']! }],
            pageSize: 10,
          },
          site: { x: 20, y: 1240, w: 1880, h: 540, ...white },
        },
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `board-preview-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const chartResponse = (key: string, withLinks: boolean) => (r: Response) => {
    if (new URL(r.url()).pathname !== '/api/board/chart-data' || r.request().method() !== 'POST') return false;
    const body = r.request().postDataJSON() as { chartKey?: string; links?: unknown[] };
    return body.chartKey === key && (body.links?.length ?? 0) > 0 === withLinks;
  };
  const chart = (key: string) => page.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);
  const ready = (p: Page = page) => p.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
  /** province → sum of amount, as the dataset preview computes it. */
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
  const byProvince = (data: ChartData) => new Map(data.dataList.map((r) => [String(r.d0), Number(r.m0)]));

  it('opens the board, reaches ready, and the bar shows the dataset preview numbers', async () => {
    // The first answers come in the board's batch (its bar line); linked ones per chart.
    const barAnswer = chartAnswer<ChartData>(page, 'bar', false);
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await ready();
    const bar = await barAnswer;
    const expected = await expectedByProvince();
    expect(expected.size).toBeGreaterThan(3);
    expect(byProvince(bar.data)).toEqual(expected);
    await expect.poll(() => chart('bar').getAttribute('data-row-count')).toBe(String(expected.size));
    // Largest first, as the chart sorts.
    const amounts = bar.data.dataList.map((r) => Number(r.m0));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    // The pivot draws the same sums as an HTML table: the first province's row total.
    const [topProvince, topAmount] = [...expected].sort((a, b) => b[1] - a[1])[0]!;
    await chart('pivot').locator('tr', { hasText: topProvince }).first().waitFor();
    expect(await page.getByTestId('board-title').innerText()).toBe('销售经营看板');
    // 1440 px wide page: the 1920 design is scaled to 0.74 or 0.75 (the scrollbar gutter).
    const scale = Number(await page.getByTestId('board-stage').getAttribute('data-scale'));
    expect(scale).toBeGreaterThan(0.7);
    expect(scale).toBeLessThanOrEqual(0.75);
    expect(topAmount).toBeGreaterThan(0);
    await screenshot(page, 'board-preview');
  });

  it('choosing a province in the filter re-queries the bar with only that province; 清除联动 restores it', async () => {
    const expected = await expectedByProvince();
    const province = [...expected.keys()].sort()[0]!;
    const filtered = page.waitForResponse(chartResponse('bar', true));
    await chart('province').locator('.ant-select').click();
    await page.keyboard.type(province);
    await page.locator('.ant-select-dropdown:visible').getByTitle(province, { exact: true }).click();
    const res = await filtered;
    expect((res.request().postDataJSON() as { links: unknown[] }).links).toEqual([{ fieldId: ids['省份'], function: 'in', values: [province] }]);
    const data = ((await res.json()) as { data: ChartData }).data;
    expect(byProvince(data)).toEqual(await expectedByProvince(province));
    await expect.poll(() => chart('bar').getAttribute('data-row-count')).toBe('1');
    // The pie is not linked: it keeps every channel.
    expect(Number(await chart('pie').getAttribute('data-link-count'))).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByTestId('board-clear-linkage').click();
    await expect.poll(() => chart('bar').getAttribute('data-link-count')).toBe('0');
    await expect.poll(() => chart('bar').getAttribute('data-row-count')).toBe(String(expected.size));
    // The control is empty again.
    expect(await chart('province').locator('.ant-select-selection-item').count()).toBe(0);
  });

  it('导航 lists the anchored chart and 返回顶部↑; an anchor scrolls to its chart', async () => {
    await page.getByTestId('board-nav').click();
    const list = page.getByTestId('board-anchor-list');
    await list.waitFor();
    expect(await list.locator('button').allInnerTexts()).toEqual(['透视分析', '返回顶部↑']);
    await list.getByText('透视分析').click();
    const viewport = page.getByTestId('board-viewport');
    await expect.poll(() => viewport.evaluate((el) => el.scrollTop), { timeout: 10_000 }).toBeGreaterThan(300);
    await page.getByTestId('board-nav').click();
    await page.getByTestId('board-anchor-top').click();
    await expect.poll(() => viewport.evaluate((el) => el.scrollTop), { timeout: 10_000 }).toBe(0);
  });

  it('查看数据 opens the chart data as JSON in a new tab', async () => {
    const expected = await expectedByProvince();
    await chart('bar').hover();
    const [json] = await Promise.all([page.context().waitForEvent('page'), chart('bar').getByTestId('chart-json').click()]);
    try {
      await json.getByTestId('json-tree').waitFor();
      expect(new URL(json.url()).pathname).toBe(`/newbi/json/${boardId}/bar`);
      expect(await json.getByTestId('json-row-count').innerText()).toBe(`共 ${expected.size} 行`);
      const [province] = [...expected.keys()];
      await json
        .locator('.json-string', { hasText: `"${province}"` })
        .first()
        .waitFor();
      await screenshot(json, 'board-chart-json');
    } finally {
      await json.close();
    }
  });

  it('a user outside the board group sees 没有此大屏权限 and gets 403 for its chart data', async () => {
    const other = await newPage(browser);
    try {
      await loginThroughPage(other, app, outsider.account, outsider.password);
      await other.goto(`${app.url}/newbi/preview/${boardId}`);
      await other.getByText('没有此大屏权限').waitFor();
      await other.locator('html[data-board-state="refused"]').waitFor();
      await screenshot(other, 'board-preview-refused');
      const outsiderToken = await apiLogin(app, outsider.account, outsider.password);
      const res = await fetch(`${app.url}/api/board/chart-data`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${outsiderToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ boardId, chartKey: 'bar' }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { msg: string }).msg).toBe('没有此大屏权限');
    } catch (error) {
      await screenshot(other, 'board-preview-failed-outsider');
      throw error;
    } finally {
      await other.context().close();
    }
  });

  it('openview with a view token reaches ready in a fresh context without login', async () => {
    const res = await fetch(`${app.url}/api/board/boards/${boardId}/view-token`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { token: string } };
    const fresh = await newPage(browser, { width: 1920, height: 1080 });
    try {
      await fresh.goto(`${app.url}/openview/${boardId}?token=${encodeURIComponent(data.token)}`);
      await ready(fresh);
      // (The e2e project has no DOM library: the storage is the page's.)
      expect(
        await fresh.evaluate(() => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('shutu.token')),
      ).toBeNull();
      expect(await fresh.getByTestId('board-topbar').count()).toBe(0);
      expect(await fresh.locator('[data-testid="board-chart"][data-chart-key="bar"]').getAttribute('data-row-count')).not.toBeNull();
      await screenshot(fresh, 'board-openview');
      // A bad token: 链接已失效, never the login page.
      await fresh.goto(`${app.url}/openview/${boardId}?token=not-a-token`);
      await fresh.getByText('链接已失效').waitFor();
      expect(new URL(fresh.url()).pathname).toBe(`/openview/${boardId}`);
    } catch (error) {
      await screenshot(fresh, 'board-preview-failed-openview');
      throw error;
    } finally {
      await fresh.context().close();
    }
  });
});
