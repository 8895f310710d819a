import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** 权限组管理 and 权限设置 (spec 2 §2 "Permission-group list", "Permission-group settings", "Data-source table authorisation panel"). */
describe('permission groups', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    app = await startApp();
    token = await apiLogin(app);
    // Org fixtures: a department, a role, two members and a plain user.
    const [root] = await apiCall<{ id: number }[]>(app, token, 'GET', '/api/org/departments');
    const dept = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/departments', { parentId: root!.id, deptName: '华东销售部', sort: 1 });
    await apiCall(app, token, 'POST', '/api/org/roles', { parentId: 0, roleName: '区域经理', sort: 1, permissions: [] });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'zhangsan', password: md5('zhangsan1'), name: '张三', deptId: dept.id });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'lisi', password: md5('lisi1234'), name: '李四', deptId: dept.id });
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'plain', password: md5('plain123'), name: '普通用户' });
    // This walk starts from no category at all: the seeded 默认分类 goes (the fresh-install walk with it is perm-fresh.e2e.ts).
    for (const type of await apiCall<{ id: number }[]>(app, token, 'GET', '/api/perm/types')) await apiCall(app, token, 'DELETE', `/api/perm/types/${type.id}`);
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    // What the page showed when a step failed, for a person to look at.
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `perm-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const dialog = () => page.getByRole('dialog');
  const confirmBox = () => page.locator('.ant-modal-confirm');
  const types = () => page.getByTestId('perm-types');
  const typeItem = (name: string) => types().getByRole('option', { name });
  const card = (name: string) => page.getByTestId('perm-group-card').filter({ hasText: name });
  const toast = (text: string | RegExp) => page.locator('.ant-message').getByText(text).first();
  const isPost = (path: string) => (r: { url(): string; request(): { method(): string } }) =>
    new URL(r.url()).pathname === path && r.request().method() === 'POST';

  /** Opens the select labelled `label` in the dialog, optionally types `search`, and picks `option`. */
  async function pick(label: string, option: string, search?: string) {
    // An empty multiple select has a zero-width input: click the select around it, then type.
    await dialog()
      .locator('.ant-form-item')
      .filter({ has: page.locator(`label[title="${label}"]`) })
      .locator('.ant-select')
      .click();
    if (search) await page.keyboard.type(search);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    // Close a multiple select's dropdown (Escape would close the dialog once the dropdown is gone).
    await dialog().locator('.ant-modal-title').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
  }

  it('opens 权限组管理 from the system menu, and adds a type (its name is required)', async () => {
    await page.locator('.app-menu').getByText('权限组管理').click();
    await page.waitForURL('**/system/authGroup');
    await typeItem('全部分类').waitFor();
    await page.getByText('暂无权限组').waitFor();
    await screenshot(page, 'perm-empty');

    await page.getByRole('button', { name: '新增分类' }).click();
    await dialog().getByRole('button', { name: '保存' }).click();
    await dialog().getByText('请输入分类名').waitFor();
    await dialog().getByLabel('分类名称').fill('销售体系');
    await screenshot(page, 'perm-type-form');
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/perm/types')), dialog().getByRole('button', { name: '保存' }).click()]);
    expect(saved.status()).toBe(200);
    await dialog().waitFor({ state: 'hidden' });
    await typeItem('销售体系').waitFor();
    expect(await types().getByRole('option').allInnerTexts()).toEqual(['全部分类', '销售体系']);
  });

  it('adds a group with a department, a role, a user and a black-listed user', async () => {
    await page.getByRole('button', { name: '新增权限组' }).click();
    await dialog().getByText('新增权限组').waitFor();
    await dialog().getByRole('button', { name: '保存' }).click();
    await expect.poll(() => dialog().getByText('请填写完整').count()).toBe(2);

    await dialog().getByLabel('权限组名称').fill('华东销售组');
    await pick('所属分类', '销售体系');
    await pick('部门', '华东销售部');
    await pick('角色', '区域经理');
    await pick('用户', '张三（zhangsan）', 'zhang');
    await pick('黑名单', '李四（lisi）', '李四');
    await screenshot(page, 'perm-group-form');
    const [saved] = await Promise.all([page.waitForResponse(isPost('/api/perm/groups')), dialog().getByRole('button', { name: '保存' }).click()]);
    expect(saved.status()).toBe(200);
    expect(saved.request().postDataJSON()).toMatchObject({
      permName: '华东销售组',
      permJson: {
        dpList: [{ name: '华东销售部' }],
        roleList: [{ name: '区域经理' }],
        userList: [{ name: '张三' }],
        blackUserList: [{ name: '李四' }],
      },
    });
    await toast('保存成功').waitFor();
    await dialog().waitFor({ state: 'hidden' });

    const group = card('华东销售组');
    for (const text of ['销售体系', '华东销售部', '区域经理', '张三']) await group.getByText(text, { exact: true }).waitFor();
    type Styles = { getComputedStyle(el: unknown): { textDecorationLine: string } };
    const struck = (name: string) =>
      group.getByText(name, { exact: true }).evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).textDecorationLine);
    expect(await struck('李四')).toBe('line-through');
    expect(await struck('张三')).toBe('none');
    await screenshot(page, 'perm-group-list');
  });

  it('searches by name and edits a group', async () => {
    const [type] = await apiCall<{ id: number }[]>(app, token, 'GET', '/api/perm/types');
    await apiCall(app, token, 'POST', '/api/perm/groups', {
      permName: '财务组',
      typeId: type!.id,
      permJson: { dpList: [], roleList: [], userList: [], blackUserList: [] },
    });
    await typeItem('销售体系').click();
    await card('财务组').waitFor();

    const search = page.getByPlaceholder('权限组名称');
    await search.fill('华东');
    await Promise.all([page.waitForResponse((r) => r.url().includes('permName=')), search.press('Enter')]);
    await card('财务组').waitFor({ state: 'detached' });
    await card('华东销售组').waitFor();
    await screenshot(page, 'perm-search');
    await search.fill('');
    await search.press('Enter');
    await card('财务组').waitFor();

    await card('华东销售组').getByRole('button', { name: '编辑' }).click();
    await dialog().getByText('编辑权限组').waitFor();
    expect(await dialog().getByLabel('权限组名称').inputValue()).toBe('华东销售组');
    await dialog().getByLabel('权限组名称').fill('华东销售一组');
    await Promise.all([page.waitForResponse(isPost('/api/perm/groups')), dialog().getByRole('button', { name: '保存' }).click()]);
    await card('华东销售一组').getByText('李四', { exact: true }).waitFor();
  });

  it('opens 权限设置 with seven tabs; the 应用 tab offers the published apps', async () => {
    await card('华东销售一组').getByRole('button', { name: '权限设置' }).click();
    await page.waitForURL(/\/system\/authGroupSetting\?id=\d+&name=/);
    expect(decodeURIComponent(new URL(page.url()).search)).toMatch(/name=华东销售一组$/);
    await page.getByRole('heading', { name: '权限设置：华东销售一组' }).waitFor();
    // The tabs render once the group has been looked up (the heading shows while it loads).
    await page.getByRole('tab', { name: '数据源' }).waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['数据源', '数据集', '幻灯片', '可视化大屏', '自助报表', '应用', '第三方链接']);
    expect(await menuLabels(page)).not.toContain('权限设置');
    await page.getByText('尚未授权数据源，点击「添加数据源」开始授权').waitFor();
    await screenshot(page, 'perm-setting');

    await page.getByRole('tab', { name: '数据集' }).click();
    // The demo content's dataset, in its category 示例.
    await page.getByTestId('grant-cube').filter({ hasText: '订单分析' }).waitFor();
    await page.getByRole('tab', { name: '应用' }).click();
    // No app is published in this run (apps.e2e grants one): the tab says so.
    await page.getByText('暂无已发布的应用').waitFor();
    await screenshot(page, 'perm-setting-apps');
    await page.getByRole('tab', { name: '数据源' }).click();
  });

  const sources = () => page.getByTestId('grant-sources');
  const tableRow = (name: string) => page.getByTestId('grant-table').filter({ has: page.getByText(name, { exact: true }) });
  const ticked = (name: string) => tableRow(name).locator('input[type="checkbox"]').isChecked();

  const popover = () => page.locator('.ant-popover:visible');

  async function addSource(name: string) {
    await page.getByRole('button', { name: '添加数据源' }).click();
    await popover().getByRole('combobox').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
  }

  it('grants two tables of the demo warehouse, found by a search and 全选', async () => {
    await addSource('示例数据仓库');
    await sources().getByText('未保存').waitFor();
    await tableRow('orders').waitFor();
    expect(await page.getByRole('button', { name: '保存' }).isDisabled()).toBe(true);
    await screenshot(page, 'perm-ds-added');

    await addSource('示例数据仓库');
    await toast('数据源不能重复使用一个权限组').waitFor();
    expect(await sources().getByRole('option').count()).toBe(1);
    await screenshot(page, 'perm-ds-duplicate');
    await page.getByRole('button', { name: '添加数据源' }).click(); // closes the popover again
    await popover().waitFor({ state: 'detached' });

    await page.getByPlaceholder('表名 / 注释').fill('退订');
    await expect.poll(() => page.getByTestId('grant-table').count()).toBe(2);
    await page.getByRole('button', { name: '全选' }).click();
    await page
      .getByTestId('grant-count')
      .getByText(/^已选 2 \/ 共 \d+$/)
      .waitFor();
    await screenshot(page, 'perm-ds-ticked');
    const [saved] = await Promise.all([
      page.waitForResponse((r) => /\/api\/perm\/groups\/\d+\/datasources\/\d+$/.test(r.url()) && r.request().method() === 'PUT'),
      page.getByRole('button', { name: '保存' }).click(),
    ]);
    expect(saved.status()).toBe(200);
    const sent = (saved.request().postDataJSON() as { tableNames: { name: string }[] }).tableNames.map((t) => t.name).sort();
    expect(sent).toEqual(['cancellations', 'v_order_data']);
    await toast('保存成功').waitFor();
    await sources().getByText('未保存').waitFor({ state: 'detached' });

    await page.reload();
    await tableRow('orders').waitFor();
    expect(await ticked('cancellations')).toBe(true);
    expect(await ticked('v_order_data')).toBe(true);
    expect(await ticked('orders')).toBe(false);
    await page
      .getByTestId('grant-count')
      .getByText(/^已选 2 \/ 共 \d+$/)
      .waitFor();
    await screenshot(page, 'perm-ds-saved');
  });

  it('removes the source after confirming', async () => {
    await sources().getByRole('button', { name: '移除数据源' }).click();
    await confirmBox().getByText('确定移除数据源【示例数据仓库】的全部数据表权限?').waitFor();
    await screenshot(page, 'perm-ds-remove-confirm');
    const [removed] = await Promise.all([
      page.waitForResponse((r) => /\/datasources\/\d+$/.test(r.url()) && r.request().method() === 'PUT'),
      confirmBox().getByRole('button', { name: '确定' }).click(),
    ]);
    expect(removed.request().postDataJSON()).toEqual({ tableNames: [] });
    await page.getByText('尚未授权数据源，点击「添加数据源」开始授权').waitFor();
  });

  it('grants a demo dashboard on the 可视化大屏 tab: the category tree, the cards, 保存 replaces the category’s selection', async () => {
    const tab = () => page.getByTestId('board-grant-visual');
    const boardCard = (title: string) => tab().locator(`[data-testid="grant-board"][data-title="${title}"]`);
    await page.getByRole('tab', { name: '可视化大屏' }).click();
    await boardCard('销售概览').waitFor();
    expect(await boardCard('销售概览').getByRole('checkbox').isChecked()).toBe(false);
    await boardCard('销售概览').click();
    await tab()
      .getByTestId('grant-board-count')
      .getByText(/^已选 1 \/ 共 \d+$/)
      .waitFor();
    const [saved] = await Promise.all([
      page.waitForResponse((r) => /\/api\/board\/auth\/\d+$/.test(r.url()) && r.request().method() === 'PUT'),
      tab().getByRole('button', { name: '保存' }).click(),
    ]);
    expect(saved.status()).toBe(200);
    const body = saved.request().postDataJSON() as { kind: string; selfReportIdList: number[] };
    expect(body.kind).toBe('visual');
    expect(body.selfReportIdList).toHaveLength(1);
    await toast(/成功/).waitFor();
    await screenshot(page, 'perm-board-granted');

    await page.reload();
    await page.getByRole('tab', { name: '可视化大屏' }).click();
    await boardCard('销售概览').waitFor();
    await expect.poll(() => boardCard('销售概览').getByRole('checkbox').isChecked()).toBe(true);
    await page.getByRole('tab', { name: '数据源' }).click();
  });

  it('deletes the groups, refusing to delete a type still in use', async () => {
    await page.getByRole('button', { name: '返回权限组列表' }).click();
    await page.waitForURL('**/system/authGroup');
    await card('华东销售一组').getByRole('button', { name: '删除' }).click();
    await confirmBox().getByText('是否删除此权限组').waitFor();
    await screenshot(page, 'perm-group-delete-confirm');
    await Promise.all([
      page.waitForResponse((r) => /\/api\/perm\/groups\/\d+$/.test(r.url()) && r.request().method() === 'DELETE'),
      confirmBox().getByRole('button', { name: '确定' }).click(),
    ]);
    await card('华东销售一组').waitFor({ state: 'detached' });

    const deleteType = async () => {
      await typeItem('销售体系').hover();
      await typeItem('销售体系').getByRole('button', { name: '删除' }).click();
      await confirmBox().getByText('是否删除此分类').waitFor();
      const [response] = await Promise.all([
        page.waitForResponse((r) => /\/api\/perm\/types\/\d+$/.test(r.url()) && r.request().method() === 'DELETE'),
        confirmBox().getByRole('button', { name: '确定' }).click(),
      ]);
      return response.status();
    };
    expect(await deleteType()).toBe(409);
    await toast(/该分类下还有 1 个权限组/).waitFor();
    await screenshot(page, 'perm-type-in-use');

    await card('财务组').getByRole('button', { name: '删除' }).click();
    await Promise.all([
      page.waitForResponse((r) => /\/api\/perm\/groups\/\d+$/.test(r.url()) && r.request().method() === 'DELETE'),
      confirmBox().getByRole('button', { name: '确定' }).click(),
    ]);
    await card('财务组').waitFor({ state: 'detached' });
    expect(await deleteType()).toBe(200);
    await typeItem('销售体系').waitFor({ state: 'detached' });
    await page.getByText('暂无权限组').waitFor();
  });

  it('a non-administrator has no 权限组管理 in the menu and is refused the page', async () => {
    const plain = await newPage(browser);
    await loginThroughPage(plain, app, 'plain', 'plain123');
    expect(await menuLabels(plain)).not.toContain('权限组管理');
    await plain.goto(`${app.url}/system/authGroup`);
    await plain.getByText('没有访问权限').waitFor();
    await screenshot(plain, 'perm-forbidden');
    await plain.goto(`${app.url}/system/authGroupSetting?id=1&name=x`);
    await plain.getByText('没有访问权限').waitFor();
    await plain.context().close();
  });
});
