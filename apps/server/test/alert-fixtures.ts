import type { DatasetSave } from '@shutu/contracts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from './dataset-fixtures.ts';
import { call, type Call } from './fixtures.ts';
import type { StoreKind } from './harness.ts';

/**
 * The alert suites' world (issue 19): the demo orders as a dataset with its order time, a member
 * whose group sees only 广东 rows, and a builder of alert bodies on it.
 */

export interface AlertWorld {
  w: DatasetWorld;
  cubeId: number;
  f: Record<string, number>;
  member: { id: number; headers: Headers };
  body(extra?: Record<string, unknown>): Record<string, unknown>;
  save(headers: Headers, body: Record<string, unknown>): Promise<Call>;
}

const field = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: 'o',
  columnAttr: 'NORMAL',
  ...extra,
});

export function ordersWithTime(workspaceId: number, datasourceId: number): DatasetSave {
  return {
    cubeData: { cubeName: '订单预警', workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
    datasourceId,
    columnList: [
      field('province', 'province', '省份'),
      field('orderId', 'order_id', '订单编号', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' }),
      field('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      field('orderTime', 'order_time', '下单时间', { viewDataType: 'DATETIME' }),
    ],
  } as DatasetSave;
}

export async function alertWorld(kind: StoreKind = 'pglite'): Promise<AlertWorld> {
  const w = await datasetWorld(kind);
  const ws = await w.category();
  const saved = await w.save(w.admin, ordersWithTime(ws, w.warehouseId));
  if (saved.status !== 200) throw new Error(`dataset: ${saved.raw.body}`);
  const cubeId = saved.body.data as number;
  const f = await fieldIds(w.server, w.admin, cubeId);
  const member = await w.member();
  const group = await w.group([member.id], ['orders']);
  const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, { headers: w.admin, payload: { cubeWorkspaceId: ws, dataIdList: [cubeId] } });
  if (grant.status !== 200) throw new Error(`grant: ${grant.raw.body}`);
  await w.permFilter(cubeId, group, { name: '只看广东', fieldId: f['省份'], values: ['广东'] });
  const body = (extra: Record<string, unknown> = {}) => ({
    name: '订单数预警',
    requestFreq: 300,
    warnUserIds: '1',
    cubeDataId: cubeId,
    columnJson: [
      { cubeColumnId: f['省份'], columnTitle: '省份', dimensionType: 'WEIDU' },
      { cubeColumnId: f['订单编号'], columnTitle: '订单编号', dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' },
    ],
    filterJson: [],
    filterTimeJson: {
      timeType: 'MONTH',
      calcType: 'NORMAL',
      relativeTime: { leftVal: 24, leftModifier: 'BEFORE', rightVal: 0, rightModifier: 'BEFORE' },
      timeColumn: f['下单时间'],
    },
    checkedWays: ['email'],
    ...extra,
  });
  return { w, cubeId, f, member, body, save: (headers, payload) => call(w.server, 'POST', '/api/alert/alerts', { headers, payload }) };
}
