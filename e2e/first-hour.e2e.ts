import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

type Row = Record<string, string | number | null>;
interface ChartData {
  dataList: Row[];
  fieldDict?: { alias: string }[];
  total?: number | null;
}

/**
 * A new administrator's first hour (issue 16, "Done when", first bullet), all through the UI: log
 * in and land on 首页; upload a CSV of orders (省份, a date, a date-time, 金额) from 首页 and end
 * in the dataset editor on the new table, whose preview reads 2026-01-05 and 2026-01-05 09:30:00;
 * save it as a dataset (公开 by default); start a quick board from 首页 with a 下拉筛选 on 省份
 * and three charts (bar by 省份, an indicator card, a detail table) and no 联动 set up; in its
 * preview choose a province and every chart shows that province's numbers, computed here from
 * the CSV, with readable dates in the table; share it (a fresh browser opens the link and sees
 * the board) and subscribe to it daily (我的订阅 shows 下次发送 …（北京时间）). Screenshots:
 * e2e/artifacts/first-hour-NN-*.png.
 */

/** The uploaded file: 20 orders over four provinces, Chinese headers, a date and a date-time column. */
const ORDERS: [province: string, day: string, at: string, amount: number][] = [
  ['浙江', '2026-01-05', '2026-01-05 09:30:00', 1280.5],
  ['江苏', '2026-01-06', '2026-01-06 14:05:00', 960],
  ['广东', '2026-01-07', '2026-01-07 10:15:30', 2150],
  ['四川', '2026-01-08', '2026-01-08 16:40:00', 730.25],
  ['浙江', '2026-01-12', '2026-01-12 08:00:00', 540],
  ['江苏', '2026-01-13', '2026-01-13 11:20:00', 1875.5],
  ['广东', '2026-01-14', '2026-01-14 19:45:10', 660],
  ['四川', '2026-01-19', '2026-01-19 13:00:00', 1420],
  ['浙江', '2026-01-20', '2026-01-20 15:30:00', 2210],
  ['江苏', '2026-01-21', '2026-01-21 09:10:00', 415.75],
  ['广东', '2026-01-26', '2026-01-26 17:25:00', 990],
  ['四川', '2026-01-27', '2026-01-27 10:05:00', 305],
  ['浙江', '2026-02-02', '2026-02-02 12:12:12', 1660],
  ['江苏', '2026-02-03', '2026-02-03 18:30:00', 720],
  ['广东', '2026-02-04', '2026-02-04 07:55:00', 1330.5],
  ['四川', '2026-02-09', '2026-02-09 21:00:00', 880],
  ['浙江', '2026-02-10', '2026-02-10 09:45:00', 470],
  ['江苏', '2026-02-11', '2026-02-11 16:00:00', 1545],
  ['广东', '2026-02-16', '2026-02-16 11:11:00', 2045.25],
  ['四川', '2026-02-17', '2026-02-17 14:30:00', 615],
];
const CSV = ['省份,下单日期,下单时间,金额', ...ORDERS.map((r) => r.join(','))].join('\n') + '\n';
const CHOSEN = '江苏';
const chosenRows = ORDERS.filter((r) => r[0] === CHOSEN);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const chosenTotal = sum(chosenRows.map((r) => r[3]));
const grandTotal = sum(ORDERS.map((r) => r[3]));
/** The app's default number format: grouped, at most two decimals. */
const shown = (n: number) => new Intl.NumberFormat('zh-CN', { useGrouping: true, maximumFractionDigits: 2 }).format(n);
/** An ISO timestamp as the engine sends it, which a reader must never see. */
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('the first hour of a new administrator', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let editor: Page | undefined;
  let preview: Page | undefined;
  let token: string;
  let cubeId: number;
  let boardId: number;
  const keys = { filter: '', bar: '', card: '', detail: '' };

  beforeAll(async () => {
    app = await startApp();
    // Only to check results: the walk itself is the browser's.
    token = await apiLogin(app);
    browser = await launchBrowser();
    page = await newPage(browser);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    const name = ctx.task.name.slice(0, 24);
    for (const [tag, p] of [
      ['main', page],
      ['editor', editor],
      ['preview', preview],
    ] as const)
      if (p && !p.isClosed()) await screenshot(p, `first-hour-failed-${tag}-${name}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const isPost = (path: string) => (r: Response) => new URL(r.url()).pathname === path && r.request().method() === 'POST';
  const toast = (p: Page, text: string | RegExp) => p.locator('.ant-message').getByText(text).first();
  /** Opens a page from the side menu, as a user would. */
  async function openFromMenu(label: string, pathname: string): Promise<void> {
    await page.locator('.app-menu [role="menuitem"]').filter({ hasText: label }).first().click();
    await page.waitForURL((u) => u.pathname === pathname);
  }
  /** Waits until `what` looks the same twice running (an ECharts transition or a tab's ink bar has ended), for a screenshot worth looking at. */
  async function settled(what: Locator): Promise<void> {
    let last: Buffer | undefined;
    await eventually(
      async () => {
        const now = await what.screenshot({ animations: 'allow' });
        const same = last !== undefined && now.equals(last);
        last = now;
        return same ? true : undefined;
      },
      'the picture to settle',
      30_000,
    );
  }

  it('logs in and lands on 首页', async () => {
    await loginThroughPage(page, app);
    await page.waitForURL((u) => u.pathname === '/home');
    expect((await menuLabels(page))[0]).toBe('首页');
    await page.getByRole('heading', { name: '您好，系统管理员' }).waitFor();
    await page.getByTestId('home-guide').getByText('从示例开始').waitFor();
    await screenshot(page, 'first-hour-01-home');
  });

  it('uploads a CSV from 首页 and lands in the dataset editor on it, dates readable in the preview', async () => {
    await page.getByTestId('dataset-upload-file').click();
    const drawer = page.getByTestId('file-upload-drawer');
    // Several usable sources: the chooser comes first, the built-in warehouse preselected.
    const chooser = page.locator('.ant-modal').filter({ hasText: '上传到数据源' });
    await Promise.race([drawer.waitFor(), chooser.waitFor()]);
    if (await chooser.isVisible()) await chooser.getByRole('button', { name: /下\s*一\s*步/ }).click();
    await drawer.waitFor();
    await drawer.locator('input[type=file]').setInputFiles({ name: '首小时订单.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') });
    await drawer.getByText('2026-01-05 09:30:00').first().waitFor();
    expect(await page.getByTestId('file-table-comment').inputValue()).toBe('首小时订单');
    await page.getByTestId('file-table-name').fill('first_hour_orders');
    await screenshot(page, 'first-hour-02-upload');
    const [created] = await Promise.all([page.waitForResponse(isPost('/api/filetable/tables')), page.getByTestId('file-upload-ok').click()]);
    expect(created.status()).toBe(200);

    await page.waitForURL((u) => u.pathname === '/newbi/dataset/edit');
    expect(new URL(page.url()).searchParams.get('tableName')).toBe('first_hour_orders');
    await page.getByTestId('dataset-editor').waitFor();
    await page.locator('[data-testid^="ds-node-"]').first().waitFor();
    for (const title of ['省份', '下单日期', '下单时间', '金额']) await page.getByTestId(`ds-field-${title}`).first().waitFor();
    const table = page.getByTestId('ds-preview');
    await table.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    // The first order's row: its date date-only, its date-time with seconds, no ISO 'T'.
    const firstRow = table.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '2026-01-05 09:30:00' });
    await firstRow.waitFor();
    const cells = (await firstRow.locator('td').allInnerTexts()).map((s) => s.trim());
    expect(cells).toContain('2026-01-05');
    expect(cells).toContain('2026-01-05 09:30:00');
    expect(cells).toContain('浙江');
    expect(await table.innerText()).not.toMatch(ISO);
    await screenshot(page, 'first-hour-03-dataset-editor');
  });

  it('saves the dataset: a name, a category, 公开 by default', async () => {
    const form = page.getByTestId('ds-form');
    await form.getByPlaceholder('请输入数据集名称').fill('首小时订单');
    await form.locator('.ant-cascader').click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item').filter({ hasText: '示例' }).first().click();
    await expect.poll(() => form.locator('.ant-cascader').innerText()).toContain('示例');
    await page.getByTestId('ds-save').click();
    const dialog = page.getByTestId('ds-save-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: '公开' }).isChecked()).toBe(true);
    expect(await dialog.getByTestId('ds-perm-ok').isEnabled()).toBe(true);
    await screenshot(page, 'first-hour-04-dataset-save');
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/dataset/cubes')), dialog.getByTestId('ds-perm-ok').click()]);
    expect(saved.status()).toBe(200);
    await page.waitForURL(/\/newbi\/dataset\/edit\?id=\d+$/);
    cubeId = Number(new URL(page.url()).searchParams.get('id'));
    await toast(page, '保存成功').waitFor();
    const detail = await apiCall<{ cubeName: string; publicStatus: number }>(app, token, 'GET', `/api/dataset/cubes/${cubeId}`);
    expect(detail).toMatchObject({ cubeName: '首小时订单', publicStatus: 1 });
    await page.getByTestId('ds-preview').getByText('2026-01-05 09:30:00').waitFor();
    await screenshot(page, 'first-hour-05-dataset-saved');
  });

  it('builds a quick board from 首页: a 下拉筛选 on 省份 and three charts, no 联动', async () => {
    // The editor is full-screen: 返回 leads to the dataset list, whose menu leads home.
    await page.getByTestId('ds-back').click();
    await page.waitForURL((u) => u.pathname === '/newbi/dataset');
    await page.getByRole('table').getByText('首小时订单').first().waitFor();
    await openFromMenu('首页', '/home');
    await page.getByTestId('home-new-board').click();
    [editor] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('menuitem', { name: /快速模式/ }).click()]);
    const ed = editor;
    await ed.getByTestId('board-editor').waitFor();
    expect(await ed.getByTestId('board-editor').getAttribute('data-mode')).toBe('quick');

    const charts = () => ed.locator('[data-testid="editor-chart"]');
    const panel = () => ed.getByTestId('chart-config-panel');
    const addChart = async (type: string, picks: [title: string, slot: 'rows' | 'measures'][], pickDataset = false) => {
      const before = await charts().count();
      await ed.locator(`[data-testid="palette-item"][data-type="${type}"]`).click();
      await expect.poll(() => charts().count()).toBe(before + 1);
      const key = (await charts().nth(before).getAttribute('data-chart-key'))!;
      await expect.poll(() => panel().getAttribute('data-chart')).toBe(key);
      if (pickDataset) {
        // The board's first chart: choose the dataset (the next charts start from it).
        await panel().getByTestId('ccp-dataset-select').click();
        await ed.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '首小时订单' }).first().click();
      }
      for (const [title, slot] of picks) {
        const add = panel().locator(`[data-testid="ccp-field"][data-title="${title}"] [data-testid="ccp-add-${slot}"]`);
        await add.click();
      }
      return key;
    };
    keys.filter = await addChart('filterSelect', [['省份', 'rows']], true);
    keys.bar = await addChart('bar', [
      ['省份', 'rows'],
      ['金额', 'measures'],
    ]);
    keys.card = await addChart('card', [['金额', 'measures']]);
    keys.detail = await addChart('detail', [
      ['省份', 'rows'],
      ['下单日期', 'rows'],
      ['下单时间', 'rows'],
      ['金额', 'rows'],
    ]);
    const titleOf = (key: string) => ed.locator(`[data-testid="editor-chart"][data-chart-key="${key}"]`).getAttribute('data-title');
    expect(await titleOf(keys.bar)).toBe('省份 · 金额');
    expect(await titleOf(keys.filter)).toBe('省份');
    // The editor draws the charts live: the card shows the grand total of the CSV.
    await ed.locator(`[data-testid="editor-chart"][data-chart-key="${keys.card}"]`).getByText(shown(grandTotal)).waitFor();
    await ed.getByTestId('board-title').fill('首小时看板');
    await screenshot(ed, 'first-hour-06-board-editor');

    // Opened without a category: the first save asks for it.
    await ed.getByTestId('save-board').click();
    const dialog = ed.locator('.ant-modal').filter({ hasText: '保存报表' });
    await dialog.getByTestId('save-category').click();
    await ed.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '示例' }).first().click();
    await screenshot(ed, 'first-hour-07-board-save');
    const [response] = await Promise.all([
      ed.waitForResponse((r) => new URL(r.url()).pathname === '/api/board/boards' && r.request().method() === 'POST'),
      dialog.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    const envelope = (await response.json()) as { success: boolean; msg: string; data: number };
    expect(envelope.success, envelope.msg).toBe(true);
    boardId = envelope.data;
    await ed.getByText('保存成功').first().waitFor();
    const saved = await apiCall<{ charts: { key: string; ext: { filterList?: unknown[] } }[] }>(app, token, 'GET', `/api/board/boards/${boardId}`);
    expect(saved.charts.map((c) => c.key).sort()).toEqual(Object.values(keys).sort());
    // Nothing wired chart by chart.
    expect(saved.charts.every((c) => (c.ext.filterList ?? []).length === 0)).toBe(true);
  });

  it("previews: choosing a province in the dropdown filters all three charts to the CSV's numbers, dates readable", async () => {
    const ed = editor!;
    [preview] = await Promise.all([ed.context().waitForEvent('page'), ed.getByTestId('preview-board').click()]);
    const pv = preview;
    await pv.waitForURL((u) => u.pathname === `/newbi/preview/${boardId}`);
    await pv.locator('html[data-board-state="ready"]').waitFor({ timeout: 60_000 });
    const chartIn = (key: string) => pv.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);
    await expect.poll(() => chartIn(keys.bar).getAttribute('data-row-count')).toBe('4');
    await chartIn(keys.card).getByText(shown(grandTotal)).waitFor();
    await settled(chartIn(keys.bar));
    await screenshot(pv, 'first-hour-08-preview');

    const answerOf = (key: string) =>
      pv
        .waitForResponse((r) => {
          if (!isPost('/api/board/chart-data')(r)) return false;
          const body = r.request().postDataJSON() as { chartKey?: string; links?: unknown[] };
          return body.chartKey === key && (body.links?.length ?? 0) > 0;
        })
        .then(async (r) => ((await r.json()) as { data: ChartData }).data);
    const answers = { bar: answerOf(keys.bar), card: answerOf(keys.card), detail: answerOf(keys.detail) };
    await chartIn(keys.filter).locator('.ant-select').click();
    await pv.keyboard.type(CHOSEN);
    await pv.locator('.ant-select-dropdown:visible').getByTitle(CHOSEN, { exact: true }).click();
    await pv.keyboard.press('Escape');

    // What the server answered: that province only, its sums as the CSV adds them up.
    const bar = await answers.bar;
    expect(bar.dataList.map((r) => [String(r.d0), Number(r.m0)])).toEqual([[CHOSEN, chosenTotal]]);
    const card = await answers.card;
    expect(Number(card.dataList[0]!.m0)).toBeCloseTo(chosenTotal, 2);
    const detail = await answers.detail;
    expect(detail.dataList).toHaveLength(chosenRows.length);
    const amountAlias = detail.fieldDict![3]!.alias;
    expect(sum(detail.dataList.map((r) => Number(r[amountAlias])))).toBeCloseTo(chosenTotal, 2);

    // What the page shows.
    for (const key of [keys.bar, keys.card, keys.detail]) await expect.poll(() => chartIn(key).getAttribute('data-link-count')).toBe('1');
    await expect.poll(() => chartIn(keys.bar).getAttribute('data-row-count')).toBe('1');
    await chartIn(keys.card).getByText(shown(chosenTotal)).waitFor();
    const rows = chartIn(keys.detail).locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(chosenRows.length);
    const shownRows = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    expect(shownRows.map((r) => r.slice(0, 3)).sort()).toEqual(chosenRows.map(([p, d, t]) => [p, d, t]).sort());
    expect(shownRows.map((r) => r[3])).toEqual(expect.arrayContaining(chosenRows.map((r) => shown(r[3]))));
    expect(await chartIn(keys.detail).innerText()).not.toMatch(ISO);
    await settled(chartIn(keys.bar));
    await screenshot(pv, 'first-hour-09-preview-filtered');
  });

  it('shares the board: a fresh browser without a session opens the link and sees it', async () => {
    const pv = preview!;
    await pv.getByTestId('board-share').click();
    const dialog = pv.locator('.ant-modal').filter({ hasText: '分享「首小时看板」' });
    await dialog.waitFor();
    await dialog.getByTestId('share-create').click();
    await dialog.getByTestId('share-created').waitFor();
    const link = await dialog.getByTestId('share-link').inputValue();
    expect(link).toMatch(new RegExp(`^${app.url}/share/[A-Za-z0-9_-]{10}$`));
    await screenshot(pv, 'first-hour-10-share-dialog');
    await pv.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    const visitor = await newPage(browser);
    try {
      await visitor.goto(link);
      await visitor.locator('html[data-board-state="ready"]').waitFor({ state: 'attached', timeout: 60_000 });
      await expect(visitor.getByTestId('board-title').textContent()).resolves.toBe('首小时看板');
      const chartIn = (key: string) => visitor.locator(`[data-testid="board-chart"][data-chart-key="${key}"]`);
      await expect.poll(() => chartIn(keys.bar).getAttribute('data-row-count')).toBe('4');
      await chartIn(keys.card).getByText(shown(grandTotal)).waitFor();
      await chartIn(keys.detail).getByText('2026-01-05 09:30:00').first().waitFor();
      expect(await chartIn(keys.detail).innerText()).not.toMatch(ISO);
      const stored = await visitor.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('shutu.token'),
      );
      expect(stored).toBeNull();
      await settled(chartIn(keys.bar));
      await screenshot(visitor, 'first-hour-11-share-open');
    } finally {
      await visitor.context().close();
    }
  });

  it('sets up mail (系统设置 and 个人设置) and subscribes daily: 我的订阅 shows 下次发送 in 北京时间', async () => {
    // Email, the default method, needs a mail server and the administrator's address.
    await openFromMenu('系统设置', '/system/settings');
    const notify = page.getByTestId('notify-settings');
    await notify.getByTestId('notify-smtpHost').waitFor();
    await notify.getByTestId('notify-smtpHost').fill('smtp.example.com');
    await notify.getByTestId('notify-smtpPort').fill('25');
    await notify.getByTestId('notify-smtpFrom').fill('bi@example.com');
    const [savedNotify] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/system/notify' && r.request().method() === 'PUT'),
      notify.getByTestId('notify-save').click(),
    ]);
    expect(savedNotify.status()).toBe(200);
    await openFromMenu('个人设置', '/info/index');
    await page.getByPlaceholder('请输入邮箱').fill('admin@example.com');
    const [savedProfile] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/profile' && r.request().method() === 'PUT'),
      page.getByRole('button', { name: /保存信息/ }).click(),
    ]);
    expect(savedProfile.status()).toBe(200);

    const pv = preview!;
    await pv.getByTestId('board-subscribe').click();
    const dialog = pv.locator('.ant-modal').filter({ has: pv.getByTestId('subscription-subtitle') });
    await dialog.waitFor();
    expect(await dialog.getByTestId('subscription-title').inputValue()).toBe('首小时看板');
    await expect.poll(() => dialog.getByTestId('subscription-save').isEnabled()).toBe(true);
    expect(await dialog.getByRole('radio', { name: '日' }).isChecked()).toBe(true);
    expect(await dialog.getByTestId('subscription-hour').textContent()).toContain('08:00');
    expect(await dialog.getByTestId('subscription-zone').textContent()).toBe('北京时间');
    await screenshot(pv, 'first-hour-12-subscribe');
    await dialog.getByTestId('subscription-save').click();
    await pv.getByText('已订阅').first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    await openFromMenu('订阅日志', '/newbi/mine/subscription-log');
    await page.getByRole('tab', { name: '我的订阅' }).click();
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '首小时看板' });
    await row.waitFor();
    expect(await row.textContent()).toContain('每日 8:00');
    const next = await row.locator('[data-testid^="subscription-next-"]').textContent();
    expect(next).toMatch(/^\d{4}-\d{2}-\d{2} 08:00:00（北京时间）$/);
    await settled(page.locator('.ant-tabs-nav').first());
    await screenshot(page, 'first-hour-13-my-subscriptions');
  });
});
