import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSave } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser, uniqueAccount } from '../../../test/fixtures.ts';

/**
 * Apps: save with the name check, the two-level menus (one menu, save all, delete) with every
 * rule of spec 1 §4/§5, grants of published apps to a group, who may open an app in the viewer,
 * and the full-screen frame (bigdataId, default address).
 */
const kinds = await storeKinds();

type Headers = Record<string, string>;

describe.each(kinds)('apps on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let member: { id: number; headers: Headers };
  let outsider: { id: number; headers: Headers };
  let group: number;
  let publicBoard: number;
  let restrictedBoard: number;

  const saveApp = (headers: Headers, body: AppSave) => call(server, 'POST', '/api/apps', { headers, payload: body });
  const menus = (appId: number) => `/api/apps/${appId}/menus`;

  async function user() {
    const created = await createUser(server, admin);
    return { id: created.id, headers: await server.login(created.account, created.password) };
  }
  async function board(title: string, publicStatus: 0 | 1, categoryId: number): Promise<number> {
    const res = await call(server, 'POST', '/api/board/boards', {
      headers: admin,
      payload: {
        title,
        categoryId,
        publicStatus,
        content: { type: 'quick', layout: [{ i: 't1', x: 0, y: 0, w: 8, h: 4 }] },
        charts: [{ key: 't1', name: 'text', title: '说明', site: { x: 0, y: 0, w: 8, h: 4 } }],
      },
    });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  }
  async function newApp(headers: Headers, body: Partial<AppSave> = {}): Promise<number> {
    const res = await saveApp(headers, { appName: uniqueAccount('应用'), ...body });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.appId;
  }

  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
    [member, outsider] = [await user(), await user()];
    const typeId = (await call(server, 'POST', '/api/perm/types', { headers: admin, payload: { typeName: '应用测试' } })).body.data.id;
    group = (
      await call(server, 'POST', '/api/perm/groups', {
        headers: admin,
        payload: { permName: uniqueAccount('组'), typeId, permJson: { userList: [{ id: member.id, name: '' }] } },
      })
    ).body.data.id;
    const category = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '应用素材' } })).body.data
      .id;
    publicBoard = await board('销售大屏', 1, category);
    restrictedBoard = await board('财务受限大屏', 0, category);
  }, 180_000);
  afterAll(() => server?.close());

  it('requires the app name and keeps the fields', async () => {
    const empty = await saveApp(admin, { appName: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('请填写应用名');
    const res = await saveApp(admin, { appName: '经营驾驶舱', menuShowType: '2', waterMarkStatus: 1, waterMarkText: '内部资料' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      appName: '经营驾驶舱',
      menuShowType: '2',
      waterMarkStatus: 1,
      waterMarkText: '内部资料',
      publishStatus: 0,
      menus: [],
    });
    const noText = await saveApp(admin, { appName: '默认水印' });
    expect(noText.body.data.waterMarkText).toBe('保密');
  });

  it('saves one menu at a time with the spec rules', async () => {
    const appId = await newApp(admin);
    const noName = await call(server, 'POST', menus(appId), { headers: admin, payload: { menuName: '' } });
    expect(noName.body.msg).toBe('请输入菜单名');
    const top = await call(server, 'POST', menus(appId), { headers: admin, payload: { menuName: '销售' } });
    expect(top.status, top.raw.body).toBe(200);
    const parentId = top.body.data[0].menuId;
    expect(top.body.data[0].menuIcon).toBe('el-icon-data-analysis');
    const childNoBoard = await call(server, 'POST', menus(appId), { headers: admin, payload: { menuName: '日报', parentId } });
    expect(childNoBoard.status).toBe(400);
    expect(childNoBoard.body.msg).toBe('二级菜单需关联大屏');
    const child = await call(server, 'POST', menus(appId), { headers: admin, payload: { menuName: '日报', parentId, visualId: publicBoard } });
    expect(child.body.data[0].children).toMatchObject([{ menuName: '日报', parentId, visualId: publicBoard, visualName: '销售大屏', sortNum: 1 }]);
    const grandChild = await call(server, 'POST', menus(appId), {
      headers: admin,
      payload: { menuName: '三级', parentId: child.body.data[0].children[0].menuId, visualId: publicBoard },
    });
    expect(grandChild.body.msg).toBe('只支持两级菜单');
    const missing = await call(server, 'POST', menus(appId), { headers: admin, payload: { menuName: '无', visualId: 999999 } });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('大屏【999999】不存在');
    // Delete only without children.
    const refused = await call(server, 'DELETE', menus(appId), { headers: admin, query: { ids: String(parentId) } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('请先删除子菜单');
    const childId = child.body.data[0].children[0].menuId;
    const removed = await call(server, 'DELETE', menus(appId), { headers: admin, query: { ids: String(childId) } });
    expect(removed.status).toBe(200);
    expect(removed.body.data[0].children).toEqual([]);
  });

  it('a member may link only boards they may see', async () => {
    const appId = await newApp(member.headers);
    const refused = await call(server, 'POST', menus(appId), { headers: member.headers, payload: { menuName: '财务', visualId: restrictedBoard } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有此大屏权限');
    const other = await call(server, 'POST', menus(appId), { headers: outsider.headers, payload: { menuName: '别人的', visualId: publicBoard } });
    expect(other.status).toBe(403);
  });

  it('save all numbers sortNum by position, gives children their parent and checks first-level menus', async () => {
    const appId = await newApp(admin);
    const lonely = await call(server, 'PUT', menus(appId), { headers: admin, payload: { menus: [{ menuName: '空菜单', children: [] }] } });
    expect(lonely.status).toBe(400);
    expect(lonely.body.msg).toBe('一级菜单【空菜单】应关联大屏或添加子菜单');
    const childless = await call(server, 'PUT', menus(appId), {
      headers: admin,
      payload: { menus: [{ menuName: '甲', children: [{ menuName: '乙' }] }] },
    });
    expect(childless.body.msg).toBe('二级菜单需关联大屏');
    const tree = {
      menus: [
        { menuName: '总览', visualId: publicBoard, children: [] },
        {
          menuName: '财务',
          children: [
            { menuName: '收入', visualId: restrictedBoard },
            { menuName: '支出', visualId: publicBoard },
          ],
        },
      ],
    };
    const saved = await call(server, 'PUT', menus(appId), { headers: admin, payload: tree });
    expect(saved.status, saved.raw.body).toBe(200);
    const [first, second] = saved.body.data;
    expect(first).toMatchObject({ menuName: '总览', sortNum: 1, parentId: 0 });
    expect(second).toMatchObject({ menuName: '财务', sortNum: 2, parentId: 0 });
    expect(second.children.map((c: { menuName: string; sortNum: number; parentId: number }) => [c.menuName, c.sortNum, c.parentId])).toEqual([
      ['收入', 1, second.menuId],
      ['支出', 2, second.menuId],
    ]);
    // Reorder: the children swap, 总览 moves last, ids kept.
    const reordered = await call(server, 'PUT', menus(appId), {
      headers: admin,
      payload: {
        menus: [
          { menuId: second.menuId, menuName: '财务', children: [second.children[1], second.children[0]] },
          { menuId: first.menuId, menuName: '总览', visualId: publicBoard },
        ],
      },
    });
    expect(reordered.body.data.map((m: { menuId: number }) => m.menuId)).toEqual([second.menuId, first.menuId]);
    expect(reordered.body.data[0].children.map((c: { menuName: string; sortNum: number }) => `${c.sortNum}${c.menuName}`)).toEqual(['1支出', '2收入']);
  });

  it('grants only published apps; members open granted published apps, others are refused', async () => {
    const appId = await newApp(admin, { appName: '手机驾驶舱' });
    await call(server, 'PUT', menus(appId), { headers: admin, payload: { menus: [{ menuName: '总览', visualId: publicBoard }] } });
    const grantable = async () => (await call(server, 'GET', '/api/apps/grantable', { headers: admin })).body.data.map((a: { appId: number }) => a.appId);
    expect(await grantable()).not.toContain(appId);
    const unpublished = await call(server, 'PUT', `/api/apps/auth/${group}`, { headers: admin, payload: { appIdList: [appId] } });
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.msg).toBe('应用【手机驾驶舱】未发布，不能授权');

    await saveApp(admin, { appId, appName: '手机驾驶舱', publishStatus: 1 });
    expect(await grantable()).toContain(appId);
    const granted = await call(server, 'PUT', `/api/apps/auth/${group}`, { headers: admin, payload: { appIdList: [appId] } });
    expect(granted.status, granted.raw.body).toBe(200);
    expect((await call(server, 'GET', `/api/apps/auth/${group}`, { headers: admin })).body.data).toEqual([appId]);
    const byMember = await call(server, 'PUT', `/api/apps/auth/${group}`, { headers: member.headers, payload: { appIdList: [] } });
    expect(byMember.status).toBe(403);

    const listed = async (headers: Headers) => (await call(server, 'GET', '/api/apps/mobile', { headers })).body.data.map((a: { appId: number }) => a.appId);
    expect(await listed(member.headers)).toContain(appId);
    expect(await listed(outsider.headers)).not.toContain(appId);
    const opened = await call(server, 'GET', `/api/apps/mobile/${appId}`, { headers: member.headers });
    expect(opened.status).toBe(200);
    expect(opened.body.data.menus[0]).toMatchObject({ menuName: '总览', visualId: publicBoard, visualKind: 'visual' });
    const refused = await call(server, 'GET', `/api/apps/mobile/${appId}`, { headers: outsider.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有此应用权限');
    // The member cannot edit it.
    expect((await call(server, 'GET', `/api/apps/${appId}`, { headers: member.headers })).status).toBe(403);

    // Unpublished again: the grant stays, the app no longer opens for the member.
    await saveApp(admin, { appId, appName: '手机驾驶舱', publishStatus: 0 });
    const closed = await call(server, 'GET', `/api/apps/mobile/${appId}`, { headers: member.headers });
    expect(closed.status).toBe(403);
    expect(closed.body.msg).toBe('应用未发布');
    expect(await listed(member.headers)).not.toContain(appId);
    expect(await listed(admin)).toContain(appId);

    // Deleting the app removes its grants.
    await call(server, 'DELETE', `/api/apps/${appId}`, { headers: admin });
    expect((await call(server, 'GET', `/api/apps/auth/${group}`, { headers: admin })).body.data).toEqual([]);
  });

  it('the frame: bigdataId of the user, else the default address', async () => {
    const bad = await call(server, 'PUT', '/api/apps/frame-settings', { headers: admin, payload: { defaultAddress: 'javascript:alert(1)' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('默认地址须以 / 或 http(s):// 开头');
    await call(server, 'PUT', '/api/apps/frame-settings', { headers: admin, payload: { defaultAddress: '/m' } });
    expect((await call(server, 'GET', '/api/apps/frame', { headers: outsider.headers })).body.data).toEqual({ bigdataId: null, defaultAddress: '/m' });
    const put = await call(server, 'PUT', `/api/org/users/${member.id}`, {
      headers: admin,
      payload: { name: '大屏用户', userExtJson: JSON.stringify({ bigdataId: publicBoard }) },
    });
    expect(put.status, put.raw.body).toBe(200);
    expect((await call(server, 'GET', '/api/apps/frame', { headers: member.headers })).body.data).toEqual({ bigdataId: publicBoard, defaultAddress: '/m' });
  });
});
