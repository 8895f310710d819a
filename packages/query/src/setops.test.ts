import type { CubeQueryRequest, FieldId, SetOperation } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileSetOperation, DIALECTS, planCubeQuery, QueryError, withCapabilities, type Dialect, type QueryDialect } from './index.ts';
import type { PerDialect } from './testing/expect-sql.ts';
import { NOW, singleTableModel } from './testing/fixtures.ts';

/** Audience rules: phones in 上海; phones spending over 100; (channel, phone) pairs. */
const rules: [CubeQueryRequest, FieldId][] = [
  [{ dimensions: [{ fieldId: 3 }], where: { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'eq', values: ['上海'] }] }] } }, 3],
  [
    {
      dimensions: [{ fieldId: 3 }],
      measures: [{ fieldId: 4 }],
      having: { conditions: [{ cubeColumnId: 4, conditions: [{ function: 'gt', values: [100] }] }] },
    },
    3,
  ],
  [{ dimensions: [{ fieldId: 2 }, { fieldId: 3 }] }, 3],
];
const operands = (dialect: Dialect, ops: SetOperation[]) =>
  ops.map((op, i) => ({ plan: planCubeQuery(singleTableModel, rules[i]![0], { dialect, now: NOW }), keyFieldId: rules[i]![1], op }));

// Run on PGlite and MariaDB 10.11 (both forms) while writing: the same keys come back.
const two: Record<SetOperation, PerDialect> = {
  intersect: {
    duckdb: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL INTERSECT SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    postgres: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL INTERSECT SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    mysql: [
      'SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = ? GROUP BY 1) AS `o1` WHERE `d0` IS NOT NULL) AS `s1` WHERE `k` IN (SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1 HAVING SUM(`o`.`amount`) > ?) AS `o2` WHERE `d0` IS NOT NULL)',
      ['上海', 100],
    ],
    clickhouse: [
      "SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL) AS `s1` WHERE `k` IN (SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o2` WHERE `d0` IS NOT NULL)",
    ],
  },
  union: {
    duckdb: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    postgres: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    mysql: [
      'SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = ? GROUP BY 1) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1 HAVING SUM(`o`.`amount`) > ?) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`',
      ['上海', 100],
    ],
    clickhouse: [
      "SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`",
    ],
  },
  except: {
    duckdb: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL EXCEPT SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    postgres: [
      'SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL EXCEPT SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1"',
      ['上海', 100],
    ],
    mysql: [
      'SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = ? GROUP BY 1) AS `o1` WHERE `d0` IS NOT NULL) AS `s1` WHERE `k` NOT IN (SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY 1 HAVING SUM(`o`.`amount`) > ?) AS `o2` WHERE `d0` IS NOT NULL)',
      ['上海', 100],
    ],
    clickhouse: [
      "SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL) AS `s1` WHERE `k` NOT IN (SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o2` WHERE `d0` IS NOT NULL)",
    ],
  },
};

describe.each(Object.keys(two) as SetOperation[])('%s of two rules', (op) => {
  it.each(Object.keys(DIALECTS) as QueryDialect[])('%s', (name) => {
    const compiled = compileSetOperation(operands(DIALECTS[name], ['intersect', op]));
    const [sql, params = []] = two[op][name];
    expect(compiled).toEqual({ sql, params, keyAlias: 'k', count: null });
  });
});

describe('three rules fold left to right, with a total', () => {
  it.each<[QueryDialect, string, string]>([
    [
      'postgres',
      'SELECT "k" AS "k" FROM (SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1" EXCEPT SELECT DISTINCT "d1" AS "k" FROM (SELECT "o"."channel" AS "d0", "o"."user_phone" AS "d1" FROM "ods_order" AS "o" GROUP BY 1, 2) AS "o3" WHERE "d1" IS NOT NULL) AS "s2"',
      'SELECT COUNT(*) AS "total" FROM (SELECT "k" AS "k" FROM (SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $2) AS "o2" WHERE "d0" IS NOT NULL) AS "s1" EXCEPT SELECT DISTINCT "d1" AS "k" FROM (SELECT "o"."channel" AS "d0", "o"."user_phone" AS "d1" FROM "ods_order" AS "o" GROUP BY 1, 2) AS "o3" WHERE "d1" IS NOT NULL) AS "s2") AS "a"',
    ],
    [
      'clickhouse',
      "SELECT DISTINCT `k` AS `k` FROM (SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`) AS `s2` WHERE `k` NOT IN (SELECT DISTINCT `d1` AS `k` FROM (SELECT `o`.`channel` AS `d0`, `o`.`user_phone` AS `d1` FROM `ods_order` AS `o` GROUP BY `o`.`channel`, `o`.`user_phone`) AS `o3` WHERE `d1` IS NOT NULL)",
      "SELECT COUNT(*) AS `total` FROM (SELECT DISTINCT `k` AS `k` FROM (SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`) AS `s2` WHERE `k` NOT IN (SELECT DISTINCT `d1` AS `k` FROM (SELECT `o`.`channel` AS `d0`, `o`.`user_phone` AS `d1` FROM `ods_order` AS `o` GROUP BY `o`.`channel`, `o`.`user_phone`) AS `o3` WHERE `d1` IS NOT NULL)) AS `a`",
    ],
  ])('%s', (name, sql, count) => {
    const compiled = compileSetOperation(operands(DIALECTS[name], ['intersect', 'union', 'except']), { withTotal: true });
    expect(compiled.sql).toBe(sql);
    expect(compiled.count?.sql).toBe(count);
    expect(compiled.count?.params).toEqual(compiled.params);
  });
});

describe('capabilities, not names, pick the form', () => {
  it('uses INTERSECT on MySQL once the connector reports support', () => {
    const native = withCapabilities('mysql', { setOperations: true });
    const { sql } = compileSetOperation(operands(native, ['intersect', 'except']));
    expect(sql).toContain(') AS `o1` WHERE `d0` IS NOT NULL EXCEPT SELECT DISTINCT');
    expect(sql).not.toContain('NOT IN');
  });
});

describe('refusals', () => {
  it('needs the key among the dimensions', () => {
    const plan = planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'duckdb', now: NOW });
    expect(() => compileSetOperation([{ plan, keyFieldId: 3 }])).toThrow(new QueryError('request', '请选择数据集主键字段'));
    expect(() => compileSetOperation([])).toThrow('请选择数据集主键字段');
  });

  it('needs every rule planned for the same engine', () => {
    const [a] = operands(DIALECTS.duckdb, ['intersect']);
    const [b] = operands(DIALECTS.postgres, ['intersect']);
    expect(() => compileSetOperation([a!, { ...b!, op: 'union' }])).toThrow('same dialect');
  });
});
