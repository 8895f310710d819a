import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, eventually, launchBrowser, loginThroughPage, menuLabels, newPage, screenshot, startApp, takeCspViolations, type E2EApp } from './harness.ts';

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
    // Everyone lands on 首页 (docs/home.md).
    await page.waitForURL(/\/home$/);
    const header = page.getByTestId('app-header');
    await header.getByText('系统管理员').waitFor();
    await header.getByText('数图').waitFor();
    expect(await menuLabels(page)).toEqual([
      '首页',
      '流程工作台',
      '数据集',
      '数据接口',
      '订购数据导出',
      '预警管理',
      '营销任务统计',
      '平台接入',
      '公众号',
      '粉丝列表',
      '人群管理',
      '标签库',
      '标签人群',
      '用户画像对比',
      '可视化大屏',
      '自助报表',
      '幻灯片',
      '应用管理',
      '点击热力图',
      '用户管理',
      '部门管理',
      '角色管理',
      '字典管理',
      '数据源管理',
      '权限组管理',
      '系统设置',
      '平台类型',
      '数据接口管理',
      '个人设置',
      '任务管理',
      '我的分享',
      '订阅日志',
    ]);
    await page.goto(`${app.url}/system/users`);
    await page.getByText('admin').first().waitFor();
    await screenshot(page, 'users');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).waitFor();
    await screenshot(page, 'header-user-menu');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/auth/logout')), page.getByRole('menuitem', { name: '退出登录' }).click()]);
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

/** A default install (no SHUTU_ADMIN_PASSWORD): admin / admin123 must be changed at the first sign-in. */
describe('first sign-in with the initial password', () => {
  let app: E2EApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp({ SHUTU_ADMIN_PASSWORD: '' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('lands on 修改初始密码, keeps every other page and the API closed until the password changes, then works', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/system/dict`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByPlaceholder('账号').fill(ADMIN.account);
    await page.getByPlaceholder('密码').fill(ADMIN.password);
    const [login] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/auth/login')),
      page.getByRole('button', { name: /登\s*录/ }).click(),
    ]);
    expect(((await login.json()) as { data: { mustChangePassword: boolean } }).data.mustChangePassword).toBe(true);
    await page.waitForURL(/\/change-password\?redirect=%2Fsystem%2Fdict$/);
    const card = page.getByTestId('change-initial-password');
    await card.getByRole('heading', { name: '修改初始密码' }).waitFor();
    await card.getByText('当前账号：admin').waitFor();
    expect(await page.getByTestId('app-header').count()).toBe(0);
    await screenshot(page, 'change-initial-password');

    // The menu's pages stay out of reach, and so does the API.
    await page.goto(`${app.url}/system/users`);
    await page.waitForURL(/\/change-password\?redirect=%2Fsystem%2Fusers$/);
    await card.waitFor();
    expect(await page.locator('.app-menu').count()).toBe(0);
    const token = await page.evaluate<string | null>("localStorage.getItem('shutu.token')");
    const refused = await fetch(`${app.url}/api/org/users`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { msg: string }).msg).toBe('请先修改初始密码');

    await page.getByLabel('原密码').fill(ADMIN.password);
    await page.getByLabel('新密码').fill(ADMIN.password);
    await page.getByLabel('确认密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '确认修改并进入系统' }).click();
    await page.getByText('新密码不能与原密码相同').waitFor();
    await screenshot(page, 'change-initial-password-same');

    await page.getByLabel('新密码').fill('first-own-pass');
    await page.getByLabel('确认密码').fill('first-own-pass');
    const [changed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/profile/password')),
      page.getByRole('button', { name: '确认修改并进入系统' }).click(),
    ]);
    expect(changed.status()).toBe(200);
    await page.getByText('密码已修改，欢迎使用').waitFor();
    await page.waitForURL(/\/system\/users$/);
    await page.getByTestId('app-header').waitFor();
    expect(await menuLabels(page)).toContain('用户管理');
    expect((await fetch(`${app.url}/api/org/users`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.context().close();

    // The initial password is gone; the new one signs in straight to the app.
    const next = await newPage(browser);
    await loginThroughPage(next, app, ADMIN.account, 'first-own-pass');
    await next.waitForURL(/\/home$/);
    await next.context().close();
  });

  it('lets only the origins saved in 系统设置 → 嵌入设置 frame /openview', async () => {
    const page = await newPage(browser);
    await loginThroughPage(page, app, ADMIN.account, 'first-own-pass');
    // Another site (a portal) whose page frames /openview; it sends no policy of its own.
    const portal = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>门户</title><iframe id="embedded" src="${app.url}/openview/1" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
    const framer = await page.context().newPage();
    const frameOpenview = () => framer.goto(other);
    // The framed document: Chromium's error page while frame-ancestors refuses, else the app.
    const embedded = () =>
      eventually(
        () => {
          const frame = framer.frames().find((f) => f !== framer.mainFrame() && f.url() !== '' && f.url() !== 'about:blank');
          return frame?.url();
        },
        'the iframe to load',
        15_000,
      );
    await frameOpenview();
    expect(await embedded()).toMatch(/^chrome-error:/);
    // Chromium may log the refusal; it is the point of this test, not a failure.
    takeCspViolations();

    await page.goto(`${app.url}/system/settings`);
    const card = page.getByTestId('embed-settings');
    await card.getByTestId('embed-origins').fill('not an origin');
    await card.getByRole('button', { name: '保存嵌入设置' }).click();
    await card.getByText(/来源格式不正确/).waitFor();
    await card.getByTestId('embed-origins').fill(other);
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/system/embed') && r.request().method() === 'PUT'),
      card.getByRole('button', { name: '保存嵌入设置' }).click(),
    ]);
    expect(saved.status()).toBe(200);
    await screenshot(page, 'embed-settings');

    await frameOpenview();
    expect(await embedded()).toBe(`${app.url}/openview/1`);
    await framer.frameLocator('#embedded').locator('#root > *').first().waitFor();
    expect(takeCspViolations()).toEqual([]);
    await page.context().close();
    portal.close();
  });
});
