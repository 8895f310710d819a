import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * 订购数据导出 (issue 20, docs/order-export.md): a batch txt of 1,000 phones filtered by a
 * channel reaches status 9, its rows show in the result table and its CSV holds exactly the
 * warehouse's rows; a slow task (each step held on purpose) stops polling after 10 and asks for
 * a name in 数据计算提醒, its download is refused before 9; a server killed (SIGKILL) while
 * extracting, with rows already written, resumes the task after its last written block when it
 * starts again, and the file holds exactly the warehouse's rows, in order, once each.
 */

interface Task {
  taskId: number;
  taskStatus1: number;
  progress: number;
  fetchedNums: number | null;
  history: { status: number; rows: number }[];
  errorMsg: string | null;
  mcomment: string | null;
}

describe('订购数据导出', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let warehouseId: number;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
    warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `orderexport-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const sql = async (target: E2EApp, auth: string, text: string) =>
    (await apiCall<{ rows: Record<string, unknown>[] }>(target, auth, 'POST', '/api/sqlview/preview', { datasourceId: warehouseId, sql: text })).rows;
  const choose = async (label: string, option: string) => {
    await page.getByLabel(label).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${option}$`) })
      .click();
  };

  it('exports the orders of a batch of 1,000 phones through one channel to status 9 and a CSV of exactly those rows', async () => {
    const PHONES = 'SELECT DISTINCT userid FROM v_order_data ORDER BY userid LIMIT 1000';
    const [list] = await sql(app, token, `SELECT string_agg(userid, ',' ORDER BY userid) AS phones FROM (${PHONES})`);
    const phones = String(list!.phones).split(',');
    expect(phones).toHaveLength(1000);
    const txt = `${app.dataDir}/phones.txt`;
    fs.writeFileSync(txt, phones.join('\n'));

    await page.goto(`${app.url}/`);
    await page.locator('.app-menu [role="menuitem"]').filter({ hasText: '订购数据导出' }).waitFor();
    expect(await menuLabels(page)).toContain('订购数据导出');
    await page.locator('.app-menu [role="menuitem"]').filter({ hasText: '订购数据导出' }).click();
    await page.getByRole('heading', { name: '订购数据导出' }).waitFor();
    await choose('用户范围', '批量导入');
    await page.locator('input[type="file"]').setInputFiles(txt);
    await page.getByText('phones.txt').waitFor();
    await page.locator('#channels').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: /^营业厅$/ })
      .click();
    await page.keyboard.press('Escape');
    await page.locator('#mcomment').fill('营业厅千号订购');
    await screenshot(page, 'orderexport-form');
    await page.getByRole('button', { name: /查\s*询/ }).click();

    const result = page.locator('.ant-card').filter({ hasText: '查询结果' });
    await result.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
    const [expected] = await sql(
      app,
      token,
      `SELECT count(*) AS n, string_agg(userid || ',' || spid || ',' || shortname || ',' || strftime(ordertime, '%Y-%m-%d %H:%M:%S') || ',' || orderchannelname, '|' ORDER BY 1) AS body
       FROM (SELECT * FROM v_order_data WHERE orderchannelname = '营业厅' AND userid IN (${PHONES}))`,
    );
    const n = Number(expected!.n);
    expect(n).toBeGreaterThan(0);
    await result
      .getByText(`${n.toLocaleString('zh-CN')} 条`)
      .first()
      .waitFor();
    expect(await result.locator('.ant-table-row').count()).toBe(Math.min(10, n));
    const history = page.locator('.ant-card').filter({ hasText: '任务列表' });
    const row = history.locator('.ant-table-row').filter({ hasText: '营业厅千号订购' });
    await row.getByText('文件生成完成').waitFor();
    await screenshot(page, 'orderexport-result');

    const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /下\s*载/ }).click()]);
    expect(file.suggestedFilename()).toBe('营业厅千号订购.csv');
    const text = fs.readFileSync((await file.path())!, 'utf8');
    expect(text.startsWith('\ufeff')).toBe(true);
    const [header, ...lines] = text.slice(1).trimEnd().split('\r\n');
    expect(header).toBe('手机号,产品编码,产品名称,订购时间,订购渠道');
    expect(lines).toHaveLength(n);
    expect(lines.sort()).toEqual(String(expected!.body).split('|').sort());
  });

  it('stops polling a slow task after 10 polls, asks for its name, refuses its early download, and resumes it when the server is killed while extracting', async () => {
    // Each step held 4 s: 0 → 9 takes 12 s, more than the page's 10 polls; each written slice of 10,000 order ids held 4 s too.
    const slow = await startApp({ SHUTU_ORDER_EXPORT_STEP_DELAY_MS: '4000', SHUTU_ORDER_EXPORT_BLOCK_DELAY_MS: '4000', SHUTU_ORDER_EXPORT_SLICE_IDS: '10000' });
    const slowPage = await newPage(browser);
    try {
      const auth = await apiLogin(slow);
      const [one] = await sql(slow, auth, 'SELECT min(userid) AS phone FROM v_order_data');
      await loginThroughPage(slowPage, slow);
      await slowPage.goto(`${slow.url}/cdp/orderexport`);
      await slowPage.getByLabel('手机号码').fill(String(one!.phone));
      await slowPage.getByRole('button', { name: /查\s*询/ }).click();
      const modal = slowPage.locator('.ant-modal').filter({ hasText: '数据计算提醒' });
      await modal.waitFor({ timeout: 30_000 });
      await modal.getByRole('button', { name: /确\s*定/ }).click();
      await modal.getByText('请输入任务名称', { exact: true }).waitFor();
      await modal.getByLabel('任务名称').fill('稍后查看的号码');
      await screenshot(slowPage, 'orderexport-reminder');
      await modal.getByRole('button', { name: /确\s*定/ }).click();
      await slowPage.getByText('保存成功').waitFor();
      const tasks = await apiCall<{ records: Task[] }>(slow, auth, 'GET', '/api/orderexport/page?current=1&size=10');
      const named = tasks.records.find((t) => t.mcomment === '稍后查看的号码')!;
      expect(named).toBeDefined();

      // Before 9 the list's download is disabled and a direct call is refused.
      // Every user's orders (two slices of the e2e warehouse's 20,000 orders): phone and product.
      const early = await apiCall<Task>(slow, auth, 'POST', '/api/orderexport/add', { utype: 3, CUsertype: 1, outputSpid: 1 });
      const refused = await fetch(`${slow.url}/api/orderexport/download?taskId=${early}`, { headers: { Authorization: `Bearer ${auth}` } });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { msg: string }).msg).toBe('文件还未生成');
      await slowPage.reload();
      const earlyRow = slowPage.locator('.ant-table-row').filter({ hasText: `fetch_order_${early}` });
      expect(await earlyRow.getByRole('button', { name: /下\s*载/ }).isDisabled()).toBe(true);
      await screenshot(slowPage, 'orderexport-history');

      // Killed while extracting (status 4) after its first slice was written: after the restart it goes on from there.
      const killedAt = await eventually(
        async () => {
          const t = await apiCall<Task>(slow, auth, 'GET', `/api/orderexport/details?taskId=${early}`);
          return t.taskStatus1 === 4 && t.progress > 0 ? t.progress : undefined;
        },
        'status 4 with a slice written',
        60_000,
      );
      await slow.kill();
      const again = await startApp({ SHUTU_ORDER_EXPORT_SLICE_IDS: '10000' }, { dataDir: slow.dataDir });
      try {
        const auth2 = await apiLogin(again);
        const after = await eventually(
          async () => {
            const t = await apiCall<Task>(again, auth2, 'GET', `/api/orderexport/details?taskId=${early}`);
            return [3, 6, 8, 9].includes(t.taskStatus1) ? t : undefined;
          },
          'the interrupted task',
          60_000,
        );
        const [expected] = await sql(
          again,
          auth2,
          `SELECT count(*) AS n, string_agg(v.userid || ',' || v.spid, '|' ORDER BY v.userid, v.spid) AS body FROM v_order_data v JOIN products p ON p.spid = v.spid`,
        );
        expect(after.taskStatus1).toBe(9);
        expect(after.fetchedNums).toBe(Number(expected!.n));
        // Resumed at the checkpoint of its first slice, not from the start.
        const resumed = after.history.filter((h) => h.status === 4).at(-1)!;
        expect(resumed.rows).toBe(killedAt);
        expect(killedAt).toBeLessThan(Number(expected!.n));
        const file = await fetch(`${again.url}/api/orderexport/download?taskId=${early}`, { headers: { Authorization: `Bearer ${auth2}` } });
        const [header, ...lines] = (await file.text())
          .replace(/^\ufeff/, '')
          .trimEnd()
          .split('\r\n');
        expect(header).toBe('手机号,产品编码');
        // Every row exactly once (a slice's rows come in the engine's order).
        expect(lines.sort()).toEqual(String(expected!.body).split('|').sort());
      } finally {
        await again.stop();
      }
    } finally {
      await slowPage.context().close();
      await slow.stop();
    }
  }, 300_000);
  it('shows the statistics of the three kinds of marketing task with their tables', async () => {
    await page.goto(`${app.url}/cdp/market`);
    await page.getByRole('heading', { name: '营销任务统计' }).waitFor();
    const openFirst = async (type: string) => {
      await page.locator('.ant-select').filter({ hasText: '全部类型' }).click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: new RegExp(`^${type}$`) })
        .click();
      await page.getByRole('button', { name: /搜\s*索/ }).click();
      const row = page.locator('.market-list .ant-table-row').filter({ hasText: type }).last();
      await row.waitFor();
      await row.getByRole('button', { name: '统计' }).click();
      return page.locator('.ant-drawer');
    };
    for (const [type, table, rate] of [
      ['激活', 'market-daily', '激活率'],
      ['领取', 'market-daily', '领取率'],
    ] as const) {
      const drawer = await openFirst(type);
      const daily = drawer.locator(`[data-testid="${table}"]`);
      await daily.locator('tr.ant-table-row').first().waitFor();
      expect(await daily.locator('th').allInnerTexts()).toContain(rate);
      expect(await daily.locator('tr.ant-table-row').first().innerText()).toMatch(/\d+\.\d{2}%/);
      await screenshot(page, `orderexport-market-${type}`);
      await drawer.locator('.ant-drawer-close').click();
      await page.locator('.ant-drawer').waitFor({ state: 'detached' });
      await page.reload();
    }
    const drawer = await openFirst('营销漏斗');
    const funnel = drawer.getByTestId('market-funnel');
    await funnel.locator('.ant-table-row').first().waitFor();
    await funnel.getByText('合计').waitFor();
    await drawer.getByText('总量').click();
    await drawer.getByText('折线图').click();
    const keep = drawer.getByTestId('market-keep');
    await keep.getByText('第24月留存').first().waitFor();
    await keep.locator('.ant-table-row').first().waitFor();
    await screenshot(page, 'orderexport-market-funnel');
  });
});
