import type { CubeJoin } from '@shutu/contracts';
import { describeSqlCases, type CaseOptions } from './testing/expect-sql.ts';
import { ordersModel } from './testing/fixtures.ts';

/** The orders cube plus one computed field, id 99, titled 公式. */
const withFormula = (columnFormula: string, viewDataType: 'STRING' | 'NUMBER' | 'DATETIME'): CaseOptions => ({
  model: { ...ordersModel, fields: [...ordersModel.fields, { id: 99, columnAttr: 'VIRTUAL', columnTitle: '公式', columnFormula, viewDataType }] },
});
const joined = (joins: CubeJoin[]): CaseOptions => ({ model: { ...ordersModel, joins } });

// Computed fields and joins: expected SQL per dialect, exact (PostgreSQL and MySQL forms
// were run on PGlite and MariaDB 10.11 while writing them).
describeSqlCases([
  {
    name: 'formula: arithmetic, unary minus, division',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula('-[金额] - -1 + [金额] * 2 / ([年龄] - 1)', 'NUMBER'),
    expected: {
      duckdb: [
        'SELECT (-"o"."amount") - (-1) + ("o"."amount" * 2 / NULLIF(("u"."age" - 1), 0)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      postgres: [
        'SELECT (-"o"."amount") - (-1) + (CAST("o"."amount" * 2 AS DOUBLE PRECISION) / NULLIF(("u"."age" - 1), 0)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      mysql: [
        'SELECT (-`o`.`amount`) - (-1) + (`o`.`amount` * 2 / NULLIF((`u`.`age` - 1), 0)) AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
      clickhouse: [
        'SELECT (-`o`.`amount`) - (-1) + (toFloat64(`o`.`amount` * 2) / nullIf(toFloat64((`u`.`age` - 1)), 0)) AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula: math functions',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula('ABS([金额]) + CEIL([金额]) + FLOOR([金额]) + POWER([金额], 2) + SQRT([金额]) + MOD([金额], 7) + ROUND([金额], 1)', 'NUMBER'),
    expected: {
      duckdb: [
        'SELECT ABS("o"."amount") + CEIL("o"."amount") + FLOOR("o"."amount") + POWER("o"."amount", 2) + SQRT("o"."amount") + (("o"."amount") % (7)) + ROUND("o"."amount", 1) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      postgres: [
        'SELECT ABS("o"."amount") + CEIL("o"."amount") + FLOOR("o"."amount") + POWER("o"."amount", 2) + SQRT("o"."amount") + CAST(MOD(CAST("o"."amount" AS NUMERIC), CAST(7 AS NUMERIC)) AS DOUBLE PRECISION) + CAST(ROUND(CAST("o"."amount" AS NUMERIC), 1) AS DOUBLE PRECISION) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      mysql: [
        'SELECT ABS(`o`.`amount`) + CEIL(`o`.`amount`) + FLOOR(`o`.`amount`) + POWER(`o`.`amount`, 2) + SQRT(`o`.`amount`) + MOD(`o`.`amount`, 7) + ROUND(`o`.`amount`, 1) AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
      clickhouse: [
        'SELECT abs(`o`.`amount`) + ceil(`o`.`amount`) + floor(`o`.`amount`) + pow(`o`.`amount`, 2) + sqrt(`o`.`amount`) + modulo(`o`.`amount`, 7) + round(`o`.`amount`, 1) AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula: string functions',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula("CONCAT(UPPER([省份]), '-', LOWER(SUBSTRING([手机号], 4)), TO_STRING(LENGTH(REPLACE([渠道], 'a', 'b'))))", 'STRING'),
    expected: {
      duckdb: [
        'SELECT (UPPER("o"."province") || CAST($1 AS VARCHAR) || LOWER(SUBSTR("o"."user_phone", 4)) || CAST(LENGTH(REPLACE("o"."channel", CAST($2 AS VARCHAR), CAST($3 AS VARCHAR))) AS VARCHAR)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['-', 'a', 'b'],
      ],
      postgres: [
        'SELECT (UPPER("o"."province") || CAST($1 AS TEXT) || LOWER(SUBSTR("o"."user_phone", 4)) || CAST(LENGTH(REPLACE("o"."channel", CAST($2 AS TEXT), CAST($3 AS TEXT))) AS TEXT)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['-', 'a', 'b'],
      ],
      mysql: [
        'SELECT CONCAT(UPPER(`o`.`province`), CAST(? AS CHAR), LOWER(SUBSTRING(`o`.`user_phone`, 4)), CAST(CHAR_LENGTH(REPLACE(`o`.`channel`, CAST(? AS CHAR), CAST(? AS CHAR))) AS CHAR)) AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        ['-', 'a', 'b'],
      ],
      clickhouse: [
        "SELECT concat(upperUTF8(`o`.`province`), '-', lowerUTF8(substringUTF8(`o`.`user_phone`, 4, lengthUTF8(`o`.`user_phone`))), toString(lengthUTF8(replaceAll(`o`.`channel`, 'a', 'b')))) AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
  {
    name: 'formula: date functions',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula(
      "YEAR([下单时间]) * 10000 + QUARTER([下单时间]) + MONTH([下单时间]) + DAY([下单时间]) + HOUR([下单时间]) + DAYS_BETWEEN([下单时间], DATE_TRUNC('week', [下单时间]))",
      'NUMBER',
    ),
    expected: {
      duckdb: [
        'SELECT CAST(EXTRACT(YEAR FROM "o"."order_time") AS INTEGER) * 10000 + CAST(EXTRACT(QUARTER FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(MONTH FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(DAY FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(HOUR FROM "o"."order_time") AS INTEGER) + DATE_DIFF(\'day\', CAST("o"."order_time" AS DATE), CAST(DATE_TRUNC(\'week\', "o"."order_time") AS DATE)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      postgres: [
        'SELECT CAST(EXTRACT(YEAR FROM "o"."order_time") AS INTEGER) * 10000 + CAST(EXTRACT(QUARTER FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(MONTH FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(DAY FROM "o"."order_time") AS INTEGER) + CAST(EXTRACT(HOUR FROM "o"."order_time") AS INTEGER) + (CAST(DATE_TRUNC(\'week\', "o"."order_time") AS DATE) - CAST("o"."order_time" AS DATE)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
      ],
      mysql: [
        'SELECT YEAR(`o`.`order_time`) * 10000 + QUARTER(`o`.`order_time`) + MONTH(`o`.`order_time`) + DAYOFMONTH(`o`.`order_time`) + HOUR(`o`.`order_time`) + DATEDIFF(CAST(DATE(`o`.`order_time`) - INTERVAL WEEKDAY(`o`.`order_time`) DAY AS DATETIME), `o`.`order_time`) AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
      clickhouse: [
        'SELECT toYear(`o`.`order_time`) * 10000 + toQuarter(`o`.`order_time`) + toMonth(`o`.`order_time`) + toDayOfMonth(`o`.`order_time`) + toHour(`o`.`order_time`) + (toRelativeDayNum(toDateTime(toMonday(`o`.`order_time`))) - toRelativeDayNum(`o`.`order_time`)) AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula: logic functions and predicates',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula(
      "IF([省份] IN ('上海', '北京') AND NOT [金额] BETWEEN 1 AND 2 OR [渠道] IS NULL, COALESCE(NULLIF([金额], 0), IFNULL([年龄], 1)), 0)",
      'NUMBER',
    ),
    expected: {
      duckdb: [
        'SELECT CASE WHEN ("o"."province" IN (CAST($1 AS VARCHAR), CAST($2 AS VARCHAR)) AND NOT ("o"."amount" BETWEEN 1 AND 2)) OR "o"."channel" IS NULL THEN COALESCE(NULLIF("o"."amount", 0), COALESCE("u"."age", 1)) ELSE 0 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['上海', '北京'],
      ],
      postgres: [
        'SELECT CASE WHEN ("o"."province" IN (CAST($1 AS TEXT), CAST($2 AS TEXT)) AND NOT ("o"."amount" BETWEEN 1 AND 2)) OR "o"."channel" IS NULL THEN COALESCE(NULLIF("o"."amount", 0), COALESCE("u"."age", 1)) ELSE 0 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['上海', '北京'],
      ],
      mysql: [
        'SELECT CASE WHEN (`o`.`province` IN (CAST(? AS CHAR), CAST(? AS CHAR)) AND NOT (`o`.`amount` BETWEEN 1 AND 2)) OR `o`.`channel` IS NULL THEN COALESCE(NULLIF(`o`.`amount`, 0), COALESCE(`u`.`age`, 1)) ELSE 0 END AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        ['上海', '北京'],
      ],
      clickhouse: [
        "SELECT CASE WHEN (`o`.`province` IN ('上海', '北京') AND NOT (`o`.`amount` BETWEEN 1 AND 2)) OR `o`.`channel` IS NULL THEN coalesce(nullIf(`o`.`amount`, 0), ifNull(`u`.`age`, 1)) ELSE 0 END AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
  {
    name: 'formula: simple CASE and a date literal',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula("CASE [省份] WHEN '上海' THEN 1 WHEN '北京' THEN 2 ELSE 0 END + CASE WHEN [下单时间] >= '2024-03-01' THEN 1 END", 'NUMBER'),
    expected: {
      duckdb: [
        'SELECT CASE "o"."province" WHEN CAST($1 AS VARCHAR) THEN 1 WHEN CAST($2 AS VARCHAR) THEN 2 ELSE 0 END + CASE WHEN "o"."order_time" >= CAST($3 AS TIMESTAMP) THEN 1 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['上海', '北京', '2024-03-01 00:00:00'],
      ],
      postgres: [
        'SELECT CASE "o"."province" WHEN CAST($1 AS TEXT) THEN 1 WHEN CAST($2 AS TEXT) THEN 2 ELSE 0 END + CASE WHEN "o"."order_time" >= CAST($3 AS TIMESTAMP) THEN 1 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['上海', '北京', '2024-03-01 00:00:00'],
      ],
      mysql: [
        'SELECT CASE `o`.`province` WHEN CAST(? AS CHAR) THEN 1 WHEN CAST(? AS CHAR) THEN 2 ELSE 0 END + CASE WHEN `o`.`order_time` >= CAST(? AS DATETIME) THEN 1 END AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        ['上海', '北京', '2024-03-01 00:00:00'],
      ],
      clickhouse: [
        "SELECT CASE `o`.`province` WHEN '上海' THEN 1 WHEN '北京' THEN 2 ELSE 0 END + CASE WHEN `o`.`order_time` >= toDateTime('2024-03-01 00:00:00') THEN 1 END AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
  {
    name: 'formula: reference by id',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: withFormula('{4} * 2', 'NUMBER'),
    expected: {
      duckdb: ['SELECT "o"."amount" * 2 AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"'],
      postgres: ['SELECT "o"."amount" * 2 AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"'],
      mysql: ['SELECT `o`.`amount` * 2 AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`'],
      clickhouse: [
        'SELECT `o`.`amount` * 2 AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula: aggregate formulas as measures',
    request: { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 99 }] },
    options: withFormula('COUNT(*) + COUNT(DISTINCT [手机号]) + COUNT_DISTINCT([渠道]) + SUM([金额]) / AVG([年龄]) + MAX([金额]) - MIN([金额])', 'NUMBER'),
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0", COUNT(*) + COUNT(DISTINCT "o"."user_phone") + COUNT(DISTINCT "o"."channel") + (SUM("o"."amount") / NULLIF(AVG("u"."age"), 0)) + MAX("o"."amount") - MIN("o"."amount") AS "m0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" GROUP BY 1',
      ],
      postgres: [
        'SELECT "o"."province" AS "d0", COUNT(*) + COUNT(DISTINCT "o"."user_phone") + COUNT(DISTINCT "o"."channel") + (CAST(SUM("o"."amount") AS DOUBLE PRECISION) / NULLIF(AVG("u"."age"), 0)) + MAX("o"."amount") - MIN("o"."amount") AS "m0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" GROUP BY 1',
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0`, COUNT(*) + COUNT(DISTINCT `o`.`user_phone`) + COUNT(DISTINCT `o`.`channel`) + (SUM(`o`.`amount`) / NULLIF(AVG(`u`.`age`), 0)) + MAX(`o`.`amount`) - MIN(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` GROUP BY 1',
      ],
      clickhouse: [
        'SELECT `o`.`province` AS `d0`, COUNT(*) + uniqExact(`o`.`user_phone`) + uniqExact(`o`.`channel`) + (toFloat64(SUM(`o`.`amount`)) / nullIf(toFloat64(AVG(`u`.`age`)), 0)) + MAX(`o`.`amount`) - MIN(`o`.`amount`) AS `m0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` GROUP BY `o`.`province`',
      ],
    },
  },
  {
    name: 'right join on two keys',
    request: { dimensions: [{ fieldId: 7 }], measures: [{ fieldId: 4 }] },
    options: joined([
      {
        joinType: 'RIGHT_JOIN',
        source: 'o',
        target: 'u',
        joinKeys: [
          { sourceKey: 'user_phone', targetKey: 'phone' },
          { sourceKey: 'province', targetKey: 'user_name' },
        ],
      },
    ]),
    expected: {
      duckdb: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" RIGHT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" AND "o"."province" = "u"."user_name" GROUP BY 1',
      ],
      postgres: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" RIGHT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone" AND "o"."province" = "u"."user_name" GROUP BY 1',
      ],
      mysql: [
        'SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` RIGHT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` AND `o`.`province` = `u`.`user_name` GROUP BY 1',
      ],
      clickhouse: [
        'SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM (SELECT * FROM `ods_order`) AS `o` ALL RIGHT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone` AND `o`.`province` = `u`.`user_name` GROUP BY `u`.`user_name`',
      ],
    },
  },
  {
    name: 'inner join on a computed key',
    request: { dimensions: [{ fieldId: 7 }], measures: [{ fieldId: 4 }] },
    options: joined([
      { joinType: 'INNER_JOIN', source: 'o', target: 'u', joinKeys: [{ sourceKey: "CONCAT('86', [手机号])", sourceKeyVtState: 1, targetKey: 'phone' }] },
    ]),
    expected: {
      duckdb: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" INNER JOIN "dw"."dim_user" AS "u" ON (CAST($1 AS VARCHAR) || "o"."user_phone") = "u"."phone" GROUP BY 1',
        ['86'],
      ],
      postgres: [
        'SELECT "u"."user_name" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" INNER JOIN "dw"."dim_user" AS "u" ON (CAST($1 AS TEXT) || "o"."user_phone") = "u"."phone" GROUP BY 1',
        ['86'],
      ],
      mysql: [
        'SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` INNER JOIN `dw`.`dim_user` AS `u` ON CONCAT(CAST(? AS CHAR), `o`.`user_phone`) = `u`.`phone` GROUP BY 1',
        ['86'],
      ],
      clickhouse: [
        "SELECT `u`.`user_name` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM (SELECT * FROM `ods_order`) AS `o` ALL INNER JOIN `dw`.`dim_user` AS `u` ON concat('86', `o`.`user_phone`) = `u`.`phone` GROUP BY `u`.`user_name`",
      ],
    },
  },
]);

// Global parameters in formulas: every value bound (or escaped where the engine has no
// parameters); a number standing alone is typed by the dialect, as a string value is.
describeSqlCases([
  {
    name: 'formula parameters: a number and a string (quoted form) bound',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: { ...withFormula("[金额] * ${rate} + IF([省份] = '${city}', 1, 0)", 'NUMBER'), params: { rate: 2, city: '上海' } },
    expected: {
      duckdb: [
        'SELECT "o"."amount" * CAST($1 AS DOUBLE) + CASE WHEN "o"."province" = CAST($2 AS VARCHAR) THEN 1 ELSE 0 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        [2, '上海'],
      ],
      postgres: [
        'SELECT "o"."amount" * CAST($1 AS DOUBLE PRECISION) + CASE WHEN "o"."province" = CAST($2 AS TEXT) THEN 1 ELSE 0 END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        [2, '上海'],
      ],
      mysql: [
        'SELECT `o`.`amount` * ? + CASE WHEN `o`.`province` = CAST(? AS CHAR) THEN 1 ELSE 0 END AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        [2, '上海'],
      ],
      clickhouse: [
        "SELECT `o`.`amount` * 2 + CASE WHEN `o`.`province` = '上海' THEN 1 ELSE 0 END AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
  {
    name: 'formula parameters: a list reads its first element',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: { ...withFormula('[金额] * ${rate} + ${rate}', 'NUMBER'), params: { rate: [1.5, 4] } },
    expected: {
      duckdb: [
        'SELECT "o"."amount" * CAST($1 AS DOUBLE) + CAST($2 AS DOUBLE) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        [1.5, 1.5],
      ],
      postgres: [
        'SELECT "o"."amount" * CAST($1 AS DOUBLE PRECISION) + CAST($2 AS DOUBLE PRECISION) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        [1.5, 1.5],
      ],
      mysql: ['SELECT `o`.`amount` * ? + ? AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`', [1.5, 1.5]],
      clickhouse: [
        'SELECT `o`.`amount` * 1.5 + 1.5 AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula parameters: without a value NULL',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: { ...withFormula('[金额] * ${rate} + 1', 'NUMBER'), params: { rate: null } },
    expected: {
      duckdb: ['SELECT "o"."amount" * NULL + 1 AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"'],
      postgres: ['SELECT "o"."amount" * NULL + 1 AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"'],
      mysql: ['SELECT `o`.`amount` * NULL + 1 AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`'],
      clickhouse: [
        'SELECT `o`.`amount` * NULL + 1 AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
      ],
    },
  },
  {
    name: 'formula parameters: the quoted form reads text (a number too); without a value a typed NULL',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: { ...withFormula("CONCAT([省份], '${city}', '${rate}')", 'STRING'), params: { rate: 2, city: '' } },
    expected: {
      duckdb: [
        'SELECT ("o"."province" || CAST(NULL AS VARCHAR) || CAST($1 AS VARCHAR)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['2'],
      ],
      postgres: [
        'SELECT ("o"."province" || CAST(NULL AS TEXT) || CAST($1 AS TEXT)) AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['2'],
      ],
      mysql: [
        'SELECT CONCAT(`o`.`province`, CAST(NULL AS CHAR), CAST(? AS CHAR)) AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        ['2'],
      ],
      clickhouse: [
        "SELECT concat(`o`.`province`, NULL, '2') AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
  {
    name: 'formula parameters: text next to a date is a timestamp',
    request: { detail: true, dimensions: [{ fieldId: 99 }] },
    options: { ...withFormula("IF([下单时间] >= ${start}, ${label}, '${none}')", 'STRING'), params: { start: '2024-01-01', label: 'new' } },
    expected: {
      duckdb: [
        'SELECT CASE WHEN "o"."order_time" >= CAST($1 AS TIMESTAMP) THEN CAST($2 AS VARCHAR) ELSE CAST(NULL AS VARCHAR) END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['2024-01-01 00:00:00', 'new'],
      ],
      postgres: [
        'SELECT CASE WHEN "o"."order_time" >= CAST($1 AS TIMESTAMP) THEN CAST($2 AS TEXT) ELSE CAST(NULL AS TEXT) END AS "d0" FROM "ods_order" AS "o" LEFT JOIN "dw"."dim_user" AS "u" ON "o"."user_phone" = "u"."phone"',
        ['2024-01-01 00:00:00', 'new'],
      ],
      mysql: [
        'SELECT CASE WHEN `o`.`order_time` >= CAST(? AS DATETIME) THEN CAST(? AS CHAR) ELSE CAST(NULL AS CHAR) END AS `d0` FROM `ods_order` AS `o` LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`',
        ['2024-01-01 00:00:00', 'new'],
      ],
      clickhouse: [
        "SELECT CASE WHEN `o`.`order_time` >= toDateTime('2024-01-01 00:00:00') THEN 'new' ELSE NULL END AS `d0` FROM (SELECT * FROM `ods_order`) AS `o` ALL LEFT JOIN `dw`.`dim_user` AS `u` ON `o`.`user_phone` = `u`.`phone`",
      ],
    },
  },
]);
