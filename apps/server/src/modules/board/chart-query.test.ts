import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chartDataConfigSchema, chartLinkValueSchema, type ChartDataConfig, type ChartLinkValue } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { AppError } from '../../platform/http/errors.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/permissions.ts';
import { clearReadCache as clearChartCache, readCacheStats as chartCacheStats } from '../read/cache.ts';
import { runChartQuery, type ChartQueryInput } from './chart-query.ts';

/**
 * Chart data over the demo warehouse, on both stores: runChartQuery is called directly with
 * the test server's context (the board routes are another module's).
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

describe.each(kinds)('chart query on %s', (kind) => {
  let w: DatasetWorld;
  let cubeId: number;
  let ids: Record<string, number>;
  let admin: Caller;
  /** Member of a group whose filter keeps 广东 rows and hides 手机号. */
  let member: Caller;
  let memberHeaders: Headers;
  /** A user the dataset is not granted to. */
  let outsider: Caller;

  const chart = (
    dataconfig: Omit<ChartDataConfig, 'cubeId'>,
    extra: Partial<Omit<ChartQueryInput, 'dataconfig' | 'links'>> & { links?: ChartLinkValue[] } = {},
  ): ChartQueryInput => ({
    chartType: 'bar',
    title: '测试图表',
    mode: 'aggregate',
    current: 1,
    size: null,
    params: {},
    ...extra,
    links: (extra.links ?? []).map((l) => chartLinkValueSchema.parse(l)),
    dataconfig: chartDataConfigSchema.parse({ cubeId, ...dataconfig }),
  });
  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };
  const byProvince = () => chart({ rowParamList: [{ fieldId: ids['省份']! }], indexParamList: [{ fieldId: ids['订单编号']!, aggregation: 'COUNT' }] });
  const asMap = (rows: Row[], key: string, value: string) => Object.fromEntries(rows.map((r) => [String(r[key]), Number(r[value])]));

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const info = await call(w.server, 'GET', '/api/auth/info', { headers: w.admin });
    admin = { userId: info.body.data.id ?? info.body.data.userId, isAdministrator: true };
    const workspaceId = await w.category('图表测试');
    cubeId = (await w.save(w.admin, ordersDataset(workspaceId, w.warehouseId))).body.data;
    ids = await fieldIds(w.server, w.admin, cubeId);
    const m = await w.member();
    const o = await w.member();
    member = { userId: m.id, isAdministrator: false };
    memberHeaders = m.headers;
    outsider = { userId: o.id, isAdministrator: false };
    const group = await w.group([m.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
      headers: w.admin,
      payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    await w.permFilter(cubeId, group, { name: '广东', fieldId: ids['省份'], values: ['广东'], excluded: [ids['手机号']] });
  }, 120_000);
  afterAll(() => w?.close());

  it('aggregates by 省份 as a direct SQL count does', async () => {
    const result = await runChartQuery(w.server.ctx, admin, byProvince());
    const direct = await w.direct('SELECT province AS p, COUNT(order_id) AS n FROM orders GROUP BY province');
    expect(asMap(result.dataList, 'd0', 'm0')).toEqual(asMap(direct, 'p', 'n'));
    expect(result.fieldDict.map((f) => [f.alias, f.fieldId, f.title, f.aggregation])).toEqual([
      ['d0', ids['省份'], '省份', null],
      ['m0', ids['订单编号'], '订单编号', 'COUNT'],
    ]);
    expect(result.total).toBeNull();
  });

  it('pages a detail table with the total', async () => {
    const detail = chart(
      { rowParamList: [{ fieldId: ids['订单编号']! }], indexParamList: [{ fieldId: ids['金额']! }], sortList: [{ fieldId: ids['订单编号']! }] },
      { chartType: 'detail', mode: 'detail', current: 2, size: 5 },
    );
    const result = await runChartQuery(w.server.ctx, admin, detail);
    const [count] = await w.direct('SELECT COUNT(*) AS n FROM orders');
    const page = await w.direct('SELECT order_id AS id, amount AS a FROM orders ORDER BY order_id LIMIT 5 OFFSET 5');
    expect(result.total).toBe(Number(count!.n));
    expect(result.dataList.map((r) => [Number(r.d0), Number(r.d1)])).toEqual(page.map((r) => [Number(r.id), Number(r.a)]));
    expect(result.fieldDict.map((f) => f.kind)).toEqual(['dimension', 'dimension']);
  });

  it('lists the distinct values of a filter control, sorted', async () => {
    const values = await runChartQuery(
      w.server.ctx,
      admin,
      chart({ rowParamList: [{ fieldId: ids['渠道']! }], indexParamList: [{ fieldId: ids['金额']! }] }, { chartType: 'filterSelect', mode: 'values' }),
    );
    const direct = await w.direct('SELECT DISTINCT channel_name AS c FROM orders ORDER BY 1');
    expect(values.dataList.map((r) => r.d0)).toEqual(direct.map((r) => r.c));
  });

  it('narrows the rows by a link; a link without values is ignored', async () => {
    const linked = chart(
      { rowParamList: [{ fieldId: ids['渠道']! }], indexParamList: [{ fieldId: ids['金额']!, aggregation: 'SUM' }] },
      {
        links: [
          { fieldId: ids['省份']!, values: ['广东'] },
          { fieldId: ids['渠道']!, values: [] },
        ],
      },
    );
    const result = await runChartQuery(w.server.ctx, admin, linked);
    const direct = await w.direct("SELECT channel_name AS c, SUM(amount) AS s FROM orders WHERE province = '广东' GROUP BY channel_name");
    const got = asMap(result.dataList, 'd0', 'm0');
    const expected = asMap(direct, 'c', 's');
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expect(got[k]).toBeCloseTo(v, 6);
  });

  it('a member with a row permission filter sees only the allowed rows; the administrator all', async () => {
    const mine = await runChartQuery(w.server.ctx, member, byProvince());
    expect(mine.dataList.map((r) => r.d0)).toEqual(['广东']);
    const [gd] = await w.direct("SELECT COUNT(*) AS n FROM orders WHERE province = '广东'");
    expect(Number(mine.dataList[0]!.m0)).toBe(Number(gd!.n));
    const all = await runChartQuery(w.server.ctx, admin, byProvince());
    expect(all.dataList.length).toBeGreaterThan(1);
    // The values of a filter control too.
    const values = await runChartQuery(w.server.ctx, member, chart({ rowParamList: [{ fieldId: ids['省份']! }] }, { mode: 'values' }));
    expect(values.dataList.map((r) => r.d0)).toEqual(['广东']);
  });

  it('refuses a field hidden from the caller as the dataset preview does, and a field not in the dataset', async () => {
    const hidden = await refusal(runChartQuery(w.server.ctx, member, chart({ rowParamList: [{ fieldId: ids['手机号']! }] })));
    const preview = await w.preview(memberHeaders, cubeId, { dimensions: [{ fieldId: ids['手机号'] }] });
    expect(hidden.status).toBe(preview.status);
    expect(hidden.message).toBe(preview.body.msg);
    expect(hidden.status).toBe(403);
    // Through a link too: a link cannot probe a hidden column.
    const linked = await refusal(
      runChartQuery(w.server.ctx, member, chart({ rowParamList: [{ fieldId: ids['省份']! }] }, { links: [{ fieldId: ids['手机号']!, values: ['1'] }] })),
    );
    expect(linked.status).toBe(403);

    const unknown = await refusal(runChartQuery(w.server.ctx, admin, chart({ rowParamList: [{ fieldId: 987654 }] })));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toBe('图表【测试图表】使用的字段【987654】不在数据集中');
  });

  it('an editor’s chart needs the dataset; a saved chart of a board the caller sees reads it with their filters', async () => {
    const refused = await refusal(runChartQuery(w.server.ctx, outsider, byProvince()));
    expect(refused.status).toBe(403);
    const viaBoard = await runChartQuery(w.server.ctx, outsider, { ...byProvince(), access: 'board' });
    expect(viaBoard.dataList.length).toBeGreaterThan(1);
  });

  it('runs two concurrent identical queries once and answers the next from the cache; other filters do not share', async () => {
    clearChartCache(w.server.ctx);
    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const spy = vi.spyOn(driver, 'query');
    try {
      const before = chartCacheStats(w.server.ctx);
      const [a, b] = await Promise.all([runChartQuery(w.server.ctx, admin, byProvince()), runChartQuery(w.server.ctx, admin, byProvince())]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect([a.shared, b.shared].sort()).toEqual([false, true]);
      expect(b.dataList).toEqual(a.dataList);
      const after = chartCacheStats(w.server.ctx);
      expect(after.executions - before.executions).toBe(1);
      expect(after.joins - before.joins).toBe(1);

      const again = await runChartQuery(w.server.ctx, admin, byProvince());
      expect(again.shared).toBe(true);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(chartCacheStats(w.server.ctx).hits - after.hits).toBe(1);

      // The member's permission filter is in the SQL: their query is another one.
      const mine = await runChartQuery(w.server.ctx, member, byProvince());
      expect(mine.shared).toBe(false);
      expect(mine.dataList.map((r) => r.d0)).toEqual(['广东']);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('does not keep failures', async () => {
    clearChartCache(w.server.ctx);
    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const spy = vi.spyOn(driver, 'query').mockImplementationOnce(() => {
      throw new Error('连接中断');
    });
    try {
      await expect(runChartQuery(w.server.ctx, admin, byProvince())).rejects.toThrow('连接中断');
      const ok = await runChartQuery(w.server.ctx, admin, byProvince());
      expect(ok.shared).toBe(false);
      expect(ok.dataList.length).toBeGreaterThan(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('text and image charts read nothing', async () => {
    const result = await runChartQuery(w.server.ctx, admin, chart({}, { chartType: 'text' }));
    expect(result).toEqual({ dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false });
  });
});
