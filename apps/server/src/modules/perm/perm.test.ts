import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createRole, createUser } from '../../../test/fixtures.ts';

const kinds = await storeKinds();

let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}_${Date.now().toString(36)}`;

interface Member {
  id: number;
  name?: string;
}
interface GroupBody {
  id?: number;
  permName?: string;
  typeId?: number;
  permJson?: { dpList?: Member[]; roleList?: Member[]; userList?: Member[]; blackUserList?: Member[] };
}

describe.each(kinds)('permission groups on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;
  let warehouseTables: { schema: string; name: string }[];
  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin });
    warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    const tables = await call(server, 'GET', `/api/datasource/${warehouseId}/tables`, { headers: admin });
    expect(tables.status, tables.raw.body).toBe(200);
    warehouseTables = tables.body.data.map((t: { schema: string; name: string }) => ({ schema: t.schema, name: t.name }));
  });
  afterAll(() => server?.close());

  const saveType = (body: Record<string, unknown>) => call(server, 'POST', '/api/perm/types', { headers: admin, payload: body });
  const types = async () => (await call(server, 'GET', '/api/perm/types', { headers: admin })).body.data as { id: number; typeName: string; sortNum: number }[];
  const createType = async (typeName = unique('分类'), sortNum = 0): Promise<number> => {
    const res = await saveType({ typeName, sortNum });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.id;
  };
  const saveGroup = (body: GroupBody) => call(server, 'POST', '/api/perm/groups', { headers: admin, payload: body });
  const createGroup = async (body: GroupBody) => {
    const res = await saveGroup({ permName: unique('组'), ...body });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data as { id: number; permName: string; typeId: number; typeName: string; permJson: Required<NonNullable<GroupBody['permJson']>> };
  };
  const groups = (query: Record<string, string | number> = {}) => call(server, 'GET', '/api/perm/groups', { headers: admin, query });
  const grants = (groupId: number) => call(server, 'GET', `/api/perm/groups/${groupId}/datasources`, { headers: admin });
  const saveGrant = (groupId: number, sourceId: number, tableNames: unknown) =>
    call(server, 'PUT', `/api/perm/groups/${groupId}/datasources/${sourceId}`, { headers: admin, payload: { tableNames } });

  describe('types', () => {
    it('creates, lists in sort order, renames and deletes a type', async () => {
      const late = await createType(unique('后'), 90);
      const early = await createType(unique('前'), 1);
      const list = await types();
      expect(list.findIndex((t) => t.id === early)).toBeLessThan(list.findIndex((t) => t.id === late));

      const name = unique('改名');
      const renamed = await saveType({ id: early, typeName: `  ${name} ` });
      expect(renamed.status).toBe(200);
      expect(renamed.body.msg).toBe('保存成功');
      expect(renamed.body.data).toEqual({ id: early, typeName: name, sortNum: 1 });

      const removed = await call(server, 'DELETE', `/api/perm/types/${late}`, { headers: admin });
      expect(removed.body).toMatchObject({ code: 200, msg: '删除成功!' });
      expect((await types()).some((t) => t.id === late)).toBe(false);
      expect((await call(server, 'DELETE', `/api/perm/types/${late}`, { headers: admin })).body).toMatchObject({ code: 404, msg: '权限组分类不存在' });
      expect((await saveType({ id: late, typeName: unique('x') })).body).toMatchObject({ code: 404, msg: '权限组分类不存在' });
    });

    it('requires a name (请输入分类名)', async () => {
      for (const body of [{}, { typeName: '' }, { typeName: '   ' }]) {
        const res = await saveType(body);
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe('请输入分类名');
      }
    });

    it('refuses a duplicate name, case-insensitively, with 409', async () => {
      const name = unique('Dup');
      const id = await createType(name);
      expect((await saveType({ typeName: name.toUpperCase() })).body).toMatchObject({ code: 409, msg: '分类名称已存在' });
      const other = await createType();
      expect((await saveType({ id: other, typeName: name.toLowerCase() })).status).toBe(409);
      expect((await saveType({ id, typeName: name })).status).toBe(200);
    });

    it('refuses to delete a type its groups still use', async () => {
      const typeId = await createType();
      const a = await createGroup({ typeId });
      await createGroup({ typeId });
      const refused = await call(server, 'DELETE', `/api/perm/types/${typeId}`, { headers: admin });
      expect(refused.body).toMatchObject({ code: 409, msg: '该分类下还有 2 个权限组，请先删除或移到其他分类' });
      const other = await createType();
      expect((await saveGroup({ id: a.id, permName: a.permName, typeId: other })).status).toBe(200);
      expect((await call(server, 'DELETE', `/api/perm/types/${typeId}`, { headers: admin })).body.msg).toBe('该分类下还有 1 个权限组，请先删除或移到其他分类');
    });
  });

  describe('groups', () => {
    it('saves a group and replaces member names with the current ones, each id once', async () => {
      const typeId = await createType();
      const dept = await call(server, 'POST', '/api/org/departments', { headers: admin, payload: { deptName: unique('部门') } });
      const roleName = unique('角色');
      const role = await createRole(server, admin, [], roleName);
      const named = await createUser(server, admin, { name: '张三', realName: '张三丰' });
      const plain = await createUser(server, admin, { name: '李四' });
      const group = await createGroup({
        typeId,
        permJson: {
          dpList: [{ id: dept.body.data.id, name: '旧名' }],
          roleList: [{ id: role }, { id: role, name: 'again' }],
          userList: [{ id: named.id, name: 'x' }],
          blackUserList: [{ id: plain.id, name: '' }],
        },
      });
      expect(group.permJson).toEqual({
        dpList: [{ id: dept.body.data.id, name: dept.body.data.deptName }],
        roleList: [{ id: role, name: roleName }],
        userList: [{ id: named.id, name: '张三丰' }],
        blackUserList: [{ id: plain.id, name: '李四' }],
      });
      const read = await call(server, 'GET', `/api/perm/groups/${group.id}`, { headers: admin });
      expect(read.body.data).toMatchObject({ id: group.id, typeId, permJson: group.permJson });
      expect(read.body.data.typeName).toBe((await types()).find((t) => t.id === typeId)?.typeName);
    });

    it('requires a name and a type (请填写完整) and an existing type', async () => {
      const typeId = await createType();
      for (const body of [{ typeId }, { permName: ' ', typeId }, { permName: unique('g') }, { permName: unique('g'), typeId: 0 }]) {
        const res = await saveGroup(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.msg).toBe('请填写完整');
      }
      const missing = await saveGroup({ permName: unique('g'), typeId: 999999 });
      expect(missing.body).toMatchObject({ code: 400, msg: '权限组分类不存在', data: { fields: [{ field: 'typeId', message: '权限组分类不存在' }] } });
    });

    it('refuses unknown members, naming them as the form did', async () => {
      const typeId = await createType();
      const cases: [keyof NonNullable<GroupBody['permJson']>, string][] = [
        ['dpList', '部门【研发X】不存在，请刷新后重新选择'],
        ['roleList', '角色【研发X】不存在，请刷新后重新选择'],
        ['userList', '用户【研发X】不存在，请刷新后重新选择'],
        ['blackUserList', '黑名单用户【研发X】不存在，请刷新后重新选择'],
      ];
      for (const [list, message] of cases) {
        const res = await saveGroup({ permName: unique('g'), typeId, permJson: { [list]: [{ id: 999999, name: '研发X' }] } });
        expect(res.body, list).toMatchObject({ code: 400, msg: message });
      }
      expect((await groups({ typeId })).body.data.total).toBe(0);
    });

    it('refuses a duplicate name, case-insensitively, and 404s on a missing group', async () => {
      const typeId = await createType();
      const name = unique('Group');
      const first = await createGroup({ permName: name, typeId });
      expect((await saveGroup({ permName: name.toUpperCase(), typeId })).body).toMatchObject({ code: 409, msg: '权限组名称已存在' });
      const second = await createGroup({ typeId });
      expect((await saveGroup({ id: second.id, permName: name.toLowerCase(), typeId })).status).toBe(409);
      expect((await saveGroup({ id: first.id, permName: name, typeId })).status).toBe(200);
      expect((await saveGroup({ id: 999999, permName: unique('g'), typeId })).body).toMatchObject({ code: 404, msg: '权限组不存在' });
      expect((await call(server, 'GET', '/api/perm/groups/999999', { headers: admin })).body).toMatchObject({ code: 404, msg: '权限组不存在' });
    });

    it('pages newest first, searches by name (wildcards taken literally) and filters by type', async () => {
      const typeA = await createType();
      const typeB = await createType();
      const tag = unique('pg');
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await createGroup({ permName: `${tag}_a${i}`, typeId: typeA }));
      const inB = await createGroup({ permName: `${tag}%B`, typeId: typeB });

      const all = await groups({ permName: tag.toUpperCase(), current: 1, size: 2 });
      expect(all.body.data).toMatchObject({ total: 4, current: 1, size: 2 });
      expect(all.body.data.records.map((g: { id: number }) => g.id)).toEqual([inB.id, made[2]!.id]);
      const second = await groups({ permName: tag, current: 2, size: 2 });
      expect(second.body.data.records.map((g: { id: number }) => g.id)).toEqual([made[1]!.id, made[0]!.id]);

      expect((await groups({ permName: tag, typeId: typeA })).body.data.total).toBe(3);
      expect((await groups({ permName: tag, typeId: -1 })).body.data.total).toBe(4);
      const byB = await groups({ typeId: typeB });
      expect(byB.body.data.records).toEqual([expect.objectContaining({ id: inB.id, typeId: typeB })]);
      expect((await groups({ permName: `${tag}%` })).body.data.total).toBe(1);
      expect((await groups({ permName: `${tag}_` })).body.data.total).toBe(3);
    });

    it('deletes a group, then 404s', async () => {
      const group = await createGroup({ typeId: await createType() });
      expect((await call(server, 'DELETE', `/api/perm/groups/${group.id}`, { headers: admin })).body).toMatchObject({ code: 200, msg: '删除成功!' });
      expect((await call(server, 'DELETE', `/api/perm/groups/${group.id}`, { headers: admin })).body).toMatchObject({ code: 404, msg: '权限组不存在' });
      expect((await call(server, 'GET', `/api/perm/groups/${group.id}`, { headers: admin })).status).toBe(404);
    });
  });

  describe('data-source grants', () => {
    it('saves tables of the warehouse, lists them with the source name, replaces and removes them', async () => {
      const group = await createGroup({ typeId: await createType() });
      const [first, second, third] = warehouseTables;
      expect(third).toBeDefined();
      expect((await grants(group.id)).body.data).toEqual([]);

      const saved = await saveGrant(group.id, warehouseId, [second, first, second]);
      expect(saved.status, saved.raw.body).toBe(200);
      expect(saved.body.msg).toBe('保存成功');
      const listed = await grants(group.id);
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({ dataPermId: group.id, datasourceId: warehouseId, dsTypeSyl: 'DuckDB' });
      expect(listed.body.data[0].dsName).toEqual(expect.any(String));
      expect(listed.body.data[0].tableNames).toHaveLength(2);
      expect(listed.body.data[0].tableNames).toEqual(expect.arrayContaining([first, second]));
      expect(saved.body.data).toEqual(listed.body.data);

      await saveGrant(group.id, warehouseId, [third]);
      expect((await grants(group.id)).body.data[0].tableNames).toEqual([third]);

      const removed = await saveGrant(group.id, warehouseId, []);
      expect(removed.status).toBe(200);
      expect((await grants(group.id)).body.data).toEqual([]);
    });

    it('refuses a table the source does not have, a missing source and a missing group', async () => {
      const group = await createGroup({ typeId: await createType() });
      const unknown = await saveGrant(group.id, warehouseId, [warehouseTables[0], { schema: 'main', name: 'no_such_table' }]);
      expect(unknown.body).toMatchObject({ code: 400, msg: '数据表【no_such_table】在数据源中不存在，请刷新后重新选择' });
      const wrongSchema = await saveGrant(group.id, warehouseId, [{ schema: 'elsewhere', name: warehouseTables[0]!.name }]);
      expect(wrongSchema.status).toBe(400);
      expect((await grants(group.id)).body.data).toEqual([]);

      expect((await saveGrant(group.id, 999999, [warehouseTables[0]])).body).toMatchObject({ code: 404, msg: '数据源不存在' });
      expect((await saveGrant(999999, warehouseId, [warehouseTables[0]])).body).toMatchObject({ code: 404, msg: '权限组不存在' });
      expect((await grants(999999)).body).toMatchObject({ code: 404, msg: '权限组不存在' });
      expect((await saveGrant(group.id, warehouseId, [{ schema: '', name: 'x' }])).status).toBe(400);
    });

    it('removes the grants with the group', async () => {
      const group = await createGroup({ typeId: await createType() });
      await saveGrant(group.id, warehouseId, [warehouseTables[0]]);
      const count = async () =>
        Number(
          (
            await server.ctx.db
              .selectFrom('permGrantTable')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('permId', '=', group.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count()).toBe(1);
      await call(server, 'DELETE', `/api/perm/groups/${group.id}`, { headers: admin });
      expect(await count()).toBe(0);
    });
  });
});
