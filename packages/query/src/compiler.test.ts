import type { CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, QueryError, type QueryDialect } from './index.ts';
import { describeSqlCases, type CaseOptions } from './testing/expect-sql.ts';
import { NOW, ordersModel, singleTableModel } from './testing/fixtures.ts';

// Expected SQL per dialect, exact. PostgreSQL and MySQL forms were run on PGlite and
// MariaDB 10.11 while writing them; DuckDB and ClickHouse run with the connectors.
describeSqlCases([
  {
    name: 'group by a dimension, sum a measure',
    request: { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      postgres: ['SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: ['SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1'],
      clickhouse: ['SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`province`'],
    },
  },
  {
    name: 'every aggregation',
    request: {
      measures: [
        { fieldId: 4, aggregation: 'AVG' },
        { fieldId: 3, aggregation: 'COUNT' },
        { fieldId: 3, aggregation: 'COUNT_DISTINCT' },
        { fieldId: 5, aggregation: 'MAX' },
        { fieldId: 4, aggregation: 'MIN' },
      ],
    },
    expected: {
      duckdb: [
        'SELECT AVG("o"."amount") AS "m0", COUNT("o"."user_phone") AS "m1", COUNT(DISTINCT "o"."user_phone") AS "m2", MAX("o"."order_time") AS "m3", MIN("o"."amount") AS "m4" FROM "ods_order" AS "o"',
      ],
      postgres: [
        'SELECT AVG("o"."amount") AS "m0", COUNT("o"."user_phone") AS "m1", COUNT(DISTINCT "o"."user_phone") AS "m2", MAX("o"."order_time") AS "m3", MIN("o"."amount") AS "m4" FROM "ods_order" AS "o"',
      ],
      mysql: [
        'SELECT AVG(`o`.`amount`) AS `m0`, COUNT(`o`.`user_phone`) AS `m1`, COUNT(DISTINCT `o`.`user_phone`) AS `m2`, MAX(`o`.`order_time`) AS `m3`, MIN(`o`.`amount`) AS `m4` FROM `ods_order` AS `o`',
      ],
      clickhouse: [
        'SELECT AVG(`o`.`amount`) AS `m0`, COUNT(`o`.`user_phone`) AS `m1`, uniqExact(`o`.`user_phone`) AS `m2`, MAX(`o`.`order_time`) AS `m3`, MIN(`o`.`amount`) AS `m4` FROM `ods_order` AS `o`',
      ],
    },
  },
  {
    name: 'dimensions only: distinct combinations',
    request: { dimensions: [{ fieldId: 1 }, { fieldId: 2 }] },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0", "o"."channel" AS "d1" FROM "ods_order" AS "o" GROUP BY 1, 2'],
      postgres: ['SELECT "o"."province" AS "d0", "o"."channel" AS "d1" FROM "ods_order" AS "o" GROUP BY 1, 2'],
      mysql: ['SELECT `o`.`province` AS `d0`, `o`.`channel` AS `d1` FROM `ods_order` AS `o` GROUP BY 1, 2'],
      clickhouse: ['SELECT `o`.`province` AS `d0`, `o`.`channel` AS `d1` FROM `ods_order` AS `o` GROUP BY `o`.`province`, `o`.`channel`'],
    },
  },
  {
    name: 'detail rows with paging',
    request: { detail: true, dimensions: [{ fieldId: 1 }, { fieldId: 4 }], limit: 100, offset: 200 },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0", "o"."amount" AS "d1" FROM "ods_order" AS "o" LIMIT 100 OFFSET 200'],
      postgres: ['SELECT "o"."province" AS "d0", "o"."amount" AS "d1" FROM "ods_order" AS "o" LIMIT 100 OFFSET 200'],
      mysql: ['SELECT `o`.`province` AS `d0`, `o`.`amount` AS `d1` FROM `ods_order` AS `o` LIMIT 100 OFFSET 200'],
      clickhouse: ['SELECT `o`.`province` AS `d0`, `o`.`amount` AS `d1` FROM `ods_order` AS `o` LIMIT 200, 100'],
    },
  },
  {
    name: 'sort by measure and dimension, nulls last',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 4 }, { fieldId: 4, aggregation: 'MAX' }],
      sort: [{ fieldId: 4, aggregation: 'MAX', direction: 'DESC' }, { fieldId: 1 }],
      limit: 10,
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0", MAX("o"."amount") AS "m1" FROM "ods_order" AS "o" GROUP BY 1 ORDER BY "m1" DESC NULLS LAST, "d0" ASC NULLS LAST LIMIT 10',
      ],
      postgres: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0", MAX("o"."amount") AS "m1" FROM "ods_order" AS "o" GROUP BY 1 ORDER BY "m1" DESC NULLS LAST, "d0" ASC NULLS LAST LIMIT 10',
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0`, MAX(`o`.`amount`) AS `m1` FROM `ods_order` AS `o` GROUP BY 1 ORDER BY `m1` DESC, `d0` IS NULL, `d0` ASC LIMIT 10',
      ],
      clickhouse: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0`, MAX(`o`.`amount`) AS `m1` FROM `ods_order` AS `o` GROUP BY `o`.`province` ORDER BY `m1` DESC NULLS LAST, `d0` ASC NULLS LAST LIMIT 10',
      ],
    },
  },
  {
    name: 'offset without limit',
    request: { detail: true, dimensions: [{ fieldId: 1 }], offset: 5 },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" OFFSET 5'],
      postgres: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" OFFSET 5'],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` LIMIT 18446744073709551615 OFFSET 5'],
      clickhouse: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` LIMIT 5, 18446744073709551615'],
    },
  },
  {
    name: 'total count',
    request: {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 4 }],
      where: { conditions: [{ cubeColumnId: 2, conditions: [{ function: 'eq', values: ['app'] }] }] },
      sort: [{ fieldId: 4, direction: 'DESC' }],
      limit: 20,
      offset: 40,
      withTotal: true,
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1 ORDER BY "m0" DESC NULLS LAST LIMIT 20 OFFSET 40',
        ['app'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1 ORDER BY "m0" DESC NULLS LAST LIMIT 20 OFFSET 40',
        ['app'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = ? GROUP BY 1 ORDER BY `m0` DESC LIMIT 20 OFFSET 40',
        ['app'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = 'app' GROUP BY `o`.`province` ORDER BY `m0` DESC NULLS LAST LIMIT 40, 20",
      ],
    },
    count: {
      duckdb: [
        'SELECT COUNT(*) AS "total" FROM (SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1) AS "q"',
        ['app'],
      ],
      postgres: [
        'SELECT COUNT(*) AS "total" FROM (SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1) AS "q"',
        ['app'],
      ],
      mysql: [
        'SELECT COUNT(*) AS `total` FROM (SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = ? GROUP BY 1) AS `q`',
        ['app'],
      ],
      clickhouse: [
        "SELECT COUNT(*) AS `total` FROM (SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = 'app' GROUP BY `o`.`province`) AS `q`",
      ],
    },
  },
  {
    name: 'date granularity YEAR',
    request: { dimensions: [{ fieldId: 5, granularity: 'YEAR' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: [
        'SELECT DATE_TRUNC(\'year\', "days"."d0") AS "d0", SUM("days"."p0") AS "m0" FROM (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1) AS "days" GROUP BY 1',
      ],
      postgres: ['SELECT DATE_TRUNC(\'year\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: ["SELECT CAST(DATE_FORMAT(`o`.`order_time`, '%Y-01-01') AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1"],
      clickhouse: [
        'SELECT toDateTime(toStartOfYear(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfYear(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'date granularity QUARTER',
    request: { dimensions: [{ fieldId: 5, granularity: 'QUARTER' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: [
        'SELECT DATE_TRUNC(\'quarter\', "days"."d0") AS "d0", SUM("days"."p0") AS "m0" FROM (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1) AS "days" GROUP BY 1',
      ],
      postgres: ['SELECT DATE_TRUNC(\'quarter\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: [
        'SELECT CAST(MAKEDATE(YEAR(`o`.`order_time`), 1) + INTERVAL (QUARTER(`o`.`order_time`) - 1) QUARTER AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1',
      ],
      clickhouse: [
        'SELECT toDateTime(toStartOfQuarter(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfQuarter(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'date granularity MONTH',
    request: { dimensions: [{ fieldId: 5, granularity: 'MONTH' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: [
        'SELECT DATE_TRUNC(\'month\', "days"."d0") AS "d0", SUM("days"."p0") AS "m0" FROM (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1) AS "days" GROUP BY 1',
      ],
      postgres: ['SELECT DATE_TRUNC(\'month\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: ["SELECT CAST(DATE_FORMAT(`o`.`order_time`, '%Y-%m-01') AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1"],
      clickhouse: [
        'SELECT toDateTime(toStartOfMonth(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfMonth(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'date granularity WEEK',
    request: { dimensions: [{ fieldId: 5, granularity: 'WEEK' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: [
        'SELECT DATE_TRUNC(\'week\', "days"."d0") AS "d0", SUM("days"."p0") AS "m0" FROM (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1) AS "days" GROUP BY 1',
      ],
      postgres: ['SELECT DATE_TRUNC(\'week\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: [
        'SELECT CAST(DATE(`o`.`order_time`) - INTERVAL WEEKDAY(`o`.`order_time`) DAY AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1',
      ],
      clickhouse: [
        'SELECT toDateTime(toMonday(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toMonday(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'date granularity DAY',
    request: { dimensions: [{ fieldId: 5, granularity: 'DAY' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: ['SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      postgres: ['SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: ['SELECT CAST(DATE(`o`.`order_time`) AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1'],
      clickhouse: [
        'SELECT toDateTime(toStartOfDay(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfDay(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'date granularity HOUR',
    request: { dimensions: [{ fieldId: 5, granularity: 'HOUR' }], measures: [{ fieldId: 4 }] },
    expected: {
      duckdb: ['SELECT DATE_TRUNC(\'hour\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      postgres: ['SELECT DATE_TRUNC(\'hour\', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1'],
      mysql: [
        "SELECT CAST(DATE_FORMAT(`o`.`order_time`, '%Y-%m-%d %H:00:00') AS DATETIME) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1",
      ],
      clickhouse: [
        'SELECT toDateTime(toStartOfHour(`o`.`order_time`)) AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY toDateTime(toStartOfHour(`o`.`order_time`))',
      ],
    },
  },
  {
    name: 'computed fields: CASE dimension, aggregate formula, formula under SUM',
    request: { dimensions: [{ fieldId: 10 }], measures: [{ fieldId: 9 }, { fieldId: 11 }] },
    expected: {
      duckdb: [
        'SELECT CASE WHEN "o"."amount" >= 100 THEN CAST($1 AS VARCHAR) ELSE CAST($2 AS VARCHAR) END AS "d0", SUM("o"."amount") / NULLIF(COUNT(DISTINCT "o"."user_phone"), 0) AS "m0", SUM(ROUND("o"."amount" * 1.06, 2)) AS "m1" FROM "ods_order" AS "o" GROUP BY 1',
        ['大额', '普通'],
      ],
      postgres: [
        'SELECT CASE WHEN "o"."amount" >= 100 THEN CAST($1 AS TEXT) ELSE CAST($2 AS TEXT) END AS "d0", CAST(SUM("o"."amount") AS DOUBLE PRECISION) / NULLIF(COUNT(DISTINCT "o"."user_phone"), 0) AS "m0", SUM(CAST(ROUND(CAST("o"."amount" * 1.06 AS NUMERIC), 2) AS DOUBLE PRECISION)) AS "m1" FROM "ods_order" AS "o" GROUP BY 1',
        ['大额', '普通'],
      ],
      mysql: [
        'SELECT CASE WHEN `o`.`amount` >= 100 THEN CAST(? AS CHAR) ELSE CAST(? AS CHAR) END AS `d0`, SUM(`o`.`amount`) / NULLIF(COUNT(DISTINCT `o`.`user_phone`), 0) AS `m0`, SUM(ROUND(`o`.`amount` * 1.06, 2)) AS `m1` FROM `ods_order` AS `o` GROUP BY 1',
        ['大额', '普通'],
      ],
      clickhouse: [
        "SELECT CASE WHEN `o`.`amount` >= 100 THEN '大额' ELSE '普通' END AS `d0`, toFloat64(SUM(`o`.`amount`)) / nullIf(toFloat64(uniqExact(`o`.`user_phone`)), 0) AS `m0`, SUM(round(`o`.`amount` * 1.06, 2)) AS `m1` FROM `ods_order` AS `o` GROUP BY CASE WHEN `o`.`amount` >= 100 THEN '大额' ELSE '普通' END",
      ],
    },
  },
  {
    name: 'join with a schema-qualified table',
    request: { dimensions: [{ fieldId: 7 }], measures: [{ fieldId: 4 }] },
    options: { model: ordersModel },
    expected: {
      duckdb: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" GROUP BY 1',
      ],
      postgres: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" GROUP BY 1',
      ],
      mysql: [
        'SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` GROUP BY 1',
      ],
      clickhouse: [
        'SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` GROUP BY `u`.`user_name`',
      ],
    },
  },
]);

const refusal = (fn: () => unknown): QueryError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
};
const compile = (request: CubeQueryRequest, options: CaseOptions & { dialect?: QueryDialect } = {}) =>
  compileCubeQuery(options.model ?? singleTableModel, request, { dialect: options.dialect ?? 'postgres', now: NOW });

describe('field dictionary', () => {
  it('describes every result column in order', () => {
    const { fields } = compile(
      {
        dimensions: [{ fieldId: 5, granularity: 'MONTH' }, { fieldId: 10 }],
        measures: [{ fieldId: 4 }, { fieldId: 3, aggregation: 'COUNT_DISTINCT' }, { fieldId: 9 }, { fieldId: 5, aggregation: 'MAX' }],
      },
      { model: ordersModel },
    );
    expect(fields).toEqual([
      { alias: 'd0', fieldId: 5, title: '下单时间', viewDataType: 'DATETIME', kind: 'dimension', aggregation: null, granularity: 'MONTH' },
      { alias: 'd1', fieldId: 10, title: '金额分档', viewDataType: 'STRING', kind: 'dimension', aggregation: null, granularity: null },
      { alias: 'm0', fieldId: 4, title: '金额', viewDataType: 'NUMBER', kind: 'measure', aggregation: 'SUM', granularity: null },
      { alias: 'm1', fieldId: 3, title: '手机号', viewDataType: 'NUMBER', kind: 'measure', aggregation: 'COUNT_DISTINCT', granularity: null },
      { alias: 'm2', fieldId: 9, title: '客单价', viewDataType: 'NUMBER', kind: 'measure', aggregation: null, granularity: null },
      { alias: 'm3', fieldId: 5, title: '下单时间', viewDataType: 'DATETIME', kind: 'measure', aggregation: 'MAX', granularity: null },
    ]);
  });

  it('uses the field aggregation when the request names none', () => {
    expect(compile({ measures: [{ fieldId: 8 }] }, { model: ordersModel }).sql).toContain('AVG("u"."age") AS "m0"');
  });
});

describe('refused requests', () => {
  it.each<[string, CubeQueryRequest, string]>([
    ['nothing selected', {}, '请至少选择一个维度或指标'],
    ['an unknown field', { dimensions: [{ fieldId: 404 }] }, '字段【404】不存在'],
    ['an aggregate as a dimension', { dimensions: [{ fieldId: 9 }] }, '聚合字段【客单价】不能作为维度'],
    ['SUM of text', { measures: [{ fieldId: 1, aggregation: 'SUM' }] }, '字段【省份】不是数值，不能求和或求平均'],
    ['a time grain on text', { dimensions: [{ fieldId: 1, granularity: 'MONTH' }] }, '字段【省份】不是日期，不能按时间粒度汇总'],
    ['measures in a detail query', { detail: true, dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }] }, '明细查询不能包含指标或结果筛选'],
    ['sorting by a column not selected', { dimensions: [{ fieldId: 1 }], sort: [{ fieldId: 2 }] }, '排序字段【渠道】不在查询结果中'],
    ['a negative limit', { dimensions: [{ fieldId: 1 }], limit: -1 }, '（limit）'],
  ])('%s', (_, request, message) => {
    const error = refusal(() => compile(request, { model: ordersModel }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('refuses a second join on an engine with one join per SELECT', () => {
    const model = {
      ...ordersModel,
      tables: [...ordersModel.tables, { tableName: 'dim_product', tableAliasName: 'p' }],
      joins: [
        ...(ordersModel.joins ?? []),
        { joinType: 'LEFT_JOIN' as const, source: 'o', target: 'p', joinKeys: [{ sourceKey: 'channel', targetKey: 'name' }] },
      ],
      fields: [...ordersModel.fields, { id: 20, columnName: 'name', columnTitle: '产品', tableAliasName: 'p' }],
    };
    expect(compile({ dimensions: [{ fieldId: 20 }] }, { model, dialect: 'duckdb' }).sql).toContain(
      'LEFT JOIN "dim_product" AS "p" ON "o"."channel" = "p"."name"',
    );
    expect(refusal(() => compile({ dimensions: [{ fieldId: 20 }] }, { model, dialect: 'clickhouse' })).message).toBe('该数据源不支持多表关联，请减少关联的表');
  });
});
