import { describe, expect, it } from 'vitest';
import {
  addToPanel,
  dictTree,
  movePanel,
  placeInPanel,
  chartInput,
  editorPathAfterSave,
  effectiveKind,
  fieldsFromRow,
  kindEnabled,
  panelsOf,
  paramObject,
  parseNote,
  validDefault,
} from './model.ts';

describe('data-API editor rules (spec 2 §4, §5)', () => {
  it('ignores parameters with an empty key in the parameter object; the first of a key wins', () => {
    expect(
      paramObject([
        { name: '省份', key: 'province', datatype: 'string', def: '浙江' },
        { name: '空', key: '  ', datatype: 'string', def: 'x' },
        { name: '重复', key: 'province', datatype: 'string', def: '江苏' },
        { name: '天', key: 'day', datatype: 'date', def: null },
      ]),
    ).toEqual({ province: '浙江', day: null });
  });

  it('checks defaults by type: yyyyMMdd, yyyyMM, HH:mm:ss, integer timestamps, numbers', () => {
    expect(validDefault('date', '20240131')).toBe(true);
    expect(validDefault('date', '2024-01-31')).toBe(false);
    expect(validDefault('month', '202413')).toBe(false);
    expect(validDefault('month', '202412')).toBe(true);
    expect(validDefault('time', '08:30:00')).toBe(true);
    expect(validDefault('time', '8:30')).toBe(false);
    expect(validDefault('timestamp', '1704067200000')).toBe(true);
    expect(validDefault('timestamp', '1.5')).toBe(false);
    expect(validDefault('number', '-3.5')).toBe(true);
    expect(validDefault('number', '1 OR 1=1')).toBe(false);
    expect(validDefault('date', '')).toBe(true);
  });

  it('fills fields from the first row, keeping saved showFields; dimensions to rows, indicators to indicators', () => {
    const saved = [{ columnName: 'amount', columnComments: '金额', dataType: 1 as const }];
    const fields = fieldsFromRow({ province: '浙江', amount: 10 }, saved);
    expect(fields).toEqual([
      { columnName: 'province', columnComments: 'province', dataType: 0 },
      { columnName: 'amount', columnComments: '金额', dataType: 1 },
    ]);
    expect(panelsOf(fields)).toEqual({ rows: ['province'], cols: [], indicators: ['amount'] });
  });

  it('reorders by drag: a field dropped on another goes just before it, within a panel or across panels', () => {
    const panels = { rows: ['province', 'channel', 'day'], cols: [], indicators: ['amount', 'orders'] };
    expect(placeInPanel(panels, 'rows', 'day', 'province').rows).toEqual(['day', 'province', 'channel']);
    expect(placeInPanel(panels, 'rows', 'province', null).rows).toEqual(['channel', 'day', 'province']);
    expect(placeInPanel(panels, 'indicators', 'orders', 'amount').indicators).toEqual(['orders', 'amount']);
    const moved = placeInPanel(panels, 'cols', 'channel', null);
    expect(moved.rows).toEqual(['province', 'day']);
    expect(moved.cols).toEqual(['channel']);
    expect(placeInPanel(panels, 'rows', 'day', 'day')).toBe(panels);
  });

  it('ignores a field added to a panel twice', () => {
    const panels = addToPanel({ rows: ['province'], cols: [], indicators: [] }, 'rows', 'province');
    expect(panels.rows).toEqual(['province']);
    expect(movePanel({ rows: ['province', 'amount'], cols: [], indicators: [] }, 'amount', 'indicators')).toEqual({
      rows: ['province'],
      cols: [],
      indicators: ['amount'],
    });
  });

  it('disables pie with more than one indicator and falls back to the first enabled kind', () => {
    const two = { rows: ['p'], cols: [], indicators: ['a', 'b'] };
    expect(kindEnabled('pie', two)).toBe(false);
    expect(effectiveKind('pie', two)).toBe('table');
    expect(effectiveKind('pie', { ...two, indicators: ['a'] })).toBe('pie');
  });

  it('lays the rows out for the shared chart renderer: row then column dimensions, then indicators', () => {
    const fields = [
      { columnName: 'province', columnComments: '省份', dataType: 0 as const },
      { columnName: 'year', columnComments: '年', dataType: 0 as const },
      { columnName: 'amount', columnComments: '金额', dataType: 1 as const },
    ];
    const { chart, data } = chartInput('pivot', { rows: ['province'], cols: ['year'], indicators: ['amount'] }, fields, [
      { province: '浙江', year: 2024, amount: 5 },
    ]);
    expect(data.fieldDict.map((f) => [f.alias, f.title, f.kind])).toEqual([
      ['d0', '省份', 'dimension'],
      ['d1', '年', 'dimension'],
      ['m0', '金额', 'measure'],
    ]);
    expect(data.dataList).toEqual([{ d0: '浙江', d1: 2024, m0: 5 }]);
    expect(chart.dataconfig?.columnParamList).toHaveLength(1);
    // Column dimensions only make a pivot.
    expect(chartInput('bar', { rows: ['province'], cols: ['year'], indicators: ['amount'] }, fields, []).data.fieldDict).toHaveLength(2);
  });

  it('moves a new API to ?id= after its first save, and reads a broken note as empty', () => {
    expect(editorPathAfterSave('/apiedit1', 7)).toBe('/apiedit1?id=7');
    expect(parseNote('not json')).toEqual({ showFields: [], params: [] });
  });

  it('builds the dictionary tree from ID, VALUE and PID rows', () => {
    expect(dictTree([{ ID: 1, VALUE: '华东', PID: null }, { id: 11, value: '浙江', pid: 1 }, { ID: 2, VALUE: '华北', PID: '' }, { VALUE: '无编号' }])).toEqual([
      { key: 1, value: '华东', children: [{ key: 11, value: '浙江' }] },
      { key: 2, value: '华北' },
    ]);
  });
});
