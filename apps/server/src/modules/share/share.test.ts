import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartSave } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call, type Call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { resetShareAttempts } from './open.ts';

/**
 * Share links over the demo warehouse, on both stores: who a link's token reads as (the
 * owner for login-free links, the visitor for account-matching ones), what it may reach
 * (only the shared board's routes), passwords, expiry, and the share-authorisation panel.
 */
const kinds = await storeKinds();

describe.each(kinds)('share links on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  /** Sees 浙江 rows of the dataset; creates the links. */
  let owner: { id: number; headers: Headers };
  /** Sees 广东 rows. */
  let visitor: { id: number; headers: Headers };
  /** May not see the board. */
  let outsider: { id: number; headers: Headers };
  let ownerGroup: number;
  let boardId: number;
  let otherBoardId: number;

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const open = (code: string, password?: string, headers: Headers = {}) =>
    call(w.server, 'POST', `/api/share/open/${code}`, { headers, payload: password === undefined ? {} : { password } });
  const createLink = (headers: Headers, body: Record<string, unknown>) =>
    call(w.server, 'POST', '/api/share/links', { headers, payload: { dataType: 'visual', dataId: boardId, ...body } });
  const provinces = async (headers: Headers, id = boardId): Promise<Call & { provinces: string[] }> => {
    const res = await call(w.server, 'POST', '/api/board/chart-data', { headers, payload: { boardId: id, chartKey: 'b1' } });
    const rows = (res.body.data?.dataList ?? []) as { d0: string }[];
    return { ...res, provinces: [...new Set(rows.map((r) => r.d0))].sort() };
  };
  const codeOf = (res: Call) => {
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.code as string;
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    const ws = await w.category('分享数据');
    const cubeId = (await w.save(admin, ordersDataset(ws, w.warehouseId))).body.data as number;
    const f = await fieldIds(w.server, admin, cubeId);
    owner = await w.member();
    visitor = await w.member();
    outsider = await w.member();
    ownerGroup = await w.group([owner.id]);
    const visitorGroup = await w.group([visitor.id]);
    for (const [group, province] of [
      [ownerGroup, '浙江'],
      [visitorGroup, '广东'],
    ] as const) {
      const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, { headers: admin, payload: { cubeWorkspaceId: ws, dataIdList: [cubeId] } });
      expect(grant.status, grant.raw.body).toBe(200);
      const filter = await call(w.server, 'POST', '/api/dataset/perm-filters', {
        headers: admin,
        payload: {
          cubeDataId: cubeId,
          dataPermId: group,
          cubePermName: province,
          filterJson: {
            relation: 'AND',
            conditions: [{ cubeColumnId: f['省份'], connectType: 'and', conditions: [{ function: 'eq', values: [province] }] }],
            filters: [],
          },
        },
      });
      expect(filter.status, filter.raw.body).toBe(200);
    }
    const categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '分享' } })).body.data
      .id;
    const bar: ChartSave = {
      key: 'b1',
      name: 'bar',
      title: '各省订单',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['订单编号']!, aggregation: 'COUNT' }] },
    };
    const board = (title: string, groups: number[]): BoardSave => ({
      title,
      categoryId,
      content: { type: 'quick', layout: [{ i: 'b1', x: 0, y: 0, w: 12, h: 6 }] },
      charts: [bar],
      publicStatus: 0,
      dataPermIdList: groups,
    });
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('销售分享', [ownerGroup, visitorGroup]) });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
    otherBoardId = (await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('另一块大屏', [ownerGroup]) })).body.data;
  }, 180_000);
  afterAll(() => w?.close());

  it('opens a login-free link without login, behind its password, showing only the owner’s rows', async () => {
    resetShareAttempts();
    const created = await createLink(owner.headers, { purpose: '周会', linkType: 0, password: 'Zj2026' });
    const code = codeOf(created);
    expect(created.body.data).toMatchObject({ visualDataTitle: '销售分享', purpose: '周会', linkType: 0, hasPassword: true, expireTime: null, enabled: true });
    expect(created.body.data.shortLink).toMatch(new RegExp(`^https?://[^/]+/share/${code}$`));
    expect(code).toMatch(/^[A-Za-z0-9_-]{10}$/);

    const asked = await open(code);
    expect([asked.status, asked.body.msg, asked.body.data]).toEqual([401, '请输入访问密码', { reason: 'password' }]);
    const wrong = await open(code, 'zj2026');
    expect([wrong.status, wrong.body.msg, wrong.body.data]).toEqual([403, '密码错误', { reason: 'passwordWrong' }]);
    const opened = await open(code, 'Zj2026');
    expect(opened.status, opened.raw.body).toBe(200);
    expect(opened.body.data).toMatchObject({ dataType: 'visual', dataId: boardId, title: '销售分享', linkType: 0, boardIds: [boardId] });

    const token = bearer(opened.body.data.token);
    expect((await call(w.server, 'GET', `/api/board/boards/${boardId}`, { headers: token })).body.data.title).toBe('销售分享');
    const rows = await provinces(token);
    expect(rows.status, rows.raw.body).toBe(200);
    expect(rows.provinces).toEqual(['浙江']);
    // The administrator sees every province: the link is not someone with no filter.
    expect((await provinces(admin)).provinces.length).toBeGreaterThan(1);
  });

  it('keeps a link’s token inside the shared board: other boards, other routes and raw datasets are refused', async () => {
    const opened = await open(codeOf(await createLink(owner.headers, { linkType: 0 })));
    const token = bearer(opened.body.data.token);
    const other = await call(w.server, 'GET', `/api/board/boards/${otherBoardId}`, { headers: token });
    expect([other.status, other.body.msg]).toEqual([403, '没有此大屏权限']);
    expect((await provinces(token, otherBoardId)).status).toBe(403);
    // The owner themself may see the other board: it is the scope that refuses.
    expect((await call(w.server, 'GET', `/api/board/boards/${otherBoardId}`, { headers: owner.headers })).status).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/org/users'],
      ['GET', '/api/board/boards?kind=visual'],
      ['GET', '/api/share/links'],
      ['GET', '/api/auth/info'],
    ] as const) {
      const res = await call(w.server, method, url, { headers: token });
      expect([res.status, res.body.msg], url).toEqual([403, '分享链接只能查看分享的内容']);
    }
    const board = (await call(w.server, 'GET', `/api/board/boards/${boardId}`, { headers: owner.headers })).body.data;
    const raw = await call(w.server, 'POST', '/api/board/chart-data', { headers: token, payload: { dataconfig: board.charts[0].dataconfig } });
    expect(raw.status).toBe(403);
  });

  it('refuses an expired link with 链接已过期 and a past expiry on create', async () => {
    const past = await createLink(owner.headers, { expireTime: new Date(Date.now() - 60_000).toISOString() });
    expect([past.status, past.body.data.fields[0].message]).toEqual([400, '有效期须晚于当前时间']);
    const created = await createLink(owner.headers, { expireTime: new Date(Date.now() + 3_600_000).toISOString() });
    const code = codeOf(created);
    const opened = await open(code);
    expect(opened.status).toBe(200);
    expect(new Date(opened.body.data.expiresAt).getTime()).toBeLessThanOrEqual(new Date(created.body.data.expireTime).getTime());
    await w.server.ctx.db
      .updateTable('shareLink')
      .set({ expireTime: new Date(Date.now() - 1000) })
      .where('id', '=', created.body.data.id)
      .execute();
    const expired = await open(code);
    expect([expired.status, expired.body.msg, expired.body.data]).toEqual([410, '链接已过期', { reason: 'expired' }]);
    const listed = (await call(w.server, 'GET', '/api/share/links', { headers: owner.headers, query: { size: 100 } })).body.data.records.find(
      (l: { id: number }) => l.id === created.body.data.id,
    );
    expect(listed.expired).toBe(true);
  });

  it('limits wrong passwords per link to 10 a minute', async () => {
    resetShareAttempts();
    const code = codeOf(await createLink(owner.headers, { password: 'right-one' }));
    for (let i = 0; i < 10; i++) expect((await open(code, `wrong-${i}`)).status).toBe(403);
    const blocked = await open(code, 'right-one');
    expect([blocked.status, blocked.body.msg]).toEqual([429, '密码错误次数过多，请一分钟后再试']);
    resetShareAttempts();
    expect((await open(code, 'right-one')).status).toBe(200);
  });

  it('disabling a link refuses it and revokes the tokens it handed out; re-enabling opens it again', async () => {
    const created = await createLink(owner.headers, {});
    const code = codeOf(created);
    const token = bearer((await open(code)).body.data.token);
    expect((await provinces(token)).status).toBe(200);
    const off = await call(w.server, 'PUT', `/api/share/links/${created.body.data.id}`, { headers: owner.headers, payload: { enabled: false } });
    expect([off.status, off.body.data.enabled]).toEqual([200, false]);
    expect((await provinces(token)).status).toBe(401);
    const gone = await open(code);
    expect([gone.status, gone.body.msg]).toEqual([404, '链接不存在或已失效']);
    expect((await call(w.server, 'PUT', `/api/share/links/${created.body.data.id}`, { headers: visitor.headers, payload: { enabled: true } })).status).toBe(
      403,
    );
    await call(w.server, 'PUT', `/api/share/links/${created.body.data.id}`, { headers: owner.headers, payload: { enabled: true } });
    expect((await open(code)).status).toBe(200);
    expect((await open('no-such-code')).status).toBe(404);
  });

  it('an account-matching link needs a session and shows the visitor’s own rows; a visitor who may not see the board is refused', async () => {
    const code = codeOf(await createLink(owner.headers, { linkType: 1 }));
    const anonymous = await open(code);
    expect([anonymous.status, anonymous.body.msg, anonymous.body.data]).toEqual([401, '该链接需要登录后访问', { reason: 'login' }]);
    const opened = await open(code, undefined, visitor.headers);
    expect(opened.status, opened.raw.body).toBe(200);
    expect((await provinces(bearer(opened.body.data.token))).provinces).toEqual(['广东']);
    const refused = await open(code, undefined, outsider.headers);
    expect([refused.status, refused.body.msg]).toEqual([403, '没有此大屏权限']);
    // A share token is not a signed-in visitor.
    expect((await open(code, undefined, bearer(opened.body.data.token))).status).toBe(401);
  });

  it('share authorisation restricts an account-matching link to the groups it is granted to', async () => {
    const accountLink = (await createLink(owner.headers, { linkType: 1 })).body.data;
    const freeLink = (await createLink(owner.headers, { linkType: 0 })).body.data;
    expect((await call(w.server, 'GET', '/api/share/auth', { headers: admin, query: { dataPermId: ownerGroup } })).body.data).toEqual([]);
    const bad = await call(w.server, 'PUT', '/api/share/auth', { headers: admin, payload: { dataPermId: ownerGroup, linkIdList: [freeLink.id] } });
    expect([bad.status, bad.body.data.fields[0].message]).toEqual([400, '分享链接不存在，请刷新后重新选择']);
    expect(
      (await call(w.server, 'PUT', '/api/share/auth', { headers: owner.headers, payload: { dataPermId: ownerGroup, linkIdList: [accountLink.id] } })).status,
    ).toBe(403);
    const saved = await call(w.server, 'PUT', '/api/share/auth', { headers: admin, payload: { dataPermId: ownerGroup, linkIdList: [accountLink.id] } });
    expect([saved.status, saved.body.data]).toEqual([200, [accountLink.id]]);
    expect((await call(w.server, 'GET', '/api/share/auth', { headers: admin, query: { dataPermId: ownerGroup } })).body.data).toEqual([accountLink.id]);

    const visitorOpen = await open(accountLink.code, undefined, visitor.headers);
    expect([visitorOpen.status, visitorOpen.body.msg]).toEqual([403, '您所在的权限组不能访问此链接']);
    expect((await open(accountLink.code, undefined, owner.headers)).status).toBe(200);
    // Deleting the link removes its grant.
    expect((await call(w.server, 'DELETE', `/api/share/links/${accountLink.id}`, { headers: owner.headers })).status).toBe(200);
    expect((await call(w.server, 'GET', '/api/share/auth', { headers: admin, query: { dataPermId: ownerGroup } })).body.data).toEqual([]);
    expect((await open(accountLink.code, undefined, owner.headers)).status).toBe(404);
  });

  it('shares a slideshow: the token reads that slideshow and its boards only', async () => {
    const saved = await call(w.server, 'POST', '/api/ppt/slideshows', { headers: admin, payload: { ppName: '月度汇报', visualIds: [boardId, otherBoardId] } });
    expect(saved.status, saved.raw.body).toBe(200);
    const pptId = saved.body.data.id as number;
    const other = await call(w.server, 'POST', '/api/ppt/slideshows', { headers: admin, payload: { ppName: '另一个', visualIds: [boardId] } });
    // Slideshows are public by default: the owner may see it, and both boards.
    const created = await call(w.server, 'POST', '/api/share/links', { headers: owner.headers, payload: { dataType: 'ppt', dataId: pptId } });
    const opened = await open(codeOf(created));
    expect(opened.body.data).toMatchObject({ dataType: 'ppt', dataId: pptId, title: '月度汇报', boardIds: [boardId, otherBoardId] });
    const token = bearer(opened.body.data.token);
    const info = await call(w.server, 'GET', `/api/ppt/slideshows/${pptId}`, { headers: token });
    expect([info.status, info.body.data?.visualList.map((v: { id: number }) => v.id)]).toEqual([200, [boardId, otherBoardId]]);
    expect((await call(w.server, 'GET', `/api/ppt/slideshows/${other.body.data.id}`, { headers: token })).status).toBe(403);
    expect((await provinces(token, otherBoardId)).provinces).toEqual(['浙江']);

    // A board added after the link was opened is not listed to its token (it could not read it).
    const narrow = await call(w.server, 'POST', '/api/ppt/slideshows', { headers: admin, payload: { ppName: '单页幻灯片', visualIds: [boardId] } });
    const narrowId = narrow.body.data.id as number;
    const narrowToken = bearer(
      (await open(codeOf(await call(w.server, 'POST', '/api/share/links', { headers: owner.headers, payload: { dataType: 'ppt', dataId: narrowId } })))).body
        .data.token,
    );
    const grown = await call(w.server, 'POST', '/api/ppt/slideshows', {
      headers: admin,
      payload: { id: narrowId, ppName: '单页幻灯片', visualIds: [boardId, otherBoardId] },
    });
    expect(grown.status, grown.raw.body).toBe(200);
    const narrowInfo = await call(w.server, 'GET', `/api/ppt/slideshows/${narrowId}`, { headers: narrowToken });
    expect(narrowInfo.body.data.visualList.map((v: { id: number }) => v.id)).toEqual([boardId]);
    expect((await call(w.server, 'GET', `/api/ppt/slideshows/${narrowId}`, { headers: owner.headers })).body.data.visualList).toHaveLength(2);
  });

  it('lists my links (administrators: all), filtered by title; only content I may see can be shared', async () => {
    const mine = (await call(w.server, 'GET', '/api/share/links', { headers: owner.headers, query: { size: 100 } })).body.data;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.records.every((l: { createUserId: number }) => l.createUserId === owner.id)).toBe(true);
    expect((await call(w.server, 'GET', '/api/share/links', { headers: visitor.headers })).body.data.total).toBe(0);
    const all = (await call(w.server, 'GET', '/api/share/links', { headers: admin, query: { size: 100 } })).body.data;
    expect(all.total).toBe(mine.total);
    expect((await call(w.server, 'GET', '/api/share/links', { headers: admin, query: { title: '没有这个' } })).body.data.total).toBe(0);
    const titled = mine.records.filter((l: { visualDataTitle: string }) => l.visualDataTitle.includes('汇报')).length;
    expect(titled).toBe(1);
    expect((await call(w.server, 'GET', '/api/share/links', { headers: admin, query: { title: '汇报' } })).body.data.total).toBe(titled);
    const refused = await createLink(outsider.headers, {});
    expect([refused.status, refused.body.msg]).toEqual([403, '没有此大屏权限']);
    const short = await createLink(owner.headers, { password: 'abc' });
    expect([short.status, short.body.data.fields[0].message]).toEqual([400, '访问密码为 4-32 个字符']);
  });

  it('short links use 公开访问地址 (系统设置, else PUBLIC_URL), else the address the request came in at', async () => {
    const shortLinkOf = async () => {
      const res = await createLink(owner.headers, {});
      const code = codeOf(res);
      const listed = (await call(w.server, 'GET', '/api/share/links', { headers: owner.headers, query: { size: 100 } })).body.data.records;
      return { created: res.body.data.shortLink as string, listed: listed.find((l: { code: string }) => l.code === code).shortLink as string, code };
    };
    const asAdmin = (publicUrl: string) => call(w.server, 'PUT', '/api/system/public-url', { headers: admin, payload: { publicUrl } });
    try {
      w.server.ctx.config.publicUrl = 'https://env.example.com';
      let link = await shortLinkOf();
      expect(link.created).toBe(`https://env.example.com/share/${link.code}`);
      expect((await asAdmin('https://BI.example.com/shutu/')).status).toBe(200);
      link = await shortLinkOf();
      expect(link).toMatchObject({ created: `https://bi.example.com/shutu/share/${link.code}`, listed: `https://bi.example.com/shutu/share/${link.code}` });
      // Changing it changes the links already made: the base is not stored with a link.
      expect((await asAdmin('http://10.0.0.8:8080')).status).toBe(200);
      expect((await call(w.server, 'GET', '/api/share/links', { headers: owner.headers, query: { size: 100 } })).body.data.records[0].shortLink).toMatch(
        /^http:\/\/10\.0\.0\.8:8080\/share\//,
      );
    } finally {
      w.server.ctx.config.publicUrl = undefined;
      await asAdmin('');
    }
    const link = await shortLinkOf();
    expect(link.created).toMatch(new RegExp(`^https?://[^/]+/share/${link.code}$`));
    expect(link.created).not.toContain('example.com');
  });
});
