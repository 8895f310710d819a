import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Apps (issue 24; docs/apps.md) in Chromium: an administrator builds an app with two first-level
 * menus, one with two children, meeting every validation message of the spec on the way, publishes
 * it and grants it to a group in the 应用 tab; a member opens it at 390×844 (/m, the top and the
 * pop-up sub-menu, the screen board scaled to the width, the quick board reflowed to one column,
 * the watermark); a user outside the group is refused; a user with bigdataId lands full screen.
 */
const PHONE = { width: 390, height: 844 } as const;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('apps', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let token: string;
  let groupId: number;
  let appId: number;
  let screenBoard: number;
  let memberId: number;

  const toast = (text: string | RegExp) => page.locator('.ant-message').getByText(text).first();
  const fieldError = (p: Page, text: string) => p.locator('.ant-form-item-explain-error').getByText(text).first();
  const menuNode = (name: string) => page.getByTestId('app-menu-node').and(page.locator(`[data-name="${name}"]`));

  async function pickBoard(title: string) {
    await page.getByRole('dialog').getByTestId('menu-visual').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: title }).first().click();
  }
  async function addMenu(open: () => Promise<void>, name: string, board?: string) {
    await open();
    await page.getByTestId('menu-name').fill(name);
    if (board) await pickBoard(board);
    await page.getByTestId('menu-form-ok').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await menuNode(name).waitFor();
  }
  async function phoneLogin(account: string, password: string): Promise<Page> {
    const phone = await newPage(browser, PHONE);
    await loginThroughPage(phone, app, account, password);
    return phone;
  }

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '3000' });
    token = await apiLogin(app);
    const visual = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=visual&current=1&size=50');
    screenBoard = visual.records.find((b) => b.title === '销售概览')!.id;
    memberId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', { account: 'phone1', password: md5('phone123'), name: '李手机' })).id;
    await apiCall(app, token, 'POST', '/api/org/users', { account: 'other1', password: md5('other123'), name: '王局外' });
    const typeId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '移动端' })).id;
    groupId = (
      await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
        permName: '手机用户组',
        typeId,
        permJson: { userList: [{ id: memberId, name: '' }] },
      })
    ).id;
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `apps-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('builds an app with two first-level menus, one with two children, with every validation message', async () => {
    await page.goto(`${app.url}/newbi/app`);
    await page.getByTestId('app-new').click();
    await page.getByTestId('app-save').click();
    await fieldError(page, '请填写应用名').waitFor();
    await page.getByTestId('app-name').fill('经营手机端');
    await page.getByTestId('app-description').fill('销售与订单，随时看');
    await page.getByTestId('app-watermark').click();
    await page.getByTestId('app-watermark-text').fill('内部资料');
    await page.getByTestId('app-save').click();
    await page.waitForURL(/\/newbi\/app\/edit\?id=\d+/);
    appId = Number(new URL(page.url()).searchParams.get('id'));

    // 请输入菜单名, then a first-level menu with a board.
    await page.getByTestId('menu-add').click();
    await page.getByTestId('menu-form-ok').click();
    await fieldError(page, '请输入菜单名').waitFor();
    await page.getByTestId('menu-name').fill('销售总览');
    await pickBoard('销售概览');
    await page.getByTestId('menu-form-ok').click();
    await menuNode('销售总览').waitFor();
    // A first-level menu without a board nor children: save all refuses it.
    await addMenu(() => page.getByTestId('menu-add').click(), '经营分析');
    await page.getByTestId('menu-save-all').click();
    await toast('一级菜单【经营分析】应关联大屏或添加子菜单').waitFor();
    // A child needs a board: 二级菜单需关联大屏.
    await menuNode('经营分析').getByTestId('menu-add-child').click();
    await page.getByTestId('menu-name').fill('订单明细');
    await page.getByTestId('menu-form-ok').click();
    await fieldError(page, '二级菜单需关联大屏').waitFor();
    await pickBoard('订单明细报表');
    await page.getByTestId('menu-form-ok').click();
    await menuNode('订单明细').waitFor();
    await addMenu(() => menuNode('经营分析').getByTestId('menu-add-child').click(), '销售大屏', '销售概览');
    // A menu with children is not deleted; one without asks 确定删除此菜单? first.
    await menuNode('经营分析').getByTestId('menu-delete').first().click();
    await toast('请先删除子菜单').waitFor();
    await addMenu(() => page.getByTestId('menu-add').click(), '临时菜单', '销售概览');
    await menuNode('临时菜单').getByTestId('menu-delete').click();
    const confirm = page.getByRole('dialog').filter({ hasText: '确定删除此菜单?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await menuNode('临时菜单').waitFor({ state: 'detached' });

    await page.getByTestId('menu-save-all').click();
    await toast('保存成功').waitFor();
    const detail = await apiCall<{
      menus: { menuName: string; sortNum: number; parentId: number; menuId: number; children: { menuName: string; sortNum: number; parentId: number }[] }[];
    }>(app, token, 'GET', `/api/apps/${appId}`);
    expect(detail.menus.map((m) => [m.menuName, m.sortNum, m.parentId])).toEqual([
      ['销售总览', 1, 0],
      ['经营分析', 2, 0],
    ]);
    expect(detail.menus[1]!.children.map((c) => [c.menuName, c.sortNum, c.parentId])).toEqual([
      ['订单明细', 1, detail.menus[1]!.menuId],
      ['销售大屏', 2, detail.menus[1]!.menuId],
    ]);
    await screenshot(page, 'apps-editor');

    // Publish.
    await page.getByTestId('app-publish').click();
    await page.getByTestId('app-save').click();
    await toast('保存成功').waitFor();
  });

  it('reorders children by dragging, 保存菜单 numbering them again', async () => {
    const childOrder = async () =>
      (await apiCall<{ menus: { children: { menuName: string; sortNum: number }[] }[] }>(app, token, 'GET', `/api/apps/${appId}`)).menus[1]!.children.map(
        (c) => `${c.sortNum}${c.menuName}`,
      );
    const drag = async (name: string, before: string) => {
      // Straight up (a sideways move would change the level in antd's tree): onto the top edge of `before`.
      const from = (await menuNode(name).boundingBox())!;
      const to = (await menuNode(before).boundingBox())!;
      await page.mouse.move(from.x + 40, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + 40, from.y + from.height / 2 - 6, { steps: 3 });
      await page.mouse.move(to.x + 40, to.y + 3, { steps: 10 });
      await page.mouse.up();
      await page.getByText('顺序已调整，尚未保存').waitFor();
      await page.getByTestId('menu-save-all').click();
      await page.getByText('顺序已调整，尚未保存').waitFor({ state: 'detached' });
    };
    await drag('销售大屏', '订单明细');
    expect(await childOrder()).toEqual(['1销售大屏', '2订单明细']);
    await drag('订单明细', '销售大屏');
    expect(await childOrder()).toEqual(['1订单明细', '2销售大屏']);
  });

  it('grants the published app to the group in the 应用 tab', async () => {
    await page.goto(`${app.url}/system/authGroupSetting?id=${groupId}&name=${encodeURIComponent('手机用户组')}`);
    await page.getByRole('tab', { name: '应用' }).click();
    const item = page.getByTestId('grant-app').filter({ hasText: '经营手机端' });
    await item.getByRole('checkbox').check();
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/apps/auth/${groupId}`) && r.request().method() === 'PUT'),
      page
        .getByTestId('app-grant')
        .getByRole('button', { name: /保\s*存/ })
        .click(),
    ]);
    expect(saved.request().postDataJSON()).toEqual({ appIdList: [appId] });
    await toast('保存成功').waitFor();
  });

  it('a member opens the app on a phone: top sub-menu, the screen board scaled, the quick board in one column, the watermark', async () => {
    const phone = await phoneLogin('phone1', 'phone123');
    await phone.goto(`${app.url}/m`);
    await phone.getByTestId('m-app-card').filter({ hasText: '经营手机端' }).click();
    await phone.waitForURL(`**/m/app/${appId}**`);
    await phone.getByTestId('m-menu-top').waitFor();
    // The first menu: 销售总览, a screen board scaled to the phone's width.
    await phone.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    expect(await phone.getByTestId('m-board').getAttribute('data-board-type')).toBe('screen');
    const scale = Number(await phone.getByTestId('board-stage').getAttribute('data-scale'));
    expect(scale).toBeGreaterThan(0.1);
    expect(scale).toBeLessThan(0.25);
    const wrapper = await phone.getByTestId('board-stage-wrapper').boundingBox();
    expect(wrapper!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await phone.getByTestId('m-watermark').getAttribute('data-text')).toBe('李手机 内部资料');
    await screenshot(phone, 'apps-mobile-screen');

    // 经营分析 → its first child 订单明细: the quick board in one column, in layout order.
    await phone.getByTestId('m-menu').filter({ hasText: '经营分析' }).click();
    await phone.getByTestId('m-submenu-item').filter({ hasText: '订单明细' }).waitFor();
    await phone.locator('[data-testid="m-board"][data-board-type="quick"]').waitFor();
    await phone.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    const boxes = await phone.locator('[data-testid="m-board"] [data-testid^="board-item-"]').evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width) };
      }),
    );
    expect(boxes.length).toBeGreaterThan(1);
    expect(new Set(boxes.map((b) => b.x)).size).toBe(1);
    expect(boxes.every((b) => b.w > PHONE.width - 40)).toBe(true);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThan(boxes[i - 1]!.y);
    await screenshot(phone, 'apps-mobile-quick');
    await phone.getByTestId('m-submenu-item').filter({ hasText: '销售大屏' }).click();
    await phone.locator('[data-testid="m-board"][data-board-type="screen"]').waitFor();
    await phone.close();
  });

  it('the pop-up sub-menu when the app asks for it', async () => {
    const current = await apiCall<{ appName: string; appDescription: string }>(app, token, 'GET', `/api/apps/${appId}`);
    await apiCall(app, token, 'POST', '/api/apps', {
      appId,
      appName: current.appName,
      appDescription: current.appDescription,
      menuShowType: '2',
      waterMarkStatus: 1,
      waterMarkText: '内部资料',
      publishStatus: 1,
    });
    const phone = await phoneLogin('phone1', 'phone123');
    const dataCalls: string[] = [];
    phone.on('request', (r) => {
      if (r.url().includes('/api/board/chart-data')) dataCalls.push(`${r.method()} ${new URL(r.url()).pathname} ${r.postData()}`);
    });
    await phone.goto(`${app.url}/m/app/${appId}`);
    await phone.getByTestId('m-menu-popup').waitFor();
    // The first menu's board drew from the one call the page's first script sent before the app had
    // loaded: its first data, the charts chosen by the server, each read alone; no call of the page's own.
    await phone.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    expect(dataCalls).toHaveLength(1);
    expect(dataCalls[0]).toMatch(/^POST \/api\/board\/chart-data\/batch \{"boardId":\d+,"grouped":false\}$/);
    await phone.getByTestId('m-menu').filter({ hasText: '经营分析' }).click();
    await phone.getByTestId('m-submenu-item').filter({ hasText: '订单明细' }).click();
    await phone.locator('[data-testid="m-board"][data-board-type="quick"]').waitFor();
    await phone.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    await screenshot(phone, 'apps-mobile-popup');
    await phone.close();
  });

  it('a dashboard the member may not see shows 没有此大屏权限 inside the app, as on the desktop', async () => {
    const report = await apiCall<{ records: { id: number; title: string }[] }>(app, token, 'GET', '/api/board/boards?kind=report&current=1&size=50');
    const reportId = report.records.find((b) => b.title === '订单明细报表')!.id;
    await apiCall(app, token, 'PUT', `/api/board/boards/${reportId}/auth`, { publicStatus: 0, dataPermIdList: [] });
    try {
      const phone = await phoneLogin('phone1', 'phone123');
      await phone.goto(`${app.url}/m/app/${appId}`);
      await phone.getByTestId('m-menu').filter({ hasText: '经营分析' }).click();
      await phone.getByTestId('m-submenu-item').filter({ hasText: '订单明细' }).click();
      await phone.getByTestId('board-failure').getByText('没有此大屏权限').waitFor();
      await phone.close();
    } finally {
      await apiCall(app, token, 'PUT', `/api/board/boards/${reportId}/auth`, { publicStatus: 1, dataPermIdList: [] });
    }
  });

  it('a user outside the group is refused, and does not see the app at /m', async () => {
    const phone = await phoneLogin('other1', 'other123');
    await phone.goto(`${app.url}/m`);
    await phone.getByTestId('m-home').waitFor();
    await phone.locator('.ant-empty').waitFor();
    expect(await phone.getByTestId('m-app-card').count()).toBe(0);
    await phone.goto(`${app.url}/m/app/${appId}`);
    await phone.getByTestId('m-app-refused').getByText('没有此应用权限').waitFor();
    await phone.close();
  });

  it('a user with bigdataId lands on that dashboard full screen after login', async () => {
    await apiCall(app, token, 'PUT', `/api/org/users/${memberId}`, { name: '李手机', userExtJson: JSON.stringify({ bigdataId: screenBoard }) });
    const desk = await newPage(browser);
    await desk.goto(`${app.url}/login`);
    await desk.getByPlaceholder('账号').fill('phone1');
    await desk.getByPlaceholder('密码').fill('phone123');
    await desk.getByRole('button', { name: /登\s*录/ }).click();
    await desk.waitForURL('**/bigscreen');
    await desk.getByTestId('frame-board').waitFor();
    expect(await desk.getByTestId('frame-board').getAttribute('data-board-id')).toBe(String(screenBoard));
    await desk.waitForSelector('html[data-board-state="ready"]', { timeout: 60_000 });
    await screenshot(desk, 'apps-frame');
    await desk.close();
  });
});
