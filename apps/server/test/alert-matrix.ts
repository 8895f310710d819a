import { call } from './fixtures.ts';
import { refusal, shownOf, type MatrixWorld, type Seen, type Subject } from './read-matrix-fixtures.ts';

/**
 * The alert editor's preview (issue 19) as a read path of the matrix (read-matrix.test.ts). An
 * alert needs a time column, which the matrix dataset lacks: the first read adds 下单时间
 * (orders.order_time) to it, once per world, as the administrator. The path is the LAST of PATHS
 * so the dataset-preview paths (which list every field) have already run; a path added after it
 * that lists every field of the dataset would see 下单时间 too.
 */

const timeFields = new WeakMap<MatrixWorld, Promise<number>>();

function orderTimeField(m: MatrixWorld): Promise<number> {
  let id = timeFields.get(m);
  if (!id) {
    id = (async () => {
      const headers = m.subjects['管理员'].headers;
      const fields = (await call(m.w.server, 'GET', `/api/dataset/cubes/${m.cubeId}/fields`, { headers })).body.data as Record<string, unknown>[];
      const cube = (await call(m.w.server, 'GET', `/api/dataset/cubes/${m.cubeId}`, { headers })).body.data;
      const payload = {
        id: m.cubeId,
        cubeData: {
          cubeName: cube.cubeName,
          workspaceId: cube.workspaceId,
          cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }],
          publicStatus: cube.publicStatus,
        },
        datasourceId: m.w.warehouseId,
        columnList: [
          ...fields,
          { id: 'orderTime', columnName: 'order_time', columnTitle: '下单时间', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'DATETIME' },
        ],
      };
      const saved = await call(m.w.server, 'POST', '/api/dataset/cubes', { headers, payload });
      if (saved.status !== 200) throw new Error(`matrix dataset with 下单时间: ${saved.status} ${saved.raw.body}`);
      const after = (await call(m.w.server, 'GET', `/api/dataset/cubes/${m.cubeId}/fields`, { headers })).body.data as { id: number; columnTitle: string }[];
      return after.find((f) => f.columnTitle === '下单时间')!.id;
    })();
    timeFields.set(m, id);
  }
  return id;
}

/** POST /api/alert/preview as the subject: orders per province over a window holding every order (50 years back … 2 ahead). */
export async function alertPreviewRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const timeColumn = await orderTimeField(m);
  const payload = {
    cubeDataId: m.cubeId,
    columnList: [
      { cubeColumnId: m.f['省份'], dimensionType: 'WEIDU' },
      { cubeColumnId: m.f['订单编号'], dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' },
    ],
    filterList: [],
    filterTimeJson: { timeType: 'MONTH', relativeTime: { leftVal: 600, leftModifier: 'BEFORE', rightVal: 24, rightModifier: 'AFTER' }, timeColumn },
  };
  const res = await call(m.w.server, 'POST', '/api/alert/preview', { headers: s.headers, payload });
  return res.status === 200 ? shownOf(res) : refusal(res);
}
