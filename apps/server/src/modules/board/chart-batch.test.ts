import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSave, ChartDataBatchItem, ChartSave, DatasetSave } from '@shutu/contracts';
import { call } from '../../../test/fixtures.ts';
import { storeKinds } from '../../../test/harness.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { clearReadCache } from '../read/cache.ts';

/**
 * The board batch (POST chart-data/batch, issue 26) and its regression guard: a board of
 * charts sharing a dataset and its filters issues ONE statement to the driver for the charts
 * that can share it (not a timing assertion: the statements are counted at the driver), and
 * every chart answers exactly what its own chart-data call answers, for the administrator and
 * for a member whose permission filter keeps 广东 rows and hides 手机号.
 */
const kinds = await storeKinds();

describe.each(kinds)('board chart-data batch on %s', (kind) => {
  let w: DatasetWorld;
  let boardId: number;
  let member: Headers;
  let categoryId: number;
  /** Every statement the warehouse driver ran since the last reset. */
  let statements: string[] = [];

  const dataset = (workspaceId: number): DatasetSave => {
    const base = ordersDataset(workspaceId, w.warehouseId, '看板合并查询');
    const time = {
      id: 'time',
      columnName: 'order_time',
      columnTitle: '订购时间',
      tableAliasName: 'o',
      columnAttr: 'NORMAL' as const,
      viewDataType: 'DATETIME' as const,
    };
    return { ...base, columnList: [...base.columnList, time] };
  };
  /** key → chart: four that share one scan, two time axes sharing their days, one COUNT DISTINCT, a detail table, a text, a chart over 手机号. */
  const charts = (cubeId: number, f: Record<string, number>): ChartSave[] => {
    const agg = (
      key: string,
      name: ChartSave['name'],
      rows: { fieldId: number; granularity?: 'MONTH' | 'DAY' }[],
      measures: [string, 'SUM' | 'COUNT' | 'COUNT_DISTINCT'][],
      extra = {},
    ): ChartSave => ({
      key,
      name,
      title: key,
      dataconfig: { cubeId, rowParamList: rows, indexParamList: measures.map(([t, aggregation]) => ({ fieldId: f[t]!, aggregation })), ...extra },
    });
    return [
      agg('card', 'card', [], [['金额', 'SUM']]),
      agg(
        'byProvince',
        'bar',
        [{ fieldId: f['省份']! }],
        [
          ['金额', 'SUM'],
          ['订单编号', 'COUNT'],
        ],
        { sortList: [{ fieldId: f['金额']!, direction: 'DESC', aggregation: 'SUM' }], limit: 5 },
      ),
      agg('byMonth', 'line', [{ fieldId: f['订购时间']!, granularity: 'MONTH' }], [['金额', 'SUM']], {
        sortList: [{ fieldId: f['订购时间']!, direction: 'ASC' }],
      }),
      // A second time axis of 订购时间: with byMonth, one grouping of the rows by day answers both.
      agg('byDay', 'line', [{ fieldId: f['订购时间']!, granularity: 'DAY' }], [['订单编号', 'COUNT']], {
        sortList: [{ fieldId: f['订购时间']!, direction: 'DESC' }],
        limit: 20,
      }),
      agg('byChannel', 'pie', [{ fieldId: f['渠道']! }], [['订单编号', 'COUNT']]),
      agg('customers', 'card', [], [['手机号', 'COUNT_DISTINCT']]),
      {
        key: 'detail',
        name: 'detail',
        title: '明细',
        dataconfig: { cubeId, rowParamList: [{ fieldId: f['订单编号']! }, { fieldId: f['省份']! }], sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }] },
      },
      { key: 'note', name: 'text', title: '说明' },
      agg('phones', 'bar', [{ fieldId: f['手机号']! }], [['金额', 'SUM']]),
      // Distinct counts of 手机号 beside the card's: per channel (ordered by the count) and per order (more than 64 values).
      agg(
        'customersByChannel',
        'bar',
        [{ fieldId: f['渠道']! }],
        [
          ['金额', 'SUM'],
          ['手机号', 'COUNT_DISTINCT'],
        ],
        {
          sortList: [
            { fieldId: f['手机号']!, direction: 'DESC', aggregation: 'COUNT_DISTINCT' },
            { fieldId: f['渠道']!, direction: 'ASC' },
          ],
        },
      ),
      agg('customersByOrder', 'table', [{ fieldId: f['订单编号']! }], [['手机号', 'COUNT_DISTINCT']], {
        sortList: [{ fieldId: f['订单编号']!, direction: 'ASC' }],
        limit: 100,
      }),
    ];
  };
  const KEYS = ['card', 'byProvince', 'byMonth', 'byDay', 'byChannel', 'customers', 'detail', 'note', 'phones', 'customersByChannel', 'customersByOrder'];
  /** Charts without an order: the engine returns their rows in any order, so they compare as sets. */
  const UNORDERED = new Set(['byChannel', 'phones']);
  const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

  /** The grouped form (asked for: each chart alone is the default, what the pages ask). */
  const batch = (headers: Headers, keys = KEYS) =>
    call(w.server, 'POST', '/api/board/chart-data/batch', { headers, payload: { boardId, grouped: true, charts: keys.map((chartKey) => ({ chartKey })) } });
  const single = (headers: Headers, chartKey: string) => call(w.server, 'POST', '/api/board/chart-data', { headers, payload: { boardId, chartKey } });
  const byKey = (items: ChartDataBatchItem[]) => new Map(items.map((i) => [i.chartKey, i]));

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const workspaceId = await w.category('合并查询');
    const cubeId = (await w.save(w.admin, { ...dataset(workspaceId), cubeData: { ...dataset(workspaceId).cubeData, publicStatus: 1 } })).body.data as number;
    const f = await fieldIds(w.server, w.admin, cubeId);
    categoryId = (await call(w.server, 'POST', '/api/board/categories', { headers: w.admin, payload: { kind: 'visual', categoryValue: '合并查询' } })).body.data
      .id;
    const list = charts(cubeId, f);
    const board: BoardSave = {
      title: '合并查询看板',
      categoryId,
      content: { type: 'quick', layout: list.map((c, i) => ({ i: c.key, x: 0, y: i * 6, w: 12, h: 6 })) },
      charts: list,
      publicStatus: 1,
    };
    const saved = await call(w.server, 'POST', '/api/board/boards', { headers: w.admin, payload: board });
    expect(saved.status, saved.raw.body).toBe(200);
    boardId = saved.body.data;
    const m = await w.member();
    member = m.headers;
    const group = await w.group([m.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
      headers: w.admin,
      payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    await w.permFilter(cubeId, group, { name: '广东', fieldId: f['省份'], values: ['广东'], excluded: [f['手机号']] });

    const driver = await getDataSourceDriver(w.server.ctx, w.warehouseId);
    const query = driver.query.bind(driver);
    driver.query = (sql, params, options) => {
      statements.push(sql);
      return query(sql, params, options);
    };
  });
  afterAll(async () => {
    await w?.close();
  });

  it('runs the charts that share the dataset and its filters as one statement, the others alone', async () => {
    clearReadCache(w.server.ctx);
    statements = [];
    const res = await batch(w.admin);
    expect(res.status, res.raw.body).toBe(200);
    const grouped = statements.filter((s) => s.includes('GROUPING SETS'));
    expect(grouped).toHaveLength(1);
    // The card's (), 省份, 渠道, 手机号 and 订单编号: the month is read with the day (below).
    expect(grouped[0]).toContain('GROUPING SETS ((7), (1, 8), (2, 9), (3, 10), (4, 11))');
    // The three distinct counts of 手机号 (the card, per channel, per order) inside it, through one
    // aggregation by 手机号 (bit masks; the order ids, more than 64, by COUNT DISTINCT in the same statement),
    // written in its two forms (a mask word per dimension, or one shared word), of which one runs.
    expect(grouped[0]!.match(/GROUP BY "r"\."x"/g)).toHaveLength(2);
    expect(grouped[0]).toContain('COUNT(DISTINCT "r"."x")');
    // The two time axes of 订购时间 (by month, by day) from one grouping of the rows by day.
    const days = statements.filter((s) => s.startsWith('WITH "days" AS MATERIALIZED'));
    expect(days).toHaveLength(1);
    expect(days[0]!.match(/"o"\."order_time"/g)).toHaveLength(1);
    // Besides them: the detail table's rows and count.
    expect(statements).toHaveLength(4);
    expect(res.body.data.map((i: ChartDataBatchItem) => i.chartKey)).toEqual(KEYS);
    expect(byKey(res.body.data).get('note')).toMatchObject({ data: { dataList: [] }, error: null });
    // A second load within the cache's life runs nothing.
    statements = [];
    const again = await batch(w.admin);
    expect(statements).toEqual([]);
    expect(byKey(again.body.data).get('byProvince')!.data!.shared).toBe(true);
  });

  it("reads each chart by its own statement when the call says grouped: false, with the same answers and the member's filter", async () => {
    clearReadCache(w.server.ctx);
    statements = [];
    const res = await call(w.server, 'POST', '/api/board/chart-data/batch', {
      headers: member,
      payload: { boardId, grouped: false, charts: KEYS.map((chartKey) => ({ chartKey })) },
    });
    expect(res.status, res.raw.body).toBe(200);
    expect(statements.filter((s) => s.includes('GROUPING SETS'))).toEqual([]);
    // More statements than the grouped call's three: one per chart that reads (and the detail table's count).
    expect(statements.length).toBeGreaterThan(4);
    const items = byKey(res.body.data);
    clearReadCache(w.server.ctx);
    for (const key of KEYS) {
      const own = await single(member, key);
      const item = items.get(key)!;
      if (own.status !== 200) {
        expect(item, key).toEqual({ chartKey: key, data: null, error: { status: own.status, msg: own.body.msg } });
        continue;
      }
      if (UNORDERED.has(key)) expect(sorted(item.data!.dataList), key).toEqual(sorted(own.body.data.dataList));
      else expect(item.data!.dataList, key).toEqual(own.body.data.dataList);
    }
  });

  it('by default (grouped: false, what every page asks) shares one statement among the distinct counts of 手机号, one among the time axes, every other chart alone, with the same answers', async () => {
    clearReadCache(w.server.ctx);
    statements = [];
    const res = await call(w.server, 'POST', '/api/board/chart-data/batch', {
      headers: w.admin,
      payload: { boardId, charts: KEYS.map((chartKey) => ({ chartKey })) },
    });
    expect(res.status, res.raw.body).toBe(200);
    const grouped = statements.filter((s) => s.includes('GROUPING SETS'));
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.match(/GROUP BY "r"\."x"/g)).toHaveLength(2);
    // Its grouping sets: the card's (), 渠道 and 订单编号 — not the other charts' dimensions.
    expect(grouped[0]).toContain('GROUPING SETS ((4), (1, 5), (2, 6))');
    // The time axes share their days here too: one statement for by month and by day.
    expect(statements.filter((s) => s.startsWith('WITH "days" AS MATERIALIZED'))).toHaveLength(1);
    const items = byKey(res.body.data);
    clearReadCache(w.server.ctx);
    for (const key of ['customers', 'customersByChannel', 'customersByOrder', 'byProvince', 'byMonth', 'byDay']) {
      const own = await single(w.admin, key);
      expect(items.get(key)!.data!.dataList, key).toEqual(own.body.data.dataList);
    }
  });

  it.each([
    ['the administrator', () => w.admin],
    ['a member who sees 广东 only', () => member],
  ])('answers every chart as its own chart-data call does, for %s', async (_who, headers) => {
    clearReadCache(w.server.ctx);
    const items = byKey((await batch(headers())).body.data);
    clearReadCache(w.server.ctx);
    for (const key of KEYS) {
      const own = await single(headers(), key);
      const item = items.get(key)!;
      if (own.status !== 200) {
        // Refused alone (the member may not read 手机号): refused the same way in the batch.
        expect(item, key).toEqual({ chartKey: key, data: null, error: { status: own.status, msg: own.body.msg } });
        continue;
      }
      expect(item.error, key).toBeNull();
      if (UNORDERED.has(key)) expect(sorted(item.data!.dataList), key).toEqual(sorted(own.body.data.dataList));
      else expect(item.data!.dataList, key).toEqual(own.body.data.dataList);
      expect(item.data!.fieldDict, key).toEqual(own.body.data.fieldDict);
      expect(item.data!.total, key).toEqual(own.body.data.total);
    }
    expect(items.get('byProvince')!.data!.dataList.length).toBeGreaterThan(0);
    // The per-order count has more values than a mask has bits (its COUNT DISTINCT branch answered it).
    if (items.get('customersByOrder')!.error === null) expect(items.get('customersByOrder')!.data!.dataList.length).toBeGreaterThan(64);
  });

  it("applies the member's filter in the shared statement and refuses the hidden column for its chart only", async () => {
    clearReadCache(w.server.ctx);
    const admin = byKey((await batch(w.admin)).body.data);
    const mine = byKey((await batch(member)).body.data);
    const provinces = mine.get('byProvince')!.data!.dataList.map((r) => r.d0);
    expect(provinces).toEqual(['广东']);
    expect(admin.get('byProvince')!.data!.dataList.length).toBeGreaterThan(1);
    expect(Number(mine.get('card')!.data!.dataList[0]!.m0)).toBeLessThan(Number(admin.get('card')!.data!.dataList[0]!.m0));
    const own = await single(member, 'phones');
    expect(mine.get('phones')).toEqual({ chartKey: 'phones', data: null, error: { status: own.status, msg: own.body.msg } });
    expect(own.status).toBe(403);
    expect(admin.get('phones')!.error).toBeNull();
  });

  it('streams one line per chart as NDJSON, each with its index, the same answers as the JSON form', async () => {
    clearReadCache(w.server.ctx);
    const json = byKey((await batch(w.admin)).body.data);
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/board/chart-data/batch',
      headers: { ...w.admin, accept: 'application/x-ndjson' },
      payload: { boardId, grouped: true, charts: KEYS.map((chartKey) => ({ chartKey })) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ChartDataBatchItem & { index: number });
    expect(lines.map((l) => l.index).sort((a, b) => a - b)).toEqual(KEYS.map((_, i) => i));
    for (const { index, ...item } of lines) {
      expect(item.chartKey).toBe(KEYS[index]);
      expect(item.data?.dataList ?? null, item.chartKey).toEqual(json.get(item.chartKey)!.data?.dataList ?? null);
    }
  });

  it("answers the board's first data when no chart is named: the charts its page draws, each line with its request, the member's filter applied", async () => {
    clearReadCache(w.server.ctx);
    const first = (headers: Headers) =>
      w.server.app.inject({
        method: 'POST',
        url: '/api/board/chart-data/batch',
        headers: { ...headers, accept: 'application/x-ndjson' },
        payload: { boardId },
      });
    const lines = (body: string) =>
      new Map(
        body
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as ChartDataBatchItem)
          .map((l) => [l.chartKey, l]),
      );
    const admin = lines((await first(w.admin)).body);
    // Every chart but the text (it reads nothing), each as the page asks for it at first load.
    expect([...admin.keys()].sort()).toEqual(KEYS.filter((k) => k !== 'note').sort());
    expect(admin.get('detail')!.request).toEqual({ chartKey: 'detail', mode: 'detail', links: [], current: 1, size: 20 });
    expect(admin.get('byProvince')!.request).toEqual({ chartKey: 'byProvince', mode: 'aggregate', links: [], current: 1, size: null });
    const named = byKey((await batch(w.admin)).body.data);
    expect(admin.get('byProvince')!.data!.dataList).toEqual(named.get('byProvince')!.data!.dataList);
    const mine = lines((await first(member)).body);
    expect(mine.get('byProvince')!.data!.dataList.map((r) => r.d0)).toEqual(['广东']);
    expect(mine.get('phones')!.error!.status).toBe(403);
  });

  it('refuses the whole call for a board the caller may not see, and names a missing chart', async () => {
    const stranger = (await w.member()).headers;
    const hidden = await call(w.server, 'POST', '/api/board/boards', {
      headers: w.admin,
      payload: { title: '不公开', categoryId, content: { type: 'quick', layout: [] }, charts: [], publicStatus: 0 },
    });
    expect(hidden.status, hidden.raw.body).toBe(200);
    const privateBoard = await call(w.server, 'POST', '/api/board/chart-data/batch', {
      headers: stranger,
      payload: { boardId: hidden.body.data, charts: [{ chartKey: 'card' }] },
    });
    expect(privateBoard.status).toBe(403);
    expect(privateBoard.body.msg).toBe('没有此大屏权限');
    const missing = await call(w.server, 'POST', '/api/board/chart-data/batch', {
      headers: w.admin,
      payload: { boardId, charts: [{ chartKey: 'nope' }, { chartKey: 'card' }] },
    });
    expect(missing.status).toBe(200);
    expect(missing.body.data[0]).toEqual({ chartKey: 'nope', data: null, error: { status: 404, msg: '图表不存在' } });
    expect(missing.body.data[1].error).toBeNull();
  });
});
