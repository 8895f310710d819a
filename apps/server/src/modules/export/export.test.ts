import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartSave, DatasetSave, ExportTask } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { moduleJobs } from '../jobs.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { attachmentHeader } from './routes.ts';
import { cleanupExports } from './service.ts';

/**
 * Table export to Excel (docs/exports.md): the task, the job that streams the workbook with
 * the owner's permission filters, the records of a chart, my tasks, download and delete by
 * the owner only, and the refusals.
 */
const kinds = await storeKinds();
const silent = pino({ level: 'silent' });

type Row = Record<string, unknown>;

const ordersWithTime = (workspaceId: number, datasourceId: number): DatasetSave => ({
  cubeData: { cubeName: '订单导出', workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
  datasourceId,
  columnList: [
    { id: 'province', columnName: 'province', columnTitle: '省份', tableAliasName: 'o', columnAttr: 'NORMAL' },
    { id: 'orderId', columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'NUMBER' },
    { id: 'orderTime', columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'DATETIME' },
    { id: 'amount', columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 'status', columnName: 'status', columnTitle: '状态', tableAliasName: 'o', columnAttr: 'NORMAL' },
  ],
});

/** The rows of the first sheet below its header, and the header. */
async function readWorkbook(buffer: Buffer): Promise<{ header: string[]; rows: unknown[][]; frozen: boolean; bold: boolean; lastBold: boolean }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const values: unknown[][] = [];
  sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
  const [header, ...rows] = values;
  const last = sheet.getRow(sheet.rowCount);
  return {
    header: header as string[],
    rows,
    frozen: sheet.views[0]?.state === 'frozen',
    bold: sheet.getRow(1).font?.bold === true,
    lastBold: [1, 2, 3].every((i) => last.getCell(i).font?.bold === true),
  };
}

describe.each(kinds)('table export on %s', (kind) => {
  let w: DatasetWorld;
  let jobs: Jobs;
  let admin: Headers;
  let f: Record<string, number>;
  let cubeId: number;
  let categoryId: number;
  let boardId: number;
  let hiddenBoardId: number;
  let member: { id: number; headers: Headers };
  let outsider: { id: number; headers: Headers };

  const detailChart = (cubeId: number): ChartSave => ({
    key: 'd1',
    name: 'detail',
    title: '订单明细',
    dataconfig: {
      cubeId,
      rowParamList: [{ fieldId: f['省份']! }, { fieldId: f['订单编号']!, title: '单号' }, { fieldId: f['订购时间']! }],
      indexParamList: [{ fieldId: f['金额']! }],
      sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
      pageSize: 20,
    },
  });
  const board = (title: string, charts: ChartSave[], extra: Partial<BoardSave> = {}): BoardSave => ({
    title,
    categoryId: 0,
    content: { type: 'quick', layout: charts.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
    charts,
    ...extra,
  });
  const create = (headers: Headers, body: Record<string, unknown>) => call(w.server, 'POST', '/api/export/tasks', { headers, payload: body });
  const task = async (headers: Headers, id: number): Promise<ExportTask | undefined> =>
    (await call(w.server, 'GET', '/api/export/tasks', { headers, query: { size: 100 } })).body.data.records.find((t: ExportTask) => t.id === id);
  /** Waits (polling, with a deadline) until the task is done or failed. */
  const finished = async (headers: Headers, id: number): Promise<ExportTask> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const t = await task(headers, id);
      if (t && (t.status === 'done' || t.status === 'failed')) return t;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${t?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const download = (headers: Headers, id: number) => w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${id}/download`, headers });
  /** Every row of the chart as the chart-data call pages them. */
  const chartRows = async (headers: Headers, links: unknown[] = []): Promise<Row[]> => {
    const rows: Row[] = [];
    for (let current = 1; ; current++) {
      const res = await call(w.server, 'POST', '/api/board/chart-data', { headers, payload: { boardId, chartKey: 'd1', current, size: 1000, links } });
      expect(res.status, res.raw.body).toBe(200);
      rows.push(...res.body.data.dataList);
      if (rows.length >= res.body.data.total) return rows;
    }
  };
  /** A chart row as the workbook holds it: timestamps as dates (UTC wall clock). */
  const asExcel = (r: Row) => [r.d0, r.d1, typeof r.d2 === 'string' ? new Date(`${r.d2}Z`) : r.d2, r.d3];

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    const ws = await w.category('导出数据');
    cubeId = (await w.save(admin, ordersWithTime(ws, w.warehouseId))).body.data as number;
    f = await fieldIds(w.server, admin, cubeId);
    categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: admin, payload: { kind: 'visual', categoryValue: '导出' } })).body.data.id;
    const bar: ChartSave = {
      key: 'b1',
      name: 'bar',
      title: '各省金额',
      dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['金额']! }] },
    };
    const pivot: ChartSave = {
      key: 'p1',
      name: 'pivot',
      title: '省份汇总',
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f['省份']! }],
        indexParamList: [{ fieldId: f['金额']!, aggregation: 'SUM' }],
        sortList: [{ fieldId: f['省份']!, direction: 'ASC' }],
      },
    };
    const saved = await call(w.server, 'POST', '/api/board/boards', {
      headers: admin,
      payload: board('订单大屏', [detailChart(cubeId), bar, pivot, { key: 'x1', name: 'text', ext: { filterList: [], text: '说明' } } as ChartSave], {
        categoryId,
      }),
    });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
    hiddenBoardId = (
      await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('内部大屏', [detailChart(cubeId)], { categoryId, publicStatus: 0 }) })
    ).body.data;

    member = await w.member();
    outsider = await w.member();
    // The member's group sees 广东 rows only.
    const group = await w.group([member.id]);
    await w.permFilter(cubeId, group, { name: '广东', fieldId: f['省份'], values: ['广东'] });
  }, 180_000);
  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
  });

  it('exports every row of a detail table: the workbook equals the chart data, with titles, dates and numbers', async () => {
    const res = await create(admin, { boardId, chartKey: 'd1', fileName: ' 订单/明细:全部 ' });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.msg).toBe('已提交导出任务');
    expect(res.body.data).toMatchObject({ boardId, chartKey: 'd1', fileName: '订单_明细_全部.xlsx', status: 'waiting', progress: 0, boardTitle: '订单大屏' });

    const done = await finished(admin, res.body.data.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, errMsg: null });
    const expected = await chartRows(admin);
    expect(expected.length).toBeGreaterThan(500);
    expect(done.rowCount).toBe(expected.length);
    expect(done.totalRows).toBe(expected.length);
    expect(done.fileSize).toBeGreaterThan(0);
    expect(done.finishTime).not.toBeNull();

    const file = await download(admin, done.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(attachmentHeader('订单_明细_全部.xlsx'));
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''%E8%AE%A2%E5%8D%95_%E6%98%8E%E7%BB%86_%E5%85%A8%E9%83%A8.xlsx");
    const book = await readWorkbook(file.rawPayload);
    expect(book.header).toEqual(['省份', '单号', '订购时间', '金额']);
    expect(book.frozen).toBe(true);
    expect(book.bold).toBe(true);
    expect(book.rows).toEqual(expected.map(asExcel));
    expect(book.rows[0]![2]).toBeInstanceOf(Date);
    expect(typeof book.rows[0]![3]).toBe('number');
  });

  it('applies the links the user had and the owner’s permission filter', async () => {
    const links = [{ fieldId: f['省份'], function: 'in', values: ['北京', '广东'] }];
    const linked = await finished(admin, (await create(admin, { boardId, chartKey: 'd1', links })).body.data.id);
    const adminRows = await chartRows(admin, links);
    expect(linked.rowCount).toBe(adminRows.length);
    expect(linked.fileName).toBe('订单明细.xlsx');
    const linkedBook = await readWorkbook((await download(admin, linked.id)).rawPayload);
    expect(new Set(linkedBook.rows.map((r) => r[0]))).toEqual(new Set(['北京', '广东']));

    const mine = await create(member.headers, { boardId, chartKey: 'd1', fileName: '我的订单' });
    expect(mine.status, mine.raw.body).toBe(200);
    const done = await finished(member.headers, mine.body.data.id);
    expect(done.status).toBe('done');
    const memberRows = await chartRows(member.headers);
    expect(new Set(memberRows.map((r) => r.d0))).toEqual(new Set(['广东']));
    expect(done.rowCount).toBe(memberRows.length);
    const book = await readWorkbook((await download(member.headers, done.id)).rawPayload);
    expect(book.rows).toEqual(memberRows.map(asExcel));
  });

  it('exports the aggregated rows of a pivot table', async () => {
    const done = await finished(admin, (await create(admin, { boardId, chartKey: 'p1' })).body.data.id);
    expect(done.status).toBe('done');
    const chart = await call(w.server, 'POST', '/api/board/chart-data', { headers: admin, payload: { boardId, chartKey: 'p1' } });
    const book = await readWorkbook((await download(admin, done.id)).rawPayload);
    expect(book.header).toEqual(chart.body.data.fieldDict.map((d: { title: string }) => d.title));
    expect(book.rows).toEqual(chart.body.data.dataList.map((r: Row) => [r.d0, r.m0]));
  });

  it('exports a bar chart’s dimension and measure columns, in Excel and in CSV (UTF-8 BOM), under the member’s row filter', async () => {
    const expected = await w.direct("SELECT SUM(amount) AS s FROM orders WHERE province = '广东'");
    const xlsx = await finished(member.headers, (await create(member.headers, { boardId, chartKey: 'b1' })).body.data.id);
    expect(xlsx).toMatchObject({ status: 'done', format: 'xlsx', fileName: '各省金额.xlsx', rowCount: 1 });
    const book = await readWorkbook((await download(member.headers, xlsx.id)).rawPayload);
    expect(book.header).toEqual(['省份', '金额']);
    expect(book.rows.map((r) => r[0])).toEqual(['广东']);
    expect(book.rows[0]![1] as number).toBeCloseTo(Number(expected[0]!.s), 6);

    const created = await create(member.headers, { boardId, chartKey: 'b1', format: 'csv', fileName: '广东金额.xlsx' });
    expect(created.body.data).toMatchObject({ format: 'csv', fileName: '广东金额.csv' });
    const csv = await finished(member.headers, created.body.data.id);
    expect(csv.status, csv.errMsg ?? '').toBe('done');
    const file = await download(member.headers, csv.id);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(attachmentHeader('广东金额.csv'));
    const text = file.rawPayload.toString('utf8');
    expect(text.startsWith('\ufeff省份,金额\r\n')).toBe(true);
    const lines = text
      .slice(1)
      .split('\r\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    const [province, amount] = lines[1]!.split(',');
    expect(province).toBe('广东');
    expect(Number(amount)).toBeCloseTo(Number(expected[0]!.s), 6);
  });

  it('lists the records of a chart (5 per page) and my tasks, only the caller’s own', async () => {
    const records = await call(w.server, 'GET', '/api/export/records', { headers: admin, query: { boardId, chartKey: 'd1' } });
    expect(records.status).toBe(200);
    expect(records.body.data).toMatchObject({ current: 1, size: 5, total: 2 });
    expect(records.body.data.records.map((r: ExportTask) => r.fileName)).toEqual(['订单明细.xlsx', '订单_明细_全部.xlsx']);
    const theirs = await call(w.server, 'GET', '/api/export/records', { headers: member.headers, query: { boardId, chartKey: 'd1' } });
    expect(theirs.body.data.records.map((r: ExportTask) => r.fileName)).toEqual(['我的订单.xlsx']);

    const done = await call(w.server, 'GET', '/api/export/tasks', { headers: admin, query: { status: 'done' } });
    expect(done.body.data.total).toBe(3);
    expect((await call(w.server, 'GET', '/api/export/tasks', { headers: admin, query: { status: 'failed' } })).body.data.total).toBe(0);
    expect((await call(w.server, 'GET', '/api/export/tasks', { headers: outsider.headers })).body.data).toMatchObject({ total: 0, records: [] });
  });

  it('lets nobody but the owner download or delete a task (404), and deletes the file with the task', async () => {
    const id = (await call(w.server, 'GET', '/api/export/records', { headers: member.headers, query: { boardId, chartKey: 'd1' } })).body.data.records[0].id;
    const other = await download(outsider.headers, id);
    expect([other.statusCode, other.json().msg]).toEqual([404, '导出任务不存在']);
    expect((await download(admin, id)).statusCode).toBe(404);
    expect((await call(w.server, 'DELETE', `/api/export/tasks/${id}`, { headers: outsider.headers })).status).toBe(404);

    const file = path.join(w.server.ctx.config.dataDir, 'exports', String(member.id), `${id}.xlsx`);
    expect(fs.existsSync(file)).toBe(true);
    const removed = await call(w.server, 'DELETE', `/api/export/tasks/${id}`, { headers: member.headers });
    expect([removed.status, removed.body.msg]).toEqual([200, '删除成功']);
    expect(fs.existsSync(file)).toBe(false);
    expect((await download(member.headers, id)).statusCode).toBe(404);
  });

  it('refuses boards the caller may not see (403), charts without data (400), unknown charts (404), long names', async () => {
    const hidden = await create(member.headers, { boardId: hiddenBoardId, chartKey: 'd1' });
    expect([hidden.status, hidden.body.msg]).toEqual([403, '没有此大屏权限']);
    const text = await create(admin, { boardId, chartKey: 'x1' });
    expect([text.status, text.body.msg]).toEqual([400, '该图表不支持导出']);
    expect((await create(admin, { boardId, chartKey: 'nope' })).status).toBe(404);
    const long = await create(admin, { boardId, chartKey: 'd1', fileName: '长'.repeat(101) });
    expect([long.status, long.body.msg]).toEqual([400, '文件名最多 100 个字符']);

    // Without a job queue nothing is stored: 503 任务服务未启动.
    w.server.ctx.jobs = undefined;
    try {
      const off = await create(admin, { boardId, chartKey: 'd1' });
      expect([off.status, off.body.msg]).toEqual([503, '任务服务未启动']);
    } finally {
      w.server.ctx.jobs = jobs;
    }
  });

  it('fails the task with 没有此大屏权限 when the owner lost the board between request and run', async () => {
    const own = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('临时大屏', [detailChart(cubeId)], { categoryId }) });
    const tempBoard = own.body.data as number;
    // The job is held back until the board is restricted.
    w.server.ctx.jobs = { send: async () => null };
    let id: number;
    try {
      const res = await create(member.headers, { boardId: tempBoard, chartKey: 'd1' });
      expect(res.status, res.raw.body).toBe(200);
      id = res.body.data.id;
    } finally {
      w.server.ctx.jobs = jobs;
    }
    expect(
      (await call(w.server, 'PUT', `/api/board/boards/${tempBoard}/auth`, { headers: admin, payload: { publicStatus: 0, dataPermIdList: [] } })).status,
    ).toBe(200);
    await jobs.send('chart-export', { taskId: id });
    const failed = await finished(member.headers, id);
    expect(failed).toMatchObject({ status: 'failed', errMsg: '没有此大屏权限' });
    expect((await download(member.headers, id)).statusCode).toBe(404);
  });

  it('removes tasks and files older than 7 days', async () => {
    const done = await finished(admin, (await create(admin, { boardId, chartKey: 'p1', fileName: '旧文件' })).body.data.id);
    const admins = await w.server.ctx.db.selectFrom('exportTask').select('userId').where('id', '=', done.id).executeTakeFirstOrThrow();
    const file = path.join(w.server.ctx.config.dataDir, 'exports', String(admins.userId), `${done.id}.xlsx`);
    expect(fs.existsSync(file)).toBe(true);
    await cleanupExports(w.server.ctx, silent, new Date(Date.now() + 6 * 86_400_000));
    expect(await task(admin, done.id)).toBeDefined();
    await cleanupExports(w.server.ctx, silent, new Date(Date.now() + 8 * 86_400_000));
    expect(await task(admin, done.id)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('ends a table that shows 合计 with the query engine’s bold 合计 row, over the owner’s rows only', async () => {
    const table: ChartSave = {
      key: 't1',
      name: 'table',
      title: '各省均额',
      option: { showTotal: true },
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f['省份']! }],
        indexParamList: [
          { fieldId: f['金额']!, aggregation: 'AVG' },
          { fieldId: f['金额']!, aggregation: 'SUM' },
        ],
        sortList: [{ fieldId: f['省份']!, direction: 'ASC' }],
      },
    };
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('合计大屏', [table], { categoryId }) });
    expect(saved.status, saved.raw.body).toBe(200);
    const totalsBoard = saved.body.data as number;
    /** Average and sum of every order amount the caller may read (the detail chart's rows). */
    const expectedTotals = (orders: Row[]) => {
      const amounts = orders
        .map((r) => r.d3)
        .filter((a) => a !== null && a !== undefined)
        .map(Number);
      const sum = amounts.reduce((s, a) => s + a, 0);
      return { avg: sum / amounts.length, sum };
    };
    const exportOf = async (headers: Headers) => {
      const done = await finished(headers, (await create(headers, { boardId: totalsBoard, chartKey: 't1' })).body.data.id);
      expect(done.status, done.errMsg ?? '').toBe('done');
      return { done, book: await readWorkbook((await download(headers, done.id)).rawPayload) };
    };

    const all = expectedTotals(await chartRows(admin));
    const { done, book } = await exportOf(admin);
    expect(book.header).toEqual(['省份', '金额', '金额']);
    const dataRows = book.rows.slice(0, -1);
    expect(done.rowCount).toBe(dataRows.length);
    expect(dataRows.length).toBeGreaterThan(1);
    const [label, avg, sum] = book.rows.at(-1)!;
    expect(label).toBe('合计');
    expect(book.lastBold).toBe(true);
    // The AVG total is the average of all orders, not a sum (or an average) of the rows' averages.
    expect(avg as number).toBeCloseTo(all.avg, 6);
    expect(sum as number).toBeCloseTo(all.sum, 6);
    const rowAverages = dataRows.map((r) => r[1] as number);
    expect(Math.abs(rowAverages.reduce((s, a) => s + a, 0) - all.avg)).toBeGreaterThan(1);
    expect(Math.abs(rowAverages.reduce((s, a) => s + a, 0) / rowAverages.length - all.avg)).toBeGreaterThan(1e-6);

    // The member's permission filter keeps 广东: one data row, and the total of 广东 only.
    const mine = expectedTotals(await chartRows(member.headers));
    const theirs = await exportOf(member.headers);
    expect(theirs.book.rows.map((r) => r[0])).toEqual(['广东', '合计']);
    expect(theirs.book.rows[1]![1] as number).toBeCloseTo(mine.avg, 6);
    expect(theirs.book.rows[1]![2] as number).toBeCloseTo(mine.sum, 6);
    expect(mine.sum).toBeLessThan(all.sum);
  });

  it('exports a pivot with column dimensions as its cross-tab: a column per status, the 合计 row and column the query engine’s own aggregates', async () => {
    const pivot: ChartSave = {
      key: 'p2',
      name: 'pivot',
      title: '各省各状态均额',
      option: { showTotal: true },
      dataconfig: {
        cubeId,
        rowParamList: [{ fieldId: f['省份']! }],
        columnParamList: [{ fieldId: f['状态']! }],
        indexParamList: [{ fieldId: f['金额']!, aggregation: 'AVG' }],
        sortList: [{ fieldId: f['省份']!, direction: 'ASC' }],
      },
    };
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: admin, payload: board('状态合计大屏', [pivot], { categoryId }) });
    expect(saved.status, saved.raw.body).toBe(200);
    const done = await finished(admin, (await create(admin, { boardId: saved.body.data, chartKey: 'p2' })).body.data.id);
    expect(done.status, done.errMsg ?? '').toBe('done');
    const book = await readWorkbook((await download(admin, done.id)).rawPayload);
    const statuses = await w.direct('SELECT status, avg(amount) AS a FROM orders GROUP BY status');
    const provinces = await w.direct('SELECT province, avg(amount) AS a FROM orders GROUP BY province ORDER BY province');
    const [grand] = await w.direct('SELECT avg(amount) AS a FROM orders');
    // One header row: 省份, one column per status, 合计.
    expect(book.header[0]).toBe('省份');
    expect(book.header.at(-1)).toBe('合计');
    expect(new Set(book.header.slice(1, -1))).toEqual(new Set(statuses.map((r) => r.status)));
    const data = book.rows.slice(0, -1);
    expect(data.map((r) => r[0])).toEqual(provinces.map((r) => r.province));
    expect(done.rowCount).toBe(data.length);
    // The 合计 column: each province's own average over all its orders.
    data.forEach((r, i) => expect(r.at(-1) as number).toBeCloseTo(Number(provinces[i]!.a), 6));
    // The 合计 row, last and bold: each status's average, and the grand average in the corner.
    const totals = book.rows.at(-1)!;
    expect(totals[0]).toBe('合计');
    expect(book.lastBold).toBe(true);
    for (const row of statuses) expect(totals[book.header.indexOf(row.status as string)] as number).toBeCloseTo(Number(row.a), 6);
    expect(totals.at(-1) as number).toBeCloseTo(Number(grand!.a), 6);
  });
});

describe('attachment header', () => {
  it('carries the UTF-8 name as filename* and an ASCII fallback', () => {
    expect(attachmentHeader("销售(全部) it's.xlsx")).toBe(
      `attachment; filename="__(__) it's.xlsx"; filename*=UTF-8''%E9%94%80%E5%94%AE%28%E5%85%A8%E9%83%A8%29%20it%27s.xlsx`,
    );
  });
});
