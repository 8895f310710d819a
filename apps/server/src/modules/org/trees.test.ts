import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_CODES } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createRole, createUser } from '../../../test/fixtures.ts';

const kinds = await storeKinds();

interface Node {
  id: number;
  parentId: number;
  children: Node[];
  [key: string]: unknown;
}

const findNode = (nodes: Node[], id: number): Node | undefined => {
  for (const node of nodes) {
    if (node.id === id) return node;
    const inner = findNode(node.children, id);
    if (inner) return inner;
  }
  return undefined;
};

describe.each(kinds)('departments and roles on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const deptTree = async (): Promise<Node[]> => (await call(server, 'GET', '/api/org/departments', { headers: admin })).body.data;
  const roleTree = async (): Promise<Node[]> => (await call(server, 'GET', '/api/org/roles', { headers: admin })).body.data;
  const saveDept = (payload: object, id?: number) =>
    call(server, id ? 'PUT' : 'POST', id ? `/api/org/departments/${id}` : '/api/org/departments', { headers: admin, payload });
  const saveRole = (payload: object, id?: number) =>
    call(server, id ? 'PUT' : 'POST', id ? `/api/org/roles/${id}` : '/api/org/roles', { headers: admin, payload });

  it('returns the seeded departments as a tree, siblings by sort then id', async () => {
    const tree = await deptTree();
    const company = tree.find((d) => d.deptName === '数图科技')!;
    expect(company.children.map((d) => d.deptName)).toEqual(['数据分析部', '市场运营部']);
    const late = await saveDept({ deptName: '排在前面', parentId: company.id, sort: 0 });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ msg: '保存成功', data: { deptName: '排在前面', parentId: company.id, sort: 0 } });
    const again = findNode(await deptTree(), company.id)!;
    expect(again.children.map((d) => d.deptName)).toEqual(['排在前面', '数据分析部', '市场运营部']);
    expect(again.children[0]!.children).toEqual([]);
  });

  it('requires a name and an existing parent', async () => {
    const noName = await saveDept({ deptName: ' ' });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('请输入部门名称');
    const noParent = await saveDept({ deptName: '孤儿', parentId: 999999 });
    expect(noParent.status).toBe(400);
    expect(noParent.body).toMatchObject({ msg: '部门不存在', data: { fields: [{ field: 'parentId' }] } });
  });

  it('moves a department with its subtree, but never under itself or a descendant', async () => {
    const a = (await saveDept({ deptName: 'A' })).body.data.id;
    const b = (await saveDept({ deptName: 'B', parentId: a })).body.data.id;
    const c = (await saveDept({ deptName: 'C', parentId: b })).body.data.id;
    const d = (await saveDept({ deptName: 'D' })).body.data.id;

    for (const parentId of [a, b, c]) {
      const res = await saveDept({ deptName: 'A', parentId }, a);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('上级不能是自己或自己的下级');
    }
    expect((await saveDept({ deptName: 'A', parentId: 999999 }, a)).body.msg).toBe('部门不存在');
    expect((await saveDept({ deptName: 'X' }, 999999)).status).toBe(404);

    const moved = await saveDept({ deptName: 'B2', parentId: d, sort: 3 }, b);
    expect(moved.status).toBe(200);
    const tree = await deptTree();
    expect(findNode(tree, a)!.children).toEqual([]);
    expect(findNode(tree, d)!.children.map((n) => [n.deptName, n.children.map((x) => x.id)])).toEqual([['B2', [c]]]);
    // Back to the top.
    expect((await saveDept({ deptName: 'B2', parentId: 0 }, b)).status).toBe(200);
    expect(tree.some((n) => n.id === b)).toBe(false);
    expect((await deptTree()).some((n) => n.id === b)).toBe(true);
  });

  it('deletes only an empty department', async () => {
    const parent = (await saveDept({ deptName: '待删父' })).body.data.id;
    const child = (await saveDept({ deptName: '待删子', parentId: parent })).body.data.id;
    const withChild = await call(server, 'DELETE', `/api/org/departments/${parent}`, { headers: admin });
    expect(withChild.status).toBe(409);
    expect(withChild.body.msg).toBe('请先删除下级部门');

    const user = await createUser(server, admin, { deptId: child });
    const withUser = await call(server, 'DELETE', `/api/org/departments/${child}`, { headers: admin });
    expect(withUser.status).toBe(409);
    expect(withUser.body.msg).toBe('部门下还有用户，不能删除');

    await call(server, 'PUT', `/api/org/users/${user.id}`, { headers: admin, payload: { name: 'moved', deptId: null } });
    const ok = await call(server, 'DELETE', `/api/org/departments/${child}`, { headers: admin });
    expect(ok.status).toBe(200);
    expect(ok.body.msg).toBe('删除成功!');
    expect((await call(server, 'DELETE', `/api/org/departments/${parent}`, { headers: admin })).status).toBe(200);
    expect(findNode(await deptTree(), parent)).toBeUndefined();
    expect((await call(server, 'DELETE', `/api/org/departments/${parent}`, { headers: admin })).status).toBe(404);
  });

  it('lists the permission catalogue', async () => {
    const res = await call(server, 'GET', '/api/org/permissions', { headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { code: string }) => p.code)).toEqual([...PERMISSION_CODES]);
    expect(res.body.data[1]).toEqual({ code: 'dict_view', name: '查看字典', group: '字典管理' });
  });

  it('returns roles as a tree with their permissions', async () => {
    const tree = await roleTree();
    expect(tree.find((r) => r.roleName === '数据分析师')).toMatchObject({ permissions: ['cube_filter_row', 'dict_view'], children: [] });
    const parent = await createRole(server, admin, ['dict_view', 'dict_view', 'dict_add'], '上级角色');
    const child = (await saveRole({ roleName: '下级角色', parentId: parent, permissions: [] })).body.data.id;
    const node = findNode(await roleTree(), parent)!;
    expect(node).toMatchObject({ roleName: '上级角色', permissions: ['dict_add', 'dict_view'] });
    expect(node.children.map((r) => r.id)).toEqual([child]);
  });

  it('refuses unknown permission codes and writes nothing', async () => {
    const before = await roleTree();
    const res = await saveRole({ roleName: '坏角色', permissions: ['dict_view', 'drop_database'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '未知的权限编码', data: { fields: [{ field: 'permissions' }] } });
    expect(await roleTree()).toEqual(before);

    const role = await createRole(server, admin, ['dict_view']);
    const update = await saveRole({ roleName: '改名', permissions: ['nope'] }, role);
    expect(update.status).toBe(400);
    expect(findNode(await roleTree(), role)).toMatchObject({ permissions: ['dict_view'] });
    expect((await saveRole({ roleName: ' ' })).body.msg).toBe('请输入角色名称');
    expect((await saveRole({ roleName: 'x', parentId: 999999 })).body.msg).toBe('角色不存在');
  });

  it('checks role moves and deletes like departments', async () => {
    const a = await createRole(server, admin, [], 'RA');
    const b = (await saveRole({ roleName: 'RB', parentId: a })).body.data.id;
    const loop = await saveRole({ roleName: 'RA', parentId: b }, a);
    expect(loop.status).toBe(400);
    expect(loop.body.msg).toBe('上级不能是自己或自己的下级');
    expect((await saveRole({ roleName: 'RA', parentId: a }, a)).status).toBe(400);
    expect((await saveRole({ roleName: 'x' }, 999999)).status).toBe(404);

    const blocked = await call(server, 'DELETE', `/api/org/roles/${a}`, { headers: admin });
    expect(blocked.status).toBe(409);
    expect(blocked.body.msg).toBe('请先删除下级角色');
    const user = await createUser(server, admin, { roleIds: [b] });
    expect((await call(server, 'DELETE', `/api/org/roles/${b}`, { headers: admin })).body.msg).toBe('删除成功!');
    // Deleting a role takes it away from its users.
    const listed = await call(server, 'GET', '/api/org/users', { headers: admin, query: { keyword: user.account } });
    expect(listed.body.data.records[0].roleIds).toEqual([]);
    expect((await call(server, 'DELETE', `/api/org/roles/${a}`, { headers: admin })).status).toBe(200);
    expect((await call(server, 'DELETE', `/api/org/roles/${a}`, { headers: admin })).status).toBe(404);
  });

  it('grants dictionary rights through roles, effective on the next request', async () => {
    const user = await createUser(server, admin);
    const headers = await server.login(user.account, user.password);
    const parents = () => call(server, 'GET', '/api/dict/parents', { headers });
    const add = () => call(server, 'POST', '/api/dict', { headers, payload: { code: `c_${user.id}`, dictKey: 1, dictValue: 'x', sort: 1, isSealed: 0 } });
    expect((await parents()).status).toBe(403);

    const role = await createRole(server, admin, ['dict_view']);
    await call(server, 'PUT', `/api/org/users/${user.id}`, { headers: admin, payload: { name: 'viewer', roleIds: [role] } });
    expect((await parents()).status).toBe(200);
    const refused = await add();
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有权限执行此操作');

    await saveRole({ roleName: 'editor', permissions: ['dict_view', 'dict_add'] }, role);
    expect((await add()).status).toBe(200);
    expect((await call(server, 'GET', '/api/profile', { headers })).body.data.permissions).toEqual(['dict_add', 'dict_view']);

    await saveRole({ roleName: 'nothing', permissions: [] }, role);
    expect((await parents()).status).toBe(403);
  });
});
