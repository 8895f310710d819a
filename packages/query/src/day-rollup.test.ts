import type { CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, groupPlans, planCubeQuery } from './index.ts';
import { compileAll, where } from './testing/expect-sql.ts';
import { NOW, singleTableModel } from './testing/fixtures.ts';

const duckdb = (request: CubeQueryRequest, options: { rowFilters?: ReturnType<typeof where>[] } = {}) =>
  compileCubeQuery(singleTableModel, request, { dialect: 'duckdb', now: NOW, ...options });

describe('time axes grouped by day first (DuckDB)', () => {
  it('groups by the day inside, truncates and combines the measures outside; HAVING, order and limit on the combined rows', () => {
    const request: CubeQueryRequest = {
      dimensions: [{ fieldId: 5, granularity: 'MONTH' }, { fieldId: 1 }],
      measures: [
        { fieldId: 4, aggregation: 'AVG' },
        { fieldId: 3, aggregation: 'COUNT' },
        { fieldId: 4, aggregation: 'MAX' },
      ],
      having: { relation: 'AND', conditions: [{ cubeColumnId: 3, aggregation: 'COUNT', conditions: [{ function: 'gt', values: [5] }] }], filters: [] },
      sort: [{ fieldId: 5, direction: 'ASC' }],
      limit: 100,
    };
    const { sql, params } = duckdb(request, { rowFilters: [where(1, 'eq', ['浙江'])] });
    expect(sql).toBe(
      'SELECT DATE_TRUNC(\'month\', "days"."d0") AS "d0", "days"."d1" AS "d1", SUM("days"."p0") / NULLIF(SUM("days"."p1"), 0) AS "m0", ' +
        'COALESCE(SUM("days"."p2"), 0) AS "m1", MAX("days"."p3") AS "m2" FROM (SELECT DATE_TRUNC(\'day\', "o"."order_time") AS "d0", "o"."province" AS "d1", ' +
        'SUM("o"."amount") AS "p0", COUNT("o"."amount") AS "p1", COUNT("o"."user_phone") AS "p2", MAX("o"."amount") AS "p3" FROM "ods_order" AS "o" ' +
        'WHERE "o"."province" = $1 GROUP BY 1, 2) AS "days" GROUP BY 1, 2 HAVING COALESCE(SUM("days"."p2"), 0) > $2 ORDER BY "d0" ASC NULLS LAST LIMIT 100',
    );
    expect(params).toEqual(['浙江', 5]);
  });

  it('leaves days, hours, distinct counts, detail rows and other engines as written', () => {
    const month = { fieldId: 5, granularity: 'MONTH' } as const;
    for (const unit of ['DAY', 'HOUR'] as const) {
      expect(duckdb({ dimensions: [{ fieldId: 5, granularity: unit }], measures: [{ fieldId: 4 }] }).sql).toBe(
        `SELECT DATE_TRUNC('${unit.toLowerCase()}', "o"."order_time") AS "d0", SUM("o"."amount") AS "m0" FROM "ods_order" AS "o" GROUP BY 1`,
      );
    }
    expect(duckdb({ dimensions: [month], measures: [{ fieldId: 3, aggregation: 'COUNT_DISTINCT' }] }).sql).toBe(
      'SELECT DATE_TRUNC(\'month\', "o"."order_time") AS "d0", COUNT(DISTINCT "o"."user_phone") AS "m0" FROM "ods_order" AS "o" GROUP BY 1',
    );
    // An approximate count takes the sketch (by month, as written), not the days.
    const approx = duckdb({ dimensions: [month], measures: [{ fieldId: 3, aggregation: 'APPROX_COUNT_DISTINCT' }] }).sql;
    expect(approx).toContain('FROM (SELECT DATE_TRUNC(\'month\', "o"."order_time") AS "d0", (hash("o"."user_phone") & 4095) AS "b"');
    expect(approx).not.toContain('"days"');
    expect(duckdb({ detail: true, dimensions: [month, { fieldId: 4 }], limit: 10 }).sql).toBe(
      'SELECT DATE_TRUNC(\'month\', "o"."order_time") AS "d0", "o"."amount" AS "d1" FROM "ods_order" AS "o" LIMIT 10',
    );
    const { postgres, mysql, clickhouse } = compileAll({ dimensions: [month], measures: [{ fieldId: 4 }] });
    for (const other of [postgres, mysql, clickhouse]) expect(other.sql).not.toContain('days');
  });

  it('keeps a time chart in the board’s grouped statement (the plan is unchanged; only a read alone is rolled up)', () => {
    const plans = [
      planCubeQuery(
        singleTableModel,
        { dimensions: [{ fieldId: 5, granularity: 'MONTH' }], measures: [{ fieldId: 4 }], limit: 100 },
        { dialect: 'duckdb', now: NOW },
      ),
      planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], limit: 100 }, { dialect: 'duckdb', now: NOW }),
    ];
    const { groups, alone } = groupPlans(plans);
    expect(alone).toEqual([]);
    expect(groups[0]!.sql).toContain('GROUPING SETS');
    expect(groups[0]!.sql).toContain('DATE_TRUNC(\'month\', "o"."order_time")');
  });
});
