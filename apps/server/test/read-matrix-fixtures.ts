import ExcelJS from 'exceljs';
import type { BoardSave, ChartSave } from '@shutu/contracts';
import pino from 'pino';
import { issueViewToken } from '../src/modules/board/index.ts';
import { moduleJobs } from '../src/modules/jobs.ts';
import { Jobs } from '../src/platform/jobs/boss.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from './dataset-fixtures.ts';
import { call, type Call } from './fixtures.ts';

/**
 * The world of the read-path matrix (read-matrix.test.ts): the orders dataset (restricted,
 * publicStatus 0), a member whose group sees only 广东 rows and not 金额, a member with no
 * grant, two public boards showing the same charts (one by the administrator, one by the
 * restricted member), a login-free share link and a subscription's view token, plus the
 * helpers that turn each read into what its reader was shown.
 */

/** Who reads. Each subject reads the board-bound paths through `boardId`. */
export const SUBJECTS = ['管理员', '受限成员', '无授权成员', '无授权成员·受限成员的大屏', '分享链接', '订阅·受限成员'] as const;
export type SubjectName = (typeof SUBJECTS)[number];
export interface Subject {
  headers: Headers;
  boardId: number;
}

/** What a reader was shown: the exact rows (values in column order) and the titles of the columns. */
export interface Shown {
  titles: string[];
  rows: unknown[][];
}
export interface Refused {
  status: number;
  msg: string;
}
export type Seen = Shown | Refused;
/** Every row and column of the table, or the restricted group's view: 广东 rows, no 金额. */
export type View = 'all' | '广东';

/** The charts both boards show, by key. */
export const CHART = { detail: 'detail', amount: 'amount', totals: 'totals', values: 'values', count: 'count' } as const;

export interface MatrixWorld {
  w: DatasetWorld;
  jobs: Jobs;
  cubeId: number;
  /** Field ids by title. */
  f: Record<string, number>;
  subjects: Record<SubjectName, Subject>;
  /** The name the warehouse source is refused by (没有数据源【x】…). */
  sourceName: string;
  close(): Promise<void>;
}

type Row = Record<string, unknown>;
type Field = { alias: string; title: string };

/** A value as the matrix compares it: integers and money to two places, whatever type the engine answered in. */
export const value = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Math.round(v * 100) / 100;
  return v;
};
export const rowsOf = (rows: readonly Row[], keys: readonly string[]) => rows.map((r) => keys.map((k) => value(r[k])));
const sortRows = (rows: unknown[][]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
/** Rows whose order the path does not define (aggregates): compared as a set. */
export const unordered = (shown: Shown): Shown => ({ ...shown, rows: sortRows(shown.rows) });
export const refusal = (res: Call): Refused => ({ status: res.status, msg: res.body.msg });

/** An answer with a field dictionary (chart data, dataset preview) as shown rows, or its refusal. */
export function shownOf(res: Call): Seen {
  if (res.status !== 200) return refusal(res);
  const fields = res.body.data.fieldDict as Field[];
  const aliases = fields.map((d) => d.alias);
  // A value outside the field dictionary (a hidden column's, say) is shown too: the cell fails.
  const extra = (res.body.data.dataList as Row[]).flatMap((r) => Object.keys(r)).filter((k) => !aliases.includes(k));
  return { titles: [...fields.map((d) => d.title), ...new Set(extra)], rows: rowsOf(res.body.data.dataList, [...aliases, ...new Set(extra)]) };
}

/** Hand-written SQL on the warehouse as shown rows. */
export async function direct(m: MatrixWorld, sql: string, titles: string[]): Promise<Shown> {
  const rows = await m.w.direct(sql);
  return { titles, rows: rows.map((r) => Object.values(r).map(value)) };
}
export const where = (view: View) => (view === '广东' ? "WHERE province = '广东'" : '');

/** Every page of a saved chart (or an editor's chart: `payload` instead of a board's chart). */
export async function chartData(m: MatrixWorld, headers: Headers, payload: Record<string, unknown>): Promise<Call> {
  const rows: Row[] = [];
  for (let current = 1; ; current++) {
    const res = await call(m.w.server, 'POST', '/api/board/chart-data', { headers, payload: { ...payload, current, size: 1000 } });
    if (res.status !== 200) return res;
    rows.push(...res.body.data.dataList);
    if (res.body.data.total === null || rows.length >= res.body.data.total) {
      res.body.data.dataList = rows;
      return res;
    }
  }
}

/** Exports a board's chart as the subject, waits for the job and reads the workbook: header row, then rows. */
export async function exported(m: MatrixWorld, s: Subject, chartKey: string, format: 'xlsx' | 'csv' = 'xlsx'): Promise<Seen> {
  const created = await call(m.w.server, 'POST', '/api/export/tasks', { headers: s.headers, payload: { boardId: s.boardId, chartKey, format } });
  if (created.status !== 200) return refusal(created);
  const id = created.body.data.id as number;
  let task: { status: string; errMsg: string | null } | undefined;
  for (let i = 0; i < 240 && task?.status !== 'done' && task?.status !== 'failed'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const tasks = await call(m.w.server, 'GET', '/api/export/tasks', { headers: s.headers, query: { size: 100 } });
    task = tasks.body.data.records.find((t: { id: number }) => t.id === id);
  }
  if (task?.status !== 'done') throw new Error(`export ${id}: ${JSON.stringify(task)}`);
  const file = await m.w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${id}/download`, headers: s.headers });
  if (file.statusCode !== 200) throw new Error(`download ${id}: ${file.statusCode} ${file.body}`);
  if (format === 'csv') {
    // UTF-8 with a BOM; plain fields here (no quotes needed for provinces and counts).
    const text = file.rawPayload.toString('utf8');
    if (!text.startsWith('\ufeff')) throw new Error('CSV without a UTF-8 BOM');
    const [header, ...lines] = text
      .slice(1)
      .split('\r\n')
      .filter((l) => l !== '');
    const cell = (v: string) => (v !== '' && Number.isFinite(Number(v)) ? value(Number(v)) : v);
    return { titles: header!.split(','), rows: lines.map((l) => l.split(',').map(cell)) };
  }
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1).map(value);
  const rows: unknown[][] = [];
  for (let n = 2; n <= sheet.rowCount; n++) rows.push(values(n));
  return { titles: values(1) as string[], rows };
}

export async function matrixWorld(): Promise<MatrixWorld> {
  const w = await datasetWorld('pglite');
  const silent = pino({ level: 'silent' });
  const jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
  w.server.ctx.jobs = jobs;
  const close = async () => {
    await jobs.stop();
    await w.close();
  };
  try {
    const ws = await w.category('读取矩阵');
    const cubeId = (await w.save(w.admin, ordersDataset(ws, w.warehouseId))).body.data as number;
    const f = await fieldIds(w.server, w.admin, cubeId);
    const categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: w.admin, payload: { kind: 'visual', categoryValue: '矩阵' } })).body
      .data.id as number;
    const restricted = await w.member();
    const outsider = await w.member();
    // The restricted member's group: the dataset, and the orders table for SQL views (a table grant is the whole table).
    const group = await w.group([restricted.id], ['orders']);
    ok(await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, { headers: w.admin, payload: { cubeWorkspaceId: ws, dataIdList: [cubeId] } }));

    const charts: ChartSave[] = [
      {
        key: CHART.detail,
        name: 'detail',
        title: '明细',
        dataconfig: {
          cubeId,
          rowParamList: ['省份', '订单编号', '金额'].map((t) => ({ fieldId: f[t]! })),
          sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
        },
      },
      {
        key: CHART.amount,
        name: 'bar',
        title: '各省金额',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['金额']!, aggregation: 'SUM' }] },
      },
      {
        key: CHART.totals,
        name: 'table',
        title: '各省订单数',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['订单编号']!, aggregation: 'COUNT' }] },
        option: { showTotal: true },
      },
      { key: CHART.values, name: 'filterSelect', title: '省份', dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }] } },
      {
        key: CHART.count,
        name: 'bar',
        title: '各省订单数柱状图',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['订单编号']!, aggregation: 'COUNT' }] },
      },
    ];
    const board = (title: string): BoardSave => ({
      title,
      categoryId,
      content: { type: 'quick', layout: charts.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
      charts,
      publicStatus: 1,
    });
    const save = async (headers: Headers, title: string) =>
      ok(await call(w.server, 'POST', '/api/board/boards', { headers, payload: board(title) })).body.data as number;
    const adminBoard = await save(w.admin, '管理员的大屏');
    // Published before the group's filter existed: once it does, saving 金额 is refused (publish-restriction.test.ts).
    const memberBoard = await save(restricted.headers, '受限成员的大屏');

    await w.permFilter(cubeId, group, { name: '只看广东', fieldId: f['省份'], values: ['广东'], excluded: [f['金额']] });
    // Marketing statistics (issue 20): the restricted member holds market_view and a grant of marketing_tasks only (not its daily tables).
    const marketRole = (await call(w.server, 'POST', '/api/org/roles', { headers: w.admin, payload: { roleName: '矩阵营销', permissions: ['market_view'] } }))
      .body.data.id;
    ok(await call(w.server, 'PUT', `/api/org/users/${restricted.id}`, { headers: w.admin, payload: { name: '受限成员', roleIds: [marketRole] } }));
    await w.group([restricted.id], ['marketing_tasks']);

    const link = ok(
      await call(w.server, 'POST', '/api/share/links', { headers: restricted.headers, payload: { dataType: 'visual', dataId: memberBoard, linkType: 0 } }),
    );
    const opened = ok(await call(w.server, 'POST', `/api/share/open/${link.body.data.code}`, { payload: {} }));
    // What a subscription (subscription/render.ts) and a slideshow PDF (ppt/pdf-job.ts) render with: a view token of their user.
    const subscription = await issueViewToken(w.server.ctx, restricted.id, adminBoard);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    const sources = await call(w.server, 'GET', '/api/datasource', { headers: w.admin, query: { size: 100 } });
    const sourceName = sources.body.data.records.find((s: { id: number }) => s.id === w.warehouseId).dsDb as string;
    return {
      w,
      jobs,
      cubeId,
      f,
      sourceName,
      close,
      subjects: {
        管理员: { headers: w.admin, boardId: adminBoard },
        受限成员: { headers: restricted.headers, boardId: adminBoard },
        无授权成员: { headers: outsider.headers, boardId: adminBoard },
        '无授权成员·受限成员的大屏': { headers: outsider.headers, boardId: memberBoard },
        分享链接: { headers: bearer(opened.body.data.token), boardId: memberBoard },
        '订阅·受限成员': { headers: bearer(subscription.token), boardId: adminBoard },
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function ok(res: Call): Call {
  if (res.status !== 200) throw new Error(`${res.raw.statusCode} ${res.raw.body}`);
  return res;
}
