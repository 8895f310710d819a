import type { CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { DIALECTS, groupPlans, planCubeQuery, withCapabilities, type Dialect, type QueryDialect } from './index.ts';
import { where } from './testing/expect-sql.ts';
import { NOW, ordersModel, singleTableModel } from './testing/fixtures.ts';

/** A board's charts over one dataset with the viewer's row filter (channel = 线上). */
const CARD: CubeQueryRequest = { measures: [{ fieldId: 4 }], limit: 1000 };
const BY_PROVINCE: CubeQueryRequest = {
  dimensions: [{ fieldId: 1 }],
  measures: [{ fieldId: 4 }, { fieldId: 3, aggregation: 'COUNT' }],
  sort: [{ fieldId: 4, direction: 'DESC' }],
  limit: 10,
};
const BY_MONTH: CubeQueryRequest = {
  dimensions: [{ fieldId: 5, granularity: 'MONTH' }],
  measures: [{ fieldId: 4 }],
  sort: [{ fieldId: 5, direction: 'ASC' }],
  limit: 1000,
};
const DISTINCT: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }], limit: 1000 };

const plansFor = (dialect: QueryDialect | Dialect, requests: CubeQueryRequest[], rowFilter = '线上') =>
  requests.map((r) => planCubeQuery(singleTableModel, r, { dialect, now: NOW, rowFilters: [where(2, 'eq', [rowFilter])] }));

const EXPECTED =
  'WITH "g" AS MATERIALIZED (SELECT "o"."province" AS "g0", DATE_TRUNC(\'month\', "o"."order_time") AS "g1", SUM("o"."amount") AS "a0", COUNT("o"."user_phone") AS "a1", 1 AS "s0", 1 AS "s1", 1 AS "s2" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY GROUPING SETS ((5), (1, 6), (2, 7))) ' +
  'SELECT * FROM (' +
  '(SELECT * FROM (SELECT 0 AS "q", "g0", "g1", "a0", "a1", ROW_NUMBER() OVER () AS "rn" FROM "g" WHERE "s0" IS NOT NULL) AS "b0" WHERE "rn" <= 1000) UNION ALL ' +
  '(SELECT * FROM (SELECT 1 AS "q", "g0", "g1", "a0", "a1", ROW_NUMBER() OVER (ORDER BY "a0" DESC NULLS LAST) AS "rn" FROM "g" WHERE "s1" IS NOT NULL) AS "b1" WHERE "rn" <= 10) UNION ALL ' +
  '(SELECT * FROM (SELECT 2 AS "q", "g0", "g1", "a0", "a1", ROW_NUMBER() OVER (ORDER BY "g1" ASC NULLS LAST) AS "rn" FROM "g" WHERE "s2" IS NOT NULL) AS "b2" WHERE "rn" <= 1000)' +
  ') AS "u" ORDER BY "q", "rn"';

describe('grouped statements (one scan for the charts that read the same rows)', () => {
  // The PostgreSQL form was run on PostgreSQL 15 and the DuckDB form on DuckDB while writing it.
  it.each(['duckdb', 'postgres'] as const)('%s: a card, a top-10 bar and a monthly line in one GROUPING SETS statement; COUNT DISTINCT alone', (dialect) => {
    const { groups, alone } = groupPlans(plansFor(dialect, [CARD, BY_PROVINCE, BY_MONTH, DISTINCT]));
    expect(alone).toEqual([3]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.members).toEqual([0, 1, 2]);
    expect(groups[0]!.sql).toBe(EXPECTED);
    expect(groups[0]!.params).toEqual(['线上']);
  });

  it.each(['mysql', 'clickhouse'] as const)('%s: no grouping, every chart its own statement', (dialect) => {
    expect(groupPlans(plansFor(dialect, [CARD, BY_PROVINCE, BY_MONTH]))).toEqual({ groups: [], alone: [0, 1, 2] });
  });

  it('the choice follows the capabilities, never the name: DuckDB without GROUPING SETS or window functions runs each chart alone', () => {
    for (const changes of [{ groupingSets: false }, { windowFunctions: false }]) {
      expect(groupPlans(plansFor(withCapabilities('duckdb', changes), [CARD, BY_PROVINCE, BY_MONTH]))).toEqual({ groups: [], alone: [0, 1, 2] });
    }
    // A ClickHouse server that had both (not 18.16) would group; only the flags decide.
    const flagged = withCapabilities('clickhouse', { groupingSets: true, windowFunctions: true });
    expect(groupPlans(plansFor(flagged, [CARD, BY_PROVINCE])).groups.map((g) => g.members)).toEqual([[0, 1]]);
  });

  it('charts over other rows (another row filter: another viewer, another link) are not grouped together', () => {
    const plans = [...plansFor('duckdb', [CARD, BY_PROVINCE]), ...plansFor('duckdb', [BY_MONTH], '线下')];
    const { groups, alone } = groupPlans(plans);
    expect(groups.map((g) => g.members)).toEqual([[0, 1]]);
    expect(alone).toEqual([2]);
    expect(groups[0]!.params).toEqual(['线上']);
  });

  it('detail reads, HAVING, OFFSET and count queries run alone', () => {
    const detail: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], detail: true, limit: 20, withTotal: true };
    const having: CubeQueryRequest = { ...BY_PROVINCE, having: where(4, 'gt', [10]) };
    const offset: CubeQueryRequest = { ...BY_MONTH, offset: 10 };
    const { groups, alone } = groupPlans(plansFor('duckdb', [CARD, detail, having, offset, BY_PROVINCE]));
    expect(groups.map((g) => g.members)).toEqual([[0, 4]]);
    expect(alone).toEqual([1, 2, 3]);
  });

  it('a measure whose formula counts distinct values runs alone (客单价 = SUM / COUNT DISTINCT)', () => {
    const plans = [CARD, { measures: [{ fieldId: 9 }], limit: 1000 }, BY_MONTH].map((r) => planCubeQuery(ordersModel, r, { dialect: 'duckdb', now: NOW }));
    expect(groupPlans(plans).alone).toEqual([1]);
  });

  it('splits the rows back per chart under its own aliases, in the engine order, and keeps a NULL dimension', () => {
    const { groups } = groupPlans(plansFor('postgres', [CARD, BY_PROVINCE, BY_MONTH]));
    const rows = [
      { q: 0, g0: null, g1: null, a0: 300, a1: 3, rn: 1 },
      { q: 1, g0: '浙江', g1: null, a0: 200, a1: 2, rn: 1 },
      { q: 1, g0: null, g1: null, a0: 100, a1: 1, rn: 2 },
      { q: 2, g0: null, g1: '2024-01-01 00:00:00', a0: 300, a1: 3, rn: 1 },
    ];
    expect(groups[0]!.split(rows)).toEqual([
      [{ m0: 300 }],
      [
        { d0: '浙江', m0: 200, m1: 2 },
        { d0: null, m0: 100, m1: 1 },
      ],
      [{ d0: '2024-01-01 00:00:00', m0: 300 }],
    ]);
  });

  it('two or more exact distinct counts of one column join the statement through one aggregation by that column, where the dialect has the masks', () => {
    const CUSTOMERS: CubeQueryRequest = { measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }], limit: 1000 };
    const { groups, alone } = groupPlans(plansFor('duckdb', [CARD, BY_PROVINCE, DISTINCT, CUSTOMERS]));
    expect(alone).toEqual([]);
    const sql = groups[0]!.sql;
    // The row filter's value is bound twice: in the grouping sets and in the rows the masks read ($2).
    expect(groups[0]!.params).toEqual(['线上', '线上']);
    expect(sql).toContain('"r" AS NOT MATERIALIZED (SELECT "o"."user_phone" AS "x", "o"."province" AS "k0" FROM "ods_order" AS "o" WHERE "o"."channel" = $2)');
    expect(sql.match(/GROUP BY "r"\."x"/g)).toHaveLength(1);
    expect(sql).toContain('LEFT JOIN "n0" ON "g"."g0" IS NOT DISTINCT FROM "n0"."k"');
    expect(sql).toContain('CROSS JOIN "nt"');
    expect(sql).not.toContain('COUNT(DISTINCT "o"');
    const rows = [
      { q: 2, g0: '浙江', a0: null, a1: null, e0: 7, e1: null, rn: 1 },
      { q: 3, g0: null, a0: null, a1: null, e0: null, e1: 9, rn: 1 },
    ];
    expect(groups[0]!.split(rows).slice(2)).toEqual([[{ d0: '浙江', m0: 7 }], [{ m0: 9 }]]);
    // Over a table named like the statement's first CTE ("g" would hide it from the masks' rows): alone.
    const overG = { ...singleTableModel, tables: singleTableModel.tables.map((t) => ({ ...t, tableName: 'G' })) };
    const gPlans = [CARD, DISTINCT, CUSTOMERS].map((r) => planCubeQuery(overG, r, { dialect: 'duckdb', now: NOW }));
    expect(groupPlans(gPlans).alone).toEqual([0, 1, 2]);
    // PostgreSQL, or DuckDB without the capability: each distinct count alone, as before.
    for (const dialect of ['postgres', withCapabilities('duckdb', { distinctMasks: false })] as const) {
      expect(groupPlans(plansFor(dialect, [CARD, BY_PROVINCE, DISTINCT, CUSTOMERS])).alone).toEqual([2, 3]);
    }
  });

  it('charts with the same dimensions share one grouping set and the same measure one aggregate', () => {
    const sameDims: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], limit: 1000 };
    const { groups } = groupPlans(plansFor('duckdb', [BY_PROVINCE, sameDims]));
    expect(groups[0]!.sql).toContain('GROUP BY GROUPING SETS ((1, 4))');
    expect(groups[0]!.sql.match(/SUM\(/g)).toHaveLength(1);
  });
});

// Every dialect is known here: a new one must decide whether it groups.
it('knows every dialect', () => expect(Object.keys(DIALECTS).sort()).toEqual(['clickhouse', 'duckdb', 'mysql', 'postgres']));
