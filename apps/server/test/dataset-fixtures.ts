import { collect } from '@shutu/connectors';
import type { DatasetSave, DatasetFieldSave } from '@shutu/contracts';
import { getDataSourceDriver } from '../src/modules/datasource/registry.ts';
import { call, createRole, createUser, uniqueAccount, type Call } from './fixtures.ts';
import { createTestServer, type StoreKind, type TestServer } from './harness.ts';

/**
 * Shared set-up of the dataset suites: a server with the demo warehouse, an administrator,
 * helpers to make categories, permission groups and members, and the demo datasets.
 */

export type Headers = Record<string, string>;

export interface DatasetWorld {
  server: TestServer;
  admin: Headers;
  warehouseId: number;
  /** Rows of hand-written SQL on the warehouse, to check previews against. */
  direct(sql: string): Promise<Record<string, unknown>[]>;
  category(wsName?: string, parentId?: number, headers?: Headers): Promise<number>;
  /** A user (optionally holding permission codes through a role) and their headers. */
  member(permissions?: string[]): Promise<{ id: number; headers: Headers }>;
  /** A permission group of the users; with tables, those warehouse tables are granted to it. */
  group(userIds: number[], tables?: string[]): Promise<number>;
  save(headers: Headers, payload: unknown): Promise<Call>;
  /**
   * A permission filter of a group on a dataset (as an administrator): rows where the field
   * equals one of `values`, and the columns it hides. Fails the setup when refused.
   */
  permFilter(
    cubeId: number,
    group: number,
    filter: { name: string; fieldId: number | undefined; values: string[]; excluded?: (number | undefined)[] },
  ): Promise<void>;
  preview(headers: Headers, cubeDataId: number, request: Record<string, unknown>, params?: Record<string, unknown>): Promise<Call>;
  close(): Promise<void>;
}

export async function datasetWorld(kind: StoreKind): Promise<DatasetWorld> {
  const server = await createTestServer(kind, {}, { warehouse: true });
  const admin = await server.login();
  const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
  const warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id as number;
  let typeId: number | undefined;
  return {
    server,
    admin,
    warehouseId,
    async direct(sql) {
      return (await collect((await getDataSourceDriver(server.ctx, warehouseId)).query(sql))).rows;
    },
    async category(wsName = uniqueAccount('分类'), parentId = 0, headers = admin) {
      const res = await call(server, 'POST', '/api/dataset/categories', { headers, payload: { wsName, parentId } });
      if (res.status !== 200) throw new Error(`category: ${res.status} ${res.raw.body}`);
      return res.body.data.id;
    },
    async member(permissions = []) {
      const roleIds = permissions.length > 0 ? [await createRole(server, admin, permissions)] : [];
      const user = await createUser(server, admin, { roleIds });
      return { id: user.id, headers: await server.login(user.account, user.password) };
    },
    async group(userIds, tables = []) {
      if (typeId === undefined) typeId = (await call(server, 'POST', '/api/perm/types', { headers: admin, payload: { typeName: '数据集测试' } })).body.data.id;
      const res = await call(server, 'POST', '/api/perm/groups', {
        headers: admin,
        payload: { permName: uniqueAccount('组'), typeId, permJson: { userList: userIds.map((id) => ({ id, name: '' })) } },
      });
      if (res.status !== 200) throw new Error(`group: ${res.status} ${res.raw.body}`);
      const id = res.body.data.id as number;
      if (tables.length > 0) {
        const grant = await call(server, 'PUT', `/api/perm/groups/${id}/datasources/${warehouseId}`, {
          headers: admin,
          payload: { tableNames: tables.map((name) => ({ schema: 'main', name })) },
        });
        if (grant.status !== 200) throw new Error(`grant: ${grant.status} ${grant.raw.body}`);
      }
      return id;
    },
    save: (headers, payload) => call(server, 'POST', '/api/dataset/cubes', { headers, payload }),
    async permFilter(cubeId, group, filter) {
      const res = await call(server, 'POST', '/api/dataset/perm-filters', {
        headers: admin,
        payload: {
          cubeDataId: cubeId,
          dataPermId: group,
          cubePermName: filter.name,
          filterJson: {
            relation: 'AND',
            conditions: [
              { cubeColumnId: filter.fieldId, connectType: 'and', conditions: [{ function: filter.values.length > 1 ? 'in' : 'eq', values: filter.values }] },
            ],
            filters: [],
          },
          ...(filter.excluded ? { excludeColumnIds: filter.excluded } : {}),
        },
      });
      if (res.status !== 200) throw new Error(`perm filter: ${res.status} ${res.raw.body}`);
    },
    preview: (headers, cubeDataId, request, params) =>
      call(server, 'POST', '/api/dataset/preview', { headers, payload: { cubeDataId, request, ...(params ? { params } : {}) } }),
    close: () => server.close(),
  };
}

const normal = (id: string, table: string, columnName: string, columnTitle: string, extra: Partial<DatasetFieldSave> = {}): DatasetFieldSave => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: table,
  columnAttr: 'NORMAL',
  ...extra,
});

/** orders → users → provinces: three demo tables, two joins, two computed fields; every id temporary. */
export function threeTableDataset(workspaceId: number, datasourceId: number, cubeName = '订购分析'): DatasetSave {
  return {
    cubeData: {
      cubeName,
      workspaceId,
      remark: '订购、用户与省份',
      cubeTableNames: [
        { tableName: 'orders', tableAliasName: 'o', tableComment: '产品订购记录', type: 'TABLE' },
        { tableName: 'users', tableAliasName: 'u', tableComment: '用户表', type: 'TABLE' },
        { tableName: 'provinces', tableAliasName: 'p', tableComment: '省份维表', type: 'TABLE' },
      ],
      linksJoin: [
        { joinType: 'LEFT_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: 'phone', targetKey: 'phone' }] },
        { joinType: 'LEFT_JOIN', source: 'u', target: 'p', joinKeys: [{ sourceKey: 'province', targetKey: 'province_name' }] },
      ],
      publicStatus: 0,
    },
    datasourceId,
    columnList: [
      normal('o_province', 'o', 'province', '省份', { sortNum: 1 }),
      normal('o_channel', 'o', 'channel_name', '渠道', { sortNum: 2 }),
      normal('o_phone', 'o', 'phone', '手机号', { sortNum: 3 }),
      normal('o_id', 'o', 'order_id', '订单编号', { viewDataType: 'NUMBER', sortNum: 4 }),
      normal('o_amount', 'o', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', sortNum: 1 }),
      normal('u_phone', 'u', 'phone', '用户手机号', { sortNum: 5 }),
      normal('u_gender', 'u', 'gender', '性别', { sortNum: 6 }),
      normal('u_province', 'u', 'province', '用户省份', { sortNum: 10 }),
      normal('u_age', 'u', 'age', '年龄', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'AVG', sortNum: 2 }),
      normal('p_name', 'p', 'province_name', '省份名称', { sortNum: 7 }),
      normal('p_region', 'p', 'region', '大区', { sortNum: 8 }),
      {
        id: 'c_avg',
        columnAttr: 'VIRTUAL',
        columnTitle: '客单价',
        columnFormula: 'SUM({o_amount}) / COUNT(DISTINCT [手机号])',
        viewDataType: 'NUMBER',
        dimensionType: 'ZHIBIAO',
        sortNum: 3,
      },
      {
        id: 'c_band',
        columnAttr: 'VIRTUAL',
        columnTitle: '金额分档',
        columnFormula: "CASE WHEN {o_amount} >= 10 THEN '大额' ELSE '普通' END",
        tableAliasName: 'o',
        sortNum: 9,
      },
    ],
    orderByList: [{ fieldId: 'o_amount', aggregation: 'SUM', direction: 'DESC' }],
  };
}

/** One table, orders: province, channel, phone, amount, order id. */
export function ordersDataset(workspaceId: number, datasourceId: number, cubeName = '订单明细', publicStatus: 0 | 1 = 0): DatasetSave {
  return {
    cubeData: { cubeName, workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus },
    datasourceId,
    columnList: [
      normal('province', 'o', 'province', '省份'),
      normal('channel', 'o', 'channel_name', '渠道'),
      normal('phone', 'o', 'phone', '手机号'),
      normal('amount', 'o', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      normal('orderId', 'o', 'order_id', '订单编号', { viewDataType: 'NUMBER' }),
    ],
  };
}

/** Field ids of a saved dataset by title. */
export async function fieldIds(server: TestServer, headers: Headers, cubeId: number): Promise<Record<string, number>> {
  const res = await call(server, 'GET', `/api/dataset/cubes/${cubeId}/fields`, { headers });
  if (res.status !== 200) throw new Error(`fields: ${res.status} ${res.raw.body}`);
  return Object.fromEntries((res.body.data as { columnTitle: string; id: number }[]).map((f) => [f.columnTitle, f.id]));
}
