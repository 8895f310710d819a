import type { CubeQueryRequest, FilterGroup } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, DIALECTS, QueryError, type QueryDialect } from './index.ts';
import { describeSqlCases, where } from './testing/expect-sql.ts';
import { NOW, ordersModel, singleTableModel } from './testing/fixtures.ts';

// Filter functions on text, numbers and absolute dates: expected SQL per dialect, exact.
describeSqlCases([
  {
    name: 'text: eq',
    request: { detail: true, dimensions: [{ fieldId: 1 }], where: { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'eq', values: ['上海'] }] }] } },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1', ['上海']],
      postgres: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1', ['上海']],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = ?', ['上海']],
      clickhouse: ["SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海'"],
    },
  },
  {
    name: 'text: in and notIn',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        conditions: [
          { cubeColumnId: 1, conditions: [{ function: 'in', values: ['上海', '北京'] }] },
          { cubeColumnId: 2, conditions: [{ function: 'notIn', values: ['web'] }] },
        ],
      },
    },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" IN ($1, $2) AND "o"."channel" NOT IN ($3)', ['上海', '北京', 'web']],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" IN ($1, $2) AND "o"."channel" NOT IN ($3)',
        ['上海', '北京', 'web'],
      ],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` IN (?, ?) AND `o`.`channel` NOT IN (?)', ['上海', '北京', 'web']],
      clickhouse: ["SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` IN ('上海', '北京') AND `o`.`channel` NOT IN ('web')"],
    },
  },
  {
    name: 'text: indexIn is "contains any"',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: { conditions: [{ cubeColumnId: 3, conditions: [{ function: 'indexIn', values: ['138', '139'] }] }] },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE STRPOS("o"."user_phone", $1) > 0 OR STRPOS("o"."user_phone", $2) > 0',
        ['138', '139'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE STRPOS("o"."user_phone", $1) > 0 OR STRPOS("o"."user_phone", $2) > 0',
        ['138', '139'],
      ],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE INSTR(`o`.`user_phone`, ?) > 0 OR INSTR(`o`.`user_phone`, ?) > 0', ['138', '139']],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE position(`o`.`user_phone`, '138') > 0 OR position(`o`.`user_phone`, '139') > 0",
      ],
    },
  },
  {
    name: 'text: like is a case-insensitive contains, wildcards escaped',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: { conditions: [{ cubeColumnId: 2, conditions: [{ function: 'like', values: ['50%_off\\'] }] }] },
    },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."channel" ILIKE $1 ESCAPE \'\\\'', ['%50\\%\\_off\\\\%']],
      postgres: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."channel" ILIKE $1', ['%50\\%\\_off\\\\%']],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`channel` LIKE ?', ['%50\\%\\_off\\\\%']],
      clickhouse: ["SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE lowerUTF8(`o`.`channel`) LIKE lowerUTF8('%50\\\\%\\\\_off\\\\\\\\%')"],
    },
  },
  {
    name: 'text: isnull, notnull',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        conditions: [
          { cubeColumnId: 1, conditions: [{ function: 'isnull' }] },
          { cubeColumnId: 2, conditions: [{ function: 'notnull' }] },
        ],
      },
    },
    expected: {
      duckdb: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" IS NULL AND "o"."channel" IS NOT NULL'],
      postgres: ['SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" IS NULL AND "o"."channel" IS NOT NULL'],
      mysql: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` IS NULL AND `o`.`channel` IS NOT NULL'],
      clickhouse: ['SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` IS NULL AND `o`.`channel` IS NOT NULL'],
    },
  },
  {
    name: 'text: comparisons and between',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        conditions: [
          {
            cubeColumnId: 3,
            connectType: 'and',
            conditions: [
              { function: 'ge', values: ['130'] },
              { function: 'lt', values: ['140'] },
            ],
          },
          { cubeColumnId: 1, conditions: [{ function: 'between', values: ['A', 'M'] }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."user_phone" >= $1 AND "o"."user_phone" < $2 AND "o"."province" BETWEEN $3 AND $4',
        ['130', '140', 'A', 'M'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."user_phone" >= $1 AND "o"."user_phone" < $2 AND "o"."province" BETWEEN $3 AND $4',
        ['130', '140', 'A', 'M'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`user_phone` >= ? AND `o`.`user_phone` < ? AND `o`.`province` BETWEEN ? AND ?',
        ['130', '140', 'A', 'M'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`user_phone` >= '130' AND `o`.`user_phone` < '140' AND `o`.`province` BETWEEN 'A' AND 'M'",
      ],
    },
  },
  {
    name: 'number: eq, gt, ge, lt, le with text values read as numbers',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          {
            cubeColumnId: 4,
            connectType: 'or',
            conditions: [
              { function: 'eq', values: ['12.5'] },
              { function: 'gt', values: [-3] },
              { function: 'ge', values: ['1e3'] },
              { function: 'lt', values: ['-0.5'] },
              { function: 'le', values: ['12345678901234567890'] },
            ],
          },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."amount" = $1 OR "o"."amount" > $2 OR "o"."amount" >= $3 OR "o"."amount" < $4 OR "o"."amount" <= $5',
        [12.5, -3, 1000, -0.5, '12345678901234567890'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."amount" = $1 OR "o"."amount" > $2 OR "o"."amount" >= $3 OR "o"."amount" < $4 OR "o"."amount" <= $5',
        [12.5, -3, 1000, -0.5, '12345678901234567890'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`amount` = ? OR `o`.`amount` > ? OR `o`.`amount` >= ? OR `o`.`amount` < ? OR `o`.`amount` <= ?',
        [12.5, -3, 1000, -0.5, '12345678901234567890'],
      ],
      clickhouse: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`amount` = 12.5 OR `o`.`amount` > (-3) OR `o`.`amount` >= 1000 OR `o`.`amount` < (-0.5) OR `o`.`amount` <= 12345678901234567890',
      ],
    },
  },
  {
    name: 'number: between, in, notIn',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        conditions: [
          { cubeColumnId: 4, conditions: [{ function: 'between', values: ['10', 20] }] },
          { cubeColumnId: 4, conditions: [{ function: 'in', values: [1, '2'] }] },
          { cubeColumnId: 4, conditions: [{ function: 'notIn', values: [3] }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."amount" BETWEEN $1 AND $2 AND "o"."amount" IN ($3, $4) AND "o"."amount" NOT IN ($5)',
        [10, 20, 1, 2, 3],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."amount" BETWEEN $1 AND $2 AND "o"."amount" IN ($3, $4) AND "o"."amount" NOT IN ($5)',
        [10, 20, 1, 2, 3],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`amount` BETWEEN ? AND ? AND `o`.`amount` IN (?, ?) AND `o`.`amount` NOT IN (?)',
        [10, 20, 1, 2, 3],
      ],
      clickhouse: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`amount` BETWEEN 10 AND 20 AND `o`.`amount` IN (1, 2) AND `o`.`amount` NOT IN (3)',
      ],
    },
  },
  {
    name: 'date: eq a day, eq a month (the whole period)',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'eq', values: ['2024-03-05'] }] },
          { cubeColumnId: 5, conditions: [{ function: 'eq', values: ['202402'] }] },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP))',
        ['2024-03-05 00:00:00', '2024-03-06 00:00:00', '2024-02-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP))',
        ['2024-03-05 00:00:00', '2024-03-06 00:00:00', '2024-02-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME))',
        ['2024-03-05 00:00:00', '2024-03-06 00:00:00', '2024-02-01 00:00:00', '2024-03-01 00:00:00'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= toDateTime('2024-03-05 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-06 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-02-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-01 00:00:00'))",
      ],
    },
  },
  {
    name: 'date: between, gt, ge, lt, le',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: {
        relation: 'OR',
        conditions: [
          { cubeColumnId: 5, conditions: [{ function: 'between', values: ['2024-01-01', '2024-01-31'] }] },
          {
            cubeColumnId: 5,
            connectType: 'or',
            conditions: [
              { function: 'gt', values: ['2024'] },
              { function: 'ge', values: ['2024-03-05 10:00'] },
              { function: 'lt', values: ['2024/3/5'] },
              { function: 'le', values: ['2024-03-05 10:00:30'] },
            ],
          },
        ],
      },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR "o"."order_time" >= CAST($3 AS TIMESTAMP) OR "o"."order_time" >= CAST($4 AS TIMESTAMP) OR "o"."order_time" < CAST($5 AS TIMESTAMP) OR "o"."order_time" < CAST($6 AS TIMESTAMP)',
        ['2024-01-01 00:00:00', '2024-02-01 00:00:00', '2025-01-01 00:00:00', '2024-03-05 10:00:00', '2024-03-05 00:00:00', '2024-03-05 10:00:31'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR "o"."order_time" >= CAST($3 AS TIMESTAMP) OR "o"."order_time" >= CAST($4 AS TIMESTAMP) OR "o"."order_time" < CAST($5 AS TIMESTAMP) OR "o"."order_time" < CAST($6 AS TIMESTAMP)',
        ['2024-01-01 00:00:00', '2024-02-01 00:00:00', '2025-01-01 00:00:00', '2024-03-05 10:00:00', '2024-03-05 00:00:00', '2024-03-05 10:00:31'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR `o`.`order_time` >= CAST(? AS DATETIME) OR `o`.`order_time` >= CAST(? AS DATETIME) OR `o`.`order_time` < CAST(? AS DATETIME) OR `o`.`order_time` < CAST(? AS DATETIME)',
        ['2024-01-01 00:00:00', '2024-02-01 00:00:00', '2025-01-01 00:00:00', '2024-03-05 10:00:00', '2024-03-05 00:00:00', '2024-03-05 10:00:31'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE (`o`.`order_time` >= toDateTime('2024-01-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-02-01 00:00:00')) OR `o`.`order_time` >= toDateTime('2025-01-01 00:00:00') OR `o`.`order_time` >= toDateTime('2024-03-05 10:00:00') OR `o`.`order_time` < toDateTime('2024-03-05 00:00:00') OR `o`.`order_time` < toDateTime('2024-03-05 10:00:31')",
      ],
    },
  },
  {
    name: 'date: in and notIn',
    request: {
      detail: true,
      dimensions: [{ fieldId: 1 }],
      where: { conditions: [{ cubeColumnId: 5, conditions: [{ function: 'notIn', values: ['2024-03-01', '2024-03-02'] }] }] },
    },
    expected: {
      duckdb: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE NOT (("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)))',
        ['2024-03-01 00:00:00', '2024-03-02 00:00:00', '2024-03-02 00:00:00', '2024-03-03 00:00:00'],
      ],
      postgres: [
        'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE NOT (("o"."order_time" >= CAST($1 AS TIMESTAMP) AND "o"."order_time" < CAST($2 AS TIMESTAMP)) OR ("o"."order_time" >= CAST($3 AS TIMESTAMP) AND "o"."order_time" < CAST($4 AS TIMESTAMP)))',
        ['2024-03-01 00:00:00', '2024-03-02 00:00:00', '2024-03-02 00:00:00', '2024-03-03 00:00:00'],
      ],
      mysql: [
        'SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE NOT ((`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)) OR (`o`.`order_time` >= CAST(? AS DATETIME) AND `o`.`order_time` < CAST(? AS DATETIME)))',
        ['2024-03-01 00:00:00', '2024-03-02 00:00:00', '2024-03-02 00:00:00', '2024-03-03 00:00:00'],
      ],
      clickhouse: [
        "SELECT `o`.`province` AS `d0` FROM `ods_order` AS `o` WHERE NOT ((`o`.`order_time` >= toDateTime('2024-03-01 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-02 00:00:00')) OR (`o`.`order_time` >= toDateTime('2024-03-02 00:00:00') AND `o`.`order_time` < toDateTime('2024-03-03 00:00:00')))",
      ],
    },
  },
]);

const refused = (whereTree: FilterGroup, mode: 'where' | 'having' = 'where'): QueryError => {
  const request: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], [mode]: whereTree };
  try {
    compileCubeQuery(ordersModel, request, { dialect: 'duckdb', now: NOW });
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
};

describe('refused filters', () => {
  it.each<[string, FilterGroup, string]>([
    ['like on a number', where(4, 'like', ['1']), '过滤条件【金额】不支持函数 like'],
    ['indexIn on a date', where(5, 'indexIn', ['2024']), '过滤条件【下单时间】不支持函数 indexIn'],
    ['a missing value', where(1, 'eq', []), '过滤条件【省份】缺少值'],
    ['between with one value', where(4, 'between', [1]), '过滤条件【金额】缺少值'],
    ['a number that is not one', where(4, 'gt', ['1; DROP TABLE x']), '过滤条件【金额】的值必须是数字'],
    ['infinity (refused by the schema)', where(4, 'gt', [Infinity]), '无效输入（where.conditions.0.conditions.0.values.0）'],
    ['a date that is not one', where(5, 'eq', ['2024-02-30']), '过滤条件【下单时间】的日期格式不正确'],
    ['relative time on text', where(1, 'eq', [1], { timeType: 'relative' }), '过滤条件【省份】只有日期字段可以使用相对时间'],
    ['a negative relative count', where(5, 'eq', [-1], { timeType: 'relative' }), '过滤条件【下单时间】的值必须是数字'],
    ['an aggregate formula in where', where(9, 'gt', [1]), '聚合字段【客单价】只能用于结果筛选'],
    ['an unknown column', where(404, 'eq', ['x']), '字段【404】不存在'],
    [
      'a second condition beside in',
      {
        conditions: [
          {
            cubeColumnId: 1,
            conditions: [
              { function: 'in', values: ['a'] },
              { function: 'eq', values: ['b'] },
            ],
          },
        ],
      },
      'in、notIn、indexIn只允许一个条件',
    ],
    ['an item without conditions', { conditions: [{ cubeColumnId: 1, conditions: [] }] }, '请补充过滤条件'],
    [
      'an unknown function',
      { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'exec' as 'eq', values: ['x'] }] }] },
      '（where.conditions.0.conditions.0.function）',
    ],
    ['three levels of groups', { filters: [{ filters: [{ conditions: [] }] } as FilterGroup] } as FilterGroup, '过滤条件最多嵌套两层'],
    ['SUM of text in having', where(1, 'gt', [1]), '字段【省份】不是数值，不能求和或求平均'],
  ])('%s', (name, tree, message) => {
    const error = refused(tree, name.includes('having') ? 'having' : 'where');
    expect(error.message).toContain(message);
    expect(error.status).toBe(400);
  });
});

describe('NUL and broken unicode in values', () => {
  const nul = where(1, 'eq', ['a\0b']);
  const lone = where(1, 'eq', ['a\uD800b']);
  it('refuses NUL where the engine cannot store it, escapes it where it can', () => {
    for (const dialect of ['duckdb', 'postgres'] as const) {
      expect(() => compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], where: nul }, { dialect, now: NOW })).toThrow(
        '值中不能包含空字符（\\0）',
      );
    }
    expect(compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], where: nul }, { dialect: 'mysql', now: NOW }).params).toEqual(['a\0b']);
    expect(compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], where: nul }, { dialect: 'clickhouse', now: NOW }).sql).toContain("= 'a\\0b'");
  });

  it('refuses a lone surrogate everywhere', () => {
    for (const dialect of Object.keys(DIALECTS) as QueryDialect[]) {
      expect(() => compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], where: lone }, { dialect, now: NOW })).toThrow(
        '值中包含无效的Unicode字符',
      );
    }
  });
});
