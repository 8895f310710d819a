import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser, uniqueAccount } from '../../../test/fixtures.ts';

/**
 * 首页: recent visits newest first and de-duplicated, items that can no longer be seen drop
 * out, boards granted to the user's groups listed as shared (others' private ones never),
 * board favourites, favourite slideshows, and the guided path while the user has made nothing.
 */
const kinds = await storeKinds();

type Headers = Record<string, string>;
interface Item {
  kind: string;
  id: number;
  title: string;
  favourite: boolean;
}

describe.each(kinds)('home page on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let member: { id: number; headers: Headers };
  let group: number;
  let category: number;
  /** Public board by the administrator, and a restricted one granted to the member's group. */
  let publicBoard: number;
  let grantedBoard: number;
  /** Restricted, granted to no one: the member never sees it. */
  let privateBoard: number;

  const home = async (headers: Headers) => {
    const res = await call(server, 'GET', '/api/home', { headers });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data as { recent: Item[]; favouriteBoards: Item[]; favouritePpts: Item[]; sharedBoards: Item[]; guide: unknown };
  };
  const visit = (headers: Headers, kind: string, id: number) => call(server, 'POST', '/api/home/visits', { headers, payload: { kind, id } });
  const titles = (items: Item[]) => items.map((i) => i.title);

  async function board(headers: Headers, title: string, publicStatus: 0 | 1, categoryId = category): Promise<number> {
    const res = await call(server, 'POST', '/api/board/boards', {
      headers,
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
  const grant = (id: number, groups: number[], publicStatus: 0 | 1 = 0) =>
    call(server, 'PUT', `/api/board/boards/${id}/auth`, { headers: admin, payload: { publicStatus, dataPermIdList: groups } });

  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
    const created = await createUser(server, admin);
    member = { id: created.id, headers: await server.login(created.account, created.password) };
    const typeId = (await call(server, 'POST', '/api/perm/types', { headers: admin, payload: { typeName: '首页测试' } })).body.data.id;
    group = (
      await call(server, 'POST', '/api/perm/groups', {
        headers: admin,
        payload: { permName: uniqueAccount('组'), typeId, permJson: { userList: [{ id: member.id, name: '' }] } },
      })
    ).body.data.id;
    category = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '首页素材' } })).body.data.id;
    publicBoard = await board(admin, '公开大屏', 1);
    grantedBoard = await board(admin, '授权大屏', 0);
    privateBoard = await board(admin, '私有大屏', 0);
    expect((await grant(grantedBoard, [group])).status).toBe(200);
  }, 180_000);
  afterAll(() => server?.close());

  it('lists recent boards newest first, once each, and drops what the user may no longer see', async () => {
    expect((await visit(member.headers, 'board', publicBoard)).status).toBe(200);
    expect((await visit(member.headers, 'board', grantedBoard)).status).toBe(200);
    expect((await visit(member.headers, 'board', publicBoard)).status).toBe(200);
    expect(titles((await home(member.headers)).recent)).toEqual(['公开大屏', '授权大屏']);

    // The grant is revoked: the board vanishes from recent (and from shared).
    expect((await grant(grantedBoard, [])).status).toBe(200);
    const after = await home(member.headers);
    expect(titles(after.recent)).toEqual(['公开大屏']);
    expect(titles(after.sharedBoards)).toEqual([]);
    expect((await grant(grantedBoard, [group])).status).toBe(200);

    // A deleted board vanishes too.
    const doomed = await board(admin, '将删除的大屏', 1);
    await visit(member.headers, 'board', doomed);
    expect(titles((await home(member.headers)).recent)[0]).toBe('将删除的大屏');
    expect((await call(server, 'DELETE', `/api/board/boards/${doomed}`, { headers: admin })).status).toBe(200);
    expect(titles((await home(member.headers)).recent)).not.toContain('将删除的大屏');
  });

  it('refuses to record a visit to a board the user may not see, or of an unknown kind', async () => {
    const refused = await visit(member.headers, 'board', privateBoard);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有此大屏权限');
    expect((await visit(member.headers, 'board', 999_999)).status).toBe(404);
    const bad = await visit(member.headers, 'chart', publicBoard);
    expect(bad.status).toBe(400);
    expect(bad.raw.body).toContain('访问类型只能是大屏（board）或幻灯片（ppt）');
    expect(titles((await home(member.headers)).recent)).not.toContain('私有大屏');
  });

  it("shows a member the boards granted to their groups, never others' private ones nor public ones", async () => {
    const shared = (await home(member.headers)).sharedBoards;
    expect(titles(shared)).toEqual(['授权大屏']);
    // The administrator is in no group: nothing is shared with them, although they see every board.
    expect((await home(admin)).sharedBoards).toEqual([]);
  });

  it('stars a board the user may see, lists it under favourites, and takes the star away', async () => {
    const starred = await call(server, 'PUT', `/api/home/favourite-boards/${grantedBoard}`, { headers: member.headers });
    expect(starred.status).toBe(200);
    expect(starred.body.msg).toBe('已收藏');
    const data = await home(member.headers);
    expect(titles(data.favouriteBoards)).toEqual(['授权大屏']);
    expect(data.sharedBoards.find((b) => b.id === grantedBoard)?.favourite).toBe(true);
    expect((await call(server, 'PUT', `/api/home/favourite-boards/${privateBoard}`, { headers: member.headers })).status).toBe(403);

    const removed = await call(server, 'DELETE', `/api/home/favourite-boards/${grantedBoard}`, { headers: member.headers });
    expect(removed.body.msg).toBe('已取消收藏');
    expect((await home(member.headers)).favouriteBoards).toEqual([]);
  });

  it('lists recent slideshows and the user’s favourite slideshows', async () => {
    const pptId = (await call(server, 'POST', '/api/ppt/slideshows', { headers: admin, payload: { ppName: '月度汇报', visualIds: [publicBoard] } })).body.data
      .id;
    const favourite = await call(server, 'POST', '/api/ppt/slideshows', {
      headers: member.headers,
      payload: { ppName: '我收藏的汇报', visualIds: [publicBoard], visualType: 1, sourceId: pptId },
    });
    expect(favourite.status, favourite.raw.body).toBe(200);
    expect((await visit(member.headers, 'ppt', pptId)).status).toBe(200);
    const data = await home(member.headers);
    expect(data.recent[0]).toMatchObject({ kind: 'ppt', title: '月度汇报' });
    expect(titles(data.favouritePpts)).toEqual(['我收藏的汇报']);
    // Another user's favourite is theirs alone.
    expect((await home(admin)).favouritePpts).toEqual([]);
  });

  it('offers the guided path through the demo content until the user makes something of their own', async () => {
    const demoCategory = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '示例' } })).body.data
      .id;
    const demo = await board(admin, '销售概览', 1, demoCategory);
    const outsider = await createUser(server, admin);
    const headers = await server.login(outsider.account, outsider.password);
    // A member is not sent to 数据源管理 (an administrators' page).
    expect((await home(headers)).guide).toEqual({ datasource: null, dataset: null, board: { id: demo, title: '销售概览' } });
    await board(headers, '我的第一个大屏', 1);
    expect((await home(headers)).guide).toBeNull();
  });
});
