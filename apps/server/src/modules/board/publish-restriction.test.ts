import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartSave } from '@shutu/contracts';
import type { Logger } from 'pino';
import pino from 'pino';
import { call, type Call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { moduleJobs } from '../jobs.ts';
import { clearReadCache as clearChartCache } from '../read/cache.ts';
import { issueViewToken } from './view-token.ts';

/**
 * The hole a probe found (issue 14 §1): a member whose group sees only 广东 rows and not 金额
 * published a public board over the dataset, and a member with no grant on the dataset read
 * every province and 金额 through it. What a board shows is limited by the viewer's restriction
 * AND its creator's (docs/permissions.md), through every way it is read: the chart on screen,
 * an export, a share link, and the view tokens subscriptions and slideshow PDFs render with.
 * Run on the embedded store only: the rule is the server's, not the store's.
 */
const silent: Logger = pino({ level: 'silent' });
type Row = Record<string, unknown>;

describe('a board shows no more than its creator may see', () => {
  let w: DatasetWorld;
  let jobs: Jobs;
  let cubeId: number;
  let f: Record<string, number>;
  let categoryId: number;
  /** Sees 广东 rows without 金额 (after the filter is added); publishes the boards. */
  let m1: { id: number; headers: Headers };
  /** Has no grant on the dataset at all. */
  let m2: { id: number; headers: Headers };
  /** Saved by m1 before their filter existed: a detail table with 金额 and a bar of 金额. */
  let legacyBoardId: number;
  let guangdongRows: number;

  const detail = (fields: string[], key = 'd1'): ChartSave => ({
    key,
    name: 'detail',
    title: '明细',
    dataconfig: { cubeId, rowParamList: fields.map((name) => ({ fieldId: f[name]! })), sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }] },
  });
  const amountBar = (): ChartSave => ({
    key: 'b1',
    name: 'bar',
    title: '各省金额',
    dataconfig: { cubeId, rowParamList: [{ fieldId: f['省份']! }], indexParamList: [{ fieldId: f['金额']!, aggregation: 'SUM' }] },
  });
  const board = (title: string, charts: ChartSave[]): BoardSave => ({
    title,
    categoryId,
    content: { type: 'quick', layout: charts.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
    charts,
    publicStatus: 1,
  });
  const saveBoard = (headers: Headers, payload: BoardSave) => call(w.server, 'POST', '/api/board/boards', { headers, payload });
  /** Every row of a detail chart as a reader pages it, with the titles of its columns. */
  const detailRows = async (headers: Headers, boardId: number, chartKey = 'd1'): Promise<Call & { rows: Row[]; titles: string[] }> => {
    const rows: Row[] = [];
    for (let current = 1; ; current++) {
      const res = await call(w.server, 'POST', '/api/board/chart-data', { headers, payload: { boardId, chartKey, current, size: 1000 } });
      if (res.status !== 200) return { ...res, rows, titles: [] };
      rows.push(...res.body.data.dataList);
      if (rows.length >= res.body.data.total) return { ...res, rows, titles: res.body.data.fieldDict.map((d: { title: string }) => d.title) };
    }
  };
  const provincesOf = (rows: Row[]) => [...new Set(rows.map((r) => r.d0))];

  beforeAll(async () => {
    w = await datasetWorld('pglite');
    jobs = await Jobs.start(w.server.store, silent, moduleJobs(w.server.ctx, silent), { work: true, pollingIntervalSeconds: 0.5 });
    w.server.ctx.jobs = jobs;
    const ws = await w.category('发布限制');
    cubeId = (await w.save(w.admin, ordersDataset(ws, w.warehouseId))).body.data as number;
    f = await fieldIds(w.server, w.admin, cubeId);
    categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: w.admin, payload: { kind: 'visual', categoryValue: '发布' } })).body.data.id;
    m1 = await w.member();
    m2 = await w.member();
    const group = await w.group([m1.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, { headers: w.admin, payload: { cubeWorkspaceId: ws, dataIdList: [cubeId] } });
    expect(grant.status, grant.raw.body).toBe(200);

    const legacy = await saveBoard(m1.headers, board('早先发布', [detail(['省份', '订单编号', '金额']), amountBar()]));
    expect(legacy.status, legacy.raw.body).toBe(200);
    legacyBoardId = legacy.body.data;

    await w.permFilter(cubeId, group, { name: '广东', fieldId: f['省份'], values: ['广东'], excluded: [f['金额']] });
    const [count] = await w.direct("SELECT COUNT(*) AS n FROM orders WHERE province = '广东'");
    guangdongRows = Number(count!.n);
    expect(guangdongRows).toBeGreaterThan(0);
  }, 180_000);
  afterAll(async () => {
    await jobs?.stop();
    await w?.close();
  });

  it('refuses to save a board whose chart reads a column hidden from its author, naming it', async () => {
    const refused = await saveBoard(m1.headers, board('公开明细', [detail(['省份', '订单编号', '金额'])]));
    expect([refused.status, refused.body.msg]).toEqual([400, '图表【明细】使用了你无权查看的字段【金额】']);
    // A filter on it is reading it too.
    const onAmount = detail(['省份', '订单编号']);
    onAmount.dataconfig!.filter = {
      relation: 'AND',
      conditions: [{ cubeColumnId: f['金额']!, connectType: 'and', conditions: [{ function: 'gt', values: [100] }] }],
      filters: [],
    };
    const filtered = await saveBoard(m1.headers, board('公开明细', [onAmount]));
    expect([filtered.status, filtered.body.msg]).toEqual([400, '图表【明细】使用了你无权查看的字段【金额】']);
    const mine = await call(w.server, 'GET', '/api/board/boards', { headers: m1.headers, query: { kind: 'visual', size: 100 } });
    expect(mine.body.data.records.map((b: { title: string }) => b.title)).toEqual(['早先发布']);
  });

  it('shows a member with no grant only the creator’s rows, without the column hidden from the creator', async () => {
    expect((await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: m2.headers })).status).toBe(403);
    const saved = await saveBoard(m1.headers, board('广东明细', [detail(['省份', '订单编号'])]));
    expect(saved.status, saved.raw.body).toBe(200);
    for (const boardId of [saved.body.data as number, legacyBoardId]) {
      const seen = await detailRows(m2.headers, boardId);
      expect(seen.status, seen.raw.body).toBe(200);
      expect(provincesOf(seen.rows)).toEqual(['广东']);
      expect(seen.rows).toHaveLength(guangdongRows);
      expect(seen.titles).toEqual(['省份', '订单编号']);
      expect(Object.keys(seen.rows[0]!).sort()).toEqual(['d0', 'd1']);
    }
    // An aggregate of the hidden column is refused outright.
    const bar = await call(w.server, 'POST', '/api/board/chart-data', { headers: m2.headers, payload: { boardId: legacyBoardId, chartKey: 'b1' } });
    expect([bar.status, bar.body.msg]).toEqual([403, '无权访问字段【金额】']);
    // The administrator reads through m1's board as m1 publishes it; through their own, everything.
    clearChartCache(w.server.ctx);
    expect(provincesOf((await detailRows(w.admin, legacyBoardId)).rows)).toEqual(['广东']);
    const own = await saveBoard(w.admin, board('管理员明细', [detail(['省份', '订单编号', '金额'])]));
    const all = await detailRows(w.admin, own.body.data);
    expect(provincesOf(all.rows).length).toBeGreaterThan(1);
    expect(all.titles).toContain('金额');
  });

  it('exports for a member only the creator’s rows, without the hidden column in the file', async () => {
    const created = await call(w.server, 'POST', '/api/export/tasks', { headers: m2.headers, payload: { boardId: legacyBoardId, chartKey: 'd1' } });
    expect(created.status, created.raw.body).toBe(200);
    const id = created.body.data.id as number;
    let status = '';
    for (let i = 0; i < 240 && status !== 'done' && status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const tasks = await call(w.server, 'GET', '/api/export/tasks', { headers: m2.headers, query: { size: 100 } });
      status = tasks.body.data.records.find((t: { id: number }) => t.id === id)?.status ?? '';
    }
    expect(status).toBe('done');
    const file = await w.server.app.inject({ method: 'GET', url: `/api/export/tasks/${id}/download`, headers: m2.headers });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['省份', '订单编号']);
    const provinces = new Set<unknown>();
    for (let n = 2; n <= sheet.rowCount; n++) provinces.add(values(n)[0]);
    expect([...provinces]).toEqual(['广东']);
    expect(sheet.rowCount - 1).toBe(guangdongRows);
    // An export of an aggregate of the hidden column is refused when asked, not in the job.
    const bar = await call(w.server, 'POST', '/api/export/tasks', { headers: m2.headers, payload: { boardId: legacyBoardId, chartKey: 'b1' } });
    expect([bar.status, bar.body.msg]).toEqual([403, '无权访问字段【金额】']);
  });

  it('reads a login-free share link of the board as its creator, limited the same way', async () => {
    const link = await call(w.server, 'POST', '/api/share/links', { headers: m1.headers, payload: { dataType: 'visual', dataId: legacyBoardId, linkType: 0 } });
    expect(link.status, link.raw.body).toBe(200);
    const opened = await call(w.server, 'POST', `/api/share/open/${link.body.data.code}`, { payload: {} });
    expect(opened.status, opened.raw.body).toBe(200);
    const seen = await detailRows({ authorization: `Bearer ${opened.body.data.token}` }, legacyBoardId);
    expect(provincesOf(seen.rows)).toEqual(['广东']);
    expect(seen.titles).toEqual(['省份', '订单编号']);
  });

  it('renders subscriptions and slideshow pages (view tokens of the reader) limited by the creator too', async () => {
    const view = await issueViewToken(w.server.ctx, m2.id, legacyBoardId);
    const seen = await detailRows({ authorization: `Bearer ${view.token}` }, legacyBoardId);
    expect(provincesOf(seen.rows)).toEqual(['广东']);
    expect(seen.titles).toEqual(['省份', '订单编号']);
  });

  it('refuses a slideshow or a subscription showing a chart that reads a column hidden from its author', async () => {
    const deck = await call(w.server, 'POST', '/api/ppt/slideshows', { headers: m1.headers, payload: { ppName: '月报', visualIds: [legacyBoardId] } });
    expect([deck.status, deck.body.msg]).toEqual([400, '图表【明细】使用了你无权查看的字段【金额】']);
    const subscription = await call(w.server, 'POST', '/api/subscription/subscriptions', {
      headers: m1.headers,
      payload: { dataType: 'visual', dataId: legacyBoardId, subTitle: '早先发布', notifyTitle: '每日' },
    });
    expect([subscription.status, subscription.body.msg]).toEqual([400, '图表【明细】使用了你无权查看的字段【金额】']);
  });
});
