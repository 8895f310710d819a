import type { CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { groupPlans, planCubeQuery, withCapabilities, type Dialect, type QueryDialect } from './index.ts';
import { where } from './testing/expect-sql.ts';
import { NOW, singleTableModel } from './testing/fixtures.ts';

/** Time axes of ods_order.order_time (field 5) over the rows of one viewer (channel = 线上). */
const axis = (granularity: 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'YEAR' | 'HOUR', extra: Partial<CubeQueryRequest> = {}): CubeQueryRequest => ({
  dimensions: [{ fieldId: 5, granularity }],
  measures: [{ fieldId: 4 }],
  sort: [{ fieldId: 5, direction: 'ASC' }],
  limit: 1000,
  ...extra,
});
const BY_DAY = axis('DAY', { measures: [{ fieldId: 3, aggregation: 'COUNT' }], sort: [{ fieldId: 5, direction: 'DESC' }], limit: 30 });
const BY_MONTH = axis('MONTH', { measures: [{ fieldId: 4 }, { fieldId: 4, aggregation: 'AVG' }] });

const plansFor = (dialect: QueryDialect | Dialect, requests: CubeQueryRequest[], rowFilter = '线上') =>
  requests.map((r) => planCubeQuery(singleTableModel, r, { dialect, now: NOW, rowFilters: [where(2, 'eq', [rowFilter])] }));

const EXPECTED =
  'WITH "days" AS MATERIALIZED (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "t0", COUNT("o"."user_phone") AS "p0", SUM("o"."amount") AS "p1", COUNT("o"."amount") AS "p2" ' +
  'FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1) SELECT * FROM (' +
  '(SELECT * FROM (SELECT 0 AS "q", "o0"."d0" AS "c0_0", "o0"."m0" AS "c0_1", NULL AS "c1_0", NULL AS "c1_1", NULL AS "c1_2", ROW_NUMBER() OVER (ORDER BY "o0"."d0" DESC NULLS LAST) AS "rn" ' +
  'FROM (SELECT DATE_TRUNC(\'day\', "days"."t0") AS "d0", COALESCE(SUM("days"."p0"), 0) AS "m0" FROM "days" AS "days" GROUP BY 1) AS "o0") AS "b0" WHERE "rn" <= 30) UNION ALL ' +
  '(SELECT * FROM (SELECT 1 AS "q", NULL AS "c0_0", NULL AS "c0_1", "o1"."d0" AS "c1_0", "o1"."m0" AS "c1_1", "o1"."m1" AS "c1_2", ROW_NUMBER() OVER (ORDER BY "o1"."d0" ASC NULLS LAST) AS "rn" ' +
  'FROM (SELECT DATE_TRUNC(\'month\', "days"."t0") AS "d0", SUM("days"."p1") AS "m0", SUM("days"."p1") / NULLIF(SUM("days"."p2"), 0) AS "m1" FROM "days" AS "days" GROUP BY 1) AS "o1") AS "b1" WHERE "rn" <= 1000)' +
  ') AS "u" ORDER BY "q", "rn"';

describe('time axes sharing their days (one grouping of the rows by day for the time axes of one column)', () => {
  it('duckdb: a daily count and a monthly sum and average in one statement, each partial aggregate once, the row filter bound once', () => {
    const { groups, alone } = groupPlans(plansFor('duckdb', [BY_DAY, BY_MONTH]), { distinctOnly: true });
    expect(alone).toEqual([]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.members).toEqual([0, 1]);
    expect(groups[0]!.sql).toBe(EXPECTED);
    expect(groups[0]!.params).toEqual(['线上']);
  });

  it("splits the rows back per chart, under each chart's own aliases and in the engine's order", () => {
    const [group] = groupPlans(plansFor('duckdb', [BY_DAY, BY_MONTH])).groups;
    const rows = [
      { q: 0, c0_0: '2026-03-02', c0_1: 4, c1_0: null, c1_1: null, c1_2: null, rn: 1 },
      { q: 0, c0_0: '2026-03-01', c0_1: 0, c1_0: null, c1_1: null, c1_2: null, rn: 2 },
      { q: 1, c0_0: null, c0_1: null, c1_0: '2026-03-01', c1_1: 12.5, c1_2: null, rn: 1 },
    ];
    expect(group!.split(rows)).toEqual([
      [
        { d0: '2026-03-02', m0: 4 },
        { d0: '2026-03-01', m0: 0 },
      ],
      [{ d0: '2026-03-01', m0: 12.5, m1: null }],
    ]);
  });

  it('leaves alone what cannot share: one axis by itself, an hour, another time column, a distinct count, HAVING, other rows', () => {
    const distinct = axis('WEEK', { measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }] });
    const having = axis('YEAR', { having: { conditions: [{ cubeColumnId: 4, aggregation: 'SUM', conditions: [{ function: 'gt', values: [1] }] }] } });
    expect(groupPlans(plansFor('duckdb', [BY_MONTH]), { distinctOnly: true })).toEqual({ groups: [], alone: [0] });
    expect(groupPlans(plansFor('duckdb', [BY_MONTH, axis('HOUR'), distinct, having]), { distinctOnly: true })).toEqual({ groups: [], alone: [0, 1, 2, 3] });
    const otherRows = [...plansFor('duckdb', [BY_MONTH]), ...plansFor('duckdb', [BY_DAY], '线下')];
    expect(groupPlans(otherRows, { distinctOnly: true })).toEqual({ groups: [], alone: [0, 1] });
  });

  it('shares the days of the widest axis: by month alone sums the days by month and province, an axis by channel keeps its own', () => {
    const withDimension = (granularity: 'MONTH' | 'QUARTER', fieldId: number): CubeQueryRequest => ({
      ...axis(granularity),
      dimensions: [{ fieldId: 5, granularity }, { fieldId }],
    });
    const plans = plansFor('duckdb', [BY_MONTH, withDimension('MONTH', 1), withDimension('QUARTER', 2), withDimension('QUARTER', 1)]);
    const { groups, alone } = groupPlans(plans, { distinctOnly: true });
    // The widest first (by month and province), then the axes within its dimensions; by quarter and channel alone.
    expect(groups.map((g) => g.members)).toEqual([[1, 0, 3]]);
    expect(alone).toEqual([2]);
    const sql = groups[0]!.sql;
    expect(sql).toContain('"o"."province" AS "k0"');
    expect(sql).toContain('GROUP BY 1, 2)');
    // By month alone: its outer level sums the days over the provinces.
    expect(sql).toContain(
      'FROM (SELECT DATE_TRUNC(\'month\', "days"."t0") AS "d0", SUM("days"."p0") AS "m0", SUM("days"."p0") / NULLIF(SUM("days"."p1"), 0) AS "m1" FROM "days" AS "days" GROUP BY 1) AS "o1"',
    );
    expect(sql).toContain(
      'FROM (SELECT DATE_TRUNC(\'quarter\', "days"."t0") AS "d0", "days"."k0" AS "d1", SUM("days"."p0") AS "m0" FROM "days" AS "days" GROUP BY 1, 2) AS "o2"',
    );
  });

  it('with the grouped batch the axes leave the GROUPING SETS statement for their own shared days', () => {
    const card: CubeQueryRequest = { measures: [{ fieldId: 4 }], limit: 1000 };
    const byProvince: CubeQueryRequest = { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], limit: 10 };
    const { groups, alone } = groupPlans(plansFor('duckdb', [card, BY_DAY, byProvince, BY_MONTH]));
    expect(alone).toEqual([]);
    expect(groups.map((g) => g.members)).toEqual([
      [1, 3],
      [0, 2],
    ]);
    expect(groups[1]!.sql).toContain('GROUPING SETS');
    expect(groups[1]!.sql).not.toContain('order_time');
  });

  it('read chart by chart, charts without a time axis share the grouping of the widest chart whose dimensions hold theirs', () => {
    const by = (fieldIds: number[], measures: CubeQueryRequest['measures']): CubeQueryRequest => ({
      dimensions: fieldIds.map((fieldId) => ({ fieldId })),
      measures,
      sort: [{ fieldId: fieldIds[0]!, direction: 'ASC' }],
      limit: 100,
    });
    const card: CubeQueryRequest = { measures: [{ fieldId: 4 }], limit: 1000 };
    const byProvince = by([1], [{ fieldId: 4 }]);
    const byChannel = by([2], [{ fieldId: 3, aggregation: 'COUNT' }]);
    const provinceByChannel = by([1, 2], [{ fieldId: 4 }]);
    const monthByProvince: CubeQueryRequest = { ...axis('MONTH'), dimensions: [{ fieldId: 5, granularity: 'MONTH' }, { fieldId: 1 }] };
    const plans = plansFor('duckdb', [card, byProvince, byChannel, provinceByChannel]);
    const { groups, alone } = groupPlans(plans, { distinctOnly: true });
    // The card (no dimension: one pass, no grouping) stays alone.
    expect(alone).toEqual([0]);
    expect(groups.map((g) => g.members)).toEqual([[3, 1, 2]]);
    const sql = groups[0]!.sql;
    expect(sql).toMatch(
      /^WITH "keys" AS MATERIALIZED \(SELECT "o"\."province" AS "k0", "o"\."channel" AS "k1", SUM\("o"\."amount"\) AS "p0", COUNT\("o"\."user_phone"\) AS "p1" FROM "ods_order" AS "o" WHERE "o"\."channel" = \$1 GROUP BY 1, 2\)/,
    );
    // By channel: the counts summed over the provinces.
    expect(sql).toContain('FROM (SELECT "keys"."k1" AS "d0", COALESCE(SUM("keys"."p1"), 0) AS "m0" FROM "keys" AS "keys" GROUP BY 1) AS "o2"');
    // A chart by province joins the days of an axis by month and province rather than a grouping of its own.
    const withAxis = groupPlans(plansFor('duckdb', [byProvince, monthByProvince]), { distinctOnly: true });
    expect(withAxis.groups.map((g) => g.members)).toEqual([[1, 0]]);
    expect(withAxis.groups[0]!.sql).toContain('FROM (SELECT "days"."k0" AS "d0", SUM("days"."p0") AS "m0" FROM "days" AS "days" GROUP BY 1) AS "o1"');
    // The grouped batch keeps them in its GROUPING SETS statement (one scan for every other chart).
    const grouped = groupPlans(plans);
    expect(grouped.groups.map((g) => g.members)).toEqual([[0, 1, 2, 3]]);
    expect(grouped.groups[0]!.sql).toContain('GROUPING SETS');
  });

  it("binds a formula's value outside its aggregate in the chart's own branch, numbered after the shared rows' values", () => {
    const model = {
      ...singleTableModel,
      fields: [
        ...singleTableModel.fields,
        { id: 99, columnAttr: 'VIRTUAL' as const, columnTitle: '加权金额', columnFormula: 'SUM([金额]) * ${rate}', viewDataType: 'NUMBER' as const },
      ],
    };
    const weighted = axis('WEEK', { measures: [{ fieldId: 99 }] });
    const plans = [BY_DAY, weighted].map((r) =>
      planCubeQuery(model, r, { dialect: 'duckdb', now: NOW, params: { rate: 1.5 }, rowFilters: [where(2, 'eq', ['线上'])] }),
    );
    const [group] = groupPlans(plans, { distinctOnly: true }).groups;
    expect(group!.members).toEqual([0, 1]);
    expect(group!.params).toEqual(['线上', 1.5]);
    expect(group!.sql).toContain('SUM("days"."p1") * CAST($2 AS DOUBLE) AS "m0"');
  });

  it('follows the capabilities, never the name: no day function (PostgreSQL here) or no window functions, no sharing', () => {
    expect(groupPlans(plansFor('postgres', [BY_DAY, BY_MONTH]), { distinctOnly: true })).toEqual({ groups: [], alone: [0, 1] });
    expect(groupPlans(plansFor(withCapabilities('duckdb', { windowFunctions: false }), [BY_DAY, BY_MONTH]), { distinctOnly: true })).toEqual({
      groups: [],
      alone: [0, 1],
    });
  });
});
