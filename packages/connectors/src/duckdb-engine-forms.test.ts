import type { CubeModelInput, CubeQueryRequest } from '@shutu/contracts';
import { compileCubeQuery, planCubeQuery, renderQuery } from '@shutu/query';
import { afterAll, describe, expect, it } from 'vitest';
import { openDriver } from './factory.ts';
import { collect } from './stream.ts';
import type { Row } from './types.ts';

/**
 * 近似去重计数 on DuckDB: the HyperLogLog sketch in SQL (packages/query/src/sketch.ts) against
 * the exact count of the same rows. 300,000 generated orders: groups A–E with 2,280–60,000
 * distinct phones, group F with 37, group G whose phones are all NULL.
 */
const GENERATED = `SELECT CASE WHEN i % 100 = 0 THEN 'F' WHEN i % 100 = 1 THEN 'G' ELSE chr(65 + CAST(i % 5 AS INTEGER)) END AS grp,
  CASE WHEN i % 100 = 0 THEN 'f' || CAST(i % 37 AS VARCHAR) WHEN i % 100 = 1 THEN NULL WHEN i % 5 = 4 THEN '1' || lpad(CAST(i AS VARCHAR), 10, '0')
    ELSE '1' || lpad(CAST((i * 7919) % (12000 * (1 + i % 5)) AS VARCHAR), 10, '0') END AS phone,
  CAST(i % 1000 AS DOUBLE) / 10 AS amount
  FROM range(300000) AS t(i)`;
/** A one-table cube over a derived table: fields 1, 2, … in the order given; NUMBER fields are measures. */
function tableModel(tableName: string, fields: [columnName: string, columnTitle: string, viewDataType: 'STRING' | 'NUMBER' | 'DATETIME'][]): CubeModelInput {
  return {
    tables: [{ tableName, tableAliasName: 'o' }],
    joins: [],
    fields: fields.map(([columnName, columnTitle, viewDataType], i) => ({
      id: i + 1,
      columnName,
      columnTitle,
      tableAliasName: 'o',
      viewDataType,
      ...(viewDataType === 'NUMBER' ? { dimensionType: 'ZHIBIAO' as const } : {}),
    })),
  };
}

const model = tableModel('generated', [
  ['grp', '组', 'STRING'],
  ['phone', '手机号', 'STRING'],
  ['amount', '金额', 'NUMBER'],
]);
const driver = openDriver({ type: 'duckdb' });
afterAll(() => driver.close());

async function read(request: CubeQueryRequest): Promise<Row[]> {
  const { sql, params } = compileCubeQuery(model, request, { dialect: 'duckdb', now: new Date(), derivedTables: new Map([['generated', GENERATED]]) });
  // Every approximate count here is read from the sketch, not counted exactly.
  const approximate = JSON.stringify(request).includes('APPROX_COUNT_DISTINCT');
  expect(sql.includes(') AS "sketch"') && !sql.includes('DISTINCT')).toBe(approximate);
  return (await collect(driver.query(sql, params))).rows;
}
const approx = (request: CubeQueryRequest): CubeQueryRequest => ({
  ...request,
  measures: request.measures?.map((m) => (m.aggregation === 'COUNT_DISTINCT' ? { ...m, aggregation: 'APPROX_COUNT_DISTINCT' } : m)),
});

describe('近似去重计数 on DuckDB', () => {
  it('estimates within a few percent, near exact for small counts, and leaves NULL out', async () => {
    const request: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 2, aggregation: 'COUNT_DISTINCT' }, { fieldId: 3 }, { fieldId: 3, aggregation: 'AVG' }, { fieldId: 2, aggregation: 'COUNT' }],
      sort: [{ fieldId: 1 }],
    };
    const [exact, estimated] = [await read(request), await read(approx(request))];
    expect(estimated.map((r) => r.d0)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    for (const [i, row] of exact.entries()) {
      const [truth, guess] = [Number(row.m0), Number(estimated[i]!.m0)];
      if (truth > 1_000) expect(Math.abs(guess - truth) / truth, String(row.d0)).toBeLessThan(0.06);
      else expect(Math.abs(guess - truth), String(row.d0)).toBeLessThanOrEqual(1);
      // The other measures are combined again from the sketch's partials: exact.
      expect(estimated[i]!.m1, String(row.d0)).toBeCloseTo(Number(row.m1), 2);
      expect(estimated[i]!.m2, String(row.d0)).toBeCloseTo(Number(row.m2), 9);
      expect(estimated[i]!.m3, String(row.d0)).toBe(row.m3);
    }
    expect(exact.map((r) => r.m0)).toEqual([2280, 4560, 7200, 9600, 60000, 37, 0]);
    expect(estimated.find((r) => r.d0 === 'G')!.m0).toBe(0);
  });

  it('answers 0 over no rows, as the exact count does', async () => {
    const request: CubeQueryRequest = {
      measures: [
        { fieldId: 2, aggregation: 'COUNT_DISTINCT' },
        { fieldId: 2, aggregation: 'COUNT' },
      ],
      where: { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'eq', values: ['无此组'] }] }] },
    };
    expect(await read(approx(request))).toEqual(await read(request));
    expect(await read(approx(request))).toEqual([{ m0: 0, m1: 0 }]);
  });

  it('filters, sorts and limits on the estimate', async () => {
    const request: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 2, aggregation: 'APPROX_COUNT_DISTINCT' }],
      having: { conditions: [{ cubeColumnId: 2, aggregation: 'APPROX_COUNT_DISTINCT', conditions: [{ function: 'gt', values: [100] }] }] },
      sort: [{ fieldId: 2, aggregation: 'APPROX_COUNT_DISTINCT', direction: 'DESC' }],
      limit: 3,
    };
    const rows = await read(request);
    // E, D and C hold the most distinct phones (60,000, 9,600, 7,200).
    expect(rows.map((r) => r.d0)).toEqual(['E', 'D', 'C']);
  });
});

/**
 * Time axes grouped by day first (packages/query/src/day-rollup.ts): the same rows, of the same
 * type, as the statement as written — for a TIMESTAMP and a TIMESTAMPTZ column, months that
 * start at night in the session's zone, AVG / COUNT / MAX, a HAVING and a limit.
 */
describe('time axes grouped by day on DuckDB', () => {
  const TIMES = `SELECT TIMESTAMP '2025-01-01 00:00:00' + INTERVAL (i * 7919 % 400) DAY + INTERVAL (i % 1440) MINUTE AS t,
    TIMESTAMPTZ '2025-01-01 00:00:00+08' + INTERVAL (i * 7919 % 400) DAY + INTERVAL (i % 1440) MINUTE AS tz,
    CASE WHEN i % 3 = 0 THEN '甲' ELSE '乙' END AS kind, CAST(i % 997 AS DOUBLE) / 10 AS amount
    FROM range(20000) AS t(i)`;
  const timeModel = tableModel('times', [
    ['t', '时间', 'DATETIME'],
    ['tz', '带时区时间', 'DATETIME'],
    ['kind', '类别', 'STRING'],
    ['amount', '金额', 'NUMBER'],
  ]);
  const options = { dialect: 'duckdb' as const, now: new Date(), derivedTables: new Map([['times', TIMES]]) };

  it('answers as the statement as written does, by week, month, quarter and year', async () => {
    for (const fieldId of [1, 2]) {
      for (const granularity of ['WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const) {
        const request: CubeQueryRequest = {
          dimensions: [{ fieldId, granularity }, { fieldId: 3 }],
          measures: [
            { fieldId: 4, aggregation: 'AVG' },
            { fieldId: 4, aggregation: 'COUNT' },
            { fieldId: 4, aggregation: 'MAX' },
          ],
          having: { conditions: [{ cubeColumnId: 4, aggregation: 'COUNT', conditions: [{ function: 'gt', values: [10] }] }] },
          sort: [{ fieldId, direction: 'DESC' }, { fieldId: 3 }],
          limit: 40,
        };
        const rolled = compileCubeQuery(timeModel, request, options);
        expect(rolled.sql, granularity).toContain('AS "days"');
        const plan = planCubeQuery(timeModel, request, options);
        const written = renderQuery(plan.query, plan.dialect);
        expect(written.sql).not.toContain('"days"');
        const [a, b] = [(await collect(driver.query(rolled.sql, rolled.params))).rows, (await collect(driver.query(written.sql, written.params))).rows];
        expect(a.length, `${fieldId} ${granularity}`).toBeGreaterThan(1);
        expect(
          a.map((r) => ({ ...r, m0: Math.round(Number(r.m0) * 1e6) })),
          `${fieldId} ${granularity}`,
        ).toEqual(b.map((r) => ({ ...r, m0: Math.round(Number(r.m0) * 1e6) })));
      }
    }
  });
});
