import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableRef } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createRole, createUser, type CreatedUser } from '../../../test/fixtures.ts';
import { FIRST_ADMIN } from '../../platform/db/seed.ts';
import { grantedTables, usableSources, type Caller } from './permissions.ts';

const kinds = await storeKinds();

type Headers = Record<string, string>;
type Who = 'admin' | 'byUser' | 'byDept' | 'bySubDept' | 'byRole' | 'blackListed' | 'outsider';

const byName = (a: TableRef, b: TableRef) => `${a.schema}.${a.name}`.localeCompare(`${b.schema}.${b.name}`);

/**
 * The permission matrix (spec 2 §6): who belongs to which group — by name, by department
 * and its sub-departments, by role, never when black-listed — and which warehouse tables
 * that gives them; answers follow every change at once, and only administrators manage.
 *
 *   总部 > 研发部 > 前端组; 总部 > 销售部
 *   角色组 (type sorted first): role R, user byUser          → tables t2, t3
 *   A部门组 (later type): 研发部, black list blackListed      → tables t1, t2
 *   B用户组 (later type): users byUser, bySubDept            → table t0
 */
describe.each(kinds)('permission matrix on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let warehouseId: number;
  let t: TableRef[];
  const dept: Record<'hq' | 'rd' | 'fe' | 'sales', number> = { hq: 0, rd: 0, fe: 0, sales: 0 };
  let roleId: number;
  const users = {} as Record<Exclude<Who, 'admin'>, CreatedUser>;
  const headers = {} as Record<Who, Headers>;
  const callers = {} as Record<Who, Caller>;
  const group = { role: 0, dept: 0, user: 0 };
  let lateType: number;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as: Headers = admin) =>
    call(server, method, url, { headers: as, ...(payload === undefined ? {} : { payload }) });
  const created = async (method: 'POST' | 'PUT', url: string, payload: unknown): Promise<{ id: number }> => {
    const res = await api(method, url, payload);
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    const sources = await api('GET', '/api/datasource');
    warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    t = (await api('GET', `/api/datasource/${warehouseId}/tables`)).body.data.slice(0, 4).map((x: TableRef) => ({ schema: x.schema, name: x.name }));
    expect(t).toHaveLength(4);

    dept.hq = (await created('POST', '/api/org/departments', { deptName: '总部' })).id;
    dept.rd = (await created('POST', '/api/org/departments', { deptName: '研发部', parentId: dept.hq })).id;
    dept.fe = (await created('POST', '/api/org/departments', { deptName: '前端组', parentId: dept.rd })).id;
    dept.sales = (await created('POST', '/api/org/departments', { deptName: '销售部', parentId: dept.hq })).id;
    roleId = await createRole(server, admin, [], '分析员');

    users.byUser = await createUser(server, admin, { name: '按用户' });
    users.byDept = await createUser(server, admin, { name: '按部门', deptId: dept.rd });
    users.bySubDept = await createUser(server, admin, { name: '按下级部门', deptId: dept.fe });
    users.byRole = await createUser(server, admin, { name: '按角色', deptId: dept.sales, roleIds: [roleId] });
    users.blackListed = await createUser(server, admin, { name: '黑名单', deptId: dept.fe });
    users.outsider = await createUser(server, admin, { name: '局外人', deptId: dept.sales });

    const adminRow = await server.ctx.db.selectFrom('sysUser').select('id').where('account', '=', FIRST_ADMIN.account).executeTakeFirstOrThrow();
    headers.admin = admin;
    callers.admin = { userId: adminRow.id, isAdministrator: true };
    for (const [who, user] of Object.entries(users) as [Exclude<Who, 'admin'>, CreatedUser][]) {
      headers[who] = await server.login(user.account, user.password);
      callers[who] = { userId: user.id, isAdministrator: false };
    }

    const earlyType = (await created('POST', '/api/perm/types', { typeName: '先', sortNum: 1 })).id;
    lateType = (await created('POST', '/api/perm/types', { typeName: '后', sortNum: 5 })).id;
    group.role = (
      await created('POST', '/api/perm/groups', {
        permName: '角色组',
        typeId: earlyType,
        permJson: { roleList: [{ id: roleId }], userList: [{ id: users.byUser.id }] },
      })
    ).id;
    group.dept = (
      await created('POST', '/api/perm/groups', {
        permName: 'A部门组',
        typeId: lateType,
        permJson: { dpList: [{ id: dept.rd }], blackUserList: [{ id: users.blackListed.id }] },
      })
    ).id;
    group.user = (
      await created('POST', '/api/perm/groups', {
        permName: 'B用户组',
        typeId: lateType,
        permJson: { userList: [{ id: users.byUser.id }, { id: users.bySubDept.id }] },
      })
    ).id;
    await created('PUT', `/api/perm/groups/${group.role}/datasources/${warehouseId}`, { tableNames: [t[2], t[3]] });
    await created('PUT', `/api/perm/groups/${group.dept}/datasources/${warehouseId}`, { tableNames: [t[1], t[2]] });
    await created('PUT', `/api/perm/groups/${group.user}/datasources/${warehouseId}`, { tableNames: [t[0]] });
  });
  afterAll(() => server?.close());

  const myGroups = async (who: Who): Promise<string[]> => {
    const res = await api('GET', '/api/perm/my-groups', undefined, headers[who]);
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.map((g: { permName: string }) => g.permName);
  };
  /** The warehouse tables the user may use, by number (t0…t3); 'all' for administrators. */
  const tablesOf = async (who: Who): Promise<'all' | number[]> => {
    const granted = await grantedTables(server.ctx, callers[who], warehouseId);
    if (granted.all) return 'all';
    return [...granted.tables].sort(byName).map((x) => t.findIndex((y) => y.schema === x.schema && y.name === x.name));
  };
  const sourcesOf = async (who: Who): Promise<'all' | number[]> => {
    const usable = await usableSources(server.ctx, callers[who]);
    return usable.all ? 'all' : [...usable.ids];
  };
  const expectAccess = async (who: Who, groups: string[], tables: 'all' | number[]) => {
    expect(await myGroups(who), `${who} groups`).toEqual(groups);
    const expected = tables === 'all' ? 'all' : [...tables].sort((a, b) => byName(t[a]!, t[b]!));
    expect(await tablesOf(who), `${who} tables`).toEqual(expected);
    expect(await sourcesOf(who), `${who} sources`).toEqual(tables === 'all' ? 'all' : tables.length > 0 ? [warehouseId] : []);
  };

  it('answers who belongs where and which tables that gives them', async () => {
    await expectAccess('admin', [], 'all');
    await expectAccess('byUser', ['角色组', 'B用户组'], [0, 2, 3]);
    await expectAccess('byDept', ['A部门组'], [1, 2]);
    await expectAccess('bySubDept', ['A部门组', 'B用户组'], [0, 1, 2]);
    await expectAccess('byRole', ['角色组'], [2, 3]);
    await expectAccess('blackListed', [], []);
    await expectAccess('outsider', [], []);
    expect(await grantedTables(server.ctx, callers.byRole, 999999)).toEqual({ all: false, tables: [] });
  });

  it('refuses every management route to members and outsiders with 403', async () => {
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown][] = [
      ['GET', '/api/perm/types'],
      ['POST', '/api/perm/types', { typeName: '越权' }],
      ['DELETE', `/api/perm/types/${lateType}`],
      ['GET', '/api/perm/groups'],
      ['GET', `/api/perm/groups/${group.dept}`],
      ['POST', '/api/perm/groups', { permName: '越权', typeId: lateType }],
      ['DELETE', `/api/perm/groups/${group.dept}`],
      ['GET', `/api/perm/groups/${group.dept}/datasources`],
      ['PUT', `/api/perm/groups/${group.dept}/datasources/${warehouseId}`, { tableNames: [] }],
    ];
    for (const who of ['byUser', 'byDept', 'byRole', 'outsider'] as const) {
      for (const [method, url, payload] of routes) {
        const res = await api(method, url, payload, headers[who]);
        expect(res.status, `${who} ${method} ${url}`).toBe(403);
      }
    }
    await expectAccess('byDept', ['A部门组'], [1, 2]);
  });

  it('follows a user moved to another department at once', async () => {
    await expectAccess('outsider', [], []);
    await created('PUT', `/api/org/users/${users.outsider.id}`, { name: '局外人', deptId: dept.fe });
    await expectAccess('outsider', ['A部门组'], [1, 2]);
    await created('PUT', `/api/org/users/${users.outsider.id}`, { name: '局外人', deptId: dept.sales, roleIds: [roleId] });
    await expectAccess('outsider', ['角色组'], [2, 3]);
    await created('PUT', `/api/org/users/${users.outsider.id}`, { name: '局外人', deptId: dept.sales });
    await expectAccess('outsider', [], []);
  });

  it('follows a department moved under another one at once', async () => {
    await expectAccess('bySubDept', ['A部门组', 'B用户组'], [0, 1, 2]);
    await created('PUT', `/api/org/departments/${dept.fe}`, { deptName: '前端组', parentId: dept.sales });
    await expectAccess('bySubDept', ['B用户组'], [0]);
    await created('PUT', `/api/org/departments/${dept.fe}`, { deptName: '前端组', parentId: dept.rd });
    await expectAccess('bySubDept', ['A部门组', 'B用户组'], [0, 1, 2]);
  });

  it('follows edited groups and grants at once', async () => {
    await created('POST', '/api/perm/groups', { id: group.user, permName: 'B用户组', typeId: lateType, permJson: { userList: [{ id: users.byUser.id }] } });
    await expectAccess('bySubDept', ['A部门组'], [1, 2]);
    await created('POST', '/api/perm/groups', { id: group.dept, permName: 'A部门组', typeId: lateType, permJson: { dpList: [{ id: dept.rd }] } });
    await expectAccess('blackListed', ['A部门组'], [1, 2]);
    await created('PUT', `/api/perm/groups/${group.dept}/datasources/${warehouseId}`, { tableNames: [t[3]] });
    await expectAccess('byDept', ['A部门组'], [3]);
    await created('PUT', `/api/perm/groups/${group.dept}/datasources/${warehouseId}`, { tableNames: [] });
    await expectAccess('byDept', ['A部门组'], []);
  });

  it('follows deleted groups and roles at once', async () => {
    await expectAccess('byRole', ['角色组'], [2, 3]);
    expect((await api('DELETE', `/api/org/roles/${roleId}`)).status).toBe(200);
    await expectAccess('byRole', [], []);
    await expectAccess('byUser', ['角色组', 'B用户组'], [0, 2, 3]);
    expect((await api('DELETE', `/api/perm/groups/${group.role}`)).status).toBe(200);
    await expectAccess('byUser', ['B用户组'], [0]);
    await expectAccess('admin', [], 'all');
  });
});
