import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** 数据源管理 (issue 3 "Connectors"): the built-in warehouse, tests, tables and a PostgreSQL source. */
describe('data source management', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const list = () => page.getByTestId('ds-list');
  const rowOf = (text: string) => list().locator('tr.ant-table-row').filter({ hasText: text });
  const dialog = () => page.getByRole('dialog');

  it('lists the built-in demo warehouse, which cannot be deleted', async () => {
    await page.locator('.app-menu').getByText('数据源管理').click();
    await page.waitForURL('**/system/datasource');
    const builtin = rowOf('示例数据仓库');
    await builtin.getByText('内置', { exact: true }).waitFor();
    await builtin.getByText('DuckDB', { exact: true }).waitFor();
    await builtin.getByText(/\/warehouse\.duckdb$/).waitFor();
    expect(await builtin.getByRole('button', { name: '删除' }).count()).toBe(0);
    await screenshot(page, 'datasource-list');

    // Editing it changes only name and remark: the engine and the file are the system's.
    await builtin.getByRole('button', { name: '编辑' }).click();
    await dialog().getByText('内置数据仓库由系统管理，只能修改名称和备注').waitFor();
    expect(await dialog().getByLabel('数据库文件').getAttribute('readonly')).not.toBeNull();
    expect(await dialog().getByLabel('数据库文件').inputValue()).toMatch(/\/warehouse\.duckdb$/);
    await screenshot(page, 'datasource-edit-builtin');
    await dialog().getByRole('button', { name: '取消' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('tests the warehouse connection', async () => {
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/api\/datasource\/\d+\/test$/.test(r.url())),
      rowOf('示例数据仓库').getByRole('button', { name: '测试连接' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page
      .locator('.ant-message')
      .getByText(/示例数据仓库：连接成功，服务器版本 v\d+\.\d+/)
      .waitFor();
    await screenshot(page, 'datasource-test-builtin');
  });

  it('opens the warehouse tables with comments and the columns of one', async () => {
    await page.locator('.ant-message-notice').last().waitFor({ state: 'detached' });
    await rowOf('示例数据仓库').getByRole('button', { name: '查看表' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText('数据表 · 示例数据仓库').waitFor();
    const tables = drawer.getByTestId('ds-tables');
    await tables.getByText('产品订购记录').waitFor();
    await tables.locator('tr.ant-table-row').filter({ hasText: 'v_order_data' }).getByText('视图').waitFor();
    await tables.locator('tr.ant-table-row').filter({ hasText: '产品订购记录' }).click();
    const columns = drawer.getByTestId('ds-columns');
    await columns.getByText('订单编号').waitFor();
    await columns.locator('tr.ant-table-row').filter({ hasText: 'order_time' }).getByText('日期时间').waitFor();
    await screenshot(page, 'datasource-tables');

    await drawer.locator('.ds-table-filter input').fill('用户');
    await expect.poll(() => tables.locator('tr.ant-table-row').count()).toBeGreaterThan(0);
    expect(await tables.getByText('产品订购记录').count()).toBe(0);
    await drawer.getByRole('button', { name: 'Close' }).or(drawer.locator('.ant-drawer-close')).first().click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('creates a PostgreSQL source for the local server after a successful test, and tests it from the list', async () => {
    await page.getByRole('button', { name: '新增数据源' }).click();
    await dialog().getByText('新增数据源').waitFor();
    await dialog().getByRole('button', { name: '保存' }).click();
    for (const text of ['请输入数据源名称', '请输入主机地址', '请输入数据库名称', '请输入用户名']) await dialog().getByText(text).waitFor();

    await dialog().getByLabel('数据源名称').fill('本地 PostgreSQL');
    await dialog().getByLabel('主机地址').fill('127.0.0.1');
    await dialog()
      .getByLabel('端口')
      .fill(String(await closedPort()));
    await dialog().getByLabel('数据库', { exact: true }).fill('test');
    await dialog().getByLabel('用户名').fill('postgres');
    await dialog().getByLabel('备注').fill('本机的 PostgreSQL 测试库');
    await dialog().getByTestId('ds-form-test').click();
    const result = dialog().getByTestId('ds-test-result');
    await result.getByText('连接失败').waitFor();
    await result.getByText(/无法连接数据源 127\.0\.0\.1:\d+（连接被拒绝），请检查主机地址、端口和网络/).waitFor();
    await screenshot(page, 'datasource-form-error');

    await dialog().getByLabel('端口').fill('5432');
    await result.waitFor({ state: 'hidden' });
    await dialog().getByTestId('ds-form-test').click();
    await result.getByText('连接成功').waitFor();
    await result.getByText(/服务器版本 \d+/).waitFor();
    await screenshot(page, 'datasource-form-test');

    const [saved] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/datasource' && r.request().method() === 'POST'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    expect(saved.status()).toBe(200);
    expect(JSON.stringify(await saved.json())).not.toContain('password');
    await dialog().waitFor({ state: 'hidden' });
    const created = rowOf('本地 PostgreSQL');
    await created.getByText('127.0.0.1:5432/test').waitFor();
    await created.getByText('PostgreSQL', { exact: true }).waitFor();

    await created.getByRole('button', { name: '测试连接' }).click();
    await page
      .locator('.ant-message')
      .getByText(/本地 PostgreSQL：连接成功，服务器版本 \d+/)
      .waitFor();
    await screenshot(page, 'datasource-created');
  });

  it('edits the source without retyping the password, then deletes it after confirmation', async () => {
    await rowOf('本地 PostgreSQL').getByRole('button', { name: '编辑' }).click();
    await dialog().getByText('编辑数据源').waitFor();
    expect(await dialog().getByLabel('主机地址').inputValue()).toBe('127.0.0.1');
    await dialog().getByLabel('数据源名称').fill('本地 PG 测试库');
    await Promise.all([
      page.waitForResponse((r) => /\/api\/datasource\/\d+$/.test(r.url()) && r.request().method() === 'PUT'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    await rowOf('本地 PG 测试库').waitFor();

    await page.locator('.ant-message-notice').last().waitFor({ state: 'detached' });
    await rowOf('本地 PG 测试库').getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定删除「本地 PG 测试库」吗？').waitFor();
    await screenshot(page, 'datasource-delete-confirm');
    await Promise.all([
      page.waitForResponse((r) => /\/api\/datasource\/\d+$/.test(r.url()) && r.request().method() === 'DELETE'),
      confirm.getByRole('button', { name: '确定' }).click(),
    ]);
    await page.getByText('删除成功!').first().waitFor();
    await expect.poll(() => list().locator('tr.ant-table-row').count()).toBe(1);
  });
});
