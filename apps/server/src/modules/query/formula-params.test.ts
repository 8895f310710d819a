import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CubeModelInput } from '@shutu/contracts';
import { PG_URL, storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Global parameters in computed-field formulas (spec 2 §5 "Parameters are inserted into
 * formulas, string parameters quoted"; docs/datasets.md "Parameters in formulas"): `${key}`
 * and `'${key}'` read the request's `params`, bound; the formula check refuses a key that is
 * no global parameter, with its position.
 */
const kinds = await storeKinds();
const withPostgres = kinds.includes('postgres');

type Row = Record<string, unknown>;

/** The demo orders table with one computed field, id 9, titled 公式. */
const withFormula = (columnFormula: string, viewDataType: 'NUMBER' | 'STRING' = 'NUMBER'): CubeModelInput => ({
  tables: [{ tableName: 'orders', tableAliasName: 'o' }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'o' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 6, columnName: 'order_id', columnTitle: '订单编号', tableAliasName: 'o', viewDataType: 'NUMBER' },
    { id: 9, columnAttr: 'VIRTUAL', columnTitle: '公式', columnFormula, viewDataType },
  ],
});
const detail = { detail: true, dimensions: [{ fieldId: 6 }, { fieldId: 1 }, { fieldId: 4 }, { fieldId: 9 }], sort: [{ fieldId: 6 }], limit: 20 };

describe.each(kinds)('global parameters in formulas on %s', (kind) => {
  let w: DatasetWorld;
  let admin: Headers;

  const post = (url: string, payload: unknown) => call(w.server, 'POST', url, { headers: admin, payload });
  const check = (columnFormula: string, extra: Record<string, unknown> = {}) =>
    post('/api/query/formula-check', { columnFormula, datasourceId: w.warehouseId, ...extra });
  const preview = async (columnFormula: string, params?: Record<string, unknown>, viewDataType: 'NUMBER' | 'STRING' = 'NUMBER', datasourceId?: number) => {
    const res = await post('/api/query/preview', {
      datasourceId: datasourceId ?? w.warehouseId,
      model: withFormula(columnFormula, viewDataType),
      request: detail,
      ...(params ? { params } : {}),
    });
    expect(res.status, res.raw.body).toBe(200);
    return res.body.data.dataList as Row[];
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    admin = w.admin;
    const type = await post('/api/global-param/types', { typeName: '公式参数' });
    expect(type.status, type.raw.body).toBe(200);
    for (const [paramKey, paramColumnType] of [
      ['rate', 'NUMBER'],
      ['prov', 'STRING'],
    ] as const) {
      const res = await post('/api/global-param/params', { typeId: type.body.data.id, paramName: paramKey, paramKey, paramColumnType });
      expect(res.status, res.raw.body).toBe(200);
    }
  }, 120_000);
  afterAll(() => w?.close());

  it('checks that every referenced key is a global parameter, with the position; parameters count as constants', async () => {
    const unknown = await check("[金额] * ${rate} + IF([省份] = '${city}', 1, 0)");
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('公式使用的全局参数【city】不存在');
    expect(unknown.body.data).toMatchObject({ kind: 'formula', position: 27, field: null });
    const bare = await check('${Rate} * 2');
    expect(bare.body).toMatchObject({ code: 400, msg: '公式使用的全局参数【Rate】不存在', data: { position: 0 } });

    const stray = await check('[金额] * $rate');
    expect(stray.status).toBe(400);
    expect(stray.body.msg).toBe('公式第8个字符处有误：无法识别的字符“$”，全局参数请写成${参数key}');
    expect(stray.body.data.position).toBe(7);

    const has = async (formula: string, extra: Record<string, unknown> = {}) => {
      const res = await check(formula, extra);
      expect(res.status, `${formula}: ${res.raw.body}`).toBe(200);
      return res.body.data.hasAggregation as boolean;
    };
    expect(await has('[金额] * ${rate}')).toBe(false);
    expect(await has("IF([省份] = '${prov}', [金额], 0)")).toBe(false);
    expect(await has('SUM([金额]) * ${rate}')).toBe(true);
    const fields = withFormula('1').fields;
    expect(await has('SUM([金额]) * ${rate}', { fields })).toBe(true);
    expect(await has("IF([省份] = '${prov}', [金额] * ${rate}, 0)", { fields })).toBe(false);
    // A string that holds a reference among other text is a plain string.
    expect(await has("CONCAT([省份], 'abc ${city}')", { fields })).toBe(false);
  });

  it('previews formulas with the request’s parameter values, bound; without a value NULL', async () => {
    const plain = await preview('[金额]');
    expect(plain.length).toBe(20);

    const doubled = await preview('[金额] * ${rate}', { rate: 2 });
    doubled.forEach((row, i) => {
      expect(row.d0).toEqual(plain[i]!.d0);
      expect(Number(row.d3)).toBeCloseTo(Number(plain[i]!.d2) * 2, 6);
    });
    const halved = await preview('[金额] * ${rate}', { rate: [0.5, 9] });
    expect(Number(halved[0]!.d3)).toBeCloseTo(Number(plain[0]!.d2) / 2, 6);

    const province = plain[0]!.d1 as string;
    const flagged = await preview("IF([省份] = '${prov}', 1, 0)", { prov: province });
    expect(flagged.map((r) => Number(r.d3))).toEqual(plain.map((r) => (r.d1 === province ? 1 : 0)));
    expect(flagged.some((r) => Number(r.d3) === 0)).toBe(true);
    const cased = await preview("CASE WHEN [省份] = '${prov}' THEN '本省' ELSE '外省' END", { prov: province }, 'STRING');
    expect(cased.map((r) => r.d3)).toEqual(plain.map((r) => (r.d1 === province ? '本省' : '外省')));
    // A hostile value is a value.
    const hostile = await preview("IF([省份] = '${prov}', 1, 0)", { prov: "x' OR '1'='1" });
    expect(hostile.every((r) => Number(r.d3) === 0)).toBe(true);

    for (const params of [undefined, {}, { rate: null }, { rate: [] }]) {
      const missing = await preview('[金额] * ${rate} + 1', params);
      expect(missing.map((r) => r.d3)).toEqual(plain.map(() => null));
    }
    const standalone = await preview("CONCAT('${prov}', '-', TO_STRING(${rate}))", { prov: '广东', rate: 3 }, 'STRING');
    expect(standalone[0]!.d3).toMatch(/^广东-3(\.0)?$/);
    const unset = await preview("IFNULL('${prov}', '未设置')", {}, 'STRING');
    expect(unset[0]!.d3).toBe('未设置');

    // A text value where a number is needed: refused like a string literal would be.
    const typed = await post('/api/query/preview', {
      datasourceId: w.warehouseId,
      model: withFormula('[金额] * ${rate}'),
      request: detail,
      params: { rate: 'abc' },
    });
    expect(typed.status).toBe(400);
    expect(typed.body.data).toMatchObject({ kind: 'formula', position: 5, field: '公式' });
  });

  it('gives a saved dataset’s preview params to formulas as well as to the global filter', async () => {
    const workspaceId = await w.category('公式参数');
    const payload = ordersDataset(workspaceId, w.warehouseId, '公式参数明细');
    const filterJson = {
      relation: 'AND',
      conditions: [{ cubeColumnId: 'province', conditions: [{ function: 'in', values: [], useParam: true, paramKey: 'prov' }] }],
    };
    const saved = await w.save(admin, {
      ...payload,
      cubeData: { ...payload.cubeData, filterJson },
      columnList: [
        ...payload.columnList,
        { id: 'scaled', columnAttr: 'VIRTUAL', columnTitle: '加权金额', columnFormula: '{amount} * ${rate}', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
        { id: 'flag', columnAttr: 'VIRTUAL', columnTitle: '本省', columnFormula: "IF([省份] = '${prov}', '是', '否')", viewDataType: 'STRING' },
      ],
    });
    expect(saved.status, saved.raw.body).toBe(200);
    const cubeId = saved.body.data as number;
    const ids = await fieldIds(w.server, admin, cubeId);
    const request = {
      detail: true,
      dimensions: [{ fieldId: ids['订单编号'] }, { fieldId: ids['省份'] }, { fieldId: ids['金额'] }, { fieldId: ids['加权金额'] }, { fieldId: ids['本省'] }],
      sort: [{ fieldId: ids['订单编号'] }],
      limit: 10,
    };
    const read = async (params?: Record<string, unknown>) => {
      const res = await w.preview(admin, cubeId, request, params);
      expect(res.status, res.raw.body).toBe(200);
      return res.body.data.dataList as Row[];
    };

    const all = await read();
    expect(all.length).toBe(10);
    expect(all.every((r) => r.d3 === null && r.d4 === '否')).toBe(true);
    const province = all[0]!.d1 as string;

    const rows = await read({ rate: 3, prov: province });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.d1).toBe(province); // the global filter
      expect(Number(row.d3)).toBeCloseTo(Number(row.d2) * 3, 6);
      expect(row.d4).toBe('是');
    }
    const [count] = await w.direct(`SELECT COUNT(*) AS n FROM orders WHERE province = '${province.replace(/'/g, "''")}'`);
    const total = await w.preview(admin, cubeId, { measures: [{ fieldId: ids['订单编号'], aggregation: 'COUNT' }] }, { rate: 3, prov: province });
    expect(total.body.data.dataList[0].m0).toBe(count!.n);
  });

  describe.runIf(withPostgres)('on a PostgreSQL data source', () => {
    const schema = `shutu_fparams_${randomBytes(4).toString('hex')}`;
    const pgClient = () => new pg.Client({ connectionString: PG_URL });
    let sourceId: number;

    beforeAll(async () => {
      const c = pgClient();
      await c.connect();
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.query(`CREATE TABLE ${schema}.orders (order_id integer, province text, amount integer)`);
      await c.query(`INSERT INTO ${schema}.orders VALUES (1, '广东', 10), (2, '浙江', 7), (3, NULL, 4)`);
      await c.end();
      const url = new URL(PG_URL);
      const res = await post('/api/datasource', {
        dsDb: `公式参数${randomBytes(4).toString('hex')}`,
        type: 'postgres',
        host: url.hostname,
        port: Number(url.port || 5432),
        database: url.pathname.slice(1),
        username: url.username,
      });
      expect(res.status, res.raw.body).toBe(200);
      sourceId = res.body.data.id;
    });
    afterAll(async () => {
      const c = pgClient();
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });

    it('binds a fractional number next to an integer column, a number standing alone, and text', async () => {
      const run = async (columnFormula: string, params: Record<string, unknown>, viewDataType: 'NUMBER' | 'STRING' = 'NUMBER') => {
        const model = withFormula(columnFormula, viewDataType);
        const res = await post('/api/query/preview', {
          datasourceId: sourceId,
          model: { ...model, tables: [{ tableName: 'orders', tableAliasName: 'o', schema }] },
          request: detail,
          params,
        });
        expect(res.status, res.raw.body).toBe(200);
        return (res.body.data.dataList as Row[]).map((r) => r.d3);
      };
      expect(await run('[金额] * ${rate}', { rate: 1.5 })).toEqual([15, 10.5, 6]);
      expect(await run('${rate} + ${rate}', { rate: 2 })).toEqual([4, 4, 4]);
      expect(await run('[金额] * ${rate}', {})).toEqual([null, null, null]);
      expect(await run("IF([省份] = '${prov}', '是', '否')", { prov: '浙江' }, 'STRING')).toEqual(['否', '是', '否']);
      expect(await run("CONCAT('${prov}', '省')", {}, 'STRING')).toEqual([null, null, null]);
    });
  });
});
