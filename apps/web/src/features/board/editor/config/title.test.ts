import { describe, expect, it } from 'vitest';
import { autoTitle, isAutoTitle, withAutoTitle } from './title.ts';
import { emptyConfig } from './rules.ts';
import { configChart, configField } from './test-fixtures.ts';

const fields = [configField(1, '省份'), configField(2, '城市'), configField(3, '当月流量', { dimensionType: 'ZHIBIAO' })];
const bar = (rows: number[], measures: number[], title = '柱状图') =>
  configChart('bar', {
    title,
    dataconfig: { ...emptyConfig(7), rowParamList: rows.map((fieldId) => ({ fieldId })), indexParamList: measures.map((fieldId) => ({ fieldId })) },
  });

describe('default chart titles', () => {
  it('names the dimensions, then the measures, joined by ·; the type label without fields', () => {
    expect(autoTitle(bar([1], [3]), fields)).toBe('省份 · 当月流量');
    expect(autoTitle(bar([1, 2], [3, 3]), fields)).toBe('省份 · 城市 · 当月流量');
    expect(autoTitle(bar([], []), fields)).toBe('柱状图');
    const renamed = configChart('pie', { dataconfig: { ...emptyConfig(7), rowParamList: [{ fieldId: 1, title: '地区' }], indexParamList: [{ fieldId: 3 }] } });
    expect(autoTitle(renamed, fields)).toBe('地区 · 当月流量');
  });

  it('follows the fields while automatic; a typed title never changes', () => {
    expect(withAutoTitle(bar([1], []), bar([1], [3]), fields, 7).title).toBe('省份 · 当月流量');
    expect(withAutoTitle(bar([1], [], '省份'), bar([1, 2], [], '省份'), fields, 7).title).toBe('省份 · 城市');
    expect(withAutoTitle(bar([1], [], '流量看板'), bar([1], [3], '流量看板'), fields, 7).title).toBe('流量看板');
    expect(isAutoTitle(bar([1], [], ''), fields)).toBe(true);
    // Fields not loaded yet: the title is left alone rather than named by ids.
    expect(withAutoTitle(bar([1], []), bar([1], [3]), undefined, 7).title).toBe('柱状图');
  });
});
