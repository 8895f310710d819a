import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';
import { createOrdersDataset, ordersField } from './api-fixtures.ts';

/**
 * Share links (spec 1 §3 "Share link", §7 "Shares"; docs/shares.md): a member whose group sees
 * 浙江 rows only shares a board through the preview's 分享 dialog as a login-free link with a
 * password; a fresh browser without any session opens it, is refused a wrong password, and
 * then sees the board with the member's rows only. A shared slideshow opens in the slideshow
 * viewer and pages with the keys. An expired link shows 链接已过期.
 */
describe('share links', () => {
  let app: E2EApp;
  let browser: Browser;
  let page: Page;
  let boardId: number;
  let pptId: number;
  let memberToken: string;
  let shareUrl: string;
  const member = { account: 'zhejiang', password: 'zhejiang1' };
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');

  beforeAll(async () => {
    app = await startApp({ SHUTU_DEMO_SCALE: '2000' });
    const token = await apiLogin(app);
    const {
      cubeId,
      categoryId: wsId,
      fieldIds: f,
    } = await createOrdersDataset(app, token, {
      category: '分享数据',
      name: '订单',
      publicStatus: 0,
      fields: [ordersField('province', 'province', '省份'), ordersField('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' })],
    });

    const user = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', {
      account: member.account,
      password: md5(member.password),
      name: '浙江销售',
    });
    const type = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/types', { typeName: '销售' });
    const group = await apiCall<{ id: number }>(app, token, 'POST', '/api/perm/groups', {
      permName: '浙江区',
      typeId: type.id,
      permJson: { userList: [{ id: user.id, name: '' }] },
    });
    await apiCall(app, token, 'PUT', `/api/dataset/auth/${group.id}/cubes`, { cubeWorkspaceId: wsId, dataIdList: [cubeId] });
    await apiCall(app, token, 'POST', '/api/dataset/perm-filters', {
      cubeDataId: cubeId,
      dataPermId: group.id,
      cubePermName: '只看浙江',
      filterJson: {
        relation: 'AND',
        conditions: [{ cubeColumnId: f['省份'], connectType: 'and', conditions: [{ function: 'eq', values: ['浙江'] }] }],
        filters: [],
      },
    });
    const category = await apiCall<{ id: number }>(app, token, 'POST', '/api/board/categories', { kind: 'visual', categoryValue: '区域' });
    const saveBoard = (title: string) =>
      apiCall<number>(app, token, 'POST', '/api/board/boards', {
        title,
        categoryId: category.id,
        content: { type: 'quick', layout: [{ i: 't1', x: 0, y: 0, w: 12, h: 6 }] },
        charts: [
          {
            key: 't1',
            name: 'table',
            title: '各省销售额',
            dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份'] }], indexParamList: [{ fieldId: f['金额'], aggregation: 'SUM' }] },
          },
        ],
        publicStatus: 0,
        dataPermIdList: [group.id],
      });
    boardId = await saveBoard('区域销售看板');
    const detailBoardId = await saveBoard('区域销售明细');
    pptId = (await apiCall<{ id: number }>(app, token, 'POST', '/api/ppt/slideshows', { ppName: '区域月报', visualIds: [boardId, detailBoardId] })).id;
    memberToken = await apiLogin(app, member.account, member.password);
    browser = await launchBrowser();
    page = await newPage(browser);
    await loginThroughPage(page, app, member.account, member.password);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `share-failed-${ctx.task.name.slice(0, 24)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('the member shares the board from the preview as a login-free link with a password', async () => {
    await page.goto(`${app.url}/newbi/preview/${boardId}`);
    await page.getByTestId('board-share').click();
    const dialog = page.locator('.ant-modal');
    await dialog.getByText('分享「区域销售看板」').waitFor();
    await dialog.getByTestId('share-purpose').fill('发给合作方');
    await dialog.getByTestId('share-password').fill('Zj2026');
    await dialog.getByTestId('share-create').click();
    await dialog.getByTestId('share-created').waitFor();
    shareUrl = await dialog.getByTestId('share-link').inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${app.url}/share/[A-Za-z0-9_-]{10}$`));
    await expect(dialog.textContent()).resolves.toContain('访问密码：Zj2026');
    await screenshot(page, 'share-dialog');
  });

  it('a fresh browser opens it without login: wrong password refused, then only the member’s rows', async () => {
    const visitor = await newPage(browser);
    try {
      await visitor.goto(shareUrl);
      await visitor.getByText('此分享需要访问密码').waitFor();
      await visitor.getByTestId('share-password-input').fill('wrong-one');
      await visitor.getByTestId('share-password-submit').click();
      await visitor.getByTestId('share-password-error').getByText('密码错误').waitFor();
      await screenshot(visitor, 'share-password');
      await visitor.getByTestId('share-password-input').fill('Zj2026');
      await visitor.getByTestId('share-password-submit').click();
      await visitor.locator('html[data-board-state="ready"]').waitFor({ state: 'attached', timeout: 60_000 });
      await expect(visitor.getByTestId('board-title').textContent()).resolves.toBe('区域销售看板');
      const chart = visitor.locator('[data-testid="board-chart"][data-chart-key="t1"]');
      await expect(chart.getAttribute('data-row-count')).resolves.toBe('1');
      const text = (await chart.textContent()) ?? '';
      expect(text).toContain('浙江');
      expect(text).not.toContain('广东');
      // The visitor never signed in: no session was stored.
      const stored = await visitor.evaluate(() =>
        (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('shutu.token'),
      );
      expect(stored).toBeNull();
      await screenshot(visitor, 'share-open');
    } finally {
      await visitor.context().close();
    }
  });

  it('a shared slideshow opens in the slideshow viewer without login: ArrowRight pages, 已经是最后一个了 at the end', async () => {
    const link = await apiCall<{ code: string }>(app, memberToken, 'POST', '/api/share/links', { dataType: 'ppt', dataId: pptId });
    const visitor = await newPage(browser);
    try {
      await visitor.goto(`${app.url}/share/${link.code}`);
      await visitor.getByTestId('ppt-viewer').waitFor({ timeout: 30_000 });
      const ready = () => visitor.locator('html[data-board-state="ready"]').waitFor({ state: 'attached', timeout: 60_000 });
      const currentTitle = () => visitor.getByTestId('ppt-current-title').textContent();
      await ready();
      await expect(visitor.getByTestId('ppt-name').textContent()).resolves.toBe('区域月报');
      await expect(currentTitle()).resolves.toBe('区域销售看板');
      // A visitor without a session: no 订阅 / 导出pdf / 收藏 / 归档.
      for (const id of ['ppt-subscribe', 'ppt-export-pdf', 'ppt-favourite', 'ppt-archive']) expect(await visitor.getByTestId(id).count()).toBe(0);

      await visitor.keyboard.press('ArrowRight');
      await expect.poll(currentTitle, { timeout: 20_000 }).toBe('区域销售明细');
      await ready();
      const chart = visitor.locator('[data-ppt-current="true"] [data-testid="board-chart"][data-chart-key="t1"]');
      await expect.poll(() => chart.getAttribute('data-row-count'), { timeout: 30_000 }).toBe('1');
      const text = (await chart.textContent()) ?? '';
      expect(text).toContain('浙江');
      expect(text).not.toContain('广东');
      await screenshot(visitor, 'share-ppt');

      await visitor.keyboard.press('ArrowRight');
      await visitor.getByText('已经是最后一个了').waitFor();
      await expect(currentTitle()).resolves.toBe('区域销售明细');
    } finally {
      await visitor.context().close();
    }
  });

  it('an expired link shows 链接已过期', async () => {
    const link = await apiCall<{ code: string }>(app, memberToken, 'POST', '/api/share/links', {
      dataType: 'visual',
      dataId: boardId,
      expireTime: new Date(Date.now() + 2000).toISOString(),
    });
    // Wait (on the server's answer) until the link has expired.
    await eventually(
      async () => {
        const res = await fetch(`${app.url}/api/share/open/${link.code}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        return res.status === 410 ? true : undefined;
      },
      'the link to expire',
      20_000,
    );
    const visitor = await newPage(browser);
    try {
      await visitor.goto(`${app.url}/share/${link.code}`);
      await visitor.getByText('链接已过期').waitFor();
      await expect(visitor.getByTestId('share-refused').getAttribute('data-refusal')).resolves.toBe('expired');
      await screenshot(visitor, 'share-expired');
    } finally {
      await visitor.context().close();
    }
  });
});
