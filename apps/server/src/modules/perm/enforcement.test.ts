import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSqlBase64 } from '@shutu/contracts';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { multipart } from '../../../test/multipart.ts';

/**
 * Table grants decide what a non-administrator may build on (issue 4): the usable sources,
 * the table list, columns, the dataset preview, SQL views and file tables all follow them.
 */
const kinds = await storeKinds();

type Headers = Record<string, string>;

describe.each(kinds)('table grants enforced on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let member: Headers;
  let colleague: Headers;
  let outsider: Headers;
  let warehouseId: number;
  let groupId: number;
  const grantTables = [
    { schema: 'main', name: 'provinces' },
    { schema: 'main', name: 'areas' },
  ];

  const tableNames = async (headers: Headers) =>
    ((await call(server, 'GET', `/api/datasource/${warehouseId}/tables`, { headers })).body.data as { name: string }[]).map((t) => t.name).sort();
  const preview = (headers: Headers, tableName: string) =>
    call(server, 'POST', '/api/query/preview', {
      headers,
      payload: {
        datasourceId: warehouseId,
        model: { tables: [{ tableName, tableAliasName: 't' }], fields: [{ id: 1, columnName: 'province_name', columnTitle: '省份', tableAliasName: 't' }] },
        request: { dimensions: [{ fieldId: 1 }], limit: 5 },
      },
    });
  const sqlPreview = (headers: Headers, sql: string) =>
    call(server, 'POST', '/api/sqlview/preview', { headers, payload: { datasourceId: warehouseId, sqlStatement: encodeSqlBase64(sql) } });

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    const login = async () => {
      const user = await createUser(server, admin);
      return { id: user.id, headers: await server.login(user.account, user.password) };
    };
    const [m, c, o] = [await login(), await login(), await login()];
    [member, colleague, outsider] = [m.headers, c.headers, o.headers];

    const type = await call(server, 'POST', '/api/perm/types', { headers: admin, payload: { typeName: '区域分析' } });
    const group = await call(server, 'POST', '/api/perm/groups', {
      headers: admin,
      payload: {
        permName: '省份分析组',
        typeId: type.body.data.id,
        permJson: {
          userList: [
            { id: m.id, name: '' },
            { id: c.id, name: '' },
          ],
        },
      },
    });
    expect(group.status).toBe(200);
    groupId = group.body.data.id;
    const grant = await call(server, 'PUT', `/api/perm/groups/${group.body.data.id}/datasources/${warehouseId}`, {
      headers: admin,
      payload: {
        tableNames: [
          { schema: 'main', name: 'provinces' },
          { schema: 'main', name: 'areas' },
        ],
      },
    });
    expect(grant.status, grant.raw.body).toBe(200);
  });
  afterAll(() => server?.close());

  it('offers a member only the sources and tables granted to their groups; administrators everything', async () => {
    const usable = await call(server, 'GET', '/api/datasource/usable', { headers: member });
    expect(usable.body.data.map((s: { dsDb: string }) => s.dsDb)).toEqual(['示例数据仓库']);
    expect(usable.body.data[0]).not.toHaveProperty('path');
    expect(await tableNames(member)).toEqual(['areas', 'provinces']);
    expect((await tableNames(admin)).length).toBeGreaterThan(10);

    expect((await call(server, 'GET', '/api/datasource/usable', { headers: outsider })).body.data).toEqual([]);
    const refused = await call(server, 'GET', `/api/datasource/${warehouseId}/tables`, { headers: outsider });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有数据源【示例数据仓库】的使用权限，请联系管理员授权');
  });

  it('gives columns of granted tables only', async () => {
    const ok = await call(server, 'GET', `/api/datasource/${warehouseId}/columns`, { headers: member, query: { tableName: 'provinces' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((c: { name: string }) => c.name)).toContain('province_name');
    const refused = await call(server, 'GET', `/api/datasource/${warehouseId}/columns`, { headers: member, query: { tableName: 'orders' } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有数据表【orders】的使用权限，请联系管理员授权');
  });

  it('previews a dataset over granted tables and refuses any other table', async () => {
    const ok = await preview(member, 'provinces');
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.body.data.dataList.length).toBeGreaterThan(0);
    const refused = await preview(member, 'orders');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('orders');
    expect((await preview(outsider, 'provinces')).status).toBe(403);
    // The administrator holds no grant at all.
    expect((await preview(admin, 'provinces')).status).toBe(200);
  });

  it('checks every table a member’s SQL reads, however it is written', async () => {
    expect((await sqlPreview(member, 'select province_name from provinces')).status).toBe(200);
    expect((await sqlPreview(member, 'select a.area_name from main.areas a join PROVINCES p on p.province_code = a.province_code')).status).toBe(200);
    for (const sql of [
      'select * from orders',
      'select * from provinces where province_code in (select province_code from users)',
      'with x as (select * from "orders") select * from x',
      'select * from provinces, main.orders',
      'select * from generate_series(1, 3)',
      'select * from (provinces join orders on true)',
    ]) {
      const res = await sqlPreview(member, sql);
      expect([400, 403], sql).toContain(res.status);
    }
    const named = await sqlPreview(member, 'select * from provinces p join users u on true');
    expect(named.status).toBe(403);
    expect(named.body.msg).toBe('没有数据表【users】的使用权限，请联系管理员授权');
    expect((await sqlPreview(admin, 'select count(*) from orders')).status).toBe(200);
  });

  it('lets a member save views on granted tables, and change only their own', async () => {
    const body = { sqlName: '省份', viewName: 'V_MEMBER_PROVINCES', sqlStatement: 'select * from provinces', datasourceId: warehouseId };
    const saved = await call(server, 'POST', '/api/sqlview/views', { headers: member, payload: body });
    expect(saved.status, saved.raw.body).toBe(200);
    const refused = await call(server, 'POST', '/api/sqlview/views', {
      headers: member,
      payload: { ...body, viewName: 'V_MEMBER_ORDERS', sqlStatement: 'select * from orders' },
    });
    expect(refused.status).toBe(403);

    // An administrator's view over an ungranted table stays out of the member's list.
    await call(server, 'POST', '/api/sqlview/views', {
      headers: admin,
      payload: { ...body, viewName: 'V_ADMIN_ORDERS', sqlStatement: 'select * from orders' },
    });
    const list = async (headers: Headers) =>
      ((await call(server, 'GET', '/api/sqlview/views', { headers, query: { datasourceId: warehouseId } })).body.data as { viewName: string }[])
        .map((v) => v.viewName)
        .sort();
    expect(await list(member)).toEqual(['V_MEMBER_PROVINCES']);
    expect(await list(colleague)).toEqual(['V_MEMBER_PROVINCES']);
    expect(await list(admin)).toEqual(['V_ADMIN_ORDERS', 'V_MEMBER_PROVINCES']);

    const id = saved.body.data.id;
    const byColleague = await call(server, 'DELETE', `/api/sqlview/views/${id}`, { headers: colleague });
    expect(byColleague.status).toBe(403);
    expect(byColleague.body.msg).toBe('只能修改或删除自己创建的SQL视图');
    expect((await call(server, 'DELETE', `/api/sqlview/views/${id}`, { headers: member })).status).toBe(200);
  });

  it('lets a member upload a file table to a granted source and use it; others do not see it', async () => {
    const columns = [
      { comment: '城市', columnName: 'city', columnType: 'STRING' },
      { comment: '人数', columnName: 'people', columnType: 'NUMBER' },
    ];
    const upload = (headers: Headers, tableName: string) => {
      const body = multipart(
        { tableName, tableComment: '城市人数', dsId: warehouseId, tableColumnList: JSON.stringify(columns) },
        { name: 'city.csv', content: '城市,人数\n杭州,12\n宁波,8\n' },
      );
      return server.app.inject({ method: 'POST', url: '/api/filetable/tables', headers: { ...headers, ...body.headers }, payload: body.payload });
    };
    // A table grant is the right to read; uploading needs the grant's write permission (issue 28).
    const refused = await upload(member, 'member_cities');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe('没有数据源【示例数据仓库】的上传权限，请联系管理员授权');
    const write = await call(server, 'PUT', `/api/perm/groups/${groupId}/datasources/${warehouseId}`, {
      headers: admin,
      payload: { tableNames: grantTables, writable: true },
    });
    expect(write.status, write.raw.body).toBe(200);
    expect(write.body.data.find((g: { datasourceId: number }) => g.datasourceId === warehouseId)).toMatchObject({ writable: true });
    const created = await upload(member, 'member_cities');
    expect(created.statusCode, created.body).toBe(200);
    expect((await upload(outsider, 'outsider_cities')).statusCode).toBe(403);

    expect(await tableNames(member)).toEqual(['areas', 'member_cities', 'provinces']);
    expect(await tableNames(colleague)).toEqual(['areas', 'provinces']);
    const files = async (headers: Headers) =>
      (await call(server, 'GET', '/api/filetable/tables', { headers, query: { dsId: warehouseId } })).body.data?.map((t: { tableName: string }) => t.tableName);
    expect(await files(member)).toEqual(['member_cities']);
    expect(await files(colleague)).toEqual([]);
    expect((await sqlPreview(member, 'select sum(people) as n from member_cities')).body.data.rows).toEqual([{ n: 20 }]);
    expect((await sqlPreview(colleague, 'select * from member_cities')).status).toBe(403);
  });
});
