import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { collect } from '@shutu/connectors';
import type { Board, BoardListItem } from '@shutu/contracts';
import { createTestServer, storeKinds, TEST_DEMO_SCALE, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { findBuiltinRow } from '../datasource/repo.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { DEMO_CONTENT_KEY, DEMO_CONTENT_VERSION, DEMO_NAMES, ensureDemoContent } from './demo-content.ts';

/**
 * Demo content at first start: the demo dataset and boards exist, are public, a plain new
 * user lists and opens them, every data chart answers rows that match the warehouse, and the
 * content is made once per store (a second call, or a call after a user deleted a board,
 * makes nothing).
 */
const kinds = await storeKinds();
/** What ensureDemoContent logged at warn level (the reason when it could not make the content). */
const warnings: string[] = [];
const silent = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
type Headers = Record<string, string>;
type Row = Record<string, unknown>;

describe.each(kinds)('demo content on %s', (kind) => {
  let server: TestServer;
  let admin: Headers;
  let viewer: Headers;
  let created: Awaited<ReturnType<typeof ensureDemoContent>>;

  const list = async (headers: Headers, boardKind: 'visual' | 'report'): Promise<BoardListItem[]> =>
    (await call(server, 'GET', '/api/board/boards', { headers, query: { kind: boardKind } })).body.data.records;
  const detail = async (headers: Headers, id: number): Promise<Board> => {
    const res = await call(server, 'GET', `/api/board/boards/${id}`, { headers });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data;
  };
  const chartData = async (headers: Headers, boardId: number, chartKey: string, extra: Record<string, unknown> = {}) => {
    const res = await call(server, 'POST', '/api/board/chart-data', { headers, payload: { boardId, chartKey, ...extra } });
    expect(res.status, `${chartKey}: ${res.raw.body}`).toBe(200);
    return res.body.data as { dataList: Row[]; fieldDict: { alias: string; title: string; kind: string }[]; total: number | null };
  };
  const direct = async (sql: string): Promise<Row[]> => {
    const warehouse = await findBuiltinRow(server.ctx.db);
    return (await collect((await getDataSourceDriver(server.ctx, warehouse!.id)).query(sql))).rows;
  };
  const byTitle = async (headers: Headers, boardKind: 'visual' | 'report', title: string) => {
    const item = (await list(headers, boardKind)).find((b) => b.title === title);
    expect(item, title).toBeDefined();
    return detail(headers, item!.id);
  };

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    created = await ensureDemoContent(server.ctx, silent);
    admin = await server.login();
    const user = await createUser(server, admin);
    viewer = await server.login(user.account, user.password);
  }, 180_000);
  afterAll(() => server?.close());

  it('makes one public dataset and three public boards, recorded in sys_config', async () => {
    expect(created.action, warnings.join('\n')).toBe('created');
    expect(created.datasetIds).toHaveLength(1);
    expect(created.boardIds).toHaveLength(3);
    const key = await server.ctx.db.selectFrom('sysConfig').select('value').where('key', '=', DEMO_CONTENT_KEY).executeTakeFirst();
    expect(key?.value).toBe(DEMO_CONTENT_VERSION);

    const datasets = (await call(server, 'GET', '/api/dataset/cubes', { headers: viewer })).body.data.records;
    expect(datasets.map((d: { cubeName: string }) => d.cubeName)).toEqual([DEMO_NAMES.dataset]);
    expect(datasets[0]).toMatchObject({ publicStatus: 1, workspaceName: DEMO_NAMES.category });
    const fields = (await call(server, 'GET', `/api/dataset/cubes/${created.datasetIds[0]}/fields`, { headers: viewer })).body.data;
    expect(fields.map((f: { columnTitle: string }) => f.columnTitle)).toEqual(expect.arrayContaining(['省份', '大区', '性别', '销售额', '客单价', '订购时间']));
  });

  it('lets a plain new user list the boards, in the 示例 categories, public', async () => {
    const visual = await list(viewer, 'visual');
    expect(visual.map((b) => b.title)).toEqual([DEMO_NAMES.salesBoard]);
    expect(visual[0]).toMatchObject({ publicStatus: 1, categoryName: DEMO_NAMES.category, type: 'screen', editable: false });
    const reports = await list(viewer, 'report');
    expect(reports.map((b) => b.title).sort()).toEqual([DEMO_NAMES.reportBoard, DEMO_NAMES.productBoard].sort());
    expect(reports.every((b) => b.publicStatus === 1 && b.type === 'quick')).toBe(true);
  });

  it('answers rows for every data chart of every board, as the plain user', async () => {
    const boards = [...(await list(viewer, 'visual')), ...(await list(viewer, 'report'))];
    let charts = 0;
    for (const item of boards) {
      const board = await detail(viewer, item.id);
      for (const chart of board.charts) {
        if (chart.name === 'text' || chart.name === 'image') continue;
        const data = await chartData(viewer, board.id, chart.key);
        expect(data.dataList.length, `${board.title} / ${chart.title}`).toBeGreaterThan(0);
        charts++;
      }
    }
    expect(charts).toBe(9 + 4 + 5);
  });

  it('shows the warehouse figures: cards, provinces, the province link and the paged detail', async () => {
    const sales = await byTitle(viewer, 'visual', DEMO_NAMES.salesBoard);
    expect(sales.content).toMatchObject({ type: 'screen', width: 1920, height: 1080 });
    expect(sales.charts.filter((c) => c.site.anchor).map((c) => c.site.anchor)).toEqual(['各省销售', '月度趋势', '大区明细']);
    const value = async (key: string) => Number(Object.values((await chartData(viewer, sales.id, key)).dataList[0]!)[0]);
    const [truth] = await direct('select count(*) as orders, count(distinct phone) as customers, sum(amount) as amount from orders');
    expect(await value('kpiOrders')).toBe(TEST_DEMO_SCALE);
    expect(await value('kpiCustomers')).toBe(Number(truth!.customers));
    expect(await value('kpiAmount')).toBeCloseTo(Number(truth!.amount), 2);

    const provinces = await chartData(viewer, sales.id, 'salesByProvince');
    const [provinceCount] = await direct('select count(distinct province) as n from orders');
    expect(provinces.dataList).toHaveLength(Number(provinceCount!.n));
    const provinceField = sales.charts.find((c) => c.key === 'salesByProvince')!.dataconfig!.rowParamList[0]!.fieldId;
    const linked = await chartData(viewer, sales.id, 'salesByProvince', { links: [{ fieldId: provinceField, function: 'in', values: ['广东'] }] });
    expect(linked.dataList).toHaveLength(1);
    expect(Object.values(linked.dataList[0]!)).toContain('广东');
    const options = await chartData(viewer, sales.id, 'provinceFilter');
    expect(options.dataList).toHaveLength(Number(provinceCount!.n));

    const report = await byTitle(viewer, 'report', DEMO_NAMES.reportBoard);
    const detailChart = report.charts.find((c) => c.name === 'detail')!;
    const page = await chartData(viewer, report.id, detailChart.key);
    expect(page.dataList).toHaveLength(20);
    expect(page.total).toBe(TEST_DEMO_SCALE);
    const dateFilter = report.charts.find((c) => c.name === 'filterDate')!;
    // The last month of the data, which ends on the day the warehouse was generated (today, here).
    const [last] = await direct(`select strftime(max(order_time), '%Y-%m-%d') as d from orders`);
    const to = String(last!.d);
    const from = `${to.slice(0, 7)}-01`;
    expect(dateFilter.ext.defaultValue).toEqual([from, to]);
    const timeField = detailChart.dataconfig!.rowParamList[1]!.fieldId;
    const lastMonth = await chartData(viewer, report.id, detailChart.key, {
      links: [{ fieldId: timeField, function: 'between', values: [from, `${to} 23:59:59`] }],
    });
    const [inMonth] = await direct(`select count(*) as n from orders where order_time >= '${from}' and order_time < '${to}'::date + 1`);
    expect(lastMonth.total).toBe(Number(inMonth!.n));
    expect(lastMonth.total).toBeGreaterThan(0);
  });

  it('makes nothing on a second call, nor after a user deleted a demo board', async () => {
    const before = await list(admin, 'report');
    const again = await ensureDemoContent(server.ctx, silent);
    expect(again).toEqual({ action: 'done-before', datasetIds: [], boardIds: [] });
    const product = before.find((b) => b.title === DEMO_NAMES.productBoard)!;
    expect((await call(server, 'DELETE', `/api/board/boards/${product.id}`, { headers: admin })).status).toBe(200);
    expect((await ensureDemoContent(server.ctx, silent)).action).toBe('done-before');
    expect((await list(admin, 'report')).map((b) => b.title)).toEqual([DEMO_NAMES.reportBoard]);
    expect((await list(admin, 'visual')).map((b) => b.title)).toEqual([DEMO_NAMES.salesBoard]);
    expect((await call(server, 'GET', '/api/dataset/cubes', { headers: admin })).body.data.total).toBe(1);
  });
});

describe.each(kinds)('demo content without the warehouse on %s', (kind) => {
  it('makes nothing and records nothing', async () => {
    const server = await createTestServer(kind);
    try {
      expect((await ensureDemoContent(server.ctx, silent)).action).toBe('no-demo-tables');
      expect(await server.ctx.db.selectFrom('sysConfig').select('value').where('key', '=', DEMO_CONTENT_KEY).executeTakeFirst()).toBeUndefined();
    } finally {
      await server.close();
    }
  }, 120_000);
});
