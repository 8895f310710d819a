import { call } from './fixtures.ts';
import { refusal, shownOf, value, type MatrixWorld, type Seen, type Subject } from './read-matrix-fixtures.ts';

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

/**
 * An alert CHECK as a read path: the subject saves an alert (orders per province over a window
 * holding every order, no threshold, no channel, disabled so no tick checks it), the
 * ADMINISTRATOR presses 立即检查 and reads the rows the check kept — so what shows is what the
 * alert's owner may see, whoever runs the check or reads its log.
 */
export async function alertCheckRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const timeColumn = await orderTimeField(m);
  const payload = {
    name: `矩阵预警${Date.now().toString(36)}`,
    requestFreq: 300,
    warnUserIds: '1',
    enableStatus: 0,
    checkedWays: [],
    cubeDataId: m.cubeId,
    columnJson: [
      { cubeColumnId: m.f['省份'], dimensionType: 'WEIDU' },
      { cubeColumnId: m.f['订单编号'], dimensionType: 'ZHIBIAO', aggregationType: 'COUNT' },
    ],
    filterJson: [],
    filterTimeJson: {
      timeType: 'MONTH',
      calcType: 'NORMAL',
      relativeTime: { leftVal: 600, leftModifier: 'BEFORE', rightVal: 24, rightModifier: 'AFTER' },
      timeColumn,
    },
  };
  const saved = await call(m.w.server, 'POST', '/api/alert/alerts', { headers: s.headers, payload });
  if (saved.status !== 200) return refusal(saved);
  const check = await checkAsAdministrator(m, saved.body.data.id as number);
  if (check.status !== 'done') throw new Error(`alert check: ${JSON.stringify(check)}`);
  return keptRows(m, check.id);
}

/**
 * The check of an alert the subject OWNS but did not build: the administrator saves it (orders and
 * 金额 per province — a column hidden from the restricted group) and hands it to the subject, as
 * if it had been saved before the group's restriction existed; the administrator runs 立即检查.
 * The check must apply the owner's hidden columns at check time, not trust the save: a failed
 * check is shown as the read module's refusal (its message is the check's error; 403 stands for
 * the status a read would have answered).
 */
export async function alertCheckOwnedRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const me = await call(m.w.server, 'GET', '/api/auth/info', { headers: s.headers });
  if (me.status !== 200) return refusal(me);
  const timeColumn = await orderTimeField(m);
  const admin = m.subjects['管理员'].headers;
  const payload = {
    name: `矩阵金额预警${Date.now().toString(36)}`,
    requestFreq: 300,
    warnUserIds: '1',
    enableStatus: 0,
    checkedWays: [],
    cubeDataId: m.cubeId,
    columnJson: [
      { cubeColumnId: m.f['省份'], dimensionType: 'WEIDU' },
      { cubeColumnId: m.f['金额'], dimensionType: 'ZHIBIAO', aggregationType: 'SUM' },
    ],
    filterJson: [],
    filterTimeJson: {
      timeType: 'MONTH',
      calcType: 'NORMAL',
      relativeTime: { leftVal: 600, leftModifier: 'BEFORE', rightVal: 24, rightModifier: 'AFTER' },
      timeColumn,
    },
  };
  const saved = await call(m.w.server, 'POST', '/api/alert/alerts', { headers: admin, payload });
  if (saved.status !== 200) throw new Error(`alert: ${saved.status} ${saved.raw.body}`);
  const alertId = saved.body.data.id as number;
  const ownerId = (me.body.data.id ?? me.body.data.userId) as number;
  await m.w.server.ctx.db.updateTable('alert').set({ createUserId: ownerId }).where('id', '=', alertId).execute();
  const check = await checkAsAdministrator(m, alertId);
  if (check.status === 'failed') return { status: 403, msg: check.errMsg ?? '' };
  return keptRows(m, check.id);
}

async function checkAsAdministrator(m: MatrixWorld, alertId: number): Promise<{ id: number; status: string; errMsg: string | null }> {
  const admin = m.subjects['管理员'].headers;
  const queued = await call(m.w.server, 'POST', `/api/alert/alerts/${alertId}/check`, { headers: admin });
  if (queued.status !== 200) throw new Error(`立即检查: ${queued.status} ${queued.raw.body}`);
  let check: { id: number; status: string; errMsg: string | null } | undefined;
  for (let i = 0; i < 240 && (check === undefined || check.status === 'running'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    check = (await call(m.w.server, 'GET', '/api/alert/logs', { headers: admin, query: { alertId } })).body.data.records[0];
  }
  if (!check || check.status === 'running') throw new Error(`alert check ${alertId}: ${JSON.stringify(check)}`);
  return check;
}

async function keptRows(m: MatrixWorld, checkId: number): Promise<Seen> {
  const kept = await call(m.w.server, 'GET', `/api/alert/logs/${checkId}/rows`, { headers: m.subjects['管理员'].headers });
  if (kept.status !== 200) throw new Error(`check rows: ${kept.status} ${kept.raw.body}`);
  const data = kept.body.data as { titles: string[]; rows: unknown[][] };
  return { titles: data.titles, rows: data.rows.map((r) => r.map(value)) };
}
