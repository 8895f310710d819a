import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartSave } from '@shutu/contracts';
import { sql } from 'kysely';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Boards (dashboards and self-service reports): categories, the editor save and its checks,
 * list (pager, category with sub-categories, search, sort order), detail and charts, info,
 * copy, delete, sort, the permission matrix and report authorisation.
 */
const kinds = await storeKinds();

describe.each(kinds)('boards on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;
  /** A restricted dataset and a public one, with their field ids by title. */
  let privateCube: number;
  let publicCube: number;
  let pf: Record<string, number>;
  let creator: { id: number; headers: Headers };
  let outsider: { id: number; headers: Headers };
  let member: { id: number; headers: Headers };
  let creatorGroup: number;
  let memberGroup: number;
  let top: number;
  let sub: number;
  let reportCategory: number;

  const api = (path: string) => `/api/board${path}`;
  const category = async (body: Record<string, unknown>, headers: Headers = admin) => call(w.server, 'POST', api('/categories'), { headers, payload: body });
  const save = (headers: Headers, body: BoardSave) => call(w.server, 'POST', api('/boards'), { headers, payload: body });
  const list = (headers: Headers, query: Record<string, string | number> = {}) =>
    call(w.server, 'GET', api('/boards'), { headers, query: { kind: 'visual', ...query } });
  const detail = (headers: Headers, id: number) => call(w.server, 'GET', api(`/boards/${id}`), { headers });
  const bar = (cubeId: number, f: Record<string, number>, key = 'c1', extra: Partial<ChartSave> = {}): ChartSave => ({
    key,
    name: 'bar',
    title: '各省金额',
    dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['金额']!, aggregation: 'SUM' }] },
    site: { x: 0, y: 0, w: 8, h: 6 },
    ...extra,
  });
  const board = (title: string, categoryId: number, extra: Partial<BoardSave> = {}): BoardSave => ({
    title,
    categoryId,
    content: { type: 'quick', layout: [{ i: 'c1', x: 0, y: 0, w: 8, h: 6 }] },
    charts: [bar(publicCube, pf)],
    ...extra,
  });
  const saved = async (headers: Headers, body: BoardSave): Promise<number> => {
    const res = await save(headers, body);
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    const ws = await w.category('看板数据');
    privateCube = (await w.save(admin, ordersDataset(ws, w.warehouseId, '受限订单', 0))).body.data;
    publicCube = (await w.save(admin, ordersDataset(ws, w.warehouseId, '公开订单', 1))).body.data;
    pf = await fieldIds(w.server, admin, publicCube);
    creator = await w.member();
    outsider = await w.member();
    member = await w.member();
    creatorGroup = await w.group([creator.id]);
    memberGroup = await w.group([member.id]);
    top = (await category({ kind: 'visual', categoryValue: '经营' })).body.data.id;
    sub = (await category({ kind: 'visual', categoryValue: '销售', parentId: top })).body.data.id;
    reportCategory = (await category({ kind: 'report', categoryValue: '经营' })).body.data.id;
  }, 180_000);
  afterAll(() => w?.close());

  it('keeps categories in two levels per kind, with the spec messages', async () => {
    const cats = (await call(w.server, 'GET', api('/categories'), { headers: admin, query: { kind: 'visual' } })).body.data;
    expect(cats.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([top, sub]));
    expect(cats.find((c: { id: number }) => c.id === reportCategory)).toBeUndefined();
    expect(cats.find((c: { id: number }) => c.id === sub)).toMatchObject({ parentId: top, kind: 'visual', categoryValue: '销售' });

    expect((await category({ kind: 'visual', categoryValue: '  ' })).body.msg).toBe('请填写分类名');
    const deep = await category({ kind: 'visual', categoryValue: '三级', parentId: sub });
    expect([deep.status, deep.body.msg]).toEqual([400, '分类最多两级：上级只能是顶级分类']);
    const self = await category({ id: top, kind: 'visual', categoryValue: '经营', parentId: top });
    expect(self.body.msg).toBe('上级分类不能是自己');
    const otherKind = await category({ kind: 'visual', categoryValue: '跨类', parentId: reportCategory });
    expect(otherKind.body.msg).toBe('上级分类不存在');
    const taken = await category({ kind: 'visual', categoryValue: '经营' });
    expect([taken.status, taken.body.msg]).toEqual([409, '同一上级下分类名称已存在']);
    // Renaming by an outsider is refused; the creator of a category may rename it.
    const mine = (await category({ kind: 'visual', categoryValue: '我的分类' }, creator.headers)).body.data.id;
    expect((await category({ id: mine, kind: 'visual', categoryValue: '改名' }, outsider.headers)).status).toBe(403);
    expect((await category({ id: mine, kind: 'visual', categoryValue: '改名' }, creator.headers)).body.data.categoryValue).toBe('改名');
    expect((await call(w.server, 'DELETE', api(`/categories/${mine}`), { headers: creator.headers })).status).toBe(200);
  });

  it('saves a dashboard with its charts and reads it back', async () => {
    const id = await saved(
      admin,
      board('销售大屏', sub, { content: { type: 'screen', layout: [{ i: 'c1', x: 0, y: 0, w: 400, h: 300 }], width: 1920, height: 1080 } }),
    );
    const res = await detail(admin, id);
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      kind: 'visual',
      title: '销售大屏',
      categoryId: sub,
      categoryName: '销售',
      type: 'screen',
      publicStatus: 1,
      editable: true,
    });
    expect(res.body.data.content).toMatchObject({ type: 'screen', width: 1920, layout: [{ i: 'c1' }] });
    expect(res.body.data.charts).toHaveLength(1);
    expect(res.body.data.charts[0]).toMatchObject({ key: 'c1', name: 'bar', title: '各省金额', dataconfig: { cubeId: publicCube }, ext: { filterList: [] } });
    const charts = await call(w.server, 'GET', api(`/boards/${id}/charts`), { headers: admin });
    expect(charts.body.data.map((c: { key: string }) => c.key)).toEqual(['c1']);

    // An update replaces the charts.
    const update = board('销售大屏', sub, {
      id,
      content: { type: 'screen', layout: [{ i: 'c2', x: 0, y: 0, w: 400, h: 300 }] },
      charts: [bar(publicCube, pf, 'c2'), { key: 't1', name: 'text', ext: { filterList: [], text: '说明' } }],
    });
    expect((await save(admin, update)).status).toBe(200);
    expect((await detail(admin, id)).body.data.charts.map((c: { key: string }) => c.key).sort()).toEqual(['c2', 't1']);
  });

  it('saves a self-service report in a report category only', async () => {
    const id = await saved(admin, board('周报', reportCategory, { kind: 'report' }));
    expect((await detail(admin, id)).body.data).toMatchObject({ kind: 'report', type: 'quick' });
    expect((await list(admin, { kind: 'report' })).body.data.records.map((r: { id: number }) => r.id)).toContain(id);
    expect((await list(admin)).body.data.records.map((r: { id: number }) => r.id)).not.toContain(id);
    const wrong = await save(admin, board('周报', top, { kind: 'report' }));
    expect([wrong.status, wrong.body.msg]).toEqual([400, '分类不存在']);
  });

  it('checks charts, layout, title and category before saving', async () => {
    const msg = async (body: BoardSave, status = 400, headers = admin) => {
      const res = await save(headers, body);
      expect(res.status, res.raw.body).toBe(status);
      return res.body.msg;
    };
    expect(await msg(board(' ', top))).toBe('请填写大屏名称');
    expect(await msg(board('x', 999_999))).toBe('分类不存在');
    expect(await msg(board('x', top, { charts: [bar(publicCube, pf), bar(publicCube, pf)] }))).toBe('图表编号【c1】重复');
    expect(
      await msg(board('x', top, { charts: [bar(publicCube, pf, 'c1', { dataconfig: { cubeId: publicCube, rowParamList: [{ fieldId: 987_654 }] } })] })),
    ).toBe('图表【各省金额】使用的字段【987654】不在数据集中');
    expect(await msg(board('x', top, { charts: [bar(publicCube, pf, 'c1', { dataconfig: null })] }))).toBe('图表【各省金额】未选择数据集');
    expect(await msg(board('x', top, { charts: [bar(publicCube, pf, 'c1', { dataconfig: { cubeId: publicCube } })] }))).toBe(
      '图表【各省金额】请至少选择一个维度或指标',
    );
    expect(await msg(board('x', top, { content: { layout: [{ i: 'nope', x: 0, y: 0, w: 1, h: 1 }] } }))).toBe('布局中的图表编号【nope】不存在');
    expect(await msg(board('x', top, { charts: [bar(publicCube, pf, 'c1', { ext: { filterList: [{ linkFrom: 'f9', linkKey: pf['省份']! }] } })] }))).toBe(
      '图表【各省金额】联动的图表编号【f9】不存在',
    );
    // A board-wide filter's mapped field must be a field of the dataset it names.
    const filter = (autoLinkFields: Record<string, number>): ChartSave => ({
      ...bar(publicCube, pf, 'f1', { name: 'filterSelect', title: '省份筛选' }),
      dataconfig: { cubeId: publicCube, rowParamList: [{ fieldId: pf['省份']! }] },
      ext: { filterList: [], autoLink: true, autoLinkExclude: ['c1'], autoLinkFields },
    });
    expect(await msg(board('x', top, { charts: [bar(publicCube, pf), filter({ [publicCube]: 987_654 })] }))).toBe(
      '图表【省份筛选】使用的字段【987654】不在数据集中',
    );
    const kept = await saved(admin, board('全局筛选', top, { charts: [bar(publicCube, pf), filter({ [publicCube]: pf['省份']!, 424242: 1 })] }));
    expect((await detail(admin, kept)).body.data.charts[1].ext).toMatchObject({ autoLink: true, autoLinkExclude: ['c1'] });
    expect(await msg(board('x', top, { charts: [bar(123_456, pf)] }), 404)).toBe('数据集不存在');
    // A dataset the caller may not read cannot back a chart.
    const pv = await fieldIds(w.server, admin, privateCube);
    expect(await msg(board('x', top, { charts: [bar(privateCube, pv)] }), 403, creator.headers)).toMatch(/受限订单/);
    // A group of someone else.
    expect(await msg(board('x', top, { publicStatus: 0, dataPermIdList: [memberGroup] }), 403, creator.headers)).toBe('只能选择自己所在的权限组');
  });

  it('lists by category with its sub-categories, by title, 50 a page by default, in sort order', async () => {
    const cat = (await category({ kind: 'visual', categoryValue: '分页' })).body.data.id;
    const child = (await category({ kind: 'visual', categoryValue: '分页子', parentId: cat })).body.data.id;
    const ids: number[] = [];
    for (const [i, c] of [cat, cat, child, child, child].entries()) ids.push(await saved(admin, board(`分页报表${i}`, c)));
    const all = (await list(admin, { categoryId: cat })).body.data;
    expect(all).toMatchObject({ total: 5, current: 1, size: 50 });
    // Newest first while unsorted.
    expect(all.records.map((r: { id: number }) => r.id)).toEqual([...ids].reverse());
    expect((await list(admin, { categoryId: child })).body.data.total).toBe(3);
    expect((await list(admin, { categoryId: -1 })).body.data.total).toBeGreaterThanOrEqual(5);
    const paged = (await list(admin, { categoryId: cat, size: 2, current: 3 })).body.data;
    expect(paged.records.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect((await list(admin, { title: '分页报表3' })).body.data.records.map((r: { id: number }) => r.id)).toEqual([ids[3]]);
    expect((await list(admin, { title: '%' })).body.data.total).toBe(0);

    const order = [ids[2]!, ids[0]!, ids[4]!, ids[1]!, ids[3]!];
    const sorted = await call(w.server, 'PUT', api('/sort'), { headers: admin, payload: { kind: 'visual', ids: order.join(',') } });
    expect(sorted.status, sorted.raw.body).toBe(200);
    expect((await list(admin, { categoryId: cat })).body.data.records.map((r: { id: number }) => r.id)).toEqual(order);
    const bad = await call(w.server, 'PUT', api('/sort'), { headers: admin, payload: { kind: 'visual', ids: '1,x' } });
    expect([bad.status, bad.body.msg]).toEqual([400, '排序须为逗号分隔的报表编号']);
    // Someone else's boards cannot be reordered.
    expect((await call(w.server, 'PUT', api('/sort'), { headers: outsider.headers, payload: { kind: 'visual', ids: order.join(',') } })).status).toBe(403);
  });

  it('shows a board to administrators, its creator, everyone when public, and granted groups; refuses others', async () => {
    const restricted = await saved(creator.headers, board('受限大屏', top, { publicStatus: 0, dataPermIdList: [creatorGroup] }));
    const open = await saved(creator.headers, board('公开大屏', top));
    for (const headers of [admin, creator.headers]) expect((await detail(headers, restricted)).status).toBe(200);
    expect((await detail(admin, restricted)).body.data).toMatchObject({ publicStatus: 0, editable: true, createUserId: creator.id });

    for (const path of [`/boards/${restricted}`, `/boards/${restricted}/charts`]) {
      const res = await call(w.server, 'GET', api(path), { headers: outsider.headers });
      expect([res.status, res.body.msg]).toEqual([403, '没有此大屏权限']);
    }
    const data = await call(w.server, 'POST', api('/chart-data'), { headers: outsider.headers, payload: { boardId: restricted, chartKey: 'c1' } });
    expect([data.status, data.body.msg]).toEqual([403, '没有此大屏权限']);
    const outsiderIds = (await list(outsider.headers, { categoryId: top })).body.data.records.map((r: { id: number }) => r.id);
    expect(outsiderIds).toContain(open);
    expect(outsiderIds).not.toContain(restricted);
    expect((await detail(outsider.headers, open)).body.data.editable).toBe(false);
    const del = await call(w.server, 'DELETE', api(`/boards/${open}`), { headers: outsider.headers });
    expect([del.status, del.body.msg]).toEqual([403, '只能修改或删除自己创建的报表']);
    expect((await call(w.server, 'DELETE', api(`/boards/${restricted}`), { headers: outsider.headers })).body.msg).toBe('没有此大屏权限');

    // Granted to the member's group through the group's report tab.
    expect((await detail(member.headers, restricted)).status).toBe(403);
    const grant = await call(w.server, 'PUT', api(`/auth/${memberGroup}`), {
      headers: admin,
      payload: { kind: 'visual', reportCategoryId: top, selfReportIdList: [restricted] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    expect(grant.body.data).toEqual([restricted]);
    expect((await detail(member.headers, restricted)).status).toBe(200);
    expect((await list(member.headers, { categoryId: top })).body.data.records.map((r: { id: number }) => r.id)).toContain(restricted);
    // Granting as a report does not grant the dashboard kind.
    expect((await call(w.server, 'GET', api(`/auth/${memberGroup}`), { headers: admin, query: { kind: 'report' } })).body.data).toEqual([]);
    // Authorisation is for administrators.
    expect((await call(w.server, 'GET', api(`/boards/${restricted}/auth`), { headers: creator.headers })).status).toBe(403);
  });

  it('saves a new board and its group grants in one transaction: a failing grant leaves no board behind', async () => {
    const before = (await list(admin, { categoryId: top, size: 200 })).body.data.total as number;
    // The grant row cannot be written (as if its group were deleted between the check and the insert).
    await sql`CREATE FUNCTION refuse_grant() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'grant refused'; END $$`.execute(w.server.ctx.db);
    await sql`CREATE TRIGGER refuse_grant BEFORE INSERT ON perm_grant FOR EACH ROW EXECUTE FUNCTION refuse_grant()`.execute(w.server.ctx.db);
    try {
      const res = await save(creator.headers, board('半途大屏', top, { publicStatus: 0, dataPermIdList: [creatorGroup] }));
      expect(res.status).toBe(500);
    } finally {
      await sql`DROP TRIGGER refuse_grant ON perm_grant`.execute(w.server.ctx.db);
      await sql`DROP FUNCTION refuse_grant()`.execute(w.server.ctx.db);
    }
    const after = await list(admin, { categoryId: top, size: 200 });
    expect(after.body.data.total).toBe(before);
    expect(after.body.data.records.map((r: { title: string }) => r.title)).not.toContain('半途大屏');
    // With the grant writable again the same save goes through, with its grant.
    const id = await saved(creator.headers, board('半途大屏', top, { publicStatus: 0, dataPermIdList: [creatorGroup] }));
    expect((await call(w.server, 'GET', api(`/boards/${id}/auth`), { headers: admin })).body.data).toEqual({ publicStatus: 0, permIds: [creatorGroup] });
  });

  it('replaces a group grants within one category only', async () => {
    const a = await saved(admin, board('甲', top, { publicStatus: 0 }));
    const b = await saved(admin, board('乙', sub, { publicStatus: 0 }));
    const other = (await category({ kind: 'visual', categoryValue: '其他' })).body.data.id;
    const c = await saved(admin, board('丙', other, { publicStatus: 0 }));
    const put = (reportCategoryId: number, ids: number[]) =>
      call(w.server, 'PUT', api(`/auth/${memberGroup}`), { headers: admin, payload: { kind: 'visual', reportCategoryId, selfReportIdList: ids } });
    expect((await put(other, [c])).body.data).toEqual([c]);
    // The top category includes its sub-category.
    expect((await put(top, [a, b])).body.data).toEqual(expect.arrayContaining([a, b]));
    expect((await put(top, [b])).body.data).not.toContain(a);
    const granted = (await call(w.server, 'GET', api(`/auth/${memberGroup}`), { headers: admin, query: { kind: 'visual' } })).body.data;
    expect(granted).toEqual(expect.arrayContaining([b, c]));
    expect(granted).not.toContain(a);
    expect((await call(w.server, 'GET', api(`/auth/${memberGroup}`), { headers: admin, query: { kind: 'visual', reportCategoryId: sub } })).body.data).toEqual([
      b,
    ]);
    const outside = await put(sub, [c]);
    expect(outside.status).toBe(400);
  });

  it('saves a board authorisation: groups, and public with an empty group list', async () => {
    const id = await saved(admin, board('授权', top, { publicStatus: 0, dataPermIdList: [creatorGroup] }));
    const auth = (headers = admin) => call(w.server, 'GET', api(`/boards/${id}/auth`), { headers });
    expect((await auth()).body.data).toEqual({ publicStatus: 0, permIds: [creatorGroup] });
    const put = (payload: unknown) => call(w.server, 'PUT', api(`/boards/${id}/auth`), { headers: admin, payload });
    expect((await put({ publicStatus: 0, dataPermIdList: [memberGroup] })).body.data).toEqual({ publicStatus: 0, permIds: [memberGroup] });
    expect((await detail(member.headers, id)).status).toBe(200);
    expect((await detail(creator.headers, id)).status).toBe(403);
    expect((await put({ publicStatus: 1, dataPermIdList: [] })).body.data).toEqual({ publicStatus: 1, permIds: [] });
    expect((await detail(outsider.headers, id)).status).toBe(200);
    expect((await put({ publicStatus: 0, dataPermIdList: [999_999] })).status).toBe(400);
  });

  it('edits the info of a board', async () => {
    const id = await saved(creator.headers, board('旧名', top));
    const put = (payload: unknown, headers = creator.headers) => call(w.server, 'PUT', api(`/boards/${id}/info`), { headers, payload });
    expect((await put({ title: '', categoryId: top })).body.msg).toBe('请填写大屏名称');
    expect((await put({ title: '新名', categoryId: reportCategory })).body.msg).toBe('分类不存在');
    expect((await put({ title: '新名', categoryId: sub }, outsider.headers)).status).toBe(403);
    const res = await put({ title: '新名', categoryId: sub, backgroundUrl: '/api/board/thumbnails/a.png' });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({ title: '新名', categoryId: sub, backgroundUrl: '/api/board/thumbnails/a.png' });
    // Without backgroundUrl the thumbnail stays.
    expect((await put({ title: '新名2', categoryId: sub })).body.data.backgroundUrl).toBe('/api/board/thumbnails/a.png');
  });

  it('copies a board for whoever may see it, with charts, thumbnail, public status and grants', async () => {
    const open = await saved(creator.headers, board('可复制', top));
    const res = await call(w.server, 'POST', api(`/boards/${open}/copy`), { headers: outsider.headers });
    expect([res.status, res.body.msg]).toEqual([200, '复制成功']);
    const copy = (await detail(outsider.headers, res.body.data)).body.data;
    expect(copy).toMatchObject({ title: '可复制-副本', categoryId: top, publicStatus: 1, createUserId: outsider.id, editable: true });
    expect(copy.charts.map((c: { key: string }) => c.key)).toEqual(['c1']);

    const restricted = await saved(admin, board('受限复制', top, { publicStatus: 0, dataPermIdList: [memberGroup] }));
    await call(w.server, 'PUT', api(`/boards/${restricted}/info`), {
      headers: admin,
      payload: { title: '受限复制', categoryId: top, backgroundUrl: '/api/board/thumbnails/b.png' },
    });
    expect((await call(w.server, 'POST', api(`/boards/${restricted}/copy`), { headers: outsider.headers })).status).toBe(403);
    const copied = (await call(w.server, 'POST', api(`/boards/${restricted}/copy`), { headers: member.headers })).body.data;
    expect((await call(w.server, 'GET', api(`/boards/${copied}/auth`), { headers: admin })).body.data).toEqual({ publicStatus: 0, permIds: [memberGroup] });
    expect((await detail(member.headers, copied)).body.data).toMatchObject({ backgroundUrl: '/api/board/thumbnails/b.png', createUserId: member.id });
  });

  it('deletes a board with its grants, and refuses to delete categories still in use', async () => {
    const cat = (await category({ kind: 'visual', categoryValue: '待删' })).body.data.id;
    const child = (await category({ kind: 'visual', categoryValue: '待删子', parentId: cat })).body.data.id;
    const id = await saved(admin, board('待删', child, { publicStatus: 0, dataPermIdList: [memberGroup] }));
    const delCat = (c: number) => call(w.server, 'DELETE', api(`/categories/${c}`), { headers: admin });
    expect([(await delCat(cat)).status, (await delCat(cat)).body.msg]).toEqual([409, '请先删除下级分类']);
    expect((await delCat(child)).body.msg).toBe('该分类下还有 1 个报表，请先删除或移到其他分类');

    const granted = () => call(w.server, 'GET', api(`/auth/${memberGroup}`), { headers: admin, query: { kind: 'visual' } });
    expect((await granted()).body.data).toContain(id);
    const del = await call(w.server, 'DELETE', api(`/boards/${id}`), { headers: admin });
    expect([del.status, del.body.msg]).toEqual([200, '删除成功']);
    expect((await detail(admin, id)).status).toBe(404);
    expect((await granted()).body.data).not.toContain(id);
    expect((await delCat(child)).status).toBe(200);
    expect((await delCat(cat)).status).toBe(200);
  });

  it('answers chart data refusals without querying', async () => {
    const id = await saved(
      admin,
      board('图表数据', top, { charts: [bar(publicCube, pf), { key: 't1', name: 'text', ext: { filterList: [], text: '说明' } }] }),
    );
    const data = (payload: unknown, headers = admin) => call(w.server, 'POST', api('/chart-data'), { headers, payload });
    const text = await data({ boardId: id, chartKey: 't1' });
    expect(text.status, text.raw.body).toBe(200);
    expect(text.body.data).toMatchObject({ dataList: [], fieldDict: [], shared: false });
    const missing = await data({ boardId: id, chartKey: 'nope' });
    expect([missing.status, missing.body.msg]).toEqual([404, '图表不存在']);
    const pv = await fieldIds(w.server, admin, privateCube);
    const editor = await data({ dataconfig: { cubeId: privateCube, rowParamList: [{ fieldId: pv['省份'] }] } }, outsider.headers);
    expect(editor.status).toBe(403);
    expect(editor.body.msg).toMatch(/受限订单/);
    expect((await data({})).status).toBe(400);
  });
  it('reads a saved chart through the query engine', async () => {
    const id = await saved(admin, board('真实数据', top));
    const res = await call(w.server, 'POST', api('/chart-data'), { headers: outsider.headers, payload: { boardId: id, chartKey: 'c1' } });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.dataList.length).toBeGreaterThan(0);
    expect(res.body.data.fieldDict.length).toBe(2);

    // A public board over a dataset the outsider holds no grant on: the board's grant is enough
    // to read its saved charts; the same config from an editor is refused.
    const pv = await fieldIds(w.server, admin, privateCube);
    const overPrivate = await saved(admin, { ...board('受限数据上的公开大屏', top), charts: [bar(privateCube, pv)] });
    const read = await call(w.server, 'POST', api('/chart-data'), { headers: outsider.headers, payload: { boardId: overPrivate, chartKey: 'c1' } });
    expect(read.status, read.raw.body).toBe(200);
    expect(read.body.data.dataList.length).toBeGreaterThan(0);
  });
});
