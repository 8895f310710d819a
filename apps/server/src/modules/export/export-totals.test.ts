import { describe, expect, it } from 'vitest';
import type { ResultField } from '@shutu/contracts';
import { totalsSheetRows } from './export-totals.ts';

/** Placement of an exported table's 合计 row (export-totals.ts); the figures themselves come from the query engine. */
const field = (alias: string, kind: ResultField['kind']) =>
  ({ alias, kind, title: alias, viewDataType: kind === 'measure' ? 'NUMBER' : 'STRING' }) as ResultField;
const fields = [field('d0', 'dimension'), field('d1', 'dimension'), field('m0', 'measure')];
const totals = { grand: { m0: 60 }, byColumn: [] };

describe('exported 合计 row of a table', () => {
  it('one row: 合计 under the first dimension, each measure’s grand total', () => {
    expect(totalsSheetRows(totals, fields, 3)).toEqual([{ d0: '合计', m0: 60 }]);
  });

  it('no 合计 row without data rows or without a dimension to carry the label', () => {
    expect(totalsSheetRows(totals, fields, 0)).toEqual([]);
    expect(totalsSheetRows(totals, [field('m0', 'measure')], 1)).toEqual([]);
  });
});
