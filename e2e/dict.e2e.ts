import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/** The dictionary manager (spec 2 §2, §5): parents, children, paging, search, batch delete. */
describe('dictionary manager', () => {
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

  const parents = () => page.getByTestId('dict-parents');
  const children = () => page.getByTestId('dict-children');
  const dialog = () => page.getByRole('dialog');
  const rowOf = (table: Locator, text: string) => table.locator('tr.ant-table-row').filter({ hasText: text });
  const rowCount = (table: Locator) => table.locator('tr.ant-table-row').count();

  /** Clicks the dialog's 保存 and waits for the save call; returns its status. */
  async function saveDialog(): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/api\/dict(\/\d+)?$/.test(new URL(r.url()).pathname) && r.request().method() !== 'GET'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    return response.status();
  }

  async function fillDict(values: { code?: string; name?: string; key?: string; sort?: string; sealed?: boolean; remark?: string }) {
    const d = dialog();
    if (values.code !== undefined) await d.getByLabel('字典编号').fill(values.code);
    if (values.name !== undefined) await d.getByLabel('字典名称').fill(values.name);
    if (values.key !== undefined) await d.getByLabel('字典键值').fill(values.key);
    if (values.sort !== undefined) await d.getByLabel('排序').fill(values.sort);
    if (values.sealed) await d.getByText('是', { exact: true }).click();
    if (values.remark !== undefined) await d.getByLabel('备注').fill(values.remark);
  }

  async function search(table: Locator, text: string) {
    await Promise.all([
      page.waitForResponse((r) => {
        const url = new URL(r.url());
        return url.pathname.startsWith('/api/dict/') && (url.searchParams.get('query') ?? '') === text;
      }),
      (async () => {
        const box = table.locator('.table-search input');
        await box.fill(text);
        await box.press('Enter');
      })(),
    ]);
  }

  it('starts with an empty manager pointing at the parent table', async () => {
    await page.goto(`${app.url}/system/dict`);
    await page.getByTestId('dict-children-empty').getByText('请点击左侧字典，查看并维护它的字典项').waitFor();
    await parents().locator('.ant-empty-description').getByText('暂无数据').waitFor();
    await screenshot(page, 'dict-empty');
  });

  it('requires every field with the spec messages, then creates a parent', async () => {
    await parents().getByRole('button', { name: '新增' }).click();
    await dialog().getByText('新增字典').waitFor();
    await dialog().getByRole('button', { name: '保存' }).click();
    for (const text of ['请输入字典编号', '请输入字典名称', '请输入字典键值', '请输入字典排序']) await dialog().getByText(text).waitFor();
    await screenshot(page, 'dict-form-required');

    await fillDict({ code: 'gender', name: '性别', key: '0', sort: '1', remark: '人员的性别信息' });
    expect(await saveDialog()).toBe(200);
    await page.getByText('保存成功').first().waitFor();
    await dialog().waitFor({ state: 'hidden' });
    await rowOf(parents(), 'gender').getByText('人员的性别信息').waitFor();
  });

  it('shows the server message when the code already exists and keeps the dialog open', async () => {
    await parents().getByRole('button', { name: '新增' }).click();
    await fillDict({ code: 'gender', name: '重复的性别', key: '0', sort: '2' });
    expect(await saveDialog()).toBe(409);
    await page.locator('.ant-message').getByText('字典编号已存在').waitFor();
    await screenshot(page, 'dict-conflict');
    expect(await dialog().isVisible()).toBe(true);
    await dialog().getByRole('button', { name: '取消' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('pages parents five at a time and searches them', async () => {
    const token = await apiLogin(app);
    const extra = ['status', 'level', 'region', 'channel', 'industry', 'source'];
    for (const [i, code] of extra.entries()) {
      await apiCall(app, token, 'POST', '/api/dict', { parentId: 0, code, dictKey: 0, dictValue: `字典${i + 1}`, sort: i + 2, isSealed: i === 0 ? 1 : 0 });
    }
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/dict/parents')), page.reload()]);
    await parents().getByText('共 7 条').waitFor();
    expect(await rowCount(parents())).toBe(5);
    await rowOf(parents(), 'status').getByText('是', { exact: true }).waitFor();

    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/dict/parents') && r.url().includes('current=2')),
      parents().locator('.ant-pagination-item-2').click(),
    ]);
    await expect.poll(() => rowCount(parents())).toBe(2);

    await search(parents(), '性别');
    await parents().getByText('共 1 条').waitFor();
    await rowOf(parents(), 'gender').waitFor();
    await search(parents(), '');
    await parents().getByText('共 7 条').waitFor();
  });

  it('edits a parent', async () => {
    await rowOf(parents(), 'gender').getByRole('button', { name: '编辑' }).click();
    await dialog().getByText('编辑字典').waitFor();
    await expect.poll(() => dialog().getByLabel('字典名称').inputValue()).toBe('性别');
    await fillDict({ name: '人员性别' });
    expect(await saveDialog()).toBe(200);
    await rowOf(parents(), 'gender').getByText('人员性别', { exact: true }).waitFor();
  });

  it('adds and edits children of the clicked parent', async () => {
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/dict/children')),
      rowOf(parents(), 'gender').getByText('人员性别', { exact: true }).click(),
    ]);
    await expect.poll(() => rowOf(parents(), 'gender').getAttribute('class')).toContain('dict-row-active');
    await children().locator('.ant-empty-description').getByText('暂无数据').waitFor();

    for (const [name, key] of [
      ['男', '1'],
      ['女', '2'],
      ['未知', '9'],
    ] as const) {
      await children().getByRole('button', { name: '新增' }).click();
      await dialog().getByText('新增字典项').waitFor();
      const code = dialog().getByLabel('字典编号');
      expect(await code.inputValue()).toBe('gender');
      expect(await code.getAttribute('readonly')).not.toBeNull();
      await fillDict({ name, key, sort: key });
      expect(await saveDialog()).toBe(200);
      await dialog().waitFor({ state: 'hidden' });
    }
    await children().getByText('共 3 条').waitFor();
    await screenshot(page, 'dict-children');

    await rowOf(children(), '未知').getByRole('button', { name: '编辑' }).click();
    await dialog().getByText('编辑字典项').waitFor();
    await expect.poll(() => dialog().getByLabel('字典名称').inputValue()).toBe('未知');
    await fillDict({ name: '保密', sealed: true });
    await screenshot(page, 'dict-form-child');
    expect(await saveDialog()).toBe(200);
    await rowOf(children(), '保密').getByText('是', { exact: true }).waitFor();

    await search(children(), '女');
    await children().getByText('共 1 条').waitFor();
    await search(children(), '');
    await children().getByText('共 3 条').waitFor();
  });

  it('batch-deletes children after a warning and a confirmation', async () => {
    await children().getByRole('button', { name: '批量删除' }).click();
    await page.locator('.ant-message').getByText('请选择至少一条数据').waitFor();

    await rowOf(children(), '男').getByRole('checkbox').check();
    await rowOf(children(), '保密').getByRole('checkbox').check();
    await children().getByRole('button', { name: '批量删除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定将选择数据删除?').waitFor();
    await screenshot(page, 'dict-batch-delete-confirm');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/dict/remove')),
      confirm.getByRole('button', { name: '确定' }).click(),
    ]);
    expect(response.request().postDataJSON()).toEqual({ ids: expect.any(Array) });
    expect((response.request().postDataJSON() as { ids: number[] }).ids).toHaveLength(2);
    await page.getByText('删除成功!').first().waitFor();
    await children().getByText('共 1 条').waitFor();
    await rowOf(children(), '女').waitFor();
  });

  it('deletes a single row with the same confirmation, and batch-deletes parents', async () => {
    await rowOf(children(), '女').getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定将选择数据删除?').waitFor();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/dict/remove')), confirm.getByRole('button', { name: '确定' }).click()]);
    await children().locator('.ant-empty-description').getByText('暂无数据').waitFor();

    await rowOf(parents(), 'level').getByRole('checkbox').check();
    await rowOf(parents(), 'region').getByRole('checkbox').check();
    await parents().getByRole('button', { name: '批量删除' }).click();
    await confirm.getByText('确定将选择数据删除?').waitFor();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/dict/remove')), confirm.getByRole('button', { name: '确定' }).click()]);
    await parents().getByText('共 5 条').waitFor();
    await screenshot(page, 'dict-after-delete');
  });

  it('offers the page sizes 5, 10, 30, 50, 100 and 200', async () => {
    await parents().locator('.ant-pagination-options .ant-select').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.first().waitFor();
    expect(await options.allInnerTexts()).toEqual(['5 条/页', '10 条/页', '30 条/页', '50 条/页', '100 条/页', '200 条/页']);
    await screenshot(page, 'dict-page-sizes');
    await Promise.all([page.waitForResponse((r) => r.url().includes('size=10')), options.filter({ hasText: '10 条/页' }).first().click()]);
    await expect.poll(() => rowCount(parents())).toBe(5);
  });
});
