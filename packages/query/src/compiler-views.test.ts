import type { CubeModelInput } from '@shutu/contracts';
import { describe, expect, it } from 'vitest';
import { compileCubeQuery } from './index.ts';
import { describeSqlCases, where } from './testing/expect-sql.ts';
import { NOW, ordersModel } from './testing/fixtures.ts';

// A saved SQL view is a table to the dataset: compiled as a derived table `(statement) AS alias`
// in every dialect, joinable, read by computed fields and filters like any table's columns.

const VIEW_SQL = 'SELECT province, SUM(amount) AS total FROM ods_order GROUP BY province -- by province';
const views = new Map([['V_SQL_202401011200', VIEW_SQL]]);

/** The view joined to the orders table on province, with a computed field over the view. */
const viewModel: CubeModelInput = {
  tables: [
    { tableName: 'V_SQL_202401011200', tableAliasName: 'v' },
    { tableName: 'ods_order', tableAliasName: 'o' },
  ],
  joins: [{ joinType: 'INNER_JOIN', source: 'v', target: 'o', joinKeys: [{ sourceKey: 'province', targetKey: 'province' }] }],
  fields: [
    { id: 1, columnName: 'province', columnTitle: '省份', tableAliasName: 'v', viewDataType: 'STRING' },
    { id: 2, columnName: 'total', columnTitle: '省份总额', tableAliasName: 'v', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 3, columnName: 'province', columnTitle: '订单省份', tableAliasName: 'o', viewDataType: 'STRING' },
    { id: 4, columnName: 'amount', columnTitle: '金额', tableAliasName: 'o', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
    { id: 5, columnAttr: 'VIRTUAL', columnTitle: '总额万元', columnFormula: '[省份总额] / 10000', viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' },
  ],
};

const viewOnly: CubeModelInput = { tables: [viewModel.tables[0]!], joins: [], fields: viewModel.fields.filter((f) => f.tableAliasName !== 'o') };

describeSqlCases([
  {
    name: 'a view alone: derived table, filter bound',
    request: { dimensions: [{ fieldId: 1 }], measures: [{ fieldId: 2 }], where: where(1, 'eq', ['广东']) },
    options: { model: viewOnly, derivedTables: views },
    expected: {
      duckdb: [`SELECT "v"."province" AS "d0", SUM("v"."total") AS "m0" FROM (${VIEW_SQL}\n) AS "v" WHERE "v"."province" = $1 GROUP BY 1`, ['广东']],
      postgres: [`SELECT "v"."province" AS "d0", SUM("v"."total") AS "m0" FROM (${VIEW_SQL}\n) AS "v" WHERE "v"."province" = $1 GROUP BY 1`, ['广东']],
      mysql: [
        `SELECT \`v\`.\`province\` AS \`d0\`, SUM(\`v\`.\`total\`) AS \`m0\` FROM (${VIEW_SQL}\n) AS \`v\` WHERE \`v\`.\`province\` = ? GROUP BY 1`,
        ['广东'],
      ],
      clickhouse: [
        `SELECT \`v\`.\`province\` AS \`d0\`, SUM(\`v\`.\`total\`) AS \`m0\` FROM (${VIEW_SQL}\n) AS \`v\` WHERE \`v\`.\`province\` = '广东' GROUP BY \`v\`.\`province\``,
      ],
    },
  },
  {
    name: 'a view joined to a table, a computed field over the view',
    request: { dimensions: [{ fieldId: 3 }], measures: [{ fieldId: 4 }, { fieldId: 5, aggregation: 'MAX' }] },
    options: { model: viewModel, derivedTables: views },
    expected: {
      duckdb: [
        `SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0", MAX("v"."total" / NULLIF(10000, 0)) AS "m1" FROM (${VIEW_SQL}\n) AS "v" INNER JOIN "ods_order" AS "o" ON "v"."province" = "o"."province" GROUP BY 1`,
      ],
      postgres: [
        `SELECT "o"."province" AS "d0", SUM("o"."amount") AS "m0", MAX(CAST("v"."total" AS DOUBLE PRECISION) / NULLIF(10000, 0)) AS "m1" FROM (${VIEW_SQL}\n) AS "v" INNER JOIN "ods_order" AS "o" ON "v"."province" = "o"."province" GROUP BY 1`,
      ],
      mysql: [
        `SELECT \`o\`.\`province\` AS \`d0\`, SUM(\`o\`.\`amount\`) AS \`m0\`, MAX(\`v\`.\`total\` / NULLIF(10000, 0)) AS \`m1\` FROM (${VIEW_SQL}\n) AS \`v\` INNER JOIN \`ods_order\` AS \`o\` ON \`v\`.\`province\` = \`o\`.\`province\` GROUP BY 1`,
      ],
      clickhouse: [
        `SELECT \`o\`.\`province\` AS \`d0\`, SUM(\`o\`.\`amount\`) AS \`m0\`, MAX(toFloat64(\`v\`.\`total\`) / nullIf(toFloat64(10000), 0)) AS \`m1\` FROM (${VIEW_SQL}\n) AS \`v\` ALL INNER JOIN \`ods_order\` AS \`o\` ON \`v\`.\`province\` = \`o\`.\`province\` GROUP BY \`o\`.\`province\``,
      ],
    },
  },
]);

describe('views as derived tables', () => {
  it('matches the view name ignoring case, and leaves schema-qualified tables alone', () => {
    const model: CubeModelInput = {
      ...ordersModel,
      tables: [{ tableName: 'v_sql_202401011200', tableAliasName: 'o' }, ordersModel.tables[1]!],
    };
    const sql = compileCubeQuery(model, { dimensions: [{ fieldId: 7 }] }, { dialect: 'postgres', now: NOW, derivedTables: views }).sql;
    expect(sql).toContain(`FROM (${VIEW_SQL}\n) AS "o" LEFT JOIN "dw"."dim_user" AS "u"`);
  });

  it('reads tables as tables when no view has the name', () => {
    const sql = compileCubeQuery(viewModel, { dimensions: [{ fieldId: 1 }] }, { dialect: 'duckdb', now: NOW }).sql;
    expect(sql).toContain('FROM "V_SQL_202401011200" AS "v"');
  });
});
