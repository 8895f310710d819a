import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/** System settings, departments, roles, users, and what a user with only dict_view sees. */
describe('administration', () => {
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

  const dialog = () => page.getByRole('dialog');
  const row = (text: string) => page.locator('tr.ant-table-row').filter({ hasText: text });

  async function saveDialog(urlPart: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(urlPart) && r.request().method() !== 'GET'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    return response.status();
  }

  /** Opens a TreeSelect/Select by its form label and picks the option `text`. */
  async function pick(label: string, text: string) {
    await dialog().getByLabel(label).click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(text, { exact: true }).click();
  }

  it('renames the system: header, page title and login page follow', async () => {
    await page.goto(`${app.url}/system/settings`);
    const input = page.getByLabel('系统名称');
    await expect.poll(() => input.inputValue()).toBe('数图');
    await screenshot(page, 'system-settings');

    await input.fill('');
    await page.locator('.settings-form').getByRole('button', { name: '保存' }).click();
    await page.getByText('请输入系统名称').waitFor();

    await input.fill('数图分析平台');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/system/config') && r.request().method() === 'PUT'),
      page.locator('.settings-form').getByRole('button', { name: '保存' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByText('保存成功').first().waitFor();
    await page.getByTestId('app-header').getByText('数图分析平台').waitFor();
    await expect.poll(() => page.title()).toBe('数图分析平台');
    await screenshot(page, 'system-settings-saved');

    const visitor = await newPage(browser);
    await visitor.goto(`${app.url}/login`);
    await visitor.getByTestId('login-title').getByText('数图分析平台').waitFor();
    await expect.poll(() => visitor.title()).toBe('数图分析平台');
    await visitor.context().close();
  });

  it('creates a department with a sub-department, and deletes after confirming', async () => {
    await page.goto(`${app.url}/system/depts`);
    await row('数图科技').waitFor();
    await screenshot(page, 'depts');

    await page.getByRole('button', { name: '新增部门' }).click();
    await dialog().getByRole('button', { name: '保存' }).click();
    await dialog().getByText('请输入部门名称').first().waitFor();
    await pick('上级部门', '数图科技');
    await dialog().getByLabel('部门名称').fill('华东销售部');
    await screenshot(page, 'dept-form');
    expect(await saveDialog('/api/org/departments')).toBe(200);
    await row('华东销售部').waitFor();

    await row('华东销售部').getByRole('button', { name: '新增下级' }).click();
    await dialog().getByLabel('部门名称').fill('上海分部');
    expect(await saveDialog('/api/org/departments')).toBe(200);
    await row('上海分部').waitFor();

    await row('上海分部').getByRole('button', { name: '删除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定删除「上海分部」吗？').waitFor();
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/org/departments/') && r.request().method() === 'DELETE'),
      confirm.getByRole('button', { name: '确定' }).click(),
    ]);
    await page.getByText('删除成功!').first().waitFor();
    await row('上海分部').waitFor({ state: 'detached' });
  });

  it('creates a role holding only dict_view', async () => {
    await page.goto(`${app.url}/system/roles`);
    await row('数据分析师').waitFor();
    await page.getByRole('button', { name: '新增角色' }).click();
    await dialog().getByLabel('角色名称').fill('字典查看员');
    await dialog().getByRole('checkbox', { name: '查看字典' }).check();
    await screenshot(page, 'role-form');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/org/roles') && r.request().method() === 'POST'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    expect(response.request().postDataJSON()).toMatchObject({ roleName: '字典查看员', permissions: ['dict_view'] });
    await row('字典查看员').getByText('查看字典').waitFor();
    await screenshot(page, 'roles');
  });

  it('creates a user in that department with that role', async () => {
    await page.goto(`${app.url}/system/users`);
    await row('系统管理员').waitFor();
    await page.getByRole('button', { name: '新增用户' }).click();
    await dialog().getByRole('button', { name: '保存' }).click();
    await dialog().getByText('请输入账号').waitFor();
    await dialog().getByLabel('账号').fill('viewer');
    await dialog().getByLabel('初始密码').fill('viewer123');
    await dialog().getByLabel('姓名', { exact: true }).fill('字典查看者');
    await dialog().getByLabel('手机号').fill('13900001111');
    await pick('所属部门', '华东销售部');
    await pick('角色', '字典查看员');
    await dialog().getByLabel('扩展信息').fill('{"工号": "A001"}');
    await dialog().getByText('新增用户').click(); // closes the open dropdown
    await screenshot(page, 'user-form');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/org/users') && r.request().method() === 'POST'),
      dialog().getByRole('button', { name: '保存' }).click(),
    ]);
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON() as { password: string; roleIds: number[]; deptId: number };
    expect(sent.password).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.roleIds).toHaveLength(1);
    expect(sent.deptId).toBeGreaterThan(0);
    await row('字典查看者').getByText('华东销售部').waitFor();
    await screenshot(page, 'users-created');

    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/org/users?') && r.url().includes('keyword=viewer')),
      (async () => {
        await page.locator('.table-search input').fill('viewer');
        await page.locator('.table-search input').press('Enter');
      })(),
    ]);
    await page.getByText('共 1 条').waitFor();

    await row('字典查看者').getByRole('button', { name: '重置密码' }).click();
    await dialog().getByLabel('新密码').fill('viewer456');
    await dialog().getByLabel('确认密码').fill('viewer456');
    const [reset] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/password')), dialog().getByRole('button', { name: '确定' }).click()]);
    expect((reset.request().postDataJSON() as { password: string }).password).toMatch(/^[0-9a-f]{32}$/);
    await page.getByText('密码已重置').first().waitFor();
  });

  it('a dict_view user sees only 个人设置 and 字典管理, without add, edit or delete', async () => {
    const token = await apiLogin(app);
    await apiCall(app, token, 'POST', '/api/dict', { parentId: 0, code: 'gender', dictKey: 0, dictValue: '性别', sort: 1, isSealed: 0 });

    const viewer = await newPage(browser);
    await loginThroughPage(viewer, app, 'viewer', 'viewer456');
    await viewer.waitForURL(/\/home$/);
    expect(await menuLabels(viewer)).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '预警管理',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '字典管理',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
    await viewer.getByTestId('app-header').getByText('字典查看者').waitFor();
    await viewer.goto(`${app.url}/system/dict`);
    await viewer.getByTestId('dict-parents').locator('tr.ant-table-row').filter({ hasText: 'gender' }).click();
    await viewer.getByTestId('dict-children').waitFor();
    await viewer.getByTestId('dict-children').locator('.ant-empty').waitFor();
    expect(await viewer.locator('main button', { hasText: /新增|编辑|删除/ }).count()).toBe(0);
    expect(await viewer.locator('main .ant-checkbox').count()).toBe(0);
    await screenshot(viewer, 'viewer-dict');

    await viewer.goto(`${app.url}/system/users`);
    await viewer.getByText('没有访问权限').waitFor();
    await screenshot(viewer, 'viewer-forbidden');
    await viewer.context().close();
  });

  it('shows a Chinese not-found page for an unknown address, and collapses the menu', async () => {
    await page.goto(`${app.url}/system/nothing-here`);
    await page.getByText('页面不存在', { exact: true }).waitFor();
    await page.getByRole('button', { name: '折叠菜单' }).click();
    await page.getByRole('button', { name: '展开菜单' }).waitFor();
    await screenshot(page, 'not-found');
    await page.getByRole('button', { name: '展开菜单' }).click();
    await page.goto(`${app.url}/system/users`);
  });

  it('disables and re-enables a user', async () => {
    await row('字典查看者').getByRole('button', { name: '停用' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定停用用户「字典查看者」吗？停用后该账号将无法登录。').waitFor();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/status')), confirm.getByRole('button', { name: '确定' }).click()]);
    await row('字典查看者').getByText('已停用').waitFor();
    await row('字典查看者').getByRole('button', { name: '启用' }).click();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/status')), confirm.getByRole('button', { name: '确定' }).click()]);
    await row('字典查看者').getByText('正常').waitFor();
  });
});
