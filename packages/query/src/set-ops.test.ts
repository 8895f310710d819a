import { describe, expect, it } from 'vitest';
import { compileMembers, DIALECTS, planCubeQuery, withCapabilities, type Dialect, type MemberOperand, type QueryDialect } from './index.ts';
import { withoutUnusedJoins } from './set-ops.ts';
import { NOW, ordersModel, singleTableModel } from './testing/fixtures.ts';

/** 上海 phones with their province as output ∪ an imported member table − phones spending over 100 (issue 18). */
const operands = (d: Dialect): MemberOperand[] => {
  const where = { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'eq' as const, values: ['上海'] }] }] };
  const having = { conditions: [{ cubeColumnId: 4, conditions: [{ function: 'gt' as const, values: [100] }] }] };
  const plan = (request: Parameters<typeof planCubeQuery>[1]) => planCubeQuery(singleTableModel, request, { dialect: d, now: NOW });
  return [
    {
      kind: 'plan',
      op: 'intersect',
      keyPlan: plan({ dimensions: [{ fieldId: 3 }], where }),
      keyFieldId: 3,
      outputPlan: plan({ dimensions: [{ fieldId: 3 }, { fieldId: 1 }], where }),
    },
    { kind: 'table', op: 'union', table: { schema: null, name: 'members_1' }, keyColumn: 'phone' },
    { kind: 'plan', op: 'except', keyPlan: plan({ dimensions: [{ fieldId: 3 }], having }), keyFieldId: 3, outputPlan: null },
  ];
};

// Run on DuckDB, PostgreSQL, MariaDB and ClickHouse 18.16 through the audience engine tests (apps/server audience/engines.test.ts).
const expected: Record<QueryDialect, [string, (string | number)[]]> = {
  duckdb: [
    'SELECT "k" AS "phone", MAX("c1") AS "c1" FROM (SELECT "d0" AS "k", CAST("d1" AS VARCHAR) AS "c1" FROM (SELECT "o"."user_phone" AS "d0", "o"."province" AS "d1" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1, 2) AS "b1" WHERE "d0" IS NOT NULL UNION ALL SELECT "d0" AS "k", CAST($2 AS VARCHAR) AS "c1" FROM (SELECT "t"."phone" AS "d0" FROM "members_1" AS "t") AS "b2" WHERE "d0" IS NOT NULL) AS "u" WHERE "k" IN (SELECT "k" AS "k" FROM (SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $3 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "t"."phone" AS "d0" FROM "members_1" AS "t") AS "o2" WHERE "d0" IS NOT NULL) AS "s1" EXCEPT SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $4) AS "o3" WHERE "d0" IS NOT NULL) AS "s2") GROUP BY 1',
    ['上海', '', '上海', 100],
  ],
  postgres: [
    'SELECT "k" AS "phone", MAX("c1") AS "c1" FROM (SELECT "d0" AS "k", CAST("d1" AS TEXT) AS "c1" FROM (SELECT "o"."user_phone" AS "d0", "o"."province" AS "d1" FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1, 2) AS "b1" WHERE "d0" IS NOT NULL UNION ALL SELECT "d0" AS "k", CAST($2 AS TEXT) AS "c1" FROM (SELECT "t"."phone" AS "d0" FROM "members_1" AS "t") AS "b2" WHERE "d0" IS NOT NULL) AS "u" WHERE "k" IN (SELECT "k" AS "k" FROM (SELECT "k" AS "k" FROM (SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" WHERE "o"."province" = $3 GROUP BY 1) AS "o1" WHERE "d0" IS NOT NULL UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "t"."phone" AS "d0" FROM "members_1" AS "t") AS "o2" WHERE "d0" IS NOT NULL) AS "s1" EXCEPT SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM("o"."amount") > $4) AS "o3" WHERE "d0" IS NOT NULL) AS "s2") GROUP BY 1',
    ['上海', '', '上海', 100],
  ],
  mysql: [
    'SELECT `k` AS `phone`, MAX(`c1`) AS `c1` FROM (SELECT `d0` AS `k`, CAST(`d1` AS CHAR) AS `c1` FROM (SELECT `o`.`user_phone` AS `d0`, `o`.`province` AS `d1` FROM `ods_order` AS `o` WHERE `o`.`province` = ? GROUP BY 1, 2) AS `b1` WHERE `d0` IS NOT NULL UNION ALL SELECT `d0` AS `k`, CAST(? AS CHAR) AS `c1` FROM (SELECT `t`.`phone` AS `d0` FROM `members_1` AS `t`) AS `b2` WHERE `d0` IS NOT NULL) AS `u` WHERE `k` IN (SELECT DISTINCT `k` AS `k` FROM (SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = ? GROUP BY 1) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `t`.`phone` AS `d0` FROM `members_1` AS `t`) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`) AS `s2` WHERE `k` NOT IN (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` GROUP BY 1 HAVING SUM(`o`.`amount`) > ?) AS `o3` WHERE `d0` IS NOT NULL)) GROUP BY 1',
    ['上海', '', '上海', 100],
  ],
  clickhouse: [
    "SELECT `k` AS `phone`, MAX(`c1`) AS `c1` FROM (SELECT `d0` AS `k`, toString(`d1`) AS `c1` FROM (SELECT `o`.`user_phone` AS `d0`, `o`.`province` AS `d1` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`, `o`.`province`) AS `b1` WHERE `d0` IS NOT NULL UNION ALL SELECT `d0` AS `k`, '' AS `c1` FROM (SELECT `t`.`phone` AS `d0` FROM `members_1` AS `t`) AS `b2` WHERE `d0` IS NOT NULL) AS `u` WHERE `k` IN (SELECT DISTINCT `k` AS `k` FROM (SELECT DISTINCT `k` AS `k` FROM (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` WHERE `o`.`province` = '上海' GROUP BY `o`.`user_phone`) AS `o1` WHERE `d0` IS NOT NULL UNION ALL SELECT DISTINCT `d0` AS `k` FROM (SELECT `t`.`phone` AS `d0` FROM `members_1` AS `t`) AS `o2` WHERE `d0` IS NOT NULL) AS `s1`) AS `s2` WHERE `k` NOT IN (SELECT `d0` AS `k` FROM (SELECT `o`.`user_phone` AS `d0` FROM `ods_order` AS `o` GROUP BY `o`.`user_phone` HAVING SUM(`o`.`amount`) > 100) AS `o3` WHERE `d0` IS NOT NULL)) GROUP BY `k`",
    [],
  ],
};

describe('audience member statement', () => {
  it.each(Object.keys(DIALECTS) as QueryDialect[])('%s: 交 with outputs, 并 an imported table, 差 a having rule', (name) => {
    const compiled = compileMembers(DIALECTS[name], operands(DIALECTS[name]));
    expect([compiled.sql, compiled.params]).toEqual(expected[name]);
    expect(compiled.columns).toEqual(['phone', 'c1']);
    expect(compiled.count.sql).toBe(
      `SELECT COUNT(*) AS ${DIALECTS[name].quoteIdentifier('total')} FROM (${compiled.sql}) AS ${DIALECTS[name].quoteIdentifier('a')}`,
    );
  });

  it('is the set operation alone without output fields', () => {
    const d = DIALECTS.postgres;
    const plain = operands(d).map((o) => (o.kind === 'plan' ? { ...o, outputPlan: null } : o));
    const compiled = compileMembers(d, plain);
    expect(compiled.columns).toEqual(['phone']);
    expect(compiled.sql.startsWith('SELECT "k" AS "phone" FROM (')).toBe(true);
    expect(compiled.sql).toContain(' UNION SELECT DISTINCT "d0" AS "k" FROM (SELECT "t"."phone" AS "d0" FROM "members_1" AS "t")');
    // The key reads are grouped by the key: no second DISTINCT over them (the member table's keeps one).
    expect(compiled.sql).toContain(' EXCEPT SELECT "d0" AS "k" FROM (SELECT "o"."user_phone" AS "d0" FROM "ods_order" AS "o" GROUP BY 1 HAVING SUM(');
  });

  it('previews with one statement (the total as a window count) where the engine has window functions', () => {
    for (const name of Object.keys(DIALECTS) as QueryDialect[]) {
      const d = DIALECTS[name];
      const compiled = compileMembers(d, operands(d), 100);
      if (name === 'clickhouse') {
        expect(compiled.preview).toBeNull();
        continue;
      }
      const q = (x: string) => d.quoteIdentifier(x);
      expect(compiled.preview!.sql).toBe(
        `SELECT ${q('a')}.${q('phone')}, ${q('a')}.${q('c1')}, COUNT(*) OVER () AS ${q('__shutu_total')} FROM (${compiled.sql}) ${q('a')} LIMIT 100`,
      );
      expect(compiled.preview!.params).toEqual(compiled.params);
    }
  });

  it('decides the one-statement preview by the windowFunctions capability, never by the engine name', () => {
    const noWindows = withCapabilities('duckdb', { windowFunctions: false });
    expect(compileMembers(noWindows, operands(noWindows), 100).preview).toBeNull();
    const withWindows = withCapabilities('clickhouse', { windowFunctions: true });
    expect(compileMembers(withWindows, operands(withWindows), 100).preview!.sql).toContain('COUNT(*) OVER () AS `__shutu_total`');
  });

  it('leaves out LEFT JOINs a key read does not use, keeps them under a having rule or a filter on the joined table', () => {
    const d = DIALECTS.duckdb;
    const plan = (request: Parameters<typeof planCubeQuery>[1]) => planCubeQuery(ordersModel, request, { dialect: d, now: NOW });
    const keys = plan({ dimensions: [{ fieldId: 3 }], where: { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'eq', values: ['上海'] }] }] } });
    expect(keys.query.k === 'select' && keys.query.joins).toHaveLength(1);
    const pruned = withoutUnusedJoins(keys).query;
    expect(pruned.k === 'select' && pruned.joins).toEqual([]);
    const onUser = plan({ dimensions: [{ fieldId: 3 }], where: { conditions: [{ cubeColumnId: 8, conditions: [{ function: 'gt', values: [30] }] }] } });
    expect(withoutUnusedJoins(onUser)).toBe(onUser);
    const having = plan({ dimensions: [{ fieldId: 3 }], having: { conditions: [{ cubeColumnId: 4, conditions: [{ function: 'gt', values: [100] }] }] } });
    expect(withoutUnusedJoins(having)).toBe(having);
    const compiled = compileMembers(d, [{ kind: 'plan', op: 'intersect', keyPlan: keys, keyFieldId: 3, outputPlan: null }]);
    expect(compiled.sql).not.toContain('JOIN');
  });
});
