import type { CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery } from './index.ts';
import { describeSqlCases, where } from './testing/expect-sql.ts';
import { singleTableModel } from './testing/fixtures.ts';

// Relative time, nested groups and having. `now` is 2024-03-15 10:30 in UTC+8 (a Friday).
describeSqlCases([
  {
    name: 'relative: yesterday, the last 7 days, from 3 to 1 months ago',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'eq', values: [1], timeType: 'relative', countType: 'left' }] },
          { cubeColumnId: 5, conditions: [{ function: 'between', values: [7], timeType: 'relative', dateType: 'DAY' }] },
          { cubeColumnId: 5, dateType: 'MONTH', conditions: [{ function: 'between', values: [3, 1], timeType: 'relative' }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP))',
        ['2024-03-14 00:00:00', '2024-03-15 00:00:00', '2024-03-09 00:00:00', '2024-03-16 00:00:00', '2023-12-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($5 AS TIMESTAMP) AND "o"."order_time" < CAST($6 AS TIMESTAMP))',
        ['2024-03-14 00:00:00', '2024-03-15 00:00:00', '2024-03-09 00:00:00', '2024-03-16 00:00:00', '2023-12-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME))',
        ['2024-03-14 00:00:00', '2024-03-15 00:00:00', '2024-03-09 00:00:00', '2024-03-16 00:00:00', '2023-12-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= toDateTime('2024-03-14 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-15 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-03-09 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-16 00:00:00')) OR (`o`.`order_time` >= toDateTime('2023-12-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-01 00:00:00'))",
      ],
    },
  },
  {
    name: 'relative: weeks ahead, this quarter, last year, hours',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'ge', values: [1], timeType: 'relative', countType: 'right', dateType: 'week' }] },
          { cubeColumnId: 5, conditions: [{ function: 'eq', values: [0], timeType: 'relative', dateType: 'QUARTER' }] },
          { cubeColumnId: 5, conditions: [{ function: 'eq', values: ['1'], timeType: 'relative', dateType: 'YEAR' }] },
          { cubeColumnId: 5, conditions: [{ function: 'lt', values: [2], timeType: 'relative', dateType: 'HOUR' }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."order_time" >= CAST($1 AS TIMESTAMP) OR ("o"."order_time" >= CAST($2 AS TIMESTAMP) AND "o"."order_time" < CAST($3 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($4 AS TIMESTAMP) AND "o"."order_time" < CAST($5 AS TIMESTAMP)) OR "o"."order_time" < CAST($6 AS TIMESTAMP)',
        ['2024-03-18 00:00:00', '2024-01-01 00:00:00', '2024-04-01 00:00:00', '2023-01-01 00:00:00', '2024-01-01 00:00:00', '2024-03-15 08:00:00'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."order_time" >= CAST($1 AS TIMESTAMP) OR ("o"."order_time" >= CAST($2 AS TIMESTAMP) AND "o"."order_time" < CAST($3 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($4 AS TIMESTAMP) AND "o"."order_time" < CAST($5 AS TIMESTAMP)) OR "o"."order_time" < CAST($6 AS TIMESTAMP)',
        ['2024-03-18 00:00:00', '2024-01-01 00:00:00', '2024-04-01 00:00:00', '2023-01-01 00:00:00', '2024-01-01 00:00:00', '2024-03-15 08:00:00'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`order_time` >= CAST(? AS DATETIME) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR `o`.`order_time` < CAST(? AS DATETIME)',
        ['2024-03-18 00:00:00', '2024-01-01 00:00:00', '2024-04-01 00:00:00', '2023-01-01 00:00:00', '2024-01-01 00:00:00', '2024-03-15 08:00:00'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`order_time` >= toDateTime('2024-03-18 00:00:00') OR (`o`.`order_time` >= toDateTime('2024-01-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-04-01 00:00:00')) OR (`o`.`order_time` >= toDateTime('2023-01-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-01-01 00:00:00')) OR `o`.`order_time` < toDateTime('2024-03-15 08:00:00')",
      ],
    },
  },
  {
    name: 'groups: AND of items and a nested OR group; an item joining its conditions with or',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'AND',
        conditions: [{ cubeColumnId: 1, connectType: 'or', conditions: [{ function: 'eq', values: ['上海'] }, { function: 'isnull' }] }],
        filters: [
          {
            relation: 'OR',
            conditions: [
              { cubeColumnId: 2, conditions: [{ function: 'eq', values: ['app'] }] },
              { cubeColumnId: 4, conditions: [{ function: 'gt', values: [100] }] },
            ],
          },
          { relation: 'AND', conditions: [] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."province" = $1 OR "o"."province" IS NULL) AND ("o"."channel" = $2 OR "o"."amount" > $3)',
        ['上海', 'app', 100],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."province" = $1 OR "o"."province" IS NULL) AND ("o"."channel" = $2 OR "o"."amount" > $3)',
        ['上海', 'app', 100],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`province` = ? OR `o`.`province` IS NULL) AND (`o`.`channel` = ? OR `o`.`amount` > ?)',
        ['上海', 'app', 100],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`province` = '上海' OR `o`.`province` IS NULL) AND (`o`.`channel` = 'app' OR `o`.`amount` > 100)",
      ],
    },
  },
  {
    name: 'having: default and explicit aggregation, an aggregate formula',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 4 }],
      having: {
        relation: 'AND',
        conditions: [
          { cubeColumnId: 4, conditions: [{ function: 'gt', values: [100] }] },
          { cubeColumnId: 3, aggregation: 'COUNT_DISTINCT', conditions: [{ function: 'ge', values: [2] }] },
          { cubeColumnId: 9, conditions: [{ function: 'between', values: [10, 50] }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $1 AND COUNT(DISTINCT "o"."user_phone") >= $2 AND (SUM("o"."amount") / NULLIF(COUNT(DISTINCT "o"."user_phone"), 0)) BETWEEN $3 AND $4',
        [100, 2, 10, 50],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $1 AND COUNT(DISTINCT "o"."user_phone") >= $2 AND (CAST(SUM("o"."amount") AS DOUBLE PRECISION) / NULLIF(COUNT(DISTINCT "o"."user_phone"), 0)) BETWEEN $3 AND $4',
        [100, 2, 10, 50],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1 HAVING SUM(`o`.`amount`) > ? AND COUNT(DISTINCT `o`.`user_phone`) >= ? AND (SUM(`o`.`amount`) / NULLIF(COUNT(DISTINCT `o`.`user_phone`), 0)) BETWEEN ? AND ?',
        [100, 2, 10, 50],
      ],
      clickhouse: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`province` HAVING SUM(`o`.`amount`) > 100 AND uniqExact(`o`.`user_phone`) >= 2 AND (toFloat64(SUM(`o`.`amount`)) / nullIf(toFloat64(uniqExact(`o`.`user_phone`)), 0)) BETWEEN 10 AND 50',
      ],
    },
  },
  {
    name: 'having on MAX of a date',
    request: {
      dimensions: [{ fieldId: 3 }],
      having: { conditions: [{ cubeColumnId: 5, aggregation: 'MAX', conditions: [{ function: 'lt', values: [30], timeType: 'relative' }] }] },
    },
    expected: {
      duckdb: [
        'SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" GROUP BY 1 HAVING MAX("o"."order_time") < CAST($1 AS TIMESTAMP)',
        ['2024-02-14 00:00:00'],
      ],
      postgres: [
        'SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" GROUP BY 1 HAVING MAX("o"."order_time") < CAST($1 AS TIMESTAMP)',
        ['2024-02-14 00:00:00'],
      ],
      mysql: ['SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` GROUP BY 1 HAVING MAX(`o`.`order_time`) < CAST(? AS DATETIME)', ['2024-02-14 00:00:00']],
      clickhouse: [
        "SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING MAX(`o`.`order_time`) < toDateTime('2024-02-14 00:00:00')",
      ],
    },
  },
  {
    name: 'empty trees add nothing',
    request: { dimensions: [{ fieldId: 1 }], where: { relation: 'OR', conditions: [], filters: [{ relation: 'AND' }] }, having: {} },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" GROUP BY 1'],
      postgres: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` GROUP BY 1'],
      clickhouse: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` GROUP BY `o`.`province`'],
    },
  },
]);

describe('time zone', () => {
  it("counts relative days on the users' wall clock", () => {
    const late = new Date('2024-03-15T17:30:00Z'); // 01:30 on the 16th in UTC+8
    const request: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], where: where(5, 'eq', [0], { timeType: 'relative' }) };
    expect(compileCubeQuery(singleTableModel, request, { dialect: 'postgres', now: late }).params).toEqual(['2024-03-16 00:00:00', '2024-03-17 00:00:00']);
    expect(compileCubeQuery(singleTableModel, request, { dialect: 'postgres', now: late, timeZoneOffsetMinutes: 0 }).params).toEqual([
      '2024-03-15 00:00:00',
      '2024-03-16 00:00:00',
    ]);
  });
});
