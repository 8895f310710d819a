import { describe, expect, it } from 'vitest';
import type { ResultField } from '@shutu/contracts';
import { ColumnCombinations, columnAliases, totalsSheetRows, type TotalsLayout } from './export-totals.ts';

/** Layout of the exported 合计 rows (export-totals.ts); the figures themselves come from the query engine. */
const field = (alias: string, kind: ResultField['kind']) =>
  ({ alias, kind, title: alias, viewDataType: kind === 'measure' ? 'NUMBER' : 'TEXT' }) as ResultField;
const pivotFields = [field('d0', 'dimension'), field('d1', 'dimension'), field('m0', 'measure')];
const totals = {
  grand: { m0: 60 },
  byColumn: [
    { d1: '线下', m0: 25 },
    { d1: '线上', m0: 35 },
  ],
};

function written(layout: TotalsLayout, rows: Record<string, unknown>[]): ColumnCombinations {
  const combinations = new ColumnCombinations(columnAliases(layout));
  rows.forEach((r) => combinations.add(r));
  return combinations;
}

describe('exported 合计 rows', () => {
  it('a pivot with column dimensions: one 合计 row per column, in the order the columns appear', () => {
    const layout: TotalsLayout = { fields: pivotFields, rowDimensionCount: 1, pivot: true };
    const rows = written(layout, [
      { d0: '北京', d1: '线上', m0: 10 },
      { d0: '北京', d1: '线下', m0: 5 },
      { d0: '广东', d1: '线上', m0: 25 },
    ]);
    expect(totalsSheetRows(totals, layout, rows)).toEqual([
      { d0: '合计', d1: '线上', m0: 35 },
      { d0: '合计', d1: '线下', m0: 25 },
    ]);
  });

  it('a pivot without column dimensions and a summary table: one row of the grand total', () => {
    const pivot: TotalsLayout = { fields: [pivotFields[0]!, pivotFields[2]!], rowDimensionCount: 1, pivot: true };
    expect(totalsSheetRows(totals, pivot, written(pivot, [{ d0: '北京', m0: 1 }]))).toEqual([{ d0: '合计', m0: 60 }]);
    // A table shows its column dimensions in each row: only the grand total, under the first dimension.
    const table: TotalsLayout = { fields: pivotFields, rowDimensionCount: 1, pivot: false };
    expect(totalsSheetRows(totals, table, written(table, [{ d0: '北京', d1: '线上', m0: 1 }]))).toEqual([{ d0: '合计', m0: 60 }]);
  });

  it('no 合计 row without data rows or without a dimension to carry the label', () => {
    const table: TotalsLayout = { fields: pivotFields, rowDimensionCount: 2, pivot: false };
    expect(totalsSheetRows(totals, table, written(table, []))).toEqual([]);
    const measuresOnly: TotalsLayout = { fields: [pivotFields[2]!], rowDimensionCount: 0, pivot: false };
    expect(totalsSheetRows(totals, measuresOnly, written(measuresOnly, [{ m0: 60 }]))).toEqual([]);
    const columnsOnly: TotalsLayout = { fields: [pivotFields[1]!, pivotFields[2]!], rowDimensionCount: 0, pivot: true };
    expect(totalsSheetRows(totals, columnsOnly, written(columnsOnly, [{ d1: '线上', m0: 35 }]))).toEqual([]);
  });
});
