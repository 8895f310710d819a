import { describe, expect, it } from 'vitest';
import type { DataSourceColumn, DatasetFieldDraft } from '@shutu/contracts';
import { fieldsFromColumns, type EditorField } from './model-state.ts';
import { appendDrafts, applyBatch, formatLabel, isBuiltInNumberFormat, NUMBER_FORMATS, setDimension, TIME_FORMATS } from './batch-ops.ts';

const col = (name: string, viewDataType: DataSourceColumn['viewDataType'], comment = ''): DataSourceColumn => ({ name, comment, dbType: '', viewDataType });

/** 省份, 城市 (dimensions 1, 2); 金额, 数量 (indicators 1, 2); plus a computed indicator with an aggregate. */
function fields(): EditorField[] {
  const base = fieldsFromColumns(
    [col('province', 'STRING', '省份'), col('city', 'STRING', '城市'), col('amount', 'NUMBER', '金额'), col('qty', 'NUMBER', '数量')],
    { tableName: 'orders', tableAliasName: 'ooooo' },
    [],
  );
  const computed: EditorField = {
    ...base[2]!,
    id: 'c_total',
    columnName: null,
    columnTitle: '总额',
    columnAttr: 'VIRTUAL',
    columnFormula: 'SUM([金额])',
    virtualAggregationStatus: 1,
    sortNum: 3,
  };
  return [...base, computed];
}
const byTitle = (fs: EditorField[], title: string) => fs.find((f) => f.columnTitle === title)!;
const ids = (fs: EditorField[], ...titles: string[]) => titles.map((t) => byTitle(fs, t).id);
const group = (fs: EditorField[], kind: EditorField['dimensionType']) =>
  fs
    .filter((f) => f.dimensionType === kind)
    .sort((a, b) => a.sortNum - b.sortNum)
    .map((f) => `${f.columnTitle}:${f.sortNum}`);

describe('applyBatch', () => {
  it('sets data type, formats and hidden state on the selected fields only', () => {
    const fs = fields();
    const { fields: next } = applyBatch(fs, ids(fs, '省份', '金额'), {
      viewDataType: 'DATETIME',
      timeDataFormat: 'yyyy_MM_dd',
      numberDataFormat: '#,##0',
      hiddenStatus: 1,
    });
    expect(byTitle(next, '省份')).toMatchObject({ viewDataType: 'DATETIME', oldViewDataType: 'STRING', timeDataFormat: 'yyyy_MM_dd', hiddenStatus: 1 });
    expect(byTitle(next, '金额')).toMatchObject({ viewDataType: 'DATETIME', numberDataFormat: '#,##0', hiddenStatus: 1 });
    expect(byTitle(next, '城市')).toEqual(byTitle(fs, '城市'));
    expect(byTitle(next, '数量')).toEqual(byTitle(fs, '数量'));
  });

  it('sets the default aggregation only where it is offered and counts the skipped fields', () => {
    const fs = fields();
    const { fields: next, skippedAggregation } = applyBatch(fs, ids(fs, '省份', '金额', '数量', '总额'), { aggregationType: 'AVG' });
    expect(skippedAggregation).toBe(2); // a dimension, and a computed field with an aggregate
    expect(next.map((f) => [f.columnTitle, f.aggregationType])).toEqual([
      ['省份', 'SUM'],
      ['城市', 'SUM'],
      ['金额', 'AVG'],
      ['数量', 'AVG'],
      ['总额', 'SUM'],
    ]);
  });

  it('judges the aggregation after the type and group changes of the same batch', () => {
    const fs = fields();
    const toText = applyBatch(fs, ids(fs, '金额'), { viewDataType: 'STRING', aggregationType: 'MAX' });
    expect(toText.skippedAggregation).toBe(1);
    expect(byTitle(toText.fields, '金额').aggregationType).toBe('SUM');
    const toIndicator = applyBatch(fs, ids(fs, '城市'), { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO', aggregationType: 'MAX' });
    expect(toIndicator.skippedAggregation).toBe(0);
    expect(byTitle(toIndicator.fields, '城市')).toMatchObject({ dimensionType: 'ZHIBIAO', aggregationType: 'MAX' });
  });

  it('moves fields between groups, renumbering both from 1 (like toggleDimension)', () => {
    const fs = fields();
    const { fields: next } = applyBatch(fs, ids(fs, '省份', '数量'), { dimensionType: 'ZHIBIAO' });
    expect(group(next, 'WEIDU')).toEqual(['城市:1']);
    expect(group(next, 'ZHIBIAO')).toEqual(['金额:1', '数量:2', '总额:3', '省份:4']);
  });
});

describe('setDimension', () => {
  it('appends the moved fields to the end of the other group in their order', () => {
    const fs = fields();
    const next = setDimension(fs, ids(fs, '数量', '金额'), 'WEIDU');
    expect(group(next, 'WEIDU')).toEqual(['省份:1', '城市:2', '金额:3', '数量:4']);
    expect(group(next, 'ZHIBIAO')).toEqual(['总额:1']);
  });
});

describe('formats', () => {
  it('offers AUTO and built-in number formats, the default time pattern first', () => {
    expect(NUMBER_FORMATS[0]!.value).toBe('AUTO');
    expect(TIME_FORMATS[0]!.value).toBe('yyyy_MM_ddhh$mm$ss');
    expect(isBuiltInNumberFormat('#,##0.00')).toBe(true);
    expect(isBuiltInNumberFormat('0.000"万"')).toBe(false);
    // 万 and 亿 are built in: a Chinese reader's units for large numbers.
    expect(NUMBER_FORMATS.map((f) => f.value)).toEqual(expect.arrayContaining(['0.0万', '0.00亿']));
  });

  it('labels a field format by its type; a custom one as written', () => {
    const f = byTitle(fields(), '金额');
    expect(formatLabel(f)).toBe('自动');
    expect(formatLabel({ ...f, numberDataFormat: '0.000"万"' })).toBe('0.000"万"');
    expect(formatLabel({ ...f, viewDataType: 'DATETIME' })).toBe('yyyy-MM-dd hh:mm:ss');
    expect(formatLabel({ ...f, viewDataType: 'STRING' })).toBeNull();
  });
});

describe('appendDrafts', () => {
  const draft = (columnName: string, columnTitle: string, viewDataType: DatasetFieldDraft['viewDataType'], hiddenStatus = 0): DatasetFieldDraft => ({
    columnName,
    columnTitle,
    columnComment: null,
    columnAttr: 'NORMAL',
    columnFormula: null,
    tableName: 'orders',
    tableAliasName: 'ooooo',
    dimensionType: viewDataType === 'NUMBER' ? 'ZHIBIAO' : 'WEIDU',
    viewDataType,
    oldViewDataType: viewDataType,
    hiddenStatus,
    sortNum: 99,
    numberDataFormat: 'AUTO',
    timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
    aggregationType: 'SUM',
    virtualAggregationStatus: 0,
    isExtra: 0,
  });

  it('adds drafts with temporary ids, unique titles and each group continuing its numbers', () => {
    const fs = fields();
    let n = 0;
    const next = appendDrafts(
      fs,
      [draft('region', '大区', 'STRING'), draft('price', '单价', 'NUMBER'), draft('prov2', '省份', 'STRING')],
      (p) => `${p}_t${n++}`,
    );
    const added = next.slice(fs.length);
    expect(added.map((f) => [f.id, f.columnTitle, f.dimensionType, f.sortNum, f.hiddenStatus])).toEqual([
      ['ooooo_t0', '大区', 'WEIDU', 3, 0],
      ['ooooo_t1', '单价', 'ZHIBIAO', 4, 0],
      ['ooooo_t2', '省份1', 'WEIDU', 4, 1], // same title and type as 省份: renamed and hidden (spec §4)
    ]);
  });

  it('keeps a draft hidden when the server hid it', () => {
    const next = appendDrafts([], [draft('a', '名称1', 'STRING', 1)]);
    expect(next[0]).toMatchObject({ columnTitle: '名称1', hiddenStatus: 1, sortNum: 1 });
    expect(typeof next[0]!.id).toBe('string');
  });
});
