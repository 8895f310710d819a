import type { DataSource, DataSourceTable, PermGroup, PermType } from '@shutu/contracts';

/** Shared data of the permission-group tests. */
export const types: PermType[] = [
  { id: 2, typeName: '业务部门', sortNum: 2 },
  { id: 1, typeName: '管理层', sortNum: 1 },
];

const stamp = { createTime: '2026-01-01T00:00:00.000Z', updateTime: '2026-01-01T00:00:00.000Z' };

export const salesGroup: PermGroup = {
  ...stamp,
  id: 11,
  permName: '华东销售组',
  typeId: 2,
  typeName: '业务部门',
  permJson: {
    dpList: [{ id: 3, name: '华东销售部' }],
    roleList: [{ id: 4, name: '分析师' }],
    userList: [{ id: 5, name: '张三' }],
    blackUserList: [{ id: 6, name: '李四' }],
  },
};

export const bossGroup: PermGroup = {
  ...stamp,
  id: 12,
  permName: '管理层 & 财务',
  typeId: 1,
  typeName: '管理层',
  permJson: { dpList: [], roleList: [], userList: [], blackUserList: [] },
};

export const page = <T>(records: T[], total = records.length) => ({ records, total, current: 1, size: 10 });

const dsBase = { host: null, port: null, database: null, username: null, hasPassword: false, remark: null, isBuiltin: false, ...stamp };
export const warehouse: DataSource = {
  ...dsBase,
  id: 1,
  dsDb: '示例数据仓库',
  type: 'duckdb',
  dsTypeSyl: 'DuckDB',
  path: '/data/warehouse.duckdb',
  isBuiltin: true,
};
export const salesDb: DataSource = { ...dsBase, id: 2, dsDb: '销售库', type: 'mysql', dsTypeSyl: 'MySQL / MariaDB', host: 'db', port: 3306, path: null };

export const warehouseTables: DataSourceTable[] = [
  { schema: 'main', name: 'orders', comment: '产品订购记录', kind: 'TABLE' },
  { schema: 'main', name: 'cancellations', comment: '产品退订记录', kind: 'TABLE' },
  { schema: 'main', name: 'v_order_data', comment: '订购数据明细（订购、退订与当月使用）', kind: 'VIEW' },
  { schema: 'main', name: 'provinces', comment: '省份维表', kind: 'TABLE' },
];
