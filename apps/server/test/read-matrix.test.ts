import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Call } from './fixtures.ts';
import { alertCheckOwnedRead, alertCheckRead, alertPreviewRead } from './alert-matrix.ts';
import { multipart } from './multipart.ts';
import {
  audienceExportRead,
  audienceMembersSql,
  audiencePreviewRead,
  profileCompareRead,
  profileProvincesSql,
  tagRatioRead,
  tagRatioSql,
} from './read-matrix-audience.ts';
import { cdpTaskDataRead, cdpTaskDataSql, closeCdp } from './read-matrix-cdp.ts';
import { sqlAnswer, startFakeOpenAi, type FakeOpenAi } from '../src/modules/ai/testing/fake-openai.ts';
import {
  CHART,
  chartData,
  direct,
  exported,
  matrixWorld,
  refusal,
  rowsOf,
  shownOf,
  SUBJECTS,
  unordered,
  value,
  where,
  type MatrixWorld,
  type Refused,
  type Seen,
  type Shown,
  type Subject,
  type SubjectName,
  type View,
} from './read-matrix-fixtures.ts';

/**
 * The read-path matrix (issue 15): every way warehouse data is read (all through modules/read),
 * by every kind of reader, each cell the exact rows and columns that reader may see — computed
 * by hand-written SQL on the warehouse — or the exact refusal (docs/permissions.md "Whose
 * restriction applies").
 *
 * Readers (SUBJECTS, read-matrix-fixtures.ts): the administrator; a member whose group sees
 * only 广东 rows and not 金额; a member with no grant on the dataset (publicStatus 0), through
 * a board of the administrator and through one of the restricted member; a login-free share
 * link the restricted member made of their board; a subscription rendering for the restricted
 * member (the view token subscription/render.ts and the slideshow PDF render with). Both boards
 * are public and show the same charts (CHART); board-bound paths read through the subject's.
 *
 * What the rule gives (viewer's restriction AND the board creator's): the administrator adds
 * nothing, so the member with no grant sees through the administrator's board all it shows
 * (every province, 金额) and through the restricted member's board what that member sees; a
 * share link reads as its creator; a view token is an ordinary token of its user, so the
 * subscription reads everything as the restricted member. Asking for the dataset itself (its
 * preview, an editor's chart) needs a grant of it. Raw reads (SQL views, the editor's model
 * preview) need a grant of the table, which is the whole table: no dataset filter applies.
 *
 * A cell is 'all' (every row, 金额 included), '广东' (广东 rows only, no 金额 in rows, titles or
 * file) or a refusal. A new read path (data APIs, audiences, alerts …) is one more entry of
 * PATHS: how a subject reads it, what SQL shows the same rows, and one row of cells.
 *
 * Run on the embedded store only: the rules are the server's, not the store's.
 */

const ALL: View = 'all';
const GD: View = '广东';
type Cell = View | Refused;

const forbidden = (msg: string): Refused => ({ status: 403, msg });
/** The member with no grant, asking for the dataset itself. */
const NO_GRANT = forbidden('没有数据集【订单明细】的使用权限，请联系管理员授权');
/** A share link's token reads its boards' saved charts only. */
const SCOPED = forbidden('分享链接只能查看分享的内容');
/** Any chart but a detail table that reads a column hidden from the viewer or the board's creator. */
const HIDDEN = forbidden('无权访问字段【金额】');
/** Raw SQL: the member with no grant is granted no table of the warehouse (the source's name is filled in). */
const NO_SOURCE = forbidden('没有数据源【{source}】的使用权限，请联系管理员授权');
/** Raw reads of a table (SQL views, the editor's model preview) need a grant of that table. */
const NO_TABLE = forbidden('没有数据表【orders】的使用权限，请联系管理员授权');
/** A saved SQL view used as a table by someone not granted every table it reads (issue 28): refused by the view's name. */
const NO_MATRIX_VIEW = (n: number) => forbidden(`没有数据表【V_SQL_MATRIX${n}】的使用权限，请联系管理员授权`);
/** A route whose permission code the reader does not hold (order_export). */
const NO_PERMISSION = forbidden('没有权限执行此操作');
const NO_USERS_TABLE = forbidden('没有数据表【users】的使用权限，请联系管理员授权');
const NO_CLICKS_TABLE = forbidden('没有数据表【click_events】的使用权限，请联系管理员授权');
const NO_PAGES_TABLE = forbidden('没有数据表【web_pages】的使用权限，请联系管理员授权');
const NO_TAGS_TABLE = forbidden('没有数据表【tags】的使用权限，请联系管理员授权');
/** An administrator's route (connected platforms): refused to everyone else before any read. */
const ADMIN_ONLY = forbidden('没有权限执行此操作');
/** AI SQL over an ungranted table: refused by the read module on every try, no SQL returned (422 with the module's reason). */
const AI_NO_USERS_TABLE: Refused = { status: 422, msg: 'AI 生成的 SQL 经 2 次修正仍无法执行：没有数据表【users】的使用权限，请联系管理员授权' };

/** One row of cells, in the order of SUBJECTS. */
function cells(...row: Cell[]): Record<SubjectName, Cell> {
  if (row.length !== SUBJECTS.length) throw new Error(`${row.length} cells for ${SUBJECTS.length} subjects`);
  return Object.fromEntries(SUBJECTS.map((s, i) => [s, row[i]!])) as Record<SubjectName, Cell>;
}

interface ReadPath {
  name: string;
  read(m: MatrixWorld, s: Subject): Promise<Seen>;
  /** The same rows and columns by hand-written SQL, for a cell that is not a refusal. */
  expected(m: MatrixWorld, view: View): Promise<Shown>;
  cells: Record<SubjectName, Cell>;
}

const ifShown = (seen: Seen, fn: (shown: Shown) => Shown): Seen => ('rows' in seen ? fn(seen) : seen);

/** The detail table's columns: 省份, 订单编号, 金额 (hidden: left out), in 订单编号 order. */
const detailSql = (m: MatrixWorld, view: View) =>
  direct(m, `SELECT province, order_id${view === ALL ? ', amount' : ''} FROM orders ${where(view)} ORDER BY order_id`, [
    '省份',
    '订单编号',
    ...(view === ALL ? ['金额'] : []),
  ]);
const amountSql = async (m: MatrixWorld, view: View) =>
  unordered(await direct(m, `SELECT province, SUM(amount) FROM orders ${where(view)} GROUP BY province`, ['省份', '金额']));
/** The dataset's columns in its field order. */
const DATASET_COLUMNS = [
  ['省份', 'province'],
  ['渠道', 'channel_name'],
  ['手机号', 'phone'],
  ['金额', 'amount'],
  ['订单编号', 'order_id'],
] as const;
const ORDERS_SQL = 'SELECT province, COUNT(*) AS n, SUM(amount) AS amount FROM orders GROUP BY province ORDER BY province';
const USERS_SQL = 'SELECT gender, COUNT(*) AS n FROM users GROUP BY gender ORDER BY gender';

/** Raw SQL is never row-filtered: a cell of a raw SQL path is 'all' or a refusal. */
const rawSql = (sql: string, view: View) => {
  if (view !== ALL) throw new Error(`raw SQL has no ${view} view: a table grant is the whole table`);
  return sql;
};

async function sqlPreview(m: MatrixWorld, s: Subject, sql: string): Promise<Seen> {
  const res = await call(m.w.server, 'POST', '/api/sqlview/preview', { headers: s.headers, payload: { datasourceId: m.w.warehouseId, sql } });
  if (res.status !== 200) return refusal(res);
  const names = (res.body.data.columns as { name: string }[]).map((c) => c.name);
  return { titles: names, rows: rowsOf(res.body.data.rows, names) };
}

/** SQL views as dataset tables (issue 28): one view per SQL, saved by the administrator, per matrix world. */
const sqlViews = new WeakMap<MatrixWorld, Map<string, Promise<string>>>();
function sqlViewFor(m: MatrixWorld, sql: string): Promise<string> {
  let views = sqlViews.get(m);
  if (!views) sqlViews.set(m, (views = new Map()));
  let name = views.get(sql);
  if (!name) {
    const viewName = `V_SQL_MATRIX${views.size}`;
    name = call(m.w.server, 'POST', '/api/sqlview/views', {
      headers: m.subjects['管理员'].headers,
      payload: { datasourceId: m.w.warehouseId, sqlName: viewName, viewName, sqlStatement: sql },
    }).then((saved) => {
      if (saved.status !== 200) throw new Error(`SQL view: ${saved.status} ${saved.raw.body}`);
      return viewName;
    });
    views.set(sql, name);
  }
  return name;
}

/** The dataset editor's preview of a model whose one table is the SQL view of `sql` (its first two columns as detail rows). */
async function viewModelPreview(m: MatrixWorld, s: Subject, sql: string, columns: [string, string]): Promise<Seen> {
  const model = {
    tables: [{ tableName: await sqlViewFor(m, sql), tableAliasName: 'v' }],
    fields: columns.map((columnName, i) => ({ id: `c${i}`, columnName, columnTitle: columnName, tableAliasName: 'v' })),
  };
  const request = { dimensions: [{ fieldId: 'c0' }, { fieldId: 'c1' }], detail: true, sort: [{ fieldId: 'c0' }], limit: 10_000 };
  return shownOf(await call(m.w.server, 'POST', '/api/query/preview', { headers: s.headers, payload: { datasourceId: m.w.warehouseId, model, request } }));
}

/** Data APIs (issue 17): one type-1 API per SQL, made by the administrator, per matrix world. */
const dataApis = new WeakMap<MatrixWorld, Map<string, Promise<string>>>();
function dataApiFor(m: MatrixWorld, sql: string): Promise<string> {
  let apis = dataApis.get(m);
  if (!apis) dataApis.set(m, (apis = new Map()));
  let apiKey = apis.get(sql);
  if (!apiKey) {
    apiKey = (async () => {
      const headers = m.subjects['管理员'].headers;
      const category = await call(m.w.server, 'POST', '/api/dataapi/categories', { headers, payload: { categoryName: `矩阵接口${apis.size}` } });
      const key = `matrix_${apis.size}_${Date.now().toString(36)}`;
      const payload = { categoryId: category.body.data.id, apiKey: key, apiName: key, apiType: 1, datasourceId: m.w.warehouseId, querySql: sql };
      const saved = await call(m.w.server, 'POST', '/api/dataapi/apis', { headers, payload });
      if (saved.status !== 200) throw new Error(`data API: ${saved.status} ${saved.raw.body}`);
      return key;
    })();
    apis.set(sql, apiKey);
  }
  return apiKey;
}

/** The published runtime (GET /open/api/{apiKey}) called with the subject's own token: the rows, columns in the SQL's order. */
async function dataApiRead(m: MatrixWorld, s: Subject, sql: string): Promise<Seen> {
  const res = await call(m.w.server, 'GET', `/open/api/${await dataApiFor(m, sql)}`, { headers: s.headers });
  if (res.status !== 200) return refusal(res);
  const names = Object.keys(res.body.data[0] ?? {});
  return { titles: names, rows: rowsOf(res.body.data, names) };
}

/** A data API as a filter pick-list (enumSource 2, GET /api/dataapi/apis/:id/options) for the subject: value the first column, label the second. */
async function dataApiOptions(m: MatrixWorld, s: Subject, sql: string): Promise<Seen> {
  const apiKey = await dataApiFor(m, sql);
  const detail = await call(m.w.server, 'GET', `/api/dataapi/by-key/${apiKey}`, { headers: m.subjects['管理员'].headers });
  const res = await call(m.w.server, 'GET', `/api/dataapi/apis/${detail.body.data.id}/options`, { headers: s.headers });
  if (res.status !== 200) return refusal(res);
  return { titles: ['value', 'label'], rows: (res.body.data.options as { value: unknown; label: string }[]).map((o) => [value(o.value), o.label]) };
}

/**
 * AI SQL (issue 25): the administrator points the AI settings at a local fake model that answers
 * each question's own text as its SQL (and the same SQL to every repair request), so the
 * preview the reader gets back is what the read module let that reader run.
 */
const AI_KEY = 'sk-matrix';
let fakeAi: FakeOpenAi | undefined;
const aiConfigured = new WeakMap<MatrixWorld, Promise<void>>();
function aiReady(m: MatrixWorld): Promise<void> {
  let ready = aiConfigured.get(m);
  if (!ready) {
    ready = (async () => {
      fakeAi ??= await startFakeOpenAi({ apiKey: AI_KEY, reply: (request) => sqlAnswer(request.messages.find((x) => x.role === 'user')!.content) });
      const payload = { enabled: true, baseUrl: fakeAi.baseUrl, model: 'fake-matrix', apiKey: AI_KEY };
      const saved = await call(m.w.server, 'PUT', '/api/ai/settings', { headers: m.subjects['管理员'].headers, payload });
      if (saved.status !== 200) throw new Error(`AI settings: ${saved.status} ${saved.raw.body}`);
    })();
    aiConfigured.set(m, ready);
  }
  return ready;
}
async function aiSqlRead(m: MatrixWorld, s: Subject, sql: string): Promise<Seen> {
  await aiReady(m);
  const res = await call(m.w.server, 'POST', '/api/ai/sql', { headers: s.headers, payload: { datasourceId: m.w.warehouseId, question: sql } });
  if (res.status !== 200) return refusal(res);
  const names = (res.body.data.preview.columns as { name: string }[]).map((c) => c.name);
  return { titles: names, rows: rowsOf(res.body.data.preview.rows, names) };
}

/** Order-data export (issue 20): a batch of the first phones of v_order_data, run to status 9, its CSV read back (default output columns). */
const ORDER_PHONES_SQL = 'SELECT DISTINCT userid FROM v_order_data ORDER BY userid LIMIT 5';
const ORDER_TITLES = ['手机号', '产品编码', '产品名称', '订购时间', '订购渠道'];
async function orderExported(m: MatrixWorld, s: Subject): Promise<Seen> {
  const phones = (await m.w.direct(ORDER_PHONES_SQL)).map((r) => String(r.userid));
  const form = { CUsertype: 1, outputSpid: 1, outputSpname: 1, outputOrdertime: 1, outputOrderchannelname: 1 };
  const body = multipart({ form: JSON.stringify(form) }, { name: 'phones.txt', content: phones.join('\n'), contentType: 'text/plain' });
  const created = await m.w.server.app.inject({
    method: 'POST',
    url: '/api/orderexport/addtxt',
    headers: { ...s.headers, ...body.headers },
    payload: body.payload,
  });
  if (created.statusCode !== 200) return { status: created.statusCode, msg: created.json().msg };
  const taskId = created.json().data as number;
  let status = 0;
  for (let i = 0; i < 240 && ![3, 6, 8, 9].includes(status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = (await call(m.w.server, 'GET', '/api/orderexport/details', { headers: s.headers, query: { taskId } })).body.data.taskStatus1;
  }
  const file = await m.w.server.app.inject({ method: 'GET', url: '/api/orderexport/download', headers: s.headers, query: { taskId: String(taskId) } });
  if (file.statusCode !== 200) return { status: file.statusCode, msg: file.json().msg };
  const [header, ...lines] = file.body
    .slice(1)
    .split('\r\n')
    .filter((l) => l !== '');
  return unordered({ titles: header!.split(','), rows: lines.map((l) => l.split(',')) });
}

/** Marketing statistics (issue 20): the task list's columns and a type-1 task's daily rows. */
const MARKET_TASK_KEYS = ['taskId', 'missionName', 'taskType', 'channelId', 'targetGroupNumber'];
const MARKET_TASK_TITLES = ['task_id', 'mission_name', 'task_type', 'channel_id', 'target_group_number'];
const MARKET_TASKS_SQL = `SELECT ${MARKET_TASK_TITLES.join(', ')} FROM marketing_tasks ORDER BY push_time DESC, task_id`;
const MARKET_DAILY_KEYS = ['dt', 'activate_num', 'cancel_num_rate'];
const NO_MARKET_PERMISSION = NO_PERMISSION;
const NO_ACTIVATION_TABLE = forbidden('没有数据表【task_activation_daily】的使用权限，请联系管理员授权');
const firstActivationTask = async (m: MatrixWorld) =>
  String((await m.w.direct('SELECT task_id FROM marketing_tasks WHERE task_type = 1 ORDER BY task_id LIMIT 1'))[0]!.task_id);

/** One chart of the subject's board read through POST chart-data/batch, as its own call's answer (or the refusal). */
async function batchChart(m: MatrixWorld, s: Subject, chartKey: string, mode: 'detail' | 'aggregate'): Promise<Call> {
  const res = await call(m.w.server, 'POST', '/api/board/chart-data/batch', {
    headers: s.headers,
    payload: { boardId: s.boardId, charts: [{ chartKey, mode, size: 1000 }] },
  });
  if (res.status !== 200) return res;
  const [item] = res.body.data as { data: unknown; error: { status: number; msg: string } | null }[];
  return item!.error
    ? { ...res, status: item!.error.status, body: { ...res.body, msg: item!.error.msg } }
    : { ...res, body: { ...res.body, data: item!.data } };
}

//                     管理员      受限成员    无授权成员   无授权成员·受限成员的大屏  分享链接  订阅·受限成员
const PATHS: ReadPath[] = [
  {
    name: '图表数据：明细表（保存的图表）',
    read: (m, s) => chartData(m, s.headers, { boardId: s.boardId, chartKey: CHART.detail }).then(shownOf),
    expected: detailSql,
    cells: cells(ALL, GD, ALL, GD, GD, GD),
  },
  {
    name: '图表数据：各省金额（聚合，读取金额）',
    read: async (m, s) => ifShown(shownOf(await chartData(m, s.headers, { boardId: s.boardId, chartKey: CHART.amount })), unordered),
    expected: amountSql,
    cells: cells(ALL, HIDDEN, ALL, HIDDEN, HIDDEN, HIDDEN),
  },
  {
    // The board's batch read (issue 26: one call, charts sharing rows in one grouped statement) shows each chart as its own call does.
    name: '图表数据（大屏批量读取）：明细表',
    read: (m, s) => batchChart(m, s, CHART.detail, 'detail').then(shownOf),
    expected: detailSql,
    cells: cells(ALL, GD, ALL, GD, GD, GD),
  },
  {
    name: '图表数据（大屏批量读取）：各省金额',
    read: async (m, s) => ifShown(shownOf(await batchChart(m, s, CHART.amount, 'aggregate')), unordered),
    expected: amountSql,
    cells: cells(ALL, HIDDEN, ALL, HIDDEN, HIDDEN, HIDDEN),
  },
  {
    name: '图表合计：各省订单数（表格 showTotal，最后一行为合计）',
    read: async (m, s) => {
      const res = await chartData(m, s.headers, { boardId: s.boardId, chartKey: CHART.totals });
      return ifShown(shownOf(res), (shown) => ({ ...unordered(shown), rows: [...unordered(shown).rows, ['合计', value(res.body.data.totals?.grand?.m0)]] }));
    },
    expected: async (m, view) => {
      const rows = unordered(await direct(m, `SELECT province, COUNT(order_id) FROM orders ${where(view)} GROUP BY province`, ['省份', '订单编号']));
      const [grand] = (await direct(m, `SELECT '合计', COUNT(order_id) FROM orders ${where(view)}`, [])).rows;
      return { ...rows, rows: [...rows.rows, grand!] };
    },
    cells: cells(ALL, GD, ALL, GD, GD, GD),
  },
  {
    name: '字典值：筛选器的可选省份（mode values）',
    read: (m, s) => chartData(m, s.headers, { boardId: s.boardId, chartKey: CHART.values }).then(shownOf),
    expected: (m, view) => direct(m, `SELECT DISTINCT province FROM orders ${where(view)} ORDER BY province`, ['省份']),
    cells: cells(ALL, GD, ALL, GD, GD, GD),
  },
  {
    name: '数据集预览：读者可见的全部字段（明细）',
    read: async (m, s) => {
      const fields = await call(m.w.server, 'GET', `/api/dataset/cubes/${m.cubeId}/fields`, { headers: s.headers });
      if (fields.status !== 200) return refusal(fields);
      const dimensions = (fields.body.data as { id: number }[]).map((f) => ({ fieldId: f.id }));
      const request = { dimensions, detail: true, sort: [{ fieldId: m.f['订单编号'], direction: 'ASC' }], limit: 10_000 };
      return shownOf(await m.w.preview(s.headers, m.cubeId, request));
    },
    expected: (m, view) => {
      const columns = DATASET_COLUMNS.filter(([title]) => view === ALL || title !== '金额');
      const sql = `SELECT ${columns.map(([, column]) => column).join(', ')} FROM orders ${where(view)} ORDER BY order_id`;
      return direct(
        m,
        sql,
        columns.map(([title]) => title),
      );
    },
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    name: '数据集预览：各省金额（聚合，读取金额）',
    read: async (m, s) =>
      ifShown(
        shownOf(await m.w.preview(s.headers, m.cubeId, { dimensions: [{ fieldId: m.f['省份'] }], measures: [{ fieldId: m.f['金额'], aggregation: 'SUM' }] })),
        unordered,
      ),
    expected: amountSql,
    cells: cells(ALL, HIDDEN, NO_GRANT, NO_GRANT, SCOPED, HIDDEN),
  },
  {
    // The dataset editor's preview of its model, naming the saved dataset: its filters apply to a member.
    name: '模型预览：编辑器中的数据集模型（带 cubeDataId，明细）',
    read: async (m, s) => {
      const fields = DATASET_COLUMNS.map(([title, columnName]) => ({ id: m.f[title], columnName, columnTitle: title, tableAliasName: 'o' }));
      const model = { tables: [{ tableName: 'orders', tableAliasName: 'o' }], fields };
      const request = {
        dimensions: [{ fieldId: m.f['省份'] }, { fieldId: m.f['订单编号'] }],
        detail: true,
        sort: [{ fieldId: m.f['订单编号'] }],
        limit: 10_000,
      };
      const payload = { datasourceId: m.w.warehouseId, model, request, cubeDataId: m.cubeId };
      return shownOf(await call(m.w.server, 'POST', '/api/query/preview', { headers: s.headers, payload }));
    },
    expected: (m, view) => direct(m, `SELECT province, order_id FROM orders ${where(view)} ORDER BY order_id`, ['省份', '订单编号']),
    cells: cells(ALL, GD, NO_TABLE, NO_TABLE, SCOPED, GD),
  },
  {
    name: '编辑器中未保存的图表：明细表',
    read: (m, s) =>
      chartData(m, s.headers, {
        chartType: 'detail',
        mode: 'detail',
        dataconfig: {
          cubeId: m.cubeId,
          rowParamList: ['省份', '订单编号', '金额'].map((t) => ({ fieldId: m.f[t] })),
          sortList: [{ fieldId: m.f['订单编号'], direction: 'ASC' }],
        },
      }).then(shownOf),
    expected: detailSql,
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    // Raw SQL: the table grant is the whole table; the datasets' row filters do not apply.
    name: 'SQL视图预览：已授权的表 orders',
    read: (m, s) => sqlPreview(m, s, ORDERS_SQL),
    expected: (m, view) => direct(m, rawSql(ORDERS_SQL, view), ['province', 'n', 'amount']),
    cells: cells(ALL, ALL, NO_SOURCE, NO_SOURCE, SCOPED, ALL),
  },
  {
    name: 'SQL视图预览：未授权的表 users',
    read: (m, s) => sqlPreview(m, s, USERS_SQL),
    expected: (m, view) => direct(m, rawSql(USERS_SQL, view), ['gender', 'n']),
    cells: cells(ALL, NO_USERS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_USERS_TABLE),
  },
  {
    // A saved SQL view as a dataset's table (issue 28): read through grants of the tables its statement reads.
    name: '模型预览：SQL视图作为数据集的表（视图读已授权的表 orders）',
    read: (m, s) => viewModelPreview(m, s, ORDERS_SQL, ['province', 'n']),
    expected: (m, view) => direct(m, rawSql('SELECT province, COUNT(*) FROM orders GROUP BY province ORDER BY province', view), ['province', 'n']),
    cells: cells(ALL, ALL, NO_MATRIX_VIEW(0), NO_MATRIX_VIEW(0), SCOPED, ALL),
  },
  {
    name: '模型预览：SQL视图作为数据集的表（视图读未授权的表 users）',
    read: (m, s) => viewModelPreview(m, s, USERS_SQL, ['gender', 'n']),
    expected: (m, view) => direct(m, rawSql(USERS_SQL, view), ['gender', 'n']),
    cells: cells(ALL, NO_MATRIX_VIEW(1), NO_MATRIX_VIEW(1), NO_MATRIX_VIEW(1), SCOPED, NO_MATRIX_VIEW(1)),
  },
  {
    // Data APIs read a data source's tables like SQL views: with a user token, that user's table grants (a grant is the whole table).
    name: '数据接口（用户令牌调用 /open/api）：SQL 读已授权的表 orders',
    read: (m, s) => dataApiRead(m, s, ORDERS_SQL),
    expected: (m, view) => direct(m, rawSql(ORDERS_SQL, view), ['province', 'n', 'amount']),
    cells: cells(ALL, ALL, NO_SOURCE, NO_SOURCE, SCOPED, ALL),
  },
  {
    name: '数据接口（用户令牌调用 /open/api）：SQL 读未授权的表 users',
    read: (m, s) => dataApiRead(m, s, USERS_SQL),
    expected: (m, view) => direct(m, rawSql(USERS_SQL, view), ['gender', 'n']),
    cells: cells(ALL, NO_USERS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_USERS_TABLE),
  },
  {
    name: '数据接口作为筛选下拉（enumSource 2）：SQL 读已授权的表 orders，值为首列、显示名为次列',
    read: (m, s) => dataApiOptions(m, s, ORDERS_SQL),
    expected: async (m, view) => {
      const shown = await direct(m, rawSql(ORDERS_SQL, view), []);
      return { titles: ['value', 'label'], rows: shown.rows.map(([province, n]) => [province, String(n)]) };
    },
    cells: cells(ALL, ALL, NO_SOURCE, NO_SOURCE, SCOPED, ALL),
  },
  {
    // AI SQL (issue 25): the generated statement is previewed as the asking user, like SQL views (a table grant is the whole table).
    name: 'AI 生成 SQL：问题对应的 SQL 读已授权的表 orders（预览）',
    read: (m, s) => aiSqlRead(m, s, ORDERS_SQL),
    expected: (m, view) => direct(m, rawSql(ORDERS_SQL, view), ['province', 'n', 'amount']),
    cells: cells(ALL, ALL, NO_SOURCE, NO_SOURCE, SCOPED, ALL),
  },
  {
    name: 'AI 生成 SQL：问题对应的 SQL 读未授权的表 users（修正两次后仍拒绝）',
    read: (m, s) => aiSqlRead(m, s, USERS_SQL),
    expected: (m, view) => direct(m, rawSql(USERS_SQL, view), ['gender', 'n']),
    cells: cells(ALL, AI_NO_USERS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, AI_NO_USERS_TABLE),
  },
  {
    name: 'Excel导出：明细表（表头与文件内容）',
    read: (m, s) => exported(m, s, CHART.detail),
    expected: detailSql,
    cells: cells(ALL, GD, ALL, GD, SCOPED, GD),
  },
  {
    name: 'CSV导出：柱状图 各省订单数（维度与指标列，UTF-8 BOM）',
    read: async (m, s) => ifShown(await exported(m, s, CHART.count, 'csv'), unordered),
    expected: async (m, view) =>
      unordered(await direct(m, `SELECT province, COUNT(order_id) FROM orders ${where(view)} GROUP BY province`, ['省份', '订单编号'])),
    cells: cells(ALL, GD, ALL, GD, SCOPED, GD),
  },
  {
    // The heat map (issue 22) reads click_events like raw SQL: a grant of the table is the whole table.
    name: '热力图：首页全部用户的点击（x 为页面宽度比例）',
    read: async (m, s) => {
      const payload = { startTime: '2000-01-01', endTime: '2100-01-01', title: '网上营业厅-首页' };
      const res = await call(m.w.server, 'POST', '/api/heatmap/events', { headers: s.headers, payload });
      if (res.status !== 200) return refusal(res);
      return unordered({ titles: ['x', 'y'], rows: (res.body.data.points as { x: number; y: number }[]).map((p) => [p.x, p.y]) });
    },
    expected: async (m, view) => {
      const sql = rawSql("SELECT attr1, attr2, attr3 FROM click_events WHERE page_title = '网上营业厅-首页' AND attr3 > 0", view);
      const rows = (await direct(m, sql, [])).rows as number[][];
      return unordered({ titles: ['x', 'y'], rows: rows.map(([x, y, width]) => [Math.round((x! / width!) * 10_000) / 10_000, y]) });
    },
    cells: cells(ALL, NO_CLICKS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_CLICKS_TABLE),
  },
  {
    // The heat map's frame check and screenshot (issue 22) take only titles of web_pages the caller may read.
    name: '热力图：页面嵌入或截图的判断（网站标题来自 web_pages）',
    read: async (m, s) => {
      const res = await call(m.w.server, 'GET', '/api/heatmap/frame', { headers: s.headers, query: { title: '网上营业厅-首页' } });
      if (res.status !== 200) return refusal(res);
      return unordered({ titles: ['mode'], rows: [[res.body.data.mode as string]] });
    },
    expected: async () => unordered({ titles: ['mode'], rows: [['frame']] }),
    cells: cells(ALL, NO_PAGES_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_PAGES_TABLE),
  },
  {
    // The tag library (issue 18) reads the tags table raw, like the heat map: a grant of the table (the whole table).
    name: '标签库：全部标签（tags）',
    read: async (m, s) => {
      const res = await call(m.w.server, 'GET', '/api/tag/list', { headers: s.headers });
      if (res.status !== 200) return refusal(res);
      return unordered({ titles: ['tag_id', 'tag_name'], rows: rowsOf(res.body.data, ['tagId', 'tagName']) });
    },
    expected: async (m, view) => unordered(await direct(m, rawSql('SELECT tag_id, tag_name FROM tags', view), ['tag_id', 'tag_name'])),
    cells: cells(ALL, NO_TAGS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_TAGS_TABLE),
  },
  {
    // The permission code order_export (none of the members holds it); a grant of v_order_data and products is the whole table.
    name: '订购数据导出：批量号码的订购记录（CSV，UTF-8 BOM）',
    read: orderExported,
    expected: async (m, view) => {
      const phones = (await m.w.direct(ORDER_PHONES_SQL)).map((r) => `'${String(r.userid)}'`).join(',');
      const sql = `SELECT userid, spid, shortname, strftime(ordertime, '%Y-%m-%d %H:%M:%S') AS t, orderchannelname FROM v_order_data WHERE userid IN (${phones})`;
      return unordered(await direct(m, rawSql(sql, view), ORDER_TITLES));
    },
    cells: cells(ALL, NO_PERMISSION, NO_PERMISSION, NO_PERMISSION, SCOPED, NO_PERMISSION),
  },
  {
    // Marketing statistics (issue 20) read the tables raw, like SQL views: market_view, then a grant of the table (the whole table).
    name: '营销任务统计：任务列表（marketing_tasks）',
    read: async (m, s) => {
      const res = await call(m.w.server, 'GET', '/api/market/tasks', { headers: s.headers, query: { size: 100 } });
      if (res.status !== 200) return refusal(res);
      return { titles: MARKET_TASK_TITLES, rows: rowsOf(res.body.data.records, MARKET_TASK_KEYS) };
    },
    expected: (m, view) => direct(m, rawSql(MARKET_TASKS_SQL, view), MARKET_TASK_TITLES),
    cells: cells(ALL, ALL, NO_MARKET_PERMISSION, NO_MARKET_PERMISSION, SCOPED, ALL),
  },
  {
    name: '营销任务统计：激活任务每日统计（task_activation_daily，未授权的表）',
    read: async (m, s) => {
      const query = { task_id: await firstActivationTask(m), start: '20000101', end: '29991231' };
      const res = await call(m.w.server, 'GET', '/api/market/Member-activate-task', { headers: s.headers, query });
      if (res.status !== 200) return refusal(res);
      return { titles: MARKET_DAILY_KEYS, rows: rowsOf(res.body.data, MARKET_DAILY_KEYS) };
    },
    expected: async (m, view) => {
      const sql = `SELECT dt, activate_num, cancel_num_rate FROM task_activation_daily WHERE task_id = '${await firstActivationTask(m)}' ORDER BY dt`;
      return direct(m, rawSql(sql, view), MARKET_DAILY_KEYS);
    },
    cells: cells(ALL, NO_ACTIVATION_TABLE, NO_MARKET_PERMISSION, NO_MARKET_PERMISSION, SCOPED, NO_ACTIVATION_TABLE),
  },
  {
    // Audiences (issue 18): computed as their owner, so a reader's audience holds what that reader's dataset reads show.
    name: '人群预览：订单明细的手机号与省份（交集规则，前 100 个成员与人数）',
    read: audiencePreviewRead,
    expected: audienceMembersSql,
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    name: '人群成员导出：读者保存、任务按创建人计算的人群（CSV，UTF-8 BOM）',
    read: audienceExportRead,
    expected: audienceMembersSql,
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    // The bars read tag_month_counts with the tags of the group: refused by the first ungranted table.
    name: '标签详情：标签占比柱状图（tags 与 tag_month_counts，未授权的表）',
    read: tagRatioRead,
    expected: tagRatioSql,
    cells: cells(ALL, NO_TAGS_TABLE, NO_SOURCE, NO_SOURCE, SCOPED, NO_TAGS_TABLE),
  },
  {
    name: '用户画像对比：读者导入的号码人群的省份分布（users，未授权的表）',
    read: profileCompareRead,
    expected: profileProvincesSql,
    // The comparison checks the grants of the tables it reads (users first) before reading: a table refusal for both members.
    cells: cells(ALL, NO_USERS_TABLE, NO_USERS_TABLE, NO_USERS_TABLE, SCOPED, NO_USERS_TABLE),
  },
  {
    // Connected platforms (issue 21): the data preview of a pulled WeChat follower table, an administrator's page.
    name: '数据接入：公众号粉丝拉取后的数据预览（cdp taskData，wx_fans）',
    read: cdpTaskDataRead,
    expected: cdpTaskDataSql,
    cells: cells(ALL, ADMIN_ONLY, ADMIN_ONLY, ADMIN_ONLY, SCOPED, ADMIN_ONLY),
  },
  {
    // Alerts (issue 19): the editor's preview reads as its user; keep this entry last (alert-matrix.ts adds 下单时间 to the dataset).
    name: '预警预览：各省订单数（指标与时间字段）',
    read: async (m, s) => ifShown(await alertPreviewRead(m, s), unordered),
    expected: async (m, view) =>
      unordered(await direct(m, `SELECT province, COUNT(order_id) FROM orders ${where(view)} GROUP BY province`, ['省份', '订单编号'])),
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    // An alert's check reads as the alert's owner, though the administrator runs it and reads its log (alert-matrix.ts).
    name: '预警检查：各省订单数（按预警创建人读取，管理员执行与查看）',
    read: async (m, s) => ifShown(await alertCheckRead(m, s), unordered),
    expected: async (m, view) =>
      unordered(await direct(m, `SELECT province, COUNT(order_id) FROM orders ${where(view)} GROUP BY province`, ['省份', '订单编号'])),
    cells: cells(ALL, GD, NO_GRANT, NO_GRANT, SCOPED, GD),
  },
  {
    // An alert handed to the subject after it was saved: its check applies the owner's hidden columns then, not at save.
    name: '预警检查：各省金额（管理员建、归属读者的预警，检查时按创建人读取）',
    read: async (m, s) => ifShown(await alertCheckOwnedRead(m, s), unordered),
    expected: amountSql,
    cells: cells(ALL, HIDDEN, NO_GRANT, NO_GRANT, SCOPED, HIDDEN),
  },
];

describe('every read path, for every reader (issue 15)', () => {
  let m: MatrixWorld;

  beforeAll(async () => {
    m = await matrixWorld();
  }, 180_000);
  afterAll(async () => {
    await closeCdp(m);
    await m?.close();
    await fakeAi?.close();
  });

  it('reads a warehouse where 广东 is some of the rows, so the views differ', async () => {
    const [all] = (await direct(m, "SELECT COUNT(DISTINCT province), COUNT(*), COUNT(*) FILTER (WHERE province = '广东') FROM orders", [])).rows;
    const [provinces, rows, guangdong] = all as number[];
    expect(provinces).toBeGreaterThan(1);
    expect(guangdong).toBeGreaterThan(0);
    expect(guangdong).toBeLessThan(rows!);
  });

  describe.each(PATHS)('$name', (path) => {
    it.each(SUBJECTS)('%s', async (subject) => {
      const cell = path.cells[subject];
      const seen = await path.read(m, m.subjects[subject]);
      if (typeof cell !== 'string') {
        expect(seen).toEqual({ ...cell, msg: cell.msg.replace('{source}', m.sourceName) });
        return;
      }
      const expected = await path.expected(m, cell);
      expect(expected.rows.length).toBeGreaterThan(0);
      expect(seen).toEqual(expected);
    });
  });
});
