import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartDataConfigSchema, chartLinkValueSchema, type ChartDataConfig, type ChartLinkValue, type DatasetSave, type TimeUnit } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, type DatasetWorld } from '../../../test/dataset-fixtures.ts';
import type { Caller } from '../perm/permissions.ts';
import { runChartQuery, type ChartQueryInput } from './chart-query.ts';

/**
 * Time on charts over the demo warehouse (13 months of orders): a time axis in time order, a
 * default granularity from the data's span, and a click on a time bucket filtering exactly that
 * bucket — checked against hand-written SQL on the same DuckDB file.
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

/** orders with its time; saved order: 金额 descending, which a time axis must not follow. */
function timedOrders(workspaceId: number, datasourceId: number): DatasetSave {
  const normal = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
    id,
    columnName,
    columnTitle,
    tableAliasName: 'o',
    columnAttr: 'NORMAL' as const,
    ...extra,
  });
  return {
    cubeData: { cubeName: '订单时间', workspaceId, cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }], publicStatus: 0 },
    datasourceId,
    columnList: [
      normal('province', 'province', '省份'),
      normal('time', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
      normal('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
      normal('orderId', 'order_id', '订单编号', { viewDataType: 'NUMBER' }),
    ],
    orderByList: [{ fieldId: 'amount', aggregation: 'SUM', direction: 'DESC' }],
  };
}

describe.each(kinds)('time on charts on %s', (kind) => {
  let w: DatasetWorld;
  let cubeId: number;
  let ids: Record<string, number>;
  let admin: Caller;

  const chart = (
    dataconfig: Omit<ChartDataConfig, 'cubeId'>,
    links: ChartLinkValue[] = [],
    chartType: ChartQueryInput['chartType'] = 'line',
  ): ChartQueryInput => ({
    chartType,
    title: '时间图表',
    mode: 'aggregate',
    current: 1,
    size: null,
    params: {},
    links: links.map((l) => chartLinkValueSchema.parse(l)),
    dataconfig: chartDataConfigSchema.parse({ cubeId, ...dataconfig }),
  });
  const byTime = (granularity?: TimeUnit, filter?: ChartDataConfig['filter']) =>
    chart({
      rowParamList: [{ fieldId: ids['订购时间']!, ...(granularity ? { granularity } : {}) }],
      indexParamList: [{ fieldId: ids['金额']!, aggregation: 'SUM' }],
      filter,
    });
  const timeFilter = (fn: 'between' | 'eq', values: string[]): ChartDataConfig['filter'] => ({
    relation: 'AND',
    conditions: [{ cubeColumnId: ids['订购时间']!, conditions: [{ function: fn, values }] }],
    filters: [],
  });
  const byProvinceLinked = (links: ChartLinkValue[]) =>
    chart(
      {
        rowParamList: [{ fieldId: ids['省份']! }],
        indexParamList: [
          { fieldId: ids['金额']!, aggregation: 'SUM' },
          { fieldId: ids['订单编号']!, aggregation: 'COUNT' },
        ],
      },
      links,
      'table',
    );
  const totals = (rows: Row[], key: string, sum: string, count: string) =>
    Object.fromEntries(rows.map((r) => [String(r[key]), [Number(Number(r[sum]).toFixed(2)), Number(r[count])]]));

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const info = await call(w.server, 'GET', '/api/auth/info', { headers: w.admin });
    admin = { userId: info.body.data.id ?? info.body.data.userId, isAdministrator: true };
    cubeId = (await w.save(w.admin, timedOrders(await w.category('时间测试'), w.warehouseId))).body.data;
    ids = await fieldIds(w.server, w.admin, cubeId);
  }, 120_000);
  afterAll(() => w?.close());

  it('a line chart on a datetime field without a granularity: one point a month, in time order, the SQL sums', async () => {
    const result = await runChartQuery(w.server.ctx, admin, byTime());
    expect(result.fieldDict[0]!.granularity).toBe('MONTH');
    const direct = await w.direct(
      "SELECT strftime(date_trunc('month', order_time), '%Y-%m-%dT%H:%M:%S') AS m, SUM(amount) AS s FROM orders GROUP BY 1 ORDER BY 1",
    );
    expect(direct.length).toBeGreaterThanOrEqual(12);
    expect(result.dataList.map((r) => r.d0)).toEqual(direct.map((r) => r.m));
    result.dataList.forEach((r, i) => expect(Number(r.m0)).toBeCloseTo(Number(direct[i]!.s), 2));
  });

  it('a granularity the user chose stays, still in time order; a sort the user chose wins', async () => {
    const days = await runChartQuery(w.server.ctx, admin, byTime('DAY'));
    expect(days.fieldDict[0]!.granularity).toBe('DAY');
    const labels = days.dataList.map((r) => String(r.d0));
    expect(labels).toEqual([...labels].sort());
    expect(labels.length).toBeGreaterThan(300);

    const biggestFirst = await runChartQuery(
      w.server.ctx,
      admin,
      chart({
        rowParamList: [{ fieldId: ids['订购时间']!, granularity: 'MONTH' }],
        indexParamList: [{ fieldId: ids['金额']!, aggregation: 'SUM' }],
        sortList: [{ fieldId: ids['金额']!, aggregation: 'SUM', direction: 'DESC' }],
      }),
    );
    const sums = biggestFirst.dataList.map((r) => Number(r.m0));
    expect(sums).toEqual([...sums].sort((a, b) => b - a));
  });

  it('the default follows the span under the chart filter: about two months by day, one day by hour', async () => {
    const [first] = await w.direct(
      "SELECT strftime(MIN(order_time), '%Y-%m-%d') AS d, strftime(MIN(order_time) + INTERVAL 60 DAY, '%Y-%m-%d') AS e FROM orders",
    );
    const twoMonths = await runChartQuery(w.server.ctx, admin, byTime(undefined, timeFilter('between', [String(first!.d), String(first!.e)])));
    expect(twoMonths.fieldDict[0]!.granularity).toBe('DAY');
    const daysInWindow = await w.direct(
      `SELECT COUNT(DISTINCT CAST(order_time AS DATE)) AS n FROM orders WHERE order_time >= TIMESTAMP '${first!.d}' AND order_time < TIMESTAMP '${first!.e}' + INTERVAL 1 DAY`,
    );
    expect(twoMonths.dataList).toHaveLength(Number(daysInWindow[0]!.n));

    const oneDay = await runChartQuery(w.server.ctx, admin, byTime(undefined, timeFilter('eq', [String(first!.e)])));
    expect(oneDay.fieldDict[0]!.granularity).toBe('HOUR');
    expect(oneDay.dataList.every((r) => String(r.d0).startsWith(String(first!.e)))).toBe(true);
  });

  it('a click on a month bucket gives the totals of that month; a click on a day the totals of that day', async () => {
    const months = await runChartQuery(w.server.ctx, admin, byTime('MONTH'));
    const month = String(months.dataList[3]!.d0);
    const monthLinked = await runChartQuery(w.server.ctx, admin, byProvinceLinked([{ fieldId: ids['订购时间']!, values: [month], granularity: 'MONTH' }]));
    const monthSql = await w.direct(
      `SELECT province AS p, SUM(amount) AS s, COUNT(order_id) AS n FROM orders WHERE date_trunc('month', order_time) = TIMESTAMP '${month.replace('T', ' ')}' GROUP BY 1`,
    );
    expect(monthSql.length).toBeGreaterThan(1);
    expect(totals(monthLinked.dataList, 'd0', 'm0', 'm1')).toEqual(totals(monthSql, 'p', 's', 'n'));

    const days = await runChartQuery(w.server.ctx, admin, byTime('DAY'));
    const day = String(days.dataList[40]!.d0);
    const dayLinked = await runChartQuery(w.server.ctx, admin, byProvinceLinked([{ fieldId: ids['订购时间']!, values: [day], granularity: 'DAY' }]));
    const daySql = await w.direct(
      `SELECT province AS p, SUM(amount) AS s, COUNT(order_id) AS n FROM orders WHERE CAST(order_time AS DATE) = DATE '${day.slice(0, 10)}' GROUP BY 1`,
    );
    expect(daySql.length).toBeGreaterThan(0);
    expect(totals(dayLinked.dataList, 'd0', 'm0', 'm1')).toEqual(totals(daySql, 'p', 's', 'n'));

    // The same value without its bucket is one instant (midnight): what a click used to send.
    const instant = await runChartQuery(w.server.ctx, admin, byProvinceLinked([{ fieldId: ids['订购时间']!, values: [month] }]));
    const instantRows = instant.dataList.reduce((n, r) => n + Number(r.m1), 0);
    const monthRows = monthLinked.dataList.reduce((n, r) => n + Number(r.m1), 0);
    expect(instantRows).toBeLessThan(monthRows);
  });

  it('a week and a quarter bucket match the engine-independent SQL too', async () => {
    for (const unit of ['WEEK', 'QUARTER'] as const) {
      const buckets = await runChartQuery(w.server.ctx, admin, byTime(unit));
      const bucket = String(buckets.dataList[1]!.d0);
      const linked = await runChartQuery(w.server.ctx, admin, byProvinceLinked([{ fieldId: ids['订购时间']!, values: [bucket], granularity: unit }]));
      const sql = await w.direct(
        `SELECT province AS p, SUM(amount) AS s, COUNT(order_id) AS n FROM orders WHERE date_trunc('${unit.toLowerCase()}', order_time) = TIMESTAMP '${bucket.replace('T', ' ')}' GROUP BY 1`,
      );
      expect(totals(linked.dataList, 'd0', 'm0', 'm1')).toEqual(totals(sql, 'p', 's', 'n'));
    }
  });

  it('refuses a time bucket on a field that is not a date, in Chinese', async () => {
    await expect(
      runChartQuery(w.server.ctx, admin, byProvinceLinked([{ fieldId: ids['省份']!, values: ['2026-01-01'], granularity: 'MONTH' }])),
    ).rejects.toThrow('过滤条件【省份】不是日期，不能按时间粒度筛选');
  });
});
