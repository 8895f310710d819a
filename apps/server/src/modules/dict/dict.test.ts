import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createRole, createUser } from '../../../test/fixtures.ts';

const kinds = await storeKinds();

interface DictBody {
  parentId?: number;
  code?: string;
  dictKey?: number;
  dictValue?: string;
  sort?: number;
  isSealed?: number;
  remark?: string | null;
}

let seq = 0;
const code = (prefix = 'code') => `${prefix}_${++seq}_${Date.now().toString(36)}`;

describe.each(kinds)('dictionaries on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const save = (body: DictBody, id?: number) => call(server, id ? 'PUT' : 'POST', id ? `/api/dict/${id}` : '/api/dict', { headers: admin, payload: body });
  const entry = (overrides: DictBody = {}): DictBody => ({ parentId: 0, code: code(), dictKey: 1, dictValue: '名称', sort: 1, isSealed: 0, ...overrides });
  const create = async (overrides: DictBody = {}) => {
    const res = await save(entry(overrides));
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data as { id: number; code: string; parentId: number };
  };
  const parents = (query: Record<string, string | number> = {}) => call(server, 'GET', '/api/dict/parents', { headers: admin, query });
  const children = (parentId: number, query: Record<string, string | number> = {}) =>
    call(server, 'GET', '/api/dict/children', { headers: admin, query: { parentId, ...query } });
  const remove = (ids: unknown) => call(server, 'POST', '/api/dict/remove', { headers: admin, payload: { ids } });
  const get = (id: number) => call(server, 'GET', `/api/dict/${id}`, { headers: admin });

  it('creates a dictionary and its entries, reads them back and counts the children', async () => {
    const res = await save(entry({ code: code('gender'), dictValue: '性别', remark: '  人员性别 ' }));
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('保存成功');
    const parent = res.body.data;
    expect(parent).toMatchObject({ parentId: 0, dictValue: '性别', remark: '人员性别', isSealed: 0, childCount: 0 });
    const male = await create({ parentId: parent.id, code: parent.code, dictKey: 1, dictValue: '男', sort: 2 });
    await create({ parentId: parent.id, code: parent.code, dictKey: 2, dictValue: '女', sort: 1 });
    expect(male).not.toHaveProperty('childCount');

    expect((await get(parent.id)).body.data.childCount).toBe(2);
    const list = await children(parent.id);
    expect(list.body.data).toMatchObject({ total: 2, current: 1, size: 5 });
    expect(list.body.data.records.map((d: { dictValue: string }) => d.dictValue)).toEqual(['女', '男']);
    expect((await get(999999)).body).toMatchObject({ code: 404, msg: '字典不存在' });
  });

  it('gives every child its parent’s code, whatever code the form sent', async () => {
    const parent = await create({ code: code('color') });
    const child = await create({ parentId: parent.id, code: 'something_else', dictKey: 7 });
    expect(child.code).toBe(parent.code);
  });

  it.each([
    ['code', '请输入字典编号'],
    ['dictKey', '请输入字典键值'],
    ['dictValue', '请输入字典名称'],
    ['sort', '请输入字典排序'],
    ['isSealed', '请选择封存'],
  ] as const)('refuses a missing %s with %s', async (field, message) => {
    const body: Record<string, unknown> = { ...entry() };
    delete body[field];
    const res = await save(body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(message);
    expect(res.body.data.fields).toEqual([{ field, message }]);
  });

  it('refuses blank text, a non-integer key and a sealed flag other than 0 or 1', async () => {
    expect((await save(entry({ code: '   ' }))).body.msg).toBe('请输入字典编号');
    expect((await save(entry({ dictValue: '' }))).body.msg).toBe('请输入字典名称');
    expect((await save(entry({ dictKey: 1.5 }))).body.msg).toBe('请输入字典键值');
    expect((await save({ ...entry(), dictKey: '3' as unknown as number })).body.msg).toBe('请输入字典键值');
    expect((await save(entry({ isSealed: 2 }))).body.msg).toBe('请选择封存');
  });

  it('refuses a duplicate dictionary code and a duplicate key within one dictionary', async () => {
    const parent = await create({ code: code('dup') });
    const again = await save(entry({ code: parent.code }));
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('字典编号已存在');

    await create({ parentId: parent.id, dictKey: 5 });
    const sameKey = await save(entry({ parentId: parent.id, dictKey: 5 }));
    expect(sameKey.status).toBe(409);
    expect(sameKey.body.msg).toBe('同一字典下键值已存在');
    // The same key under another dictionary is fine.
    const other = await create();
    await create({ parentId: other.id, dictKey: 5 });
    expect((await children(parent.id)).body.data.total).toBe(1);
  });

  it('lets only one of several simultaneous saves of one code or key through; the rest get 409', async () => {
    const shared = code('race');
    const results = await Promise.all(Array.from({ length: 6 }, () => save(entry({ code: shared }))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.msg === '字典编号已存在')).toBe(true);

    const parent = results.find((r) => r.status === 200)!.body.data;
    const keys = await Promise.all(Array.from({ length: 4 }, () => save(entry({ parentId: parent.id, dictKey: 42 }))));
    expect(keys.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await children(parent.id)).body.data.total).toBe(1);
  });

  it('renames a dictionary while its entries are edited and deleted, without errors or stale codes', async () => {
    const parent = await create({ code: code('busy') });
    const kids = [];
    for (let key = 1; key <= 6; key++) kids.push(await create({ parentId: parent.id, dictKey: key }));
    const renamed = code('busy2');
    const results = await Promise.all([
      save(entry({ code: renamed }), parent.id),
      ...kids.slice(0, 3).map((kid, i) => save(entry({ parentId: parent.id, dictKey: 10 + i, dictValue: `改${i}` }), kid.id)),
      remove([kids[4]!.id, kids[5]!.id]),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const left = await children(parent.id, { size: 100 });
    expect(left.body.data.total).toBe(4);
    expect(left.body.data.records.every((d: { code: string }) => d.code === renamed)).toBe(true);
  });

  it('refuses a child of a missing parent, or of an entry that is itself a child', async () => {
    const missing = await save(entry({ parentId: 999999 }));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ msg: '上级字典不存在', data: { fields: [{ field: 'parentId' }] } });
    const parent = await create();
    const child = await create({ parentId: parent.id });
    expect((await save(entry({ parentId: child.id }))).body.msg).toBe('上级字典不存在');
    const list = await children(999999);
    expect(list.status).toBe(404);
    expect(list.body.msg).toBe('上级字典不存在');
    expect((await children(child.id)).status).toBe(404);
  });

  it('edits an entry; a new code on a dictionary is carried to all its entries', async () => {
    const parent = await create({ code: code('old') });
    const a = await create({ parentId: parent.id, dictKey: 1 });
    const b = await create({ parentId: parent.id, dictKey: 2 });
    const newCode = code('new');
    const res = await save(entry({ code: newCode, dictValue: '改名', sort: 9, isSealed: 1, remark: '备注' }), parent.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ msg: '保存成功', data: { code: newCode, dictValue: '改名', sort: 9, isSealed: 1, remark: '备注', childCount: 2 } });
    expect((await get(a.id)).body.data.code).toBe(newCode);
    expect((await get(b.id)).body.data.code).toBe(newCode);

    // A child keeps its parent and code, whatever parentId or code the body carries.
    const child = await save(entry({ parentId: 0, code: 'ignored', dictKey: 3, dictValue: '三' }), a.id);
    expect(child.body.data).toMatchObject({ id: a.id, parentId: parent.id, code: newCode, dictKey: 3, dictValue: '三' });
    const clash = await save(entry({ parentId: parent.id, dictKey: 2 }), a.id);
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toBe('同一字典下键值已存在');
    // Saving an entry with its own unchanged key is not a clash.
    expect((await save(entry({ parentId: parent.id, dictKey: 2, dictValue: '二' }), b.id)).status).toBe(200);
    expect((await save(entry(), 999999)).status).toBe(404);
  });

  it('refuses renaming a dictionary to a taken code, leaving it and its entries untouched', async () => {
    const taken = await create({ code: code('taken') });
    const parent = await create({ code: code('mine') });
    const child = await create({ parentId: parent.id });
    const res = await save(entry({ code: taken.code }), parent.id);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('字典编号已存在');
    expect((await get(parent.id)).body.data.code).toBe(parent.code);
    expect((await get(child.id)).body.data.code).toBe(parent.code);
  });

  it('searches dictionaries by code or name ignoring case, pages them 5 at a time by sort then id', async () => {
    const tag = `Srch${Date.now().toString(36)}`;
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await create({ code: `${tag}_${i}`, dictValue: `值${i}`, sort: 10 - (i % 3) })).id);
    await create({ code: code('plain'), dictValue: `名称含${tag.toUpperCase()}` });

    const first = await parents({ query: tag.toLowerCase() });
    expect(first.body.data).toMatchObject({ total: 8, current: 1, size: 5 });
    const all = await parents({ query: tag, size: 100 });
    const sorts = all.body.data.records.map((d: { sort: number }) => d.sort);
    expect(sorts).toEqual([...sorts].sort((x: number, y: number) => x - y));
    expect(all.body.data.records.every((d: { childCount: number }) => d.childCount === 0)).toBe(true);
    const second = await parents({ query: tag, current: 2 });
    expect(second.body.data.records.map((d: { id: number }) => d.id)).toEqual(all.body.data.records.slice(5).map((d: { id: number }) => d.id));
    expect((await parents({ query: `${tag}_3` })).body.data.records.map((d: { id: number }) => d.id)).toEqual([made[3]]);
    expect((await parents({ query: '%' })).body.data.total).toBe(0);
    // Entries never show up among dictionaries.
    const parent = await create({ code: code('nochild') });
    await create({ parentId: parent.id, dictValue: `子项${tag}` });
    expect((await parents({ query: tag, size: 100 })).body.data.total).toBe(8);
  });

  it('searches entries of one dictionary by name or key', async () => {
    const parent = await create();
    await create({ parentId: parent.id, dictKey: 101, dictValue: 'Alpha' });
    await create({ parentId: parent.id, dictKey: 202, dictValue: 'Beta' });
    expect((await children(parent.id, { query: 'alp' })).body.data.records.map((d: { dictKey: number }) => d.dictKey)).toEqual([101]);
    expect((await children(parent.id, { query: '202' })).body.data.records.map((d: { dictValue: string }) => d.dictValue)).toEqual(['Beta']);
    expect((await children(parent.id, { query: '' })).body.data.total).toBe(2);
  });

  it('batch-deletes entries, and a dictionary together with all of its entries', async () => {
    const parent = await create();
    const a = await create({ parentId: parent.id, dictKey: 1 });
    const b = await create({ parentId: parent.id, dictKey: 2 });
    const res = await remove([a.id]);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('删除成功!');
    expect((await get(a.id)).status).toBe(404);

    expect((await remove([parent.id, b.id, b.id])).status).toBe(200);
    expect((await get(parent.id)).status).toBe(404);
    expect((await get(b.id)).status).toBe(404);
  });

  it('deletes nothing when a dictionary still has entries left out of the selection', async () => {
    const parent = await create();
    const a = await create({ parentId: parent.id, dictKey: 1 });
    await create({ parentId: parent.id, dictKey: 2 });
    const lone = await create();
    const res = await remove([lone.id, a.id, parent.id]);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('请先删除字典项');
    for (const id of [lone.id, a.id, parent.id]) expect((await get(id)).status).toBe(200);
  });

  it('deletes nothing when one id does not exist', async () => {
    const a = await create();
    const b = await create();
    const res = await remove([a.id, 999999, b.id]);
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe('字典不存在');
    expect((await get(a.id)).status).toBe(200);
    expect((await get(b.id)).status).toBe(200);
  });

  it('asks for at least one row', async () => {
    for (const ids of [[], undefined]) {
      const res = await remove(ids);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('请选择至少一条数据');
    }
  });

  it('gates each action by its own permission', async () => {
    const parent = await create();
    const roleView = await createRole(server, admin, ['dict_view']);
    const roleEdit = await createRole(server, admin, ['dict_edit']);
    const roleDelete = await createRole(server, admin, ['dict_delete']);
    const viewer = await createUser(server, admin, { roleIds: [roleView] });
    const editor = await createUser(server, admin, { roleIds: [roleEdit] });
    const deleter = await createUser(server, admin, { roleIds: [roleDelete] });
    const as = async (user: { account: string; password: string }) => server.login(user.account, user.password);

    const v = await as(viewer);
    expect((await call(server, 'GET', `/api/dict/${parent.id}`, { headers: v })).status).toBe(200);
    expect((await call(server, 'GET', '/api/dict/children', { headers: v, query: { parentId: parent.id } })).status).toBe(200);
    expect((await call(server, 'PUT', `/api/dict/${parent.id}`, { headers: v, payload: entry() })).status).toBe(403);
    expect((await call(server, 'POST', '/api/dict/remove', { headers: v, payload: { ids: [parent.id] } })).status).toBe(403);

    const e = await as(editor);
    expect((await call(server, 'GET', '/api/dict/parents', { headers: e })).status).toBe(403);
    expect((await call(server, 'PUT', `/api/dict/${parent.id}`, { headers: e, payload: entry({ dictValue: '编辑者改' }) })).status).toBe(200);

    const d = await as(deleter);
    expect((await call(server, 'POST', '/api/dict', { headers: d, payload: entry() })).status).toBe(403);
    expect((await call(server, 'POST', '/api/dict/remove', { headers: d, payload: { ids: [parent.id] } })).status).toBe(200);
  });
});
