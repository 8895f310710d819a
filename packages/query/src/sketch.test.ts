import type { CubeModelInput, CubeQueryRequest } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery, groupPlans, planCubeQuery, QueryError } from './index.ts';
import { compileAll, where } from './testing/expect-sql.ts';
import { NOW, singleTableModel } from './testing/fixtures.ts';

const APPROX = 'APPROX_COUNT_DISTINCT' as const;
/** The estimate DuckDB renders over the registers "sketch"."x" (2^12 buckets). */
const ESTIMATE = (() => {
  const rank = 'CASE WHEN "sketch"."x" = 0 THEN 53 ELSE 52 - FLOOR(LOG2("sketch"."x")) END';
  const raw = `CAST(12098218.894 AS DOUBLE) / (COALESCE(SUM(POW(2.0, -(${rank}))), 0) + (4096 - COUNT("sketch"."x")))`;
  return `CAST(ROUND(CASE WHEN COUNT("sketch"."x") < 4096 AND ${raw} <= 10240 THEN 4096 * LN(4096.0 / (4096 - COUNT("sketch"."x"))) ELSE ${raw} END) AS BIGINT)`;
})();

describe('近似去重计数 (APPROX_COUNT_DISTINCT)', () => {
  it('reads a HyperLogLog sketch on DuckDB, the other measures combined again from partials', () => {
    const request: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 3, aggregation: APPROX }, { fieldId: 4 }, { fieldId: 4, aggregation: 'AVG' }, { fieldId: 3, aggregation: 'COUNT' }],
      where: where(2, 'eq', ["app'; DROP TABLE x --"]),
      sort: [{ fieldId: 3, aggregation: APPROX, direction: 'DESC' }],
      limit: 10,
    };
    const { duckdb, postgres, mysql, clickhouse } = compileAll(request);
    expect(duckdb.sql).toBe(
      `SELECT "sketch"."d0" AS "d0", ${ESTIMATE} AS "m0", SUM("sketch"."p0") AS "m1", SUM("sketch"."p0") / NULLIF(SUM("sketch"."p1"), 0) AS "m2", ` +
        'COALESCE(SUM("sketch"."p2"), 0) AS "m3" FROM (SELECT "o"."province" AS "d0", (hash("o"."user_phone") & 4095) AS "b", ' +
        'MIN(hash("o"."user_phone") >> 12) FILTER (WHERE "o"."user_phone" IS NOT NULL) AS "x", SUM("o"."amount") AS "p0", COUNT("o"."amount") AS "p1", ' +
        'COUNT("o"."user_phone") AS "p2" FROM "ods_order" AS "o" WHERE "o"."channel" = $1 GROUP BY 1, 2) AS "sketch" GROUP BY 1 ORDER BY "m0" DESC NULLS LAST LIMIT 10',
    );
    // The user's value stays bound, once.
    expect(duckdb.params).toEqual(["app'; DROP TABLE x --"]);
    // No sketch in SQL: the engine's own approximate count (ClickHouse), else the exact one.
    expect(postgres.sql).toContain('COUNT(DISTINCT "o"."user_phone") AS "m0"');
    expect(postgres.sql).not.toContain('sketch');
    expect(mysql.sql).toContain('COUNT(DISTINCT `o`.`user_phone`) AS `m0`');
    expect(clickhouse.sql).toContain('uniq(`o`.`user_phone`) AS `m0`');
  });

  it('applies permission row filters inside the sketch and refuses an excluded column', () => {
    const request: CubeQueryRequest = { measures: [{ fieldId: 3, aggregation: APPROX }] };
    const compiled = compileCubeQuery(singleTableModel, request, { dialect: 'duckdb', now: NOW, rowFilters: [where(1, 'eq', ['浙江'])] });
    expect(compiled.sql).toBe(
      `SELECT ${ESTIMATE} AS "m0" FROM (SELECT (hash("o"."user_phone") & 4095) AS "b", MIN(hash("o"."user_phone") >> 12) FILTER (WHERE "o"."user_phone" IS NOT NULL) AS "x" ` +
        'FROM "ods_order" AS "o" WHERE "o"."province" = $1 GROUP BY 1) AS "sketch"',
    );
    expect(compiled.params).toEqual(['浙江']);
    expect(() => compileCubeQuery(singleTableModel, request, { dialect: 'duckdb', now: NOW, excludedColumnIds: [3] })).toThrow(QueryError);
  });

  it('keeps a HAVING on the approximate count, on the combined value', () => {
    const request: CubeQueryRequest = {
      dimensions: [{ fieldId: 1 }],
      measures: [{ fieldId: 3, aggregation: APPROX }],
      having: { relation: 'AND', conditions: [{ cubeColumnId: 3, aggregation: APPROX, conditions: [{ function: 'gt', values: [100] }] }], filters: [] },
    };
    const { sql, params } = compileCubeQuery(singleTableModel, request, { dialect: 'duckdb', now: NOW });
    expect(sql).toContain(`GROUP BY 1, 2) AS "sketch" GROUP BY 1 HAVING ${ESTIMATE} > $1`);
    expect(params).toEqual([100]);
  });

  it('counts exactly where the statement cannot be read from one sketch', () => {
    const exactBeside = compileCubeQuery(
      singleTableModel,
      {
        dimensions: [{ fieldId: 1 }],
        measures: [
          { fieldId: 3, aggregation: APPROX },
          { fieldId: 2, aggregation: 'COUNT_DISTINCT' },
        ],
      },
      { dialect: 'duckdb', now: NOW },
    );
    expect(exactBeside.sql).toBe(
      'SELECT "o"."province" AS "d0", COUNT(DISTINCT "o"."user_phone") AS "m0", COUNT(DISTINCT "o"."channel") AS "m1" FROM "ods_order" AS "o" GROUP BY 1',
    );
    const twoColumns = compileCubeQuery(
      singleTableModel,
      {
        measures: [
          { fieldId: 3, aggregation: APPROX },
          { fieldId: 2, aggregation: APPROX },
        ],
      },
      { dialect: 'duckdb', now: NOW },
    );
    expect(twoColumns.sql).toBe('SELECT COUNT(DISTINCT "o"."user_phone") AS "m0", COUNT(DISTINCT "o"."channel") AS "m1" FROM "ods_order" AS "o"');
  });

  it('is written in formulas too, and a formula over it is combined around the estimate', () => {
    const model: CubeModelInput = {
      ...singleTableModel,
      fields: [
        ...singleTableModel.fields,
        {
          id: 20,
          columnAttr: 'VIRTUAL',
          columnTitle: '人均金额',
          columnFormula: 'SUM([金额]) / APPROX_COUNT_DISTINCT([手机号])',
          viewDataType: 'NUMBER',
          dimensionType: 'ZHIBIAO',
        },
      ],
    };
    const { sql } = compileCubeQuery(model, { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 20 }] }, { dialect: 'duckdb', now: NOW });
    expect(sql).toBe(
      `SELECT "sketch"."d0" AS "d0", SUM("sketch"."p0") / NULLIF(${ESTIMATE}, 0) AS "m0" FROM (SELECT "o"."province" AS "d0", (hash("o"."user_phone") & 4095) AS "b", ` +
        'MIN(hash("o"."user_phone") >> 12) FILTER (WHERE "o"."user_phone" IS NOT NULL) AS "x", SUM("o"."amount") AS "p0" FROM "ods_order" AS "o" GROUP BY 1, 2) AS "sketch" GROUP BY 1',
    );
  });

  it('runs alone, never in a grouped board statement', () => {
    const plans = [
      planCubeQuery(
        singleTableModel,
        { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 3, aggregation: APPROX }], limit: 100 },
        { dialect: 'duckdb', now: NOW },
      ),
      planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 2 }], measures: [{ fieldId: 4 }], limit: 100 }, { dialect: 'duckdb', now: NOW }),
      planCubeQuery(singleTableModel, { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 4 }], limit: 100 }, { dialect: 'duckdb', now: NOW }),
    ];
    const { groups, alone } = groupPlans(plans);
    expect(alone).toEqual([0]);
    expect(groups.map((g) => g.members)).toEqual([[1, 2]]);
  });
});
