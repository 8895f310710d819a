import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The card's texts (apps/web/src/features/system/FileTableSourceCard.tsx). */
const HINT =
  '上传的 CSV、Excel 文件建成文件表时默认写入的数据源，上传时仍可另选。单机部署用内置数仓；多个服务进程共用时，请选择共享的 PostgreSQL 或 ClickHouse 数据源，各进程才能看到同一批文件表。已有的文件表仍留在原数据源中。';
const BUILTIN_OPTION = '内置数仓（默认）';

/**
 * 系统设置 → 上传文件表 (issue 27; docs/filetable-load.md "The target source of uploads"): an
 * administrator names the data source uploaded file tables go to by default; the dataset list's
 * 上传文件 then preselects it in its source picker. A member may read the setting (the picker
 * needs it) but neither sees the card nor changes it (403). Names carry a suffix of the run, so
 * a shared server (E2E_BASE_URL) takes the file again; the setting is put back at the end.
 */
describe('系统设置 → 上传文件表: the default data source of uploaded file tables', () => {
  const run = Date.now().toString(36).slice(-4);
  const sourceName = `共享 PostgreSQL ${run}`;
  const member = { account: `uploader${run}`, password: 'uploader123' };
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let pgId: number;
  let initial: number | null = null;

  const setting = () => apiCall<{ datasourceId: number | null }>(app, token, 'GET', '/api/system/file-table-source');

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    initial = (await setting()).datasourceId;
    // A fresh server has none; a shared one starts from the built-in warehouse here too.
    if (initial !== null) await apiCall(app, token, 'PUT', '/api/system/file-table-source', { datasourceId: null });
    // A second source to choose: the machine's PostgreSQL, as datasource.e2e.ts registers it (saving does not connect).
    const source = await apiCall<{ id: number }>(app, token, 'POST', '/api/datasource', {
      dsDb: sourceName,
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      database: 'test',
      username: 'postgres',
      remark: '多进程共用的文件表库',
    });
    pgId = source.id;
    await apiCall(app, token, 'POST', '/api/org/users', { account: member.account, password: md5(member.password), name: '上传专员' });
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `filetable-source-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    if (app && token) {
      // Put the setting back before the source it may name goes.
      await apiCall(app, token, 'PUT', '/api/system/file-table-source', { datasourceId: initial });
      if (pgId) await apiCall(app, token, 'DELETE', `/api/datasource/${pgId}`);
    }
    await app?.stop();
  });

  const card = () => page.getByTestId('file-table-source-settings');
  /** What the card's select shows. */
  const shown = () => card().locator('.ant-select').first().innerText();

  const openSettings = async () => {
    await page.goto(`${app.url}/system/settings`);
    await card().getByText('目标数据源').waitFor();
    await card().getByTestId('file-table-source').waitFor();
  };

  const choose = async (title: string) => {
    await card().getByTestId('file-table-source').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: title }).first().click();
  };

  const save = async (datasourceId: number | null) => {
    // A 保存成功 still shown by an earlier save must not pass for this one.
    await page.locator('.ant-message-notice').last().waitFor({ state: 'detached' });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/system/file-table-source') && r.request().method() === 'PUT'),
      card().getByTestId('file-table-source-save').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toEqual({ datasourceId });
    expect(((await response.json()) as { data: unknown }).data).toEqual({ datasourceId });
    await page.locator('.ant-message').getByText('保存成功').waitFor();
  };

  /** Opens 上传文件 on the dataset list and returns the source picker. */
  const openUploadPicker = async () => {
    await page.goto(`${app.url}/newbi/dataset`);
    await page.getByRole('heading', { name: '数据集' }).waitFor();
    await page.getByTestId('dataset-upload-file').click();
    const chooser = page.locator('.ant-modal').filter({ hasText: '上传到数据源' });
    await chooser.waitFor();
    return chooser;
  };

  it('shows the card in Chinese, the built-in warehouse first; an administrator chooses another source, saves, and a reload reads it back', async () => {
    await openSettings();
    // The page of 系统设置 in the administrator's menu (a member's lacks it: below).
    expect(await menuLabels(page)).toContain('系统设置');
    await card().locator('.ant-card-head-title').getByText('上传文件表', { exact: true }).waitFor();
    await card().getByText(HINT, { exact: true }).waitFor();
    await card()
      .getByRole('button', { name: /保\s*存/ })
      .waitFor();
    await expect.poll(shown).toContain(BUILTIN_OPTION);
    await screenshot(page, 'filetable-source-settings');

    // The options: 内置数仓（默认） and every other source as 名称（引擎）; the warehouse is not listed twice.
    await card().getByTestId('file-table-source').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.filter({ hasText: `${sourceName}（postgres）` }).waitFor();
    expect(await options.allInnerTexts()).toEqual([BUILTIN_OPTION, `${sourceName}（postgres）`]);
    await page.keyboard.press('Escape');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });

    await choose(`${sourceName}（postgres）`);
    await expect.poll(shown).toContain(`${sourceName}（postgres）`);
    await save(pgId);
    expect(await setting()).toEqual({ datasourceId: pgId });
    await screenshot(page, 'filetable-source-saved');

    // Saved, not just shown: a reload reads it back.
    await page.reload();
    await card().getByTestId('file-table-source').waitFor();
    await expect.poll(shown).toContain(`${sourceName}（postgres）`);
    expect(await shown()).not.toContain(BUILTIN_OPTION);
  });

  it("the dataset list's 上传文件 preselects the chosen source, and the upload drawer opens on it", async () => {
    const chooser = await openUploadPicker();
    await expect.poll(() => chooser.locator('.ant-select').first().innerText()).toContain(sourceName);
    expect(await chooser.locator('.ant-select').first().innerText()).not.toContain('示例数据仓库');
    await screenshot(page, 'filetable-source-upload-picker');
    await chooser.getByRole('button', { name: /下\s*一\s*步/ }).click();
    const drawer = page.getByTestId('file-upload-drawer');
    await drawer.waitFor();
    await page.getByTestId('file-upload-cancel').click();
    await drawer.waitFor({ state: 'hidden' });
  });

  it('a member reads the setting but neither sees the card nor changes it: 403 with a Chinese message', async () => {
    const other = await newPage(browser);
    try {
      await loginThroughPage(other, app, member.account, member.password);
      expect(await menuLabels(other)).not.toContain('系统设置');
      await other.goto(`${app.url}/system/settings`);
      await other.getByText('没有访问权限').waitFor();
      await other.getByText('抱歉，您没有权限访问此页面，请联系管理员开通。').waitFor();
      expect(await other.getByTestId('file-table-source-settings').count()).toBe(0);
      await screenshot(other, 'filetable-source-member-refused');

      const memberToken = await apiLogin(app, member.account, member.password);
      // Every signed-in user reads it: the upload picker preselects it.
      expect(await apiCall(app, memberToken, 'GET', '/api/system/file-table-source')).toEqual({ datasourceId: pgId });
      const refused = await fetch(`${app.url}/api/system/file-table-source`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${memberToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ datasourceId: null }),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { success: boolean; msg: string }).msg).toBe('没有权限执行此操作');
      expect(await setting()).toEqual({ datasourceId: pgId });
    } catch (error) {
      await screenshot(other, 'filetable-source-failed-member');
      throw error;
    } finally {
      await other.context().close();
    }
  });

  it('an unknown source is refused with 数据源不存在; back to 内置数仓（默认）, the picker preselects the warehouse again', async () => {
    const unknown = await fetch(`${app.url}/api/system/file-table-source`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ datasourceId: 999_999 }),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { msg: string }).msg).toBe('数据源不存在');

    await openSettings();
    await expect.poll(shown).toContain(`${sourceName}（postgres）`);
    await choose(BUILTIN_OPTION);
    await expect.poll(shown).toContain(BUILTIN_OPTION);
    await save(null);
    expect(await setting()).toEqual({ datasourceId: null });
    await page.reload();
    await card().getByTestId('file-table-source').waitFor();
    await expect.poll(shown).toContain(BUILTIN_OPTION);

    const chooser = await openUploadPicker();
    await expect.poll(() => chooser.locator('.ant-select').first().innerText()).toContain('示例数据仓库');
    expect(await chooser.locator('.ant-select').first().innerText()).not.toContain(sourceName);
    await chooser.getByRole('button', { name: /取\s*消/ }).click();
    await chooser.waitFor({ state: 'hidden' });
  });
});
