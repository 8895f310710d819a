import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/** Login, the session round trip, personal settings and the password change. */
describe('sign-in and personal settings', () => {
  let app: E2EApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function submitLogin(page: Page, account: string, password: string) {
    await page.getByPlaceholder('账号').fill(account);
    await page.getByPlaceholder('密码').fill(password);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/auth/login')),
      page.getByRole('button', { name: '登录' }).click(),
    ]);
    return response;
  }

  it('shows the system name on the login page and refuses a wrong password', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/login`);
    await page.getByTestId('login-title').getByText('数图').waitFor();
    expect(await page.title()).toBe('数图');
    await screenshot(page, 'login');

    const response = await submitLogin(page, ADMIN.account, 'wrong-password');
    expect(response.status()).toBe(401);
    const body = response.request().postDataJSON() as { account: string; password: string };
    expect(body.password).toMatch(/^[0-9a-f]{32}$/);
    await page.getByTestId('login-error').getByText('账号或密码错误').waitFor();
    expect(page.url()).toContain('/login');
    await screenshot(page, 'login-error');
    await page.context().close();
  });

  it('sends a signed-out visitor to login and back to the page asked for', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/system/dict`);
    await page.waitForURL(/\/login\?redirect=%2Fsystem%2Fdict$/);
    const response = await submitLogin(page, ADMIN.account, ADMIN.password);
    expect(response.status()).toBe(200);
    await page.waitForURL(/\/system\/dict$/);
    await page.getByTestId('app-header').waitFor();
    await page.getByText('请点击左侧字典，查看并维护它的字典项').waitFor();
    await page.context().close();
  });

  it('gives an administrator the whole menu and signs out from the header menu', async () => {
    const page = await newPage(browser);
    await loginThroughPage(page, app);
    await page.waitForURL(/\/system\/users$/);
    const header = page.getByTestId('app-header');
    await header.getByText('系统管理员').waitFor();
    await header.getByText('数图').waitFor();
    expect(await menuLabels(page)).toEqual(['数据集', '可视化大屏', '自助报表', '幻灯片', '用户管理', '部门管理', '角色管理', '字典管理', '数据源管理', '权限组管理', '系统设置', '个人设置', '任务管理', '我的分享', '订阅日志']);
    await page.getByText('admin').first().waitFor();
    await screenshot(page, 'users');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).waitFor();
    await screenshot(page, 'header-user-menu');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/auth/logout')),
      page.getByRole('menuitem', { name: '退出登录' }).click(),
    ]);
    await page.waitForURL(/\/login$/);
    await page.getByPlaceholder('账号').waitFor();
    // The token is gone: a protected page sends us back to login.
    await page.goto(`${app.url}/info/index`);
    await page.waitForURL(/\/login\?redirect=%2Finfo%2Findex$/);
    await page.context().close();
  });

  it('edits the personal information', async () => {
    const page = await newPage(browser);
    await loginThroughPage(page, app);
    await page.goto(`${app.url}/info/index`);
    await page.getByRole('tab', { name: '个人信息' }).waitFor();
    const name = page.getByLabel('姓名', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('系统管理员');
    await screenshot(page, 'profile-info');

    await page.getByLabel('手机号').fill('abc');
    await page.getByRole('button', { name: '保存信息' }).click();
    await page.getByText('请输入正确的手机号').waitFor();

    await page.getByLabel('手机号').fill('13800138000');
    await page.getByLabel('邮箱').fill('admin@shutu.cn');
    await name.fill('超级管理员');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/profile') && r.request().method() === 'PUT'),
      page.getByRole('button', { name: '保存信息' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByText('修改信息成功').waitFor();
    await page.getByTestId('app-header').getByText('超级管理员').waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel('手机号').inputValue()).toBe('13800138000');
    await page.context().close();
  });

  it('changes the password, then signs in only with the new one', async () => {
    const page = await newPage(browser);
    await loginThroughPage(page, app);
    await page.goto(`${app.url}/info/index`);
    await page.getByRole('tab', { name: '修改密码' }).click();

    await page.getByLabel('原密码').fill(ADMIN.password);
    await page.getByLabel('新密码').fill('newpass1');
    await page.getByLabel('确认密码').fill('newpass2');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('两次输入的密码不一致').waitFor();
    await screenshot(page, 'profile-password');

    await page.getByLabel('原密码').fill('not-the-password');
    await page.getByLabel('确认密码').fill('newpass1');
    const [bad] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/profile/password')),
      page.getByRole('button', { name: '修改密码' }).click(),
    ]);
    expect(bad.status()).toBe(400);
    await page.getByText('原密码不正确').first().waitFor();

    await page.getByLabel('原密码').fill(ADMIN.password);
    const [good] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/profile/password')),
      page.getByRole('button', { name: '修改密码' }).click(),
    ]);
    expect(good.status()).toBe(200);
    const sent = good.request().postDataJSON() as Record<string, string>;
    for (const key of ['oldPassword', 'newPassword', 'confirmPassword']) expect(sent[key]).toMatch(/^[0-9a-f]{32}$/);
    await page.getByText('修改密码成功').waitFor();
    await page.waitForURL(/\/login$/);

    const old = await submitLogin(page, ADMIN.account, ADMIN.password);
    expect(old.status()).toBe(401);
    await page.getByText('账号或密码错误').waitFor();
    const fresh = await submitLogin(page, ADMIN.account, 'newpass1');
    expect(fresh.status()).toBe(200);
    await page.getByTestId('app-header').waitFor();
    await page.context().close();
  });
});
