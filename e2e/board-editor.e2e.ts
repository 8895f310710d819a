import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { chartAnswer as firstAnswer } from './board-answers.ts';

interface SavedBoard {
  id: number;
  title: string;
  content: { type: string; layout: { i: string; x: number; y: number; w: number; h: number }[] };
  charts: {
    key: string;
    name: string;
    title: string;
    site: { x: number; y: number; w: number; h: number };
    dataconfig: { cubeId: number; rowParamList: { fieldId: number }[]; indexParamList: { fieldId: number }[] } | null;
  }[];
}

const field = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: 'o',
  columnAttr: 'NORMAL',
  ...extra,
});

/**
 * The two board editors in a real browser (issue 6): a quick report and a screen dashboard
 * built with the mouse — add from the component panel (click and drag), pick fields in the
 * configuration panel, drag and resize, undo / redo, save (the id goes into the address),
 * the list shows the board, the editor reopens it.
 */
describe('board editors', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let cubeId: number;
  let reportCategory: number;
  let visualCategory: number;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    const warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    const workspace = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: '编辑器测试', parentId: 0 });
    cubeId = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', {
      cubeData: { cubeName: '订单明细（编辑器）', workspaceId: workspace.id, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 1 },
      datasourceId: warehouseId,
      columnList: [
        field('province', 'province', '省份'),
        field('channel', 'channel_name', '渠道'),
        field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      ],
    });
    reportCategory = (await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'report', categoryValue: '门店报表', parentId: 0 }))
      .id;
    visualCategory = (await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '经营大屏', parentId: 0 }))
      .id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `board-editor-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const getBoard = (id: number) => apiCall<SavedBoard>(app, token, 'GET', `/api/board/boards/${id}`);
  const editorCharts = (p: Page) => p.locator('[data-testid="editor-chart"]');
  const undo = (p: Page) => p.locator('button[aria-label="撤销 (Ctrl+Z)"]').click();
  const redo = (p: Page) => p.locator('button[aria-label="重做 (Ctrl+Y)"]').click();
  const box = async (l: Locator) => (await l.boundingBox())!;
  /**
   * The box once the grid has let go of the drag (no placeholder, no dragging or resizing class:
   * on a busy machine the snap to the columns comes late) and its 200 ms transition is over: two
   * readings 300 ms apart agree.
   */
  async function settled(l: Locator) {
    await expect.poll(() => l.page().locator('.react-grid-placeholder').count()).toBe(0);
    await expect.poll(() => l.evaluate((el) => el.closest('.react-grid-item')?.className ?? '')).not.toMatch(/\bresizing\b|react-draggable-dragging/);
    let last = JSON.stringify(await box(l));
    await expect
      .poll(
        async () => {
          const now = JSON.stringify(await box(l));
          const same = now === last;
          last = now;
          return same;
        },
        { interval: 300 },
      )
      .toBe(true);
    return box(l);
  }

  /** Picks a dimension and a measure for the selected chart in the configuration panel. */
  async function pickFields(p: Page, dimension: string, measure: string) {
    const panel = p.getByTestId('chart-config-panel');
    await panel.locator(`[data-testid="ccp-field"][data-title="${dimension}"] [data-testid="ccp-add-rows"]`).click();
    await panel.locator(`[data-testid="ccp-field"][data-title="${measure}"] [data-testid="ccp-add-measures"]`).click();
  }

  async function drag(p: Page, from: { x: number; y: number }, dx: number, dy: number) {
    await p.mouse.move(from.x, from.y);
    await p.mouse.down();
    await p.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 5 });
    await p.mouse.move(from.x + dx, from.y + dy, { steps: 5 });
    await p.mouse.up();
  }

  /** Saves and returns the board id the server answered. */
  async function save(p: Page): Promise<number> {
    const [response] = await Promise.all([
      p.waitForResponse((r) => r.url().endsWith('/api/board/boards') && r.request().method() === 'POST'),
      p.getByTestId('save-board').click(),
    ]);
    const envelope = (await response.json()) as { success: boolean; msg: string; data: number };
    expect(envelope.success, envelope.msg).toBe(true);
    await p.getByText('保存成功').first().waitFor();
    return envelope.data;
  }

  it('quick report: add a bar chart, configure it, drag and resize it, undo / redo, save, list, reopen', async () => {
    await page.goto(`${app.url}/newbi/report/quickEdit?ds=${cubeId}&cg=${reportCategory}`);
    await page.getByTestId('board-editor').waitFor();
    expect(await page.getByTestId('board-title').inputValue()).toBe('未命名报表');
    await page.locator('[data-testid="palette-item"][data-type="bar"]').click();
    const chart = editorCharts(page).first();
    await chart.getByText('请在右侧选择维度或指标').waitFor();
    await pickFields(page, '省份', '金额');
    await chart.locator('canvas').first().waitFor();
    await page.getByTestId('board-title').fill('门店销售日报');

    // Drag by the header to the right (leaving room to grow); resize from the bottom-right corner.
    const start = await settled(chart);
    await drag(page, { x: start.x + 60, y: start.y + 18 }, 180, 0);
    await expect.poll(async () => (await box(chart)).x).toBeGreaterThan(start.x + 100);
    const moved = await settled(chart);
    const handle = chart.locator('.react-resizable-handle-se');
    const corner = await box(handle);
    await drag(page, { x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 }, 240, 120);
    await expect.poll(async () => (await box(chart)).width).toBeGreaterThan(moved.width + 150);
    const resized = await settled(chart);

    // One undo takes back the whole resize, one more the whole move; redo brings both back.
    await undo(page);
    // Widths are compared to the pixel: the grid's column width is fractional and rounds either way.
    await expect.poll(async () => Math.abs((await box(chart)).width - moved.width)).toBeLessThanOrEqual(1);
    await undo(page);
    await expect.poll(async () => Math.round((await box(chart)).x)).toBe(Math.round(start.x));
    await redo(page);
    await redo(page);
    await expect.poll(async () => Math.abs((await box(chart)).width - resized.width)).toBeLessThanOrEqual(1);

    const id = await save(page);
    await page.waitForURL(new RegExp(`quickEdit\\?.*id=${id}`));
    expect(await page.getByTestId('unsaved-tag').count()).toBe(0);
    const saved = await getBoard(id);
    expect(saved.title).toBe('门店销售日报');
    expect(saved.content.type).toBe('quick');
    const [bar] = saved.charts;
    // The title defaults to the fields (dimensions, then measures), not the chart type.
    expect(bar).toMatchObject({ name: 'bar', title: '省份 · 金额', dataconfig: { cubeId } });
    expect(bar!.dataconfig!.rowParamList).toHaveLength(1);
    expect(bar!.dataconfig!.indexParamList).toHaveLength(1);
    expect(bar!.site.x).toBeGreaterThan(0);
    expect(bar!.site.w).toBeGreaterThan(8);
    expect(bar!.site.h).toBeGreaterThan(6);
    expect(saved.content.layout).toEqual([{ i: bar!.key, x: bar!.site.x, y: bar!.site.y, w: bar!.site.w, h: bar!.site.h }]);

    await page.goto(`${app.url}/newbi/report`);
    await page.locator('[data-testid="board-card"]', { hasText: '门店销售日报' }).waitFor();

    await page.goto(`${app.url}/newbi/report/quickEdit?id=${id}`);
    await page.getByTestId('board-editor').waitFor();
    expect(await page.getByTestId('board-title').inputValue()).toBe('门店销售日报');
    const reopened = editorCharts(page).first();
    expect(await reopened.getAttribute('data-title')).toBe('省份 · 金额');
    await reopened.locator('canvas').first().waitFor();
    await page.locator('[data-testid="palette-item"][data-type="text"]').click();
    await expect.poll(() => editorCharts(page).count()).toBe(2);
    await editorCharts(page)
      .first()
      .click({ position: { x: 60, y: 18 } });
    await page.getByTestId('chart-config-panel').waitFor();
    await screenshot(page, 'board-editor-quick');
  });

  it('screen dashboard: drag a chart in from the panel, move it on the free canvas with snapping, save with its place', async () => {
    await page.goto(`${app.url}/newbi/visual/bigdataEdit?ds=${cubeId}&cg=${visualCategory}`);
    await page.getByTestId('board-editor').waitFor();
    const board = page.getByTestId('screen-board');
    await board.waitFor();
    const scale = Number(await board.getAttribute('data-scale'));
    expect(scale).toBeGreaterThan(0.2);

    // Drag 折线图 from the component panel onto the board at (300, 200) screen px inside it.
    await page.locator('[data-testid="palette-item"][data-type="line"]').dragTo(board, { targetPosition: { x: 300, y: 200 } });
    const line = editorCharts(page).first();
    await line.waitFor();
    await pickFields(page, '渠道', '金额');
    await line.locator('canvas').first().waitFor();
    // A text chart by click; both are in the layer list, front first.
    await page.locator('[data-testid="palette-item"][data-type="text"]').click();
    await expect.poll(() => editorCharts(page).count()).toBe(2);
    await page.getByRole('tab', { name: /图层/ }).click();
    await expect.poll(() => page.locator('[data-testid="layer-item"]').allInnerTexts()).toEqual(['文本', '渠道 · 金额']);

    const lineKey = (await line.getAttribute('data-chart-key'))!;
    const before = await box(line);
    await drag(page, { x: before.x + before.width / 2, y: before.y + before.height / 2 }, 150, 90);
    await expect.poll(async () => Math.round((await box(line)).x)).toBeGreaterThan(Math.round(before.x + 100));
    // Undo and redo the move.
    await undo(page);
    await expect.poll(async () => Math.round((await box(line)).x)).toBe(Math.round(before.x));
    await redo(page);
    await expect.poll(async () => Math.round((await box(line)).x)).toBeGreaterThan(Math.round(before.x + 100));
    await line.click({ position: { x: 40, y: 40 } });
    await screenshot(page, 'board-editor-screen');

    await page.getByTestId('board-title').fill('渠道经营大屏');
    const id = await save(page);
    await page.waitForURL(new RegExp(`bigdataEdit\\?.*id=${id}`));
    const saved = await getBoard(id);
    const savedLine = saved.charts.find((c) => c.key === lineKey)!;
    const dropped = { x: Math.round(300 / scale / 10) * 10, y: Math.round(200 / scale / 10) * 10 };
    // Moved by about 150 / scale and 90 / scale design px from where it was dropped, on the 10 px grid or an edge.
    expect(savedLine.site.x - dropped.x).toBeGreaterThan(100 / scale);
    expect(savedLine.site.y - dropped.y).toBeGreaterThan(50 / scale);
    expect(savedLine.site).toMatchObject({ w: 480, h: 300 });
    expect(saved.content.layout.find((l) => l.i === lineKey)).toMatchObject({ x: savedLine.site.x, y: savedLine.site.y, w: 480, h: 300 });

    await page.goto(`${app.url}/newbi/visual`);
    await page.locator('[data-testid="board-card"]', { hasText: '渠道经营大屏' }).waitFor();
  });

  it('a report built in the editor with a filter, a linked bar, a pie and a pivot previews the dataset numbers and filters the bar', async () => {
    const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`);
    const ids = Object.fromEntries(fields.map((f) => [f.columnTitle, f.id]));
    await page.goto(`${app.url}/newbi/report/quickEdit?ds=${cubeId}&cg=${reportCategory}`);
    await page.getByTestId('board-editor').waitFor();
    const panel = page.getByTestId('chart-config-panel');
    /** Adds a chart from the palette (it becomes the selected one) and fills its field lists. */
    async function addChart(type: string, picks: [title: string, slot: 'rows' | 'columns' | 'measures'][]): Promise<string> {
      const before = await editorCharts(page).count();
      await page.locator(`[data-testid="palette-item"][data-type="${type}"]`).click();
      await expect.poll(() => editorCharts(page).count()).toBe(before + 1);
      const key = (await editorCharts(page).nth(before).getAttribute('data-chart-key'))!;
      await expect.poll(() => panel.getAttribute('data-chart')).toBe(key);
      for (const [title, slot] of picks) await panel.locator(`[data-testid="ccp-field"][data-title="${title}"] [data-testid="ccp-add-${slot}"]`).click();
      return key;
    }
    const filterKey = await addChart('filterSelect', [['省份', 'rows']]);
    const barKey = await addChart('bar', [
      ['渠道', 'rows'],
      ['金额', 'measures'],
    ]);
    // The bar receives the filter's province (the field with the driver's title is preselected).
    await panel.getByRole('tab', { name: '联动' }).click();
    await panel.locator('[data-testid="ccp-link-driver"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '下拉筛选' }).click();
    await panel.getByTestId('ccp-link-add-button').click();
    await panel.locator(`[data-testid="ccp-link"][data-from="${filterKey}"]`).waitFor();
    await panel.getByRole('tab', { name: '数据' }).click();
    const pieKey = await addChart('pie', [
      ['渠道', 'rows'],
      ['金额', 'measures'],
    ]);
    const pivotKey = await addChart('pivot', [
      ['省份', 'rows'],
      ['渠道', 'columns'],
      ['金额', 'measures'],
    ]);
    await page.getByTestId('board-title').fill('渠道省份分析');
    const id = await save(page);

    const saved = await getBoard(id);
    expect(saved.charts.map((c) => c.name).sort()).toEqual(['bar', 'filterSelect', 'pie', 'pivot']);
    const savedBar = saved.charts.find((c) => c.key === barKey) as unknown as {
      ext: { filterList: { linkFrom: string; linkKey: number; linkFlag: boolean }[] };
    };
    expect(savedBar.ext.filterList).toEqual([expect.objectContaining({ linkFrom: filterKey, linkKey: ids['省份'], linkFlag: true })]);

    /** channel → sum of amount from the dataset preview, optionally for one province. */
    async function expectedByChannel(province?: string): Promise<Map<string, number>> {
      const preview = await apiCall<{ dataList: Record<string, unknown>[] }>(app, token, 'POST', '/api/dataset/preview', {
        cubeDataId: cubeId,
        request: {
          dimensions: [{ fieldId: ids['渠道'] }],
          measures: [{ fieldId: ids['金额'], aggregation: 'SUM' }],
          ...(province
            ? { where: { relation: 'AND', conditions: [{ cubeColumnId: ids['省份'], conditions: [{ function: 'in', values: [province] }] }] } }
            : {}),
        },
      });
      return new Map(preview.dataList.map((r) => [String(r.d0), Number(r.m0)]));
    }
    const chartAnswer = (key: string, withLinks: boolean) => (r: { url(): string; request(): { method(): string; postDataJSON(): unknown } }) => {
      if (new URL(r.url()).pathname !== '/api/board/chart-data' || r.request().method() !== 'POST') return false;
      const body = r.request().postDataJSON() as { chartKey?: string; links?: unknown[] };
      return body.chartKey === key && (body.links?.length ?? 0) > 0 === withLinks;
    };
    const byChannel = (data: { dataList: Record<string, unknown>[] }) => new Map(data.dataList.map((r) => [String(r.d0), Number(r.m0)]));

    const preview = await newPage(browser);
    await loginThroughPage(preview, app);
    // The first answers come in the board's batch; linked ones per chart.
    const barFirst = firstAnswer<{ dataList: Record<string, unknown>[] }>(preview, barKey, false);
    await preview.goto(`${app.url}/newbi/preview/${id}`);
    const first = await barFirst;
    await preview.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    expect(byChannel(first.data)).toEqual(await expectedByChannel());
    const chartIn = (key: string) => preview.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);
    await chartIn(pieKey).locator('canvas').first().waitFor();
    await chartIn(pivotKey).locator('table').first().waitFor();

    const province = '浙江';
    const filtered = preview.waitForResponse(chartAnswer(barKey, true));
    await chartIn(filterKey).locator('.ant-select').click();
    await preview.keyboard.type(province);
    await preview.locator('.ant-select-dropdown:visible').getByTitle(province, { exact: true }).click();
    const answer = (await (await filtered).json()) as { data: { dataList: Record<string, unknown>[] } };
    expect(byChannel(answer.data)).toEqual(await expectedByChannel(province));
    // The pie, on the same dataset, is filtered too: the filter applies board-wide without a link.
    await expect.poll(() => chartIn(pieKey).getAttribute('data-link-count')).toBe('1');
    await preview.keyboard.press('Escape');
    await screenshot(preview, 'board-editor-built-preview');
    await preview.context().close();
  });
});
