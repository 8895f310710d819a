import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cubePreviewSchema, encodeBase64Json, type CubeModelInput, type CubePreview, type CubeQueryRequest } from '@shutu/contracts';
import { collect, ensureDemoWarehouse, MIN_SCALE } from '@shutu/connectors';
import { createTestServer, PG_URL, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { UNRESTRICTED } from '@shutu/query';
import { previewLimit } from '../read/compile.ts';
import { previewModel as previewCube } from '../read/preview.ts';

const kinds = await storeKinds();
const withPostgres = kinds.includes('postgres');

/** The demo warehouse's orders table as a one-table dataset. */
const ordersModel: CubeModelInput = {
  tables: [{ tableName: 'orders', tableAliasName: 'o' }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o' },
    { id: 2, columnName: 'channel_name', columnTitle: '渠道', tableAliasName: 'o' },
    { id: 3, columnName: 'phone', columnTitle: '手机号', tableAliasName: 'o' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', viewDataType: 'DATETIME' },
    { id: 6, columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', viewDataType: 'NUMBER' },
    {
      id: 7,
      columnAttr: 'VIRTUAL',
      columnTitle: '客单价',
      columnFormula: 'SUM([金额]) / COUNT(DISTINCT [手机号])',
      viewDataType: 'NUMBER',
      dimensionType: 'ZHIBIAO',
    },
  ],
};

/** Month `back` months before the current one, as yyyy-MM (the demo data ends on the day it is seeded). */
const monthBack = (back: number) => {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};
/** Six whole months well inside the demo window (it spans the 13 months up to the seed day). */
const [fromMonth, toMonth, afterMonth] = [monthBack(7), monthBack(2), monthBack(1)];

/** The dashboard aggregate: orders, users and amount per province and channel in six whole months. */
const dashboard: CubeQueryRequest = {
  dimensions: [{ fieldId: 1 }, { fieldId: 2 }],
  measures: [
    { fieldId: 6, aggregation: 'COUNT' },
    { fieldId: 3, aggregation: 'COUNT_DISTINCT' },
    { fieldId: 4, aggregation: 'SUM' },
  ],
  where: { conditions: [{ cubeColumnId: 5, conditions: [{ function: 'between', values: [fromMonth, toMonth] }] }] },
  sort: [{ fieldId: 4, aggregation: 'SUM', direction: 'DESC' }, { fieldId: 1 }, { fieldId: 2 }],
  limit: 10,
  withTotal: true,
};

const eqProvince = (value: string, fn: 'eq' | 'in' | 'like' = 'eq') => ({ conditions: [{ cubeColumnId: 1, conditions: [{ function: fn, values: [value] }] }] });

describe.each(kinds)('query calls on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;

  const preview = (body: Record<string, unknown>) => call(server, 'POST', '/api/query/preview', { headers: admin, payload: body });
  const check = (body: Record<string, unknown>) => call(server, 'POST', '/api/query/formula-check', { headers: admin, payload: body });
  const createSource = async (body: Record<string, unknown>) => {
    const res = await call(server, 'POST', '/api/datasource', { headers: admin, payload: { dsDb: `查询测试${randomBytes(4).toString('hex')}`, ...body } });
    if (res.status !== 200) throw new Error(`create source: ${res.status} ${res.raw.body}`);
    return res.body.data.id as number;
  };
  /** Rows of hand-written SQL on the warehouse, to check the previews against. */
  const direct = async (sql: string) => (await collect((await getDataSourceDriver(server.ctx, warehouseId)).query(sql))).rows;

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    // The built-in warehouse, when it holds the demo tables; otherwise a small demo warehouse of our own.
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    const builtin = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id as number;
    const tables = await call(server, 'GET', `/api/datasource/${builtin}/tables`, { headers: admin });
    if (tables.body.data?.some((t: { name: string }) => t.name === 'orders')) {
      warehouseId = builtin;
    } else {
      await ensureDemoWarehouse(path.join(server.ctx.config.dataDir, 'query-demo.duckdb'), { scale: MIN_SCALE });
      warehouseId = await createSource({ type: 'duckdb', path: 'query-demo.duckdb' });
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('previews a grouped aggregate with a time filter, total and field dictionary, as the engine computes it', async () => {
    const res = await preview({ datasourceId: warehouseId, model: ordersModel, request: dashboard });
    expect(res.status, res.raw.body).toBe(200);
    const { dataList, fieldDict, total } = res.body.data;
    expect(fieldDict.map((f: { alias: string; title: string; kind: string }) => [f.alias, f.title, f.kind])).toEqual([
      ['d0', '省份', 'dimension'],
      ['d1', '渠道', 'dimension'],
      ['m0', '订单编号', 'measure'],
      ['m1', '手机号', 'measure'],
      ['m2', '金额', 'measure'],
    ]);
    expect(fieldDict[1]).toMatchObject({ fieldId: 2, viewDataType: 'STRING', aggregation: null });
    expect(fieldDict[3]).toMatchObject({ aggregation: 'COUNT_DISTINCT', viewDataType: 'NUMBER' });

    const expected = await direct(`
      SELECT province AS d0, channel_name AS d1, COUNT(order_id) AS m0, COUNT(DISTINCT phone) AS m1, SUM(amount) AS m2
      FROM orders WHERE order_time >= TIMESTAMP '${fromMonth}-01' AND order_time < TIMESTAMP '${afterMonth}-01'
      GROUP BY 1, 2 ORDER BY m2 DESC NULLS LAST, d0, d1`);
    expect(expected.length).toBeGreaterThan(10);
    expect(total).toBe(expected.length);
    expect(dataList).toHaveLength(10);
    expect(dataList).toEqual(expected.slice(0, 10));
    expect(res.body.data.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts the spec’s Base64 JSON payload, validated by the same schema', async () => {
    const body = { datasourceId: warehouseId, model: ordersModel, request: { ...dashboard, withTotal: false } };
    const plain = await preview(body);
    const encoded = await preview({ payload: encodeBase64Json(body) });
    expect(encoded.status, encoded.raw.body).toBe(200);
    expect(encoded.body.data.dataList).toEqual(plain.body.data.dataList);
    expect(encoded.body.data.total).toBeNull();

    for (const payload of ['@@not base64@@', Buffer.from('{"datasourceId": ').toString('base64'), Buffer.from([0xff, 0xfe]).toString('base64'), 42]) {
      const bad = await preview({ payload });
      expect(bad.status, String(payload)).toBe(400);
      expect(bad.body.msg).toBe('payload 不是合法的 Base64 编码的 JSON');
    }
    const invalid = await preview({ payload: encodeBase64Json({ ...body, datasourceId: undefined }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.msg).toBe('请选择数据源');
    expect(invalid.body.data.fields[0].field).toBe('datasourceId');
  });

  it('treats SQL in filter values as values: no rows, no error, the table intact', async () => {
    const hostile = ["'; DROP TABLE orders; --", "x' OR '1'='1", "广东' OR 1=1 --", '%', '_', '\\', '"; DELETE FROM orders; --', '$1', '?'];
    for (const value of hostile) {
      for (const fn of ['eq', 'in', 'like'] as const) {
        if (fn === 'like' && (value === '%' || value === '_' || value === '\\')) continue; // wildcards are escaped, tested below
        const res = await preview({ datasourceId: warehouseId, model: ordersModel, request: { ...dashboard, where: eqProvince(value, fn) } });
        expect(res.status, `${fn} ${value}: ${res.raw.body}`).toBe(200);
        expect(res.body.data.dataList, `${fn} ${value}`).toEqual([]);
        expect(res.body.data.total, `${fn} ${value}`).toBe(0);
      }
    }
    for (const wildcard of ['%', '_']) {
      const res = await preview({ datasourceId: warehouseId, model: ordersModel, request: { ...dashboard, where: eqProvince(wildcard, 'like') } });
      expect(res.body.data.total, wildcard).toBe(0);
    }
    const [count] = await direct('SELECT COUNT(*) AS n FROM orders');
    expect(count!.n).toBeGreaterThanOrEqual(MIN_SCALE);
  });

  it('returns the first 100 rows by default and counts every row, at most 10 000', async () => {
    const [count] = await direct('SELECT COUNT(*) AS n FROM orders');
    const res = await preview({
      datasourceId: warehouseId,
      model: ordersModel,
      request: { dimensions: [{ fieldId: 6 }, { fieldId: 1 }], detail: true, withTotal: true },
    });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.dataList).toHaveLength(100);
    expect(res.body.data.total).toBe(count!.n);
    expect(Object.keys(res.body.data.dataList[0])).toEqual(['d0', 'd1']);
    const offset = await preview({
      datasourceId: warehouseId,
      model: ordersModel,
      request: { dimensions: [{ fieldId: 6 }], detail: true, sort: [{ fieldId: 6 }], limit: 3, offset: 5 },
    });
    expect(offset.body.data.dataList).toEqual([{ d0: 6 }, { d0: 7 }, { d0: 8 }]);
    expect([previewLimit(undefined), previewLimit(null), previewLimit(0), previewLimit(500), previewLimit(1e9)]).toEqual([100, 100, 0, 500, 10_000]);
  });

  it('refuses a malformed formula with 400 and its position, in a preview and in the check', async () => {
    const broken = {
      ...ordersModel,
      fields: [...ordersModel.fields, { id: 8, columnAttr: 'VIRTUAL', columnTitle: '坏公式', columnFormula: 'SUM([金额]) + * 2', viewDataType: 'NUMBER' }],
    };
    const res = await preview({ datasourceId: warehouseId, model: broken, request: { measures: [{ fieldId: 8 }] } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^计算字段【坏公式】公式第13个字符处有误：/);
    expect(res.body.data).toMatchObject({ position: 12, field: '坏公式', kind: 'formula' });

    const checked = await check({ columnFormula: 'SUM([金额]) + * 2', datasourceId: warehouseId });
    expect(checked.status).toBe(400);
    expect(checked.body.msg).toMatch(/^公式第13个字符处有误：/);
    expect(checked.body.data).toMatchObject({ position: 12, field: null });
    const unclosed = await check({ columnFormula: "CONCAT([省份], 'x", datasourceId: warehouseId });
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.data.position).toBe(13);
  });

  it('refuses a formula carrying a second statement, before any SQL runs', async () => {
    for (const formula of ['SUM([金额]); DROP TABLE orders', 'SUM([金额]) -- comment', "[省份] = 'a'; SELECT 1"]) {
      const checked = await check({ columnFormula: formula, datasourceId: warehouseId });
      expect(checked.status, formula).toBe(400);
      expect(checked.body.data.position, formula).toBe(formula.search(/;|--/));
      const model = {
        ...ordersModel,
        fields: [...ordersModel.fields, { id: 9, columnAttr: 'VIRTUAL', columnTitle: '注入', columnFormula: formula, viewDataType: 'NUMBER' }],
      };
      const res = await preview({ datasourceId: warehouseId, model, request: { measures: [{ fieldId: 9 }] } });
      expect(res.status, formula).toBe(400);
      expect(res.body.data.position, formula).toBe(formula.search(/;|--/));
    }
    const [count] = await direct('SELECT COUNT(*) AS n FROM orders');
    expect(count!.n).toBeGreaterThan(0);
  });

  it('applies the server-side permissions: excluded columns 403, row filters ANDed in', async () => {
    const body = cubePreviewSchema.parse({ datasourceId: warehouseId, model: ordersModel, request: dashboard } satisfies CubePreview);
    await expect(previewCube(server.ctx, body, { rowFilters: [], excludedColumnIds: [3] })).rejects.toMatchObject({
      status: 403,
      message: '无权访问字段【手机号】',
    });
    const viaFormula = cubePreviewSchema.parse({
      datasourceId: warehouseId,
      model: ordersModel,
      request: { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 7 }] },
    });
    await expect(previewCube(server.ctx, viaFormula, { rowFilters: [], excludedColumnIds: ['3'] })).rejects.toMatchObject({ status: 403 });

    const all = await previewCube(server.ctx, body, UNRESTRICTED);
    const province = all.dataList[0]!.d0 as string;
    const filtered = await previewCube(
      server.ctx,
      { ...body, request: { ...body.request, where: null } },
      { rowFilters: [eqProvince(province)], excludedColumnIds: [] },
    );
    expect(filtered.dataList.length).toBeGreaterThan(0);
    expect(new Set(filtered.dataList.map((r) => r.d0))).toEqual(new Set([province]));
    // The body has no way to pass permissions: unknown keys are dropped by the schema.
    const sneaky = cubePreviewSchema.parse({ ...body, rowFilters: [], excludedColumnIds: [] });
    expect(sneaky).not.toHaveProperty('excludedColumnIds');
  });

  it('answers an unknown data source with 404 and an engine failure with its message and detail', async () => {
    const missing = await preview({ datasourceId: 999999, model: ordersModel, request: dashboard });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('数据源不存在');
    expect((await check({ columnFormula: 'SUM([金额])', datasourceId: 999999 })).status).toBe(404);

    const noTable = { ...ordersModel, tables: [{ tableName: 'no_such_table_xyz', tableAliasName: 'o' }] };
    const failed = await preview({ datasourceId: warehouseId, model: noTable, request: dashboard });
    expect(failed.status).toBe(400);
    expect(failed.body.msg).toMatch(/^查询执行失败：/);
    expect(failed.body.data.detail).toMatch(/no_such_table_xyz/);
  });

  it('tells whether a formula aggregates, with the engine’s functions and the dataset’s fields', async () => {
    const has = async (columnFormula: string, extra: Record<string, unknown> = {}) => {
      const res = await check({ columnFormula, datasourceId: warehouseId, ...extra });
      expect(res.status, `${columnFormula}: ${res.raw.body}`).toBe(200);
      return res.body.data.hasAggregation as boolean;
    };
    expect(await has('SUM([金额]) / COUNT(DISTINCT [手机号])')).toBe(true);
    expect(await has('ROUND([金额] * 1.06, 2)')).toBe(false);
    expect(await has('count_distinct([手机号])')).toBe(true);
    // Through a computed field that aggregates: only the dataset's fields tell.
    expect(await has('[客单价] * 2')).toBe(false);
    expect(await has('[客单价] * 2', { fields: ordersModel.fields })).toBe(true);
    expect(await has('[金额] * 2', { fields: ordersModel.fields })).toBe(false);
    const encoded = await check({ payload: encodeBase64Json({ columnFormula: 'MAX([订购时间])', datasourceId: warehouseId }) });
    expect(encoded.body.data).toEqual({ hasAggregation: true });

    const unknownField = await check({ columnFormula: '[不存在] + 1', datasourceId: warehouseId, fields: ordersModel.fields });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.msg).toBe('公式第1个字符处有误：字段[不存在]不存在');
    const typed = await check({ columnFormula: '[省份] * 2', datasourceId: warehouseId, fields: ordersModel.fields });
    expect(typed.status).toBe(400);
    const unknownFn = await check({ columnFormula: '1 + NO_SUCH_FN([金额])', datasourceId: warehouseId });
    expect(unknownFn.body).toMatchObject({ code: 400, msg: '公式第5个字符处有误：未知的函数 NO_SUCH_FN', data: { position: 4 } });
    const required = await check({ columnFormula: '  ', datasourceId: warehouseId });
    expect(required.body.msg).toBe('请补充完整');

    // ClickHouse 18.16 has no TRIM: refused for a ClickHouse source (no connection needed).
    const clickhouse = await createSource({ type: 'clickhouse', host: '127.0.0.1', port: 1 });
    const trim = await check({ columnFormula: "CONCAT(TRIM([省份]), '省')", datasourceId: clickhouse });
    expect(trim.body).toMatchObject({ code: 400, msg: '公式第8个字符处有误：当前数据源不支持函数 TRIM', data: { position: 7 } });
    expect((await check({ columnFormula: 'TRIM([省份])', datasourceId: warehouseId })).status).toBe(200);
  });

  it('lists the formula functions of each data source type', async () => {
    const list = async (dsType: string) => call(server, 'GET', '/api/query/functions', { headers: admin, query: { dsType } });
    const duck = await list('duckdb');
    expect(duck.status).toBe(200);
    expect(duck.body.data.dsType).toBe('duckdb');
    expect(duck.body.data.categories.map((c: { label: string }) => c.label)).toEqual(['聚合函数', '数学函数', '字符串函数', '日期函数', '逻辑函数']);
    const sum = duck.body.data.functions.find((f: { name: string }) => f.name === 'SUM');
    expect(sum).toEqual({ name: 'SUM', category: 'aggregate', description: '求和', example: 'SUM([金额])', aggregate: true, minArgs: 1, maxArgs: 1 });
    for (const dsType of ['postgres', 'mysql', 'clickhouse']) {
      const res = await list(dsType);
      expect(res.status, dsType).toBe(200);
      expect(res.body.data.functions.length, dsType).toBeGreaterThan(20);
    }
    const names = (await list('clickhouse')).body.data.functions.map((f: { name: string }) => f.name);
    expect(names).not.toContain('TRIM');
    expect(names).toContain('COUNT_DISTINCT');
    for (const dsType of ['oracle', '']) {
      const bad = await list(dsType);
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBe('请选择数据源类型');
    }
  });

  describe.runIf(withPostgres)('on a PostgreSQL data source', () => {
    const schema = `shutu_query_${randomBytes(4).toString('hex')}`;
    let sourceId: number;
    const pgClient = () => new pg.Client({ connectionString: PG_URL });
    const salesModel: CubeModelInput = {
      tables: [{ tableName: 'sales', tableAliasName: 's', schema }],
      fields: [
        { id: 'p', columnName: 'province', columnTitle: '省份', tableAliasName: 's' },
        { id: 'a', columnName: 'amount', columnTitle: '金额', tableAliasName: 's', viewDataType: 'NUMBER' },
        { id: 't', columnName: 'sold_at', columnTitle: '时间', tableAliasName: 's', viewDataType: 'DATETIME' },
        { id: 'b', columnName: 'buyer', columnTitle: '买家', tableAliasName: 's' },
      ],
    };

    beforeAll(async () => {
      const c = pgClient();
      await c.connect();
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.query(`CREATE TABLE ${schema}.sales (province text, amount numeric(10,2), sold_at timestamp, buyer text)`);
      await c.query(`INSERT INTO ${schema}.sales VALUES
        ('广东', 10.50, '2026-03-01 10:00', '甲'), ('广东', 20.25, '2026-03-02 11:00', '乙'), ('广东', 5, '2026-03-03 12:00', '甲'),
        ('浙江', 7, '2026-03-05 09:00', '丙'), ('浙江', 100, '2025-12-31 23:59:59', '丁'), (NULL, 1, '2026-03-06 00:00', 'it''s')`);
      await c.end();
      const url = new URL(PG_URL);
      sourceId = await createSource({
        type: 'postgres',
        host: url.hostname,
        port: Number(url.port || 5432),
        database: url.pathname.slice(1),
        username: url.username,
      });
    });
    afterAll(async () => {
      const c = pgClient();
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });

    it('previews a grouped aggregate, with totals, and hostile values as values', async () => {
      const request: CubeQueryRequest = {
        dimensions: [{ fieldId: 'p' }],
        measures: [
          { fieldId: 'a', aggregation: 'SUM' },
          { fieldId: 'b', aggregation: 'COUNT_DISTINCT' },
        ],
        where: { conditions: [{ cubeColumnId: 't', conditions: [{ function: 'eq', values: ['2026'] }] }] },
        sort: [{ fieldId: 'a', aggregation: 'SUM', direction: 'DESC' }],
        withTotal: true,
      };
      const res = await preview({ datasourceId: sourceId, model: salesModel, request });
      expect(res.status, res.raw.body).toBe(200);
      expect(res.body.data.dataList).toEqual([
        { d0: '广东', m0: 35.75, m1: 2 },
        { d0: '浙江', m0: 7, m1: 1 },
        { d0: null, m0: 1, m1: 1 },
      ]);
      expect(res.body.data.total).toBe(3);
      for (const value of ["'; DROP TABLE sales; --", "it's", "x' OR '1'='1"]) {
        const where = { conditions: [{ cubeColumnId: 'p', conditions: [{ function: 'eq', values: [value] }] }] };
        const none = await preview({ datasourceId: sourceId, model: salesModel, request: { ...request, where } });
        expect(none.status, value).toBe(200);
        expect(none.body.data).toMatchObject({ dataList: [], total: 0 });
      }
      const quoted = await preview({
        datasourceId: sourceId,
        model: salesModel,
        request: {
          dimensions: [{ fieldId: 'b' }],
          detail: true,
          where: { conditions: [{ cubeColumnId: 'b', conditions: [{ function: 'eq', values: ["it's"] }] }] },
        },
      });
      expect(quoted.body.data.dataList).toEqual([{ d0: "it's" }]);
    });
  });
});
