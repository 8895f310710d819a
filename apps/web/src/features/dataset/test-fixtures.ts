import type { CubeCategory, DatasetListItem, UsableDataSource } from '@shutu/contracts';

/** Shared data of the dataset list and grant tests. */
export const categories: CubeCategory[] = [
  { id: 1, wsName: '销售分析', parentId: 0, sortNum: 1, createUserId: 1 },
  { id: 2, wsName: '华东', parentId: 1, sortNum: 1, createUserId: 1 },
  { id: 3, wsName: '财务', parentId: 0, sortNum: 2, createUserId: 9 },
];

const stamp = { createTime: '2026-01-02T03:04:05.000Z', updateTime: '2026-01-02T03:04:05.000Z' };

export const cube = (id: number, cubeName: string, extra: Partial<DatasetListItem> = {}): DatasetListItem => ({
  ...stamp,
  id,
  cubeName,
  remark: null,
  workspaceId: 2,
  workspaceName: '华东',
  datasourceId: 1,
  dsName: '示例数据仓库',
  tableType: 'PHYSICS',
  publicStatus: 0,
  createUserId: 1,
  createUserName: '管理员',
  editable: true,
  ...extra,
});

export const usable: UsableDataSource[] = [
  { id: 1, dsDb: '示例数据仓库', type: 'duckdb', dsTypeSyl: 'DuckDB', remark: null },
  { id: 4, dsDb: '销售库', type: 'mysql', dsTypeSyl: 'MySQL / MariaDB', remark: null },
];

export const page = <T>(records: T[], total = records.length) => ({ records, total, current: 1, size: 10 });
