import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PptSave } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser, uniqueAccount } from '../../../test/fixtures.ts';
import { currentMonth } from './model.ts';

/**
 * Slideshows: submit with its checks, info with the visible boards in order, visibility
 * through public status and group grants, favourites and archives in the caller's own
 * categories (默认分类 first), category delete, record delete.
 */
const kinds = await storeKinds();

type Headers = Record<string, string>;

describe.each(kinds)('slideshows on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let creator: { id: number; headers: Headers };
  let outsider: { id: number; headers: Headers };
  let member: { id: number; headers: Headers };
  let memberGroup: number;
  /** Public boards A and C, restricted board B (the administrator's, granted to no one). */
  let boardA: number;
  let boardB: number;
  let boardC: number;

  const save = (headers: Headers, body: PptSave) => call(server, 'POST', '/api/ppt/slideshows', { headers, payload: body });
  const saved = async (headers: Headers, body: PptSave): Promise<number> => {
    const res = await save(headers, body);
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.id;
  };
  const info = (headers: Headers, id: number) => call(server, 'GET', `/api/ppt/slideshows/${id}`, { headers });
  const list = (headers: Headers, query: Record<string, string | number> = {}) =>
    call(server, 'GET', '/api/ppt/slideshows', { headers, query: { size: 100, ...query } });
  const listedIds = async (headers: Headers, query: Record<string, string | number> = {}) =>
    (await list(headers, query)).body.data.records.map((r: { id: number }) => r.id);
  const categories = async (headers: Headers, visualType: 1 | 2) =>
    (await call(server, 'GET', '/api/ppt/categories', { headers, query: { visualType } })).body.data;

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

  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
    [creator, outsider, member] = [await user(), await user(), await user()];
    const typeId = (await call(server, 'POST', '/api/perm/types', { headers: admin, payload: { typeName: '幻灯片测试' } })).body.data.id;
    const group = await call(server, 'POST', '/api/perm/groups', {
      headers: admin,
      payload: { permName: uniqueAccount('组'), typeId, permJson: { userList: [{ id: member.id, name: '' }] } },
    });
    memberGroup = group.body.data.id;
    const category = (await call(server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '幻灯片素材' } })).body
      .data.id;
    boardA = await board('甲大屏', 1, category);
    boardB = await board('乙受限大屏', 0, category);
    boardC = await board('丙大屏', 1, category);
  }, 180_000);
  afterAll(() => server?.close());

  it('checks a submit: name, boards, month, and boards the saver may not see', async () => {
    const base = { ppName: '月度经营', visualIds: [boardA] };
    expect((await save(creator.headers, { ...base, ppName: '  ' })).body.msg).toBe('请填写幻灯片名称');
    expect((await save(creator.headers, { ...base, visualIds: [] })).body.msg).toBe('请至少选择一个大屏');
    expect((await save(creator.headers, { ...base, ppMonth: '2024-13' })).body.msg).toBe('月份格式应为 yyyy-MM');
    const hidden = await save(creator.headers, { ...base, visualIds: [boardA, boardB] });
    expect([hidden.status, hidden.body.msg]).toEqual([403, '没有大屏【乙受限大屏】的权限']);
    const missing = await save(creator.headers, { ...base, visualIds: [99_999_999] });
    expect([missing.status, missing.body.msg]).toEqual([404, '大屏【99999999】不存在']);
  });

  it('keeps the boards in order and leaves out those the viewer may not see or that were deleted', async () => {
    const id = await saved(creator.headers, {
      ppName: '经营汇报',
      ppMonth: '2025-06',
      visualIds: [boardC, boardA, boardC],
      settings: { autoPlay: true, interval: 15 },
    });
    const own = (await info(creator.headers, id)).body.data;
    expect(own.detail).toMatchObject({
      ppName: '经营汇报',
      ppMonth: '2025-06',
      visualIds: [boardC, boardA],
      settings: { autoPlay: true, interval: 15 },
      editable: true,
      visualType: 0,
    });
    expect(own.visualList.map((v: { title: string }) => v.title)).toEqual(['丙大屏', '甲大屏']);
    expect(own.visualList[0]).toMatchObject({ id: boardC, kind: 'visual', type: 'quick' });

    // The administrator's slideshow holds the restricted board: others see the rest.
    const mixed = await saved(admin, { ppName: '全部大屏', visualIds: [boardA, boardB, boardC] });
    expect((await info(admin, mixed)).body.data.visualList.map((v: { id: number }) => v.id)).toEqual([boardA, boardB, boardC]);
    const seen = (await info(outsider.headers, mixed)).body.data;
    expect(seen.visualList.map((v: { id: number }) => v.id)).toEqual([boardA, boardC]);
    expect(seen.detail.editable).toBe(false);

    const gone = await board('临时大屏', 1, (await call(server, 'GET', `/api/board/boards/${boardA}`, { headers: admin })).body.data.categoryId);
    const withGone = await saved(creator.headers, { ppName: '含临时', visualIds: [gone, boardA] });
    expect((await call(server, 'DELETE', `/api/board/boards/${gone}`, { headers: admin })).status).toBe(200);
    expect((await info(creator.headers, withGone)).body.data.visualList.map((v: { id: number }) => v.id)).toEqual([boardA]);

    // Updating: renaming keeps the kept boards; someone else may not change it.
    const update = await save(creator.headers, { id, ppName: '经营汇报（新）', visualIds: [boardA], settings: { autoPlay: false, interval: 10 } });
    expect(update.body.data).toMatchObject({ ppName: '经营汇报（新）', visualIds: [boardA], ppMonth: null });
    const foreign = await save(outsider.headers, { id, ppName: '改名', visualIds: [boardA] });
    expect([foreign.status, foreign.body.msg]).toEqual([403, '只能修改或删除自己创建的幻灯片']);
  });

  it('lists a restricted slideshow only to its creator, administrators and granted groups', async () => {
    const id = await saved(creator.headers, { ppName: '内部幻灯片', visualIds: [boardA] });
    const auth = await call(server, 'PUT', `/api/ppt/slideshows/${id}/auth`, { headers: admin, payload: { publicStatus: 0, dataPermIdList: [] } });
    expect(auth.body.data).toEqual({ publicStatus: 0, permIds: [] });
    expect((await call(server, 'PUT', `/api/ppt/slideshows/${id}/auth`, { headers: creator.headers, payload: { publicStatus: 1 } })).status).toBe(403);

    expect(await listedIds(creator.headers)).toContain(id);
    expect(await listedIds(admin)).toContain(id);
    expect(await listedIds(outsider.headers)).not.toContain(id);
    expect(await listedIds(member.headers)).not.toContain(id);
    const refused = await info(member.headers, id);
    expect([refused.status, refused.body.msg]).toEqual([403, '没有此幻灯片权限']);

    const grant = await call(server, 'PUT', `/api/ppt/auth/${memberGroup}`, { headers: admin, payload: { pptIdList: [id] } });
    expect(grant.body.data).toEqual([id]);
    expect((await call(server, 'GET', `/api/ppt/auth/${memberGroup}`, { headers: admin })).body.data).toEqual([id]);
    expect(await listedIds(member.headers)).toContain(id);
    expect((await info(member.headers, id)).status).toBe(200);
    expect(await listedIds(outsider.headers)).not.toContain(id);
    // mine=1: only the caller's own.
    expect(await listedIds(member.headers, { mine: 'true' })).not.toContain(id);
    expect(await listedIds(creator.headers, { mine: 'true' })).toContain(id);
  });

  it('keeps favourites and archives in the caller’s own categories, 默认分类 first', async () => {
    const source = await saved(creator.headers, { ppName: '季度回顾', ppMonth: '2025-03', visualIds: [boardA, boardC] });
    const blank = await call(server, 'POST', '/api/ppt/categories', { headers: member.headers, payload: { visualType: 1, classifyName: ' ' } });
    expect(blank.body.msg).toBe('请填写分类名');
    const focus = (await call(server, 'POST', '/api/ppt/categories', { headers: member.headers, payload: { visualType: 1, classifyName: '重点' } })).body.data
      .id;
    const twice = await call(server, 'POST', '/api/ppt/categories', { headers: member.headers, payload: { visualType: 1, classifyName: '重点' } });
    expect([twice.status, twice.body.msg]).toEqual([409, '分类名称已存在']);
    expect(await categories(member.headers, 1)).toEqual([
      { id: 0, classifyName: '默认分类' },
      { id: focus, classifyName: '重点' },
    ]);
    expect(await categories(outsider.headers, 1)).toEqual([{ id: 0, classifyName: '默认分类' }]);
    expect(await categories(member.headers, 2)).toEqual([{ id: 0, classifyName: '默认分类' }]);

    const noName = await save(member.headers, { ppName: '', visualIds: [boardA], visualType: 1, sourceId: source, cateId: focus });
    expect(noName.body.msg).toBe('请填写幻灯片名称');
    const foreignCategory = await save(outsider.headers, { ppName: '收藏', visualIds: [boardA], visualType: 1, sourceId: source, cateId: focus });
    expect(foreignCategory.body.msg).toBe('分类不存在');

    const favourite = await save(member.headers, { ppName: '我收藏的回顾', visualIds: [boardA, boardC], visualType: 1, sourceId: source, cateId: focus });
    expect(favourite.body.msg).toBe('已收藏');
    expect(favourite.body.data).toMatchObject({ visualType: 1, cateId: focus, sourceId: source, ppMonth: '2025-03', visualIds: [boardA, boardC] });
    const archive = await save(member.headers, { ppName: '归档回顾', visualIds: [boardA], visualType: 2, sourceId: source });
    expect(archive.body.msg).toBe('已归档');
    expect(archive.body.data).toMatchObject({ visualType: 2, cateId: 0, ppMonth: currentMonth() });

    expect(await listedIds(member.headers, { visualType: 1, cateId: focus })).toEqual([favourite.body.data.id]);
    expect(await listedIds(member.headers, { visualType: 1, cateId: 0 })).toEqual([]);
    expect(await listedIds(member.headers, { visualType: 2 })).toEqual([archive.body.data.id]);
    // Someone else's favourites are theirs alone, administrators' lists included.
    expect(await listedIds(admin, { visualType: 1 })).not.toContain(favourite.body.data.id);
    expect((await info(outsider.headers, favourite.body.data.id)).status).toBe(403);
    expect(await listedIds(member.headers)).not.toContain(favourite.body.data.id);

    // Deleting the category moves its favourites to 默认分类.
    expect((await call(server, 'DELETE', `/api/ppt/categories/${focus}`, { headers: outsider.headers })).status).toBe(404);
    expect((await call(server, 'DELETE', `/api/ppt/categories/${focus}`, { headers: member.headers })).status).toBe(200);
    expect(await categories(member.headers, 1)).toEqual([{ id: 0, classifyName: '默认分类' }]);
    expect(await listedIds(member.headers, { visualType: 1, cateId: 0 })).toEqual([favourite.body.data.id]);
  });

  it('deletes a slideshow for its creator or an administrator only', async () => {
    const id = await saved(creator.headers, { ppName: '待删除', visualIds: [boardA] });
    const refused = await call(server, 'DELETE', `/api/ppt/slideshows/${id}`, { headers: outsider.headers });
    expect([refused.status, refused.body.msg]).toEqual([403, '只能修改或删除自己创建的幻灯片']);
    const done = await call(server, 'DELETE', `/api/ppt/slideshows/${id}`, { headers: creator.headers });
    expect([done.status, done.body.msg]).toEqual([200, '已删除']);
    expect((await info(creator.headers, id)).body.msg).toBe('幻灯片不存在');
  });
});
