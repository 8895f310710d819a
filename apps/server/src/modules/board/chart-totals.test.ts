import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chartDataConfigSchema, chartLinkValueSchema, type ChartDataConfig, type ChartDataResult, type ChartLinkValue, type ChartSave } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/permissions.ts';
import { clearReadCache as clearChartCache } from '../read/cache.ts';
import { runChartQuery, type ChartQueryInput } from './chart-query.ts';

/**
 * 合计 of tables and pivots, computed by the query engine (chart-totals.ts) over the demo
 * warehouse: each measure's own aggregation over every row the filters, links and the
 * caller's permission filters let through, whatever the chart's row limit.
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

describe.each(kinds)('chart totals on %s', (kind) => {
  let w: DatasetWorld;
  let cubeId: number;
  let ids: Record<string, number>;
  let admin: Caller;
  /** Member of a group whose filter keeps 广东 rows only. */
  let member: Caller;
  let memberHeaders: Headers;

  const chart = (
    dataconfig: Omit<ChartDataConfig, 'cubeId'>,
    extra: Partial<Omit<ChartQueryInput, 'dataconfig' | 'links'>> & { links?: ChartLinkValue[] } = {},
  ): ChartQueryInput => ({
    chartType: 'table',
    title: '合计测试',
    mode: 'aggregate',
    current: 1,
    size: null,
    params: {},
    showTotal: true,
    ...extra,
    links: (extra.links ?? []).map((l) => chartLinkValueSchema.parse(l)),
    dataconfig: chartDataConfigSchema.parse({ cubeId, ...dataconfig }),
  });
  /** By 省份: average amount, distinct channels, largest and smallest amount, amount. */
  const provinceTable = (extra: Partial<ChartDataConfig> = {}) => ({
    rowParamList: [{ fieldId: ids['省份']! }],
    indexParamList: [
      { fieldId: ids['金额']!, aggregation: 'AVG' as const },
      { fieldId: ids['渠道']!, aggregation: 'COUNT_DISTINCT' as const },
      { fieldId: ids['金额']!, aggregation: 'MAX' as const },
      { fieldId: ids['金额']!, aggregation: 'MIN' as const },
      { fieldId: ids['金额']!, aggregation: 'SUM' as const },
    ],
    ...extra,
  });
  const TOTALS_SQL = 'SELECT AVG(amount) AS a, COUNT(DISTINCT channel_name) AS c, MAX(amount) AS mx, MIN(amount) AS mn, SUM(amount) AS s FROM orders';
  const numbers = (row: Row | undefined, keys: string[]) => keys.map((k) => Number(row?.[k]));
  const expectClose = (got: number[], expected: number[]) => {
    expect(got).toHaveLength(expected.length);
    got.forEach((g, i) => expect(g).toBeCloseTo(expected[i]!, 6));
  };
  const sumOf = (result: ChartDataResult, alias: string) => result.dataList.reduce((s, r) => s + Number(r[alias]), 0);

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const info = await call(w.server, 'GET', '/api/auth/info', { headers: w.admin });
    admin = { userId: info.body.data.id ?? info.body.data.userId, isAdministrator: true };
    const workspaceId = await w.category('合计测试');
    cubeId = (await w.save(w.admin, ordersDataset(workspaceId, w.warehouseId))).body.data;
    ids = await fieldIds(w.server, w.admin, cubeId);
    const m = await w.member();
    member = { userId: m.id, isAdministrator: false };
    memberHeaders = m.headers;
    const group = await w.group([m.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
      headers: w.admin,
      payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    await w.permFilter(cubeId, group, { name: '广东', fieldId: ids['省份'], values: ['广东'], excluded: [] });
  }, 120_000);
  afterAll(() => w?.close());

  it('totals a table with each measure’s own aggregation, not the sum of its rows', async () => {
    const result = await runChartQuery(w.server.ctx, admin, chart(provinceTable()));
    const [direct] = await w.direct(TOTALS_SQL);
    expect(result.totals?.byColumn).toEqual([]);
    expect(result.totals?.byRow).toEqual([]);
    expectClose(numbers(result.totals?.grand, ['m0', 'm1', 'm2', 'm3', 'm4']), numbers(direct, ['a', 'c', 'mx', 'mn', 's']));
    // The data is such that adding up the rows would be wrong for AVG and COUNT DISTINCT.
    expect(sumOf(result, 'm0')).not.toBeCloseTo(Number(direct!.a), 2);
    expect(sumOf(result, 'm1')).toBeGreaterThan(Number(direct!.c));
  });

  it('a row limit cuts the rows, not the total', async () => {
    const result = await runChartQuery(w.server.ctx, admin, chart(provinceTable({ limit: 2 })));
    expect(result.dataList).toHaveLength(2);
    const [direct] = await w.direct(TOTALS_SQL);
    expectClose(numbers(result.totals?.grand, ['m0', 'm1', 'm4']), numbers(direct, ['a', 'c', 's']));
    expect(sumOf(result, 'm4')).toBeLessThan(Number(direct!.s));
  });

  it('a member with a row permission gets the total of their rows only; links narrow it too', async () => {
    const mine = await runChartQuery(w.server.ctx, member, chart(provinceTable()));
    expect(mine.dataList.map((r) => r.d0)).toEqual(['广东']);
    const [gd] = await w.direct(`${TOTALS_SQL} WHERE province = '广东'`);
    expectClose(numbers(mine.totals?.grand, ['m0', 'm1', 'm4']), numbers(gd, ['a', 'c', 's']));

    const channel = (await w.direct('SELECT MIN(channel_name) AS c FROM orders'))[0]!.c as string;
    const linked = await runChartQuery(w.server.ctx, admin, chart(provinceTable(), { links: [{ fieldId: ids['渠道']!, values: [channel] }] }));
    const [direct] = await w.direct(`${TOTALS_SQL} WHERE channel_name = '${channel}'`);
    expectClose(numbers(linked.totals?.grand, ['m0', 'm1', 'm4']), numbers(direct, ['a', 'c', 's']));
  });

  it('totals a pivot per column-dimension combination, keyed as its rows', async () => {
    const result = await runChartQuery(
      w.server.ctx,
      admin,
      chart(
        {
          rowParamList: [{ fieldId: ids['省份']! }],
          columnParamList: [{ fieldId: ids['渠道']! }],
          indexParamList: [
            { fieldId: ids['金额']!, aggregation: 'AVG' },
            { fieldId: ids['省份']!, aggregation: 'COUNT_DISTINCT' },
          ],
          limit: 3,
        },
        { chartType: 'pivot' },
      ),
    );
    expect(result.dataList).toHaveLength(3);
    const direct = await w.direct('SELECT channel_name AS c, AVG(amount) AS a, COUNT(DISTINCT province) AS p FROM orders GROUP BY channel_name');
    const byChannel = (rows: Row[], key: string) => Object.fromEntries(rows.map((r) => [String(r[key]), r]));
    const got = byChannel(result.totals!.byColumn, 'd1');
    const expected = byChannel(direct, 'c');
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const [c, row] of Object.entries(expected)) expectClose(numbers(got[c], ['m0', 'm1']), numbers(row, ['a', 'p']));
    const [all] = await w.direct('SELECT AVG(amount) AS a, COUNT(DISTINCT province) AS p FROM orders');
    expectClose(numbers(result.totals!.grand, ['m0', 'm1']), numbers(all, ['a', 'p']));
  });

  it('totals a pivot per row across every column (its 合计 column) with each measure’s own aggregation', async () => {
    const pivot = (rows: number) =>
      chart(
        {
          rowParamList: rows > 0 ? [{ fieldId: ids['省份']! }] : [],
          columnParamList: [{ fieldId: ids['渠道']! }],
          indexParamList: [
            { fieldId: ids['金额']!, aggregation: 'AVG' },
            { fieldId: ids['金额']!, aggregation: 'SUM' },
          ],
        },
        { chartType: 'pivot' },
      );
    const result = await runChartQuery(w.server.ctx, admin, pivot(1));
    const direct = await w.direct('SELECT province AS p, AVG(amount) AS a, SUM(amount) AS s FROM orders GROUP BY province');
    const byProvince = (rows: Row[], key: string) => Object.fromEntries(rows.map((r) => [String(r[key]), r]));
    const got = byProvince(result.totals!.byRow!, 'd0');
    const expected = byProvince(direct, 'p');
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const [p, row] of Object.entries(expected)) expectClose(numbers(got[p], ['m0', 'm1']), numbers(row, ['a', 's']));
    // Not what the browser could compute from the cells: the average of a row's per-column averages.
    const cellAverage = (province: string) => {
      const cells = result.dataList.filter((r) => r.d0 === province).map((r) => Number(r.m0));
      return cells.reduce((s, v) => s + v, 0) / cells.length;
    };
    expect(Object.keys(expected).some((p) => Math.abs(cellAverage(p) - Number(expected[p]!.a)) > 1e-6)).toBe(true);
    // The corner cell (where the 合计 row meets the 合计 column) is the grand total.
    const [all] = await w.direct('SELECT AVG(amount) AS a, SUM(amount) AS s FROM orders');
    expectClose(numbers(result.totals!.grand, ['m0', 'm1']), numbers(all, ['a', 's']));

    // Without row dimensions the pivot's single row is totalled by the grand total.
    expect((await runChartQuery(w.server.ctx, admin, pivot(0))).totals?.byRow).toEqual([]);
  });

  it('only tables and pivots that show 合计 get totals', async () => {
    const config = provinceTable();
    expect((await runChartQuery(w.server.ctx, admin, chart(config, { showTotal: false }))).totals).toBeUndefined();
    expect((await runChartQuery(w.server.ctx, admin, chart(config, { chartType: 'bar' }))).totals).toBeUndefined();
    const values = await runChartQuery(w.server.ctx, admin, chart(config, { chartType: 'filterSelect', mode: 'values' }));
    expect(values.totals).toBeUndefined();
  });

  it('runs the totals beside the chart’s query and shares them through the cache', async () => {
    clearChartCache(w.server.ctx);
    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const spy = vi.spyOn(driver, 'query');
    try {
      const linked = () => chart(provinceTable(), { links: [{ fieldId: ids['省份']!, values: ['广东', '浙江'] }] });
      const first = await runChartQuery(w.server.ctx, admin, linked());
      expect(spy).toHaveBeenCalledTimes(2);
      // Link values are bound, never part of the SQL text.
      const sqls = spy.mock.calls.map((c) => String(c[0]));
      expect(sqls.some((sql) => sql.includes('广东'))).toBe(false);
      const again = await runChartQuery(w.server.ctx, admin, linked());
      expect(spy).toHaveBeenCalledTimes(2);
      expect(again.shared).toBe(true);
      expect(again.totals).toEqual(first.totals);
    } finally {
      spy.mockRestore();
    }
  });

  it('the chart-data route reads a saved chart’s style and an editor’s request', async () => {
    const cat = await call(w.server, 'POST', '/api/board/categories', { headers: w.admin, payload: { kind: 'visual', categoryValue: '合计' } });
    const table = (key: string, option: Record<string, unknown>): ChartSave => ({
      key,
      name: 'table',
      title: '各省金额',
      dataconfig: { cubeId, ...provinceTable() },
      option,
    });
    const saved = await call(w.server, 'POST', '/api/board/boards', {
      headers: w.admin,
      payload: { title: '合计大屏', categoryId: cat.body.data.id, charts: [table('t1', { showTotal: true }), table('t2', {})] },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    const data = async (payload: Record<string, unknown>, headers = memberHeaders): Promise<ChartDataResult> => {
      const res = await call(w.server, 'POST', '/api/board/chart-data', { headers, payload });
      expect(res.status, res.raw.body).toBe(200);
      return res.body.data;
    };
    const [gd] = await w.direct(`${TOTALS_SQL} WHERE province = '广东'`);
    const shown = await data({ boardId: saved.body.data, chartKey: 't1', showTotal: false });
    expectClose(numbers(shown.totals?.grand, ['m0', 'm1']), numbers(gd, ['a', 'c']));
    expect((await data({ boardId: saved.body.data, chartKey: 't2', showTotal: true })).totals).toBeUndefined();

    const editor = await data({ dataconfig: { cubeId, ...provinceTable() }, chartType: 'table', showTotal: true });
    expectClose(numbers(editor.totals?.grand, ['m0', 'm1']), numbers(gd, ['a', 'c']));
    expect((await data({ dataconfig: { cubeId, ...provinceTable() }, chartType: 'table' })).totals).toBeUndefined();
  });
});
