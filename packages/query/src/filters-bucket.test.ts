import { describe, expect, it } from 'vitest';
import { compileCubeQuery } from './index.ts';
import { describeSqlCases, where } from './testing/expect-sql.ts';
import { NOW, singleTableModel } from './testing/fixtures.ts';

// A clicked time bucket (a link from a time-grouped chart) filters the whole bucket [start, end),
// and a time axis is ordered by time. 2024-02-12 and 2024-02-26 are Mondays.
const MONTH_AND_WEEKS = [
  '2024-02-01 00:00:00',
  '2024-03-01 00:00:00',
  '2024-02-12 00:00:00',
  '2024-02-19 00:00:00',
  '2024-02-26 00:00:00',
  '2024-03-04 00:00:00',
];
const OTHER_UNITS = [
  '2024-04-01 00:00:00',
  '2024-07-01 00:00:00',
  '2023-01-01 00:00:00',
  '2024-01-01 00:00:00',
  '2024-02-29 00:00:00',
  '2024-03-01 00:00:00',
  '2024-12-31 23:00:00',
  '2025-01-01 00:00:00',
];

describeSqlCases([
  {
    name: 'a month bucket and two week buckets (weeks from Monday)',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 4, aggregation: 'SUM' }],
      where: {
        relation: 'AND',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2024-02-01T00:00:00'], granularity: 'MONTH' }] },
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2024-02-12T00:00:00', '2024-02-28T10:00:00'], granularity: 'WEEK' }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP) AND (("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP))) GROUP BY 1',
        MONTH_AND_WEEKS,
      ],
      postgres: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP) AND (("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP))) GROUP BY 1',
        MONTH_AND_WEEKS,
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME) AND ((`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME))) GROUP BY 1',
        MONTH_AND_WEEKS,
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`order_time` >= toDateTime('2024-02-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-01 00:00:00') AND ((`o`.`order_time` >= toDateTime('2024-02-12 00:00:00') AND `o`.`order_time` < toDateTime('2024-02-19 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-02-26 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-04 00:00:00'))) GROUP BY `o`.`province`",
      ],
    },
  },
  {
    name: 'quarter, year, day (29 February) and hour buckets, from values inside them',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2024-05-17 13:45:00'], granularity: 'QUARTER' }] },
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2023-01-01T00:00:00'], granularity: 'year' }] },
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2024-02-29T00:00:00'], granularity: 'DAY' }] },
          { cubeColumnId: 5, conditions: [{ function: 'in', values: ['2024-12-31T23:00:00'], granularity: 'HOUR' }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($7 AS TIMESTAMP) AND "o"."order_time" < CAST($8 AS TIMESTAMP))',
        OTHER_UNITS,
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($7 AS TIMESTAMP) AND "o"."order_time" < CAST($8 AS TIMESTAMP))',
        OTHER_UNITS,
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME))',
        OTHER_UNITS,
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= toDateTime('2024-04-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-07-01 00:00:00')) OR (`o`.`order_time` >= toDateTime('2023-01-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-01-01 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-02-29 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-01 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-12-31 23:00:00') AND `o`.`order_time` < toDateTime('2025-01-01 00:00:00'))",
      ],
    },
  },
  {
    name: 'a time axis by month, ordered by time (empty month last)',
    request: {
      dimensions: [{ fieldId: 5, granularity: 'MONTH' }],
      measures: [{ fieldId: 4, aggregation: 'SUM' }],
      sort: [{ fieldId: 5, direction: 'ASC' }],
    },
    expected: {
      duckdb: [
        `SELECT DATE_TRUNC('month', "days"."d0") AS "d0", SUM("days"."p0") AS "m0" FROM (SELECT DATE_TRUNC('day', "o"."order_time") AS "d0", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1) AS "days" GROUP BY 1 ORDER BY "d0" ASC NULLS LAST`,
      ],
      postgres: [
        `SELECT DATE_TRUNC('month', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 ORDER BY "d0" ASC NULLS LAST`,
      ],
      mysql: [
        "SELECT CAST(DATE_FORMAT(`o`.`order_time`, '%Y-%m-01') AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1 ORDER BY `d0` IS NULL, `d0` ASC",
      ],
      clickhouse: [
        'SELECT toDateTime(toStartOfMonth(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfMonth(`o`.`order_time`)) ORDER BY `d0` ASC NULLS LAST',
      ],
    },
  },
]);

describe('bucket conditions refuse what is not a time bucket', () => {
  const compile = (fieldId: number, values: string[]) =>
    compileCubeQuery(
      singleTableModel,
      { detail: true, dimensions: [{ fieldId: 1 }], where: where(fieldId, 'in', values, { granularity: 'MONTH' }) },
      { dialect: 'duckdb', now: NOW },
    );

  it('a field that is not a date', () => {
    expect(() => compile(1, ['2024-02-01'])).toThrow('过滤条件【省份】不是日期，不能按时间粒度筛选');
  });

  it('a value that is not a date', () => {
    expect(() => compile(5, ['2024-02-30T00:00:00'])).toThrow('过滤条件【下单时间】的日期格式不正确');
  });
});
