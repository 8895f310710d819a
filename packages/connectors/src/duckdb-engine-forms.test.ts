import type { CubeModelInput, CubeQueryRequest } from '@shutu/contracts';
import { compileCubeQuery, groupPlans, planCubeQuery, renderQuery, type GroupedStatement } from '@shutu/query';
import { DuckDBInstance } from '@duckdb/node-api';
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

  it('shares one grouping by day among the time axes of one column, each chart answered as its own statement does', async () => {
    const where: CubeQueryRequest['where'] = { conditions: [{ cubeColumnId: 4, conditions: [{ function: 'gt', values: [5] }] }] };
    const byKind = (
      fieldId: number,
      granularity: 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'YEAR',
      measures: CubeQueryRequest['measures'],
      limit = 1000,
    ): CubeQueryRequest => ({
      dimensions: [{ fieldId, granularity }, { fieldId: 3 }],
      measures,
      where,
      sort: [{ fieldId, direction: 'DESC' }, { fieldId: 3 }],
      limit,
    });
    const REQUESTS: CubeQueryRequest[] = [
      byKind(1, 'DAY', [{ fieldId: 4, aggregation: 'COUNT' }]),
      byKind(1, 'WEEK', [{ fieldId: 4, aggregation: 'SUM' }]),
      byKind(1, 'MONTH', [
        { fieldId: 4, aggregation: 'AVG' },
        { fieldId: 4, aggregation: 'MAX' },
      ]),
      byKind(1, 'QUARTER', [{ fieldId: 4, aggregation: 'MIN' }], 3),
      // Another column's axis and an hour axis do not join the first group.
      byKind(2, 'YEAR', [{ fieldId: 4, aggregation: 'SUM' }]),
      byKind(2, 'MONTH', [{ fieldId: 4, aggregation: 'COUNT' }]),
      { dimensions: [{ fieldId: 1, granularity: 'HOUR' }], measures: [{ fieldId: 4, aggregation: 'SUM' }], where, limit: 100 },
      // By month with no other dimension joins it: it sums the shared days over the kinds.
      { dimensions: [{ fieldId: 1, granularity: 'MONTH' }], measures: [{ fieldId: 4, aggregation: 'SUM' }], where, sort: [{ fieldId: 1 }], limit: 100 },
    ];
    const plans = REQUESTS.map((r) => planCubeQuery(timeModel, r, options));
    const { groups, alone } = groupPlans(plans, { distinctOnly: true });
    expect(groups.map((g) => g.members)).toEqual([
      [0, 1, 2, 3, 7],
      [4, 5],
    ]);
    expect(alone).toEqual([6]);
    for (const group of groups) {
      // The rows are read once, by the shared grouping by day.
      expect(group.sql.match(/range\(20000\)/g)).toHaveLength(1);
      expect(group.sql).toContain(`WITH "days" AS MATERIALIZED (SELECT DATE_TRUNC('day',`);
      expect(group.params).toEqual([5]);
      const split = group.split((await collect(driver.query(group.sql, group.params))).rows);
      for (const [m, i] of group.members.entries()) {
        const own = compileCubeQuery(timeModel, REQUESTS[i]!, options);
        const rows = (await collect(driver.query(own.sql, own.params))).rows;
        expect(rows.length, `chart ${i}`).toBeGreaterThan(1);
        const rounded = (list: Row[]) =>
          list.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) : v])));
        expect(rounded(split[m]!), `chart ${i}`).toEqual(rounded(rows));
      }
    }
    expect(groups[0]!.split([]).map((rows) => rows.length)).toEqual([0, 0, 0, 0, 0]);
  });

  it("binds a formula's value outside its aggregate in the shared statement, as the chart's own statement does", async () => {
    const weighted = {
      ...timeModel,
      fields: [
        ...timeModel.fields,
        { id: 99, columnAttr: 'VIRTUAL' as const, columnTitle: '加权金额', columnFormula: 'SUM([金额]) * ${rate}', viewDataType: 'NUMBER' as const },
      ],
    };
    const withParams = { ...options, params: { rate: 1.5 } };
    const where: CubeQueryRequest['where'] = { conditions: [{ cubeColumnId: 4, conditions: [{ function: 'gt', values: [5] }] }] };
    const requests: CubeQueryRequest[] = [
      { dimensions: [{ fieldId: 1, granularity: 'MONTH' }], measures: [{ fieldId: 99 }], where, sort: [{ fieldId: 1 }], limit: 100 },
      { dimensions: [{ fieldId: 1, granularity: 'DAY' }], measures: [{ fieldId: 4, aggregation: 'SUM' }], where, sort: [{ fieldId: 1 }], limit: 100 },
    ];
    const [group] = groupPlans(
      requests.map((r) => planCubeQuery(weighted, r, withParams)),
      { distinctOnly: true },
    ).groups;
    expect(group!.params).toEqual([5, 1.5]);
    const split = group!.split((await collect(driver.query(group!.sql, group!.params))).rows);
    for (const [i, request] of requests.entries()) {
      const own = compileCubeQuery(weighted, request, withParams);
      const rows = (await collect(driver.query(own.sql, own.params))).rows;
      expect(rows.length).toBeGreaterThan(1);
      expect(split[i]!.map((r) => ({ ...r, m0: Math.round(Number(r.m0) * 1e6) }))).toEqual(rows.map((r) => ({ ...r, m0: Math.round(Number(r.m0) * 1e6) })));
    }
  });
});

/**
 * Exact distinct counts answered in the board's grouped statement through per-phone bit masks
 * (packages/query/src/grouped-distinct.ts): each chart's rows as its own statement gives them —
 * a count over all rows, per a group of 7 (one whose phones are all NULL), per a dimension with
 * NULL values, per one of 100 values (more than a mask's 64 bits: COUNT DISTINCT in the same
 * statement) — with a bound filter in the shared WHERE.
 */
describe('exact distinct counts through bit masks on DuckDB', () => {
  const ROWS = `SELECT grp, CASE WHEN amount < 20 THEN NULL ELSE grp || '-' || CAST(CAST(amount AS INTEGER) % 3 AS VARCHAR) END AS sub,
    'v' || CAST(CAST(amount * 10 AS INTEGER) % 100 AS VARCHAR) AS many, phone, amount,
    'f' || CAST(CAST(amount * 10 AS INTEGER) % 40 AS VARCHAR) AS forty, 't' || CAST(CAST(amount * 10 AS INTEGER) % 30 AS VARCHAR) AS thirty FROM (${GENERATED})`;
  const masksModel = tableModel('masked', [
    ['grp', '组', 'STRING'],
    ['sub', '子组', 'STRING'],
    ['many', '百值', 'STRING'],
    ['phone', '手机号', 'STRING'],
    ['amount', '金额', 'NUMBER'],
    ['forty', '四十值', 'STRING'],
    ['thirty', '三十值', 'STRING'],
  ]);
  const options = { dialect: 'duckdb' as const, now: new Date(), derivedTables: new Map([['masked', ROWS]]) };
  const where: CubeQueryRequest['where'] = { conditions: [{ cubeColumnId: 5, conditions: [{ function: 'gt', values: [1] }] }] };
  const distinct = { fieldId: 4, aggregation: 'COUNT_DISTINCT' as const };
  const REQUESTS: CubeQueryRequest[] = [
    { measures: [distinct], where, limit: 10 },
    { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 5 }, distinct], where, sort: [{ ...distinct, direction: 'DESC' }, { fieldId: 1 }], limit: 100 },
    { dimensions: [{ fieldId: 2 }], measures: [distinct], where, sort: [{ fieldId: 2 }], limit: 100 },
    { dimensions: [{ fieldId: 3 }], measures: [distinct, { fieldId: 5, aggregation: 'COUNT' }], where, sort: [{ fieldId: 3 }], limit: 1000 },
    { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 5, aggregation: 'MAX' }], where, sort: [{ fieldId: 1 }], limit: 100 },
  ];

  /** Runs the group's statement; each chart's rows must equal its own statement's. */
  async function expectSameAsAlone(requests: CubeQueryRequest[], grouped: GroupedStatement) {
    const split = grouped.split((await collect(driver.query(grouped.sql, grouped.params))).rows);
    for (const [i, request] of requests.entries()) {
      const own = compileCubeQuery(masksModel, request, options);
      const rows = (await collect(driver.query(own.sql, own.params))).rows;
      expect(rows.length, `chart ${i}`).toBeGreaterThan(0);
      expect(split[i], `chart ${i}`).toEqual(rows);
    }
    return split;
  }
  /** Whether the statement's dimensions share one mask word: its CTEs, then the size check's answer. */
  async function packedIn(grouped: GroupedStatement): Promise<boolean> {
    const ctes = grouped.sql.slice(0, grouped.sql.indexOf(' SELECT * FROM ((SELECT'));
    const rows = (await collect(driver.query(`${ctes} SELECT "packed" FROM "sz"`, grouped.params))).rows;
    return rows[0]!.packed === true;
  }

  it('answers every chart as its own statement does, in one statement with one aggregation by the phone', async () => {
    const plans = REQUESTS.map((r) => planCubeQuery(masksModel, r, options));
    const { groups, alone } = groupPlans(plans);
    expect(alone).toEqual([]);
    expect(groups.map((g) => g.members)).toEqual([[0, 1, 2, 3, 4]]);
    const grouped = groups[0]!;
    // Two forms of the aggregation by phone (one word per dimension, or one shared word); one of them runs.
    expect(grouped.sql.match(/GROUP BY "r"\."x"/g)).toHaveLength(2);
    expect(grouped.params).toEqual([1, 1]);
    // 7 + 22 + 100 values: more than one word holds, so each dimension has its own (the 100 by COUNT DISTINCT).
    expect(await packedIn(grouped)).toBe(false);
    const split = await expectSameAsAlone(REQUESTS, grouped);
    // The groups as generated: G's phones are all NULL (0), the sub-groups include NULL, 100 values of `many`.
    expect(split[1]!.find((r) => r.d0 === 'G')).toMatchObject({ m1: 0 });
    expect(split[2]!.some((r) => r.d0 === null)).toBe(true);
    expect(split[3]).toHaveLength(100);
  });

  it('shares one mask word between dimensions whose values fit in 64 bits together, and not otherwise', async () => {
    const per = (fieldId: number): CubeQueryRequest => ({ dimensions: [{ fieldId }], measures: [distinct], where, sort: [{ fieldId }], limit: 100 });
    // 组 (7 values) and 子组 (22 with NULL), with the whole count: one word, bits of 子组 after 组's.
    const fitting = [REQUESTS[0]!, per(1), per(2)];
    const packed = groupPlans(fitting.map((r) => planCubeQuery(masksModel, r, options))).groups[0]!;
    expect(packed.members).toEqual([0, 1, 2]);
    expect(await packedIn(packed)).toBe(true);
    const split = await expectSameAsAlone(fitting, packed);
    expect(split[1]!.find((r) => r.d0 === 'G')).toMatchObject({ m0: 0 });
    expect(split[2]!.some((r) => r.d0 === null)).toBe(true);
    // 40 and 30 values, each within a word but 70 together: a word each.
    const wide = [per(6), per(7), REQUESTS[0]!];
    const apart = groupPlans(wide.map((r) => planCubeQuery(masksModel, r, options))).groups[0]!;
    expect(await packedIn(apart)).toBe(false);
    const wideSplit = await expectSameAsAlone(wide, apart);
    expect(wideSplit.map((rows) => rows.length)).toEqual([40, 30, 1]);
  });

  it('shares the grouping of the widest chart among charts whose dimensions it holds, NULL values and limits as each statement gives them', async () => {
    const measure = (aggregation: 'SUM' | 'COUNT' | 'AVG' | 'MIN' | 'MAX') => ({ fieldId: 5, aggregation });
    const requests: CubeQueryRequest[] = [
      { dimensions: [{ fieldId: 1 }, { fieldId: 2 }], measures: [measure('SUM')], where, sort: [{ fieldId: 1 }, { fieldId: 2 }], limit: 1000 },
      { dimensions: [{ fieldId: 1 }], measures: [measure('AVG'), measure('MAX')], where, sort: [{ fieldId: 1 }], limit: 100 },
      // 子组 has NULL values; sorted by its count, the first five.
      {
        dimensions: [{ fieldId: 2 }],
        measures: [measure('COUNT'), measure('MIN')],
        where,
        sort: [{ ...measure('COUNT'), direction: 'DESC' }, { fieldId: 2 }],
        limit: 5,
      },
      // 百值 is not among the widest chart's dimensions: its own statement.
      { dimensions: [{ fieldId: 3 }], measures: [measure('SUM')], where, sort: [{ fieldId: 3 }], limit: 1000 },
    ];
    const { groups, alone } = groupPlans(
      requests.map((r) => planCubeQuery(masksModel, r, options)),
      { distinctOnly: true },
    );
    expect(groups.map((g) => g.members)).toEqual([[0, 1, 2]]);
    expect(alone).toEqual([3]);
    const group = groups[0]!;
    expect(group.sql).toContain('WITH "keys" AS MATERIALIZED (');
    const split = group.split((await collect(driver.query(group.sql, group.params))).rows);
    const rounded = (list: Row[]) =>
      list.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) : v])));
    for (const [m, i] of group.members.entries()) {
      const own = compileCubeQuery(masksModel, requests[i]!, options);
      const rows = (await collect(driver.query(own.sql, own.params))).rows;
      expect(rows.length, `chart ${i}`).toBeGreaterThan(1);
      expect(rounded(split[m]!), `chart ${i}`).toEqual(rounded(rows));
    }
    expect(split[1]!.map((r) => r.d0)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect(split[2]).toHaveLength(5);
  });

  it('keeps the masks in 64 bits: no step of the plan widens them to HUGEINT', async () => {
    // A shift of UBIGINT by an INTEGER column runs in HUGEINT (DuckDB's common type of the two):
    // the masks, their BIT_OR and the counting of their bytes then took 1.7 times as long at 10M.
    const grouped = groupPlans(REQUESTS.map((r) => planCubeQuery(masksModel, r, options))).groups[0]!;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const explain = await connection.prepare(`EXPLAIN ${grouped.sql}`);
      explain.bind(grouped.params as never);
      const plan = (await explain.runAndReadAll())
        .getRows()
        .map((row) => String(row[1]))
        .join('\n');
      expect(plan).toContain('bit_or');
      expect(plan).not.toMatch(/HUGEINT/i);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('leaves a single distinct chart, and one counting another column, to their own statements', async () => {
    const other: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }], where, limit: 100 };
    const sums: CubeQueryRequest = { dimensions: [{ fieldId: 2 }], measures: [{ fieldId: 5 }], where, limit: 100 };
    const plans = [REQUESTS[1]!, REQUESTS[4]!, other, sums].map((r) => planCubeQuery(masksModel, r, options));
    const { groups, alone } = groupPlans(plans);
    expect(alone).toEqual([0, 2]);
    expect(groups.map((g) => g.members)).toEqual([[1, 3]]);
    expect(groups[0]!.sql).not.toContain('BIT_OR');
  });
});
