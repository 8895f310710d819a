import type { CubeQueryRequest, FilterGroup } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, compileSetOperation, DIALECTS, planCubeQuery, QueryError, type CompileOptions, type QueryDialect } from './index.ts';
import { compileAll, where, type PerDialect } from './testing/expect-sql.ts';
import { NOW, ordersModel, singleTableModel } from './testing/fixtures.ts';

const refusal = (fn: () => unknown): QueryError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
};

const rowFilters: FilterGroup[] = [
  {
    relation: 'OR',
    conditions: [
      { cubeColumnId: 1, conditions: [{ function: 'eq', values: ['上海'] }] },
      { cubeColumnId: 1, conditions: [{ function: 'eq', values: ['北京'] }] },
    ],
  },
  { conditions: [{ cubeColumnId: 3, conditions: [{ function: 'notnull' }] }] },
];

describe('row filters', () => {
  const request: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], where: where(2, 'eq', ['app']) };
  const expected: PerDialect = {
    duckdb: [
      'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 AND ("o"."province" = $2 OR "o"."province" = $3) AND "o"."user_phone" IS NOT NULL GROUP BY 1',
      ['app', '上海', '北京'],
    ],
    postgres: [
      'SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 AND ("o"."province" = $2 OR "o"."province" = $3) AND "o"."user_phone" IS NOT NULL GROUP BY 1',
      ['app', '上海', '北京'],
    ],
    mysql: [
      'SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = ? AND (`o`.`province` = ? OR `o`.`province` = ?) AND `o`.`user_phone` IS NOT NULL GROUP BY 1',
      ['app', '上海', '北京'],
    ],
    clickhouse: [
      "SELECT `o`.`province` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = 'app' AND (`o`.`province` = '上海' OR `o`.`province` = '北京') AND `o`.`user_phone` IS NOT NULL GROUP BY `o`.`province`",
    ],
  };
  it.each(Object.keys(DIALECTS) as QueryDialect[])('are ANDed after the request filters (%s), even on columns the user may not read', (dialect) => {
    const compiled = compileAll(request, { rowFilters, excludedColumnIds: [3] })[dialect];
    const [sql, params = []] = expected[dialect];
    expect([compiled.sql, compiled.params]).toEqual([sql, params]);
  });

  it('cannot be escaped by an OR in the request', () => {
    const orRequest: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      where: { relation: 'OR', conditions: [where(2, 'eq', ['app']).conditions![0]!, where(2, 'eq', ['web']).conditions![0]!] },
    };
    const { sql } = compileCubeQuery(singleTableModel, orRequest, { dialect: 'postgres', now: NOW, rowFilters: [rowFilters[1]!] });
    expect(sql).toBe(
      'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."channel" = $1 OR "o"."channel" = $2) AND "o"."user_phone" IS NOT NULL GROUP BY 1',
    );
  });

  it('apply to the count query and to every audience operand', () => {
    const options: CompileOptions = { dialect: 'postgres', now: NOW, rowFilters: [rowFilters[1]!] };
    const compiled = compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], withTotal: true }, options);
    expect(compiled.count!.sql).toContain('WHERE "o"."user_phone" IS NOT NULL');
    const plan = planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 3 }] }, options);
    const audience = compileSetOperation([
      { plan, keyFieldId: 3 },
      { plan, keyFieldId: 3, op: 'union' },
    ]);
    expect(audience.sql.match(/WHERE "o"\."user_phone" IS NOT NULL/g)).toHaveLength(2);
  });

  it('are validated like any filter tree', () => {
    expect(
      refusal(() =>
        compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'duckdb', now: NOW, rowFilters: [where(404, 'eq', ['x'])] }),
      ).message,
    ).toBe('字段【404】不存在');
  });
});

describe('excluded columns', () => {
  const options = (excludedColumnIds: (number | string)[]): CompileOptions => ({ dialect: 'duckdb', now: NOW, excludedColumnIds });
  it.each<[string, CubeQueryRequest, string]>([
    ['as a dimension', { dimensions: [{ fieldId: 3 }] }, '手机号'],
    ['as a measure', { measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }] }, '手机号'],
    ['through a computed field', { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 9 }] }, '客单价'],
    ['in a where filter', { dimensions: [{ fieldId: 1 }], where: where(3, 'eq', ['138']) }, '手机号'],
    [
      'in a having filter',
      { dimensions: [{ fieldId: 1 }], having: { conditions: [{ cubeColumnId: 3, aggregation: 'COUNT', conditions: [{ function: 'gt', values: [1] }] }] } },
      '手机号',
    ],
    ['in a having filter on a computed field', { dimensions: [{ fieldId: 1 }], having: where(9, 'gt', [1]) }, '客单价'],
  ])('are refused %s', (_, request, title) => {
    const error = refusal(() => compileCubeQuery(ordersModel, request, options([3])));
    expect(error.message).toBe(`无权访问字段【${title}】`);
    expect(error.kind).toBe('permission');
    expect(error.status).toBe(403);
  });

  it('match ids given as text or numbers', () => {
    expect(refusal(() => compileCubeQuery(ordersModel, { dimensions: [{ fieldId: '3' }] }, options([3]))).status).toBe(403);
    expect(refusal(() => compileCubeQuery(ordersModel, { dimensions: [{ fieldId: 3 }] }, options(['3']))).status).toBe(403);
  });

  it('leave requests that do not touch them alone, joins included', () => {
    // The join key o.user_phone is excluded, yet joining on it reveals nothing.
    const { sql } = compileCubeQuery(ordersModel, { dimensions: [{ fieldId: 7 }], measures: [{ fieldId: 4 }] }, options([3, 6]));
    expect(sql).toContain('ON "o"."user_phone" = "u"."phone"');
  });
});

describe('row filters of which any one suffices (rowFilterSets)', () => {
  /** Two permission groups: 上海 rows with a phone, or every 北京 / 广州 row. */
  const anyOf: FilterGroup[] = [
    {
      conditions: [
        { cubeColumnId: 1, conditions: [{ function: 'eq', values: ['上海'] }] },
        { cubeColumnId: 3, conditions: [{ function: 'notnull' }] },
      ],
    },
    { conditions: [{ cubeColumnId: 1, conditions: [{ function: 'in', values: ['北京', '广州'] }] }] },
  ];
  const request: CubeQueryRequest = { dimensions: [{ fieldId: 2 }], measures: [{ fieldId: 4 }], where: where(2, 'eq', ['app']) };
  const expected: PerDialect = {
    duckdb: [
      'SELECT "o"."channel" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 AND "o"."amount" IS NOT NULL AND (("o"."province" = $2 AND "o"."user_phone" IS NOT NULL) OR "o"."province" IN ($3, $4)) GROUP BY 1',
      ['app', '上海', '北京', '广州'],
    ],
    postgres: [
      'SELECT "o"."channel" AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 AND "o"."amount" IS NOT NULL AND (("o"."province" = $2 AND "o"."user_phone" IS NOT NULL) OR "o"."province" IN ($3, $4)) GROUP BY 1',
      ['app', '上海', '北京', '广州'],
    ],
    mysql: [
      'SELECT `o`.`channel` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = ? AND `o`.`amount` IS NOT NULL AND ((`o`.`province` = ? AND `o`.`user_phone` IS NOT NULL) OR `o`.`province` IN (?, ?)) GROUP BY 1',
      ['app', '上海', '北京', '广州'],
    ],
    clickhouse: [
      "SELECT `o`.`channel` AS `d0`, SUM(`o`.`amount`) AS `m0` FROM `ods_order` AS `o` WHERE `o`.`channel` = 'app' AND `o`.`amount` IS NOT NULL AND ((`o`.`province` = '上海' AND `o`.`user_phone` IS NOT NULL) OR `o`.`province` IN ('北京', '广州')) GROUP BY `o`.`channel`",
    ],
  };
  it.each(Object.keys(DIALECTS) as QueryDialect[])('are ORed together and ANDed after the request and the other row filters (%s)', (dialect) => {
    const compiled = compileAll(request, { rowFilters: [where(4, 'notnull')], rowFilterSets: [anyOf], excludedColumnIds: [1, 3] })[dialect];
    const [sql, params = []] = expected[dialect];
    expect([compiled.sql, compiled.params]).toEqual([sql, params]);
  });

  it('cannot be escaped by an OR in the request', () => {
    const orRequest: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      where: { relation: 'OR', conditions: [where(2, 'eq', ['app']).conditions![0]!, where(2, 'eq', ['web']).conditions![0]!] },
    };
    const { sql } = compileCubeQuery(singleTableModel, orRequest, { dialect: 'postgres', now: NOW, rowFilterSets: [anyOf] });
    expect(sql).toBe(
      'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE ("o"."channel" = $1 OR "o"."channel" = $2) AND (("o"."province" = $3 AND "o"."user_phone" IS NOT NULL) OR "o"."province" IN ($4, $5)) GROUP BY 1',
    );
  });

  it('keep an OR group of one alternative in parentheses', () => {
    const { sql } = compileCubeQuery(
      singleTableModel,
      { dimensions: [{ fieldId: 2 }], where: where(2, 'eq', ['app']) },
      { dialect: 'postgres', now: NOW, rowFilterSets: [[rowFilters[0]!]] },
    );
    expect(sql).toBe(
      'SELECT "o"."channel" AS "d0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 AND ("o"."province" = $2 OR "o"."province" = $3) GROUP BY 1',
    );
  });

  it('admit every row when one alternative is empty, and add nothing when there are none', () => {
    const plain = compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'postgres', now: NOW }).sql;
    expect(
      compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'postgres', now: NOW, rowFilterSets: [[anyOf[0]!, { conditions: [] }]] })
        .sql,
    ).toBe(plain);
    expect(compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'postgres', now: NOW, rowFilterSets: [[]] }).sql).toBe(plain);
  });

  it('of several subjects (a viewer and a board owner) must each hold: their sets are ANDed', () => {
    const owner: FilterGroup[] = [{ conditions: [{ cubeColumnId: 2, conditions: [{ function: 'eq', values: ['app'] }] }] }];
    const { sql, params } = compileCubeQuery(
      singleTableModel,
      { dimensions: [{ fieldId: 1 }] },
      { dialect: 'postgres', now: NOW, rowFilterSets: [anyOf, owner] },
    );
    expect(sql).toBe(
      'SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE (("o"."province" = $1 AND "o"."user_phone" IS NOT NULL) OR "o"."province" IN ($2, $3)) AND "o"."channel" = $4 GROUP BY 1',
    );
    expect(params).toEqual(['上海', '北京', '广州', 'app']);
    // An unrestricted viewer (an empty filter) does not lift the owner's restriction.
    const viewerOpen = compileCubeQuery(
      singleTableModel,
      { dimensions: [{ fieldId: 1 }] },
      { dialect: 'postgres', now: NOW, rowFilterSets: [[{ conditions: [] }], owner] },
    );
    expect(viewerOpen.sql).toBe('SELECT "o"."province" AS "d0" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1');
  });

  it('apply to the count query and to every audience operand', () => {
    const options: CompileOptions = { dialect: 'postgres', now: NOW, rowFilterSets: [anyOf] };
    const compiled = compileCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], withTotal: true }, options);
    expect(compiled.count!.sql).toContain('WHERE ("o"."province" = $1 AND "o"."user_phone" IS NOT NULL) OR "o"."province" IN ($2, $3) GROUP BY 1');
    const plan = planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 3 }] }, options);
    const audience = compileSetOperation([
      { plan, keyFieldId: 3 },
      { plan, keyFieldId: 3, op: 'except' },
    ]);
    expect(audience.sql.match(/OR "o"\."province" IN/g)).toHaveLength(2);
  });

  it('are validated like any filter tree, even beside an empty alternative', () => {
    const error = refusal(() =>
      compileCubeQuery(
        singleTableModel,
        { dimensions: [{ fieldId: 1 }] },
        { dialect: 'duckdb', now: NOW, rowFilterSets: [[{ conditions: [] }, where(404, 'eq', ['x'])]] },
      ),
    );
    expect(error.message).toBe('字段【404】不存在');
  });
});
