import { describe, expect, it } from 'vitest';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import { BAR_MAX_WIDTH } from '@shutu/contracts';
import { buildCartesianOption, buildEChartOption, buildPieOption, PIE_NAMED_LABELS_MAX } from './echarts-options.ts';
import { dim, makeChart, makeData, measure, salesFields, salesRows } from './test-fixtures.ts';

type Axis = { type: string; data?: string[]; inverse?: boolean; axisLabel?: { fontSize?: number; color?: string; formatter?: (v: number) => string } };

describe('bar and line options', () => {
  const twoMeasures = makeData(
    [salesFields[0]!, salesFields[2]!, salesFields[3]!],
    [
      { d0: '华东', m0: 2000.5, m1: 5 },
      { d0: '华北', m0: 500, m1: 1 },
      { d0: null, m0: 100, m1: null },
    ],
  );

  it('x axis = the row dimension, one series per measure, bars at most 30 wide', () => {
    const { option, points } = buildCartesianOption(makeChart('bar'), twoMeasures);
    const series = option.series as BarSeriesOption[];
    expect(series).toHaveLength(2);
    expect(series.map((s) => s.name)).toEqual(['金额', '数量']);
    expect(series.every((s) => s.type === 'bar' && s.barMaxWidth === 30)).toBe(true);
    expect(BAR_MAX_WIDTH).toBe(30);
    expect((option.xAxis as Axis).data).toEqual(['华东', '华北', '(空)']);
    expect((option.yAxis as Axis).type).toBe('value');
    expect(series[0]!.data).toEqual([2000.5, 500, 100]);
    expect(series[1]!.data).toEqual([5, 1, null]);
    expect(points).toEqual([['华东'], ['华北'], [null]]);
    expect(option.backgroundColor).toBe('transparent');
  });

  it('several row dimensions are joined with " / "', () => {
    const data = makeData(
      [dim('d0', '区域', 1), dim('d1', '城市', 2), measure('m0', '金额', 100)],
      [
        { d0: '华东', d1: '上海', m0: 1 },
        { d0: '华东', d1: '杭州', m0: 2 },
      ],
    );
    const { option, points } = buildCartesianOption(makeChart('line', { rows: 2 }), data);
    expect((option.xAxis as Axis).data).toEqual(['华东 / 上海', '华东 / 杭州']);
    expect(points).toEqual([
      ['华东', '上海'],
      ['华东', '杭州'],
    ]);
    expect((option.series as LineSeriesOption[])[0]!.type).toBe('line');
  });

  it('a column dimension pivots into one series per measure × value', () => {
    const chart = makeChart('bar', { cols: 1 });
    const { option, pointFields, seriesPoints, seriesFields } = buildCartesianOption(chart, makeData(salesFields, salesRows));
    const series = option.series as BarSeriesOption[];
    expect(series.map((s) => s.name)).toEqual(['A - 金额', 'B - 金额', 'A - 数量', 'B - 数量']);
    // A click on a bar reports its category and its series' column value, with their fields.
    expect(seriesPoints).toEqual([['A'], ['B'], ['A'], ['B']]);
    expect(pointFields.map((f) => f.alias)).toEqual(['d0']);
    expect(seriesFields?.map((f) => f.alias)).toEqual(['d1']);
    expect((option.xAxis as Axis).data).toEqual(['华东', '华北', '(空)']);
    // numeric strings are numbers; a missing combination is null
    expect(series[0]!.data).toEqual([1200.5, 500, null]);
    expect(series[1]!.data).toEqual([800, null, 100]);
  });

  it('with one measure the pivoted series are named by the value only', () => {
    const data = makeData([salesFields[0]!, salesFields[1]!, salesFields[2]!], salesRows);
    const { option } = buildCartesianOption(makeChart('bar', { cols: 1 }), data);
    expect((option.series as BarSeriesOption[]).map((s) => s.name)).toEqual(['A', 'B']);
  });

  it('honours colours, legend, labels, stack, smooth, horizontal, fonts and background', () => {
    const option = {
      colors: ['#f00', '#0f0', 3],
      showLegend: false,
      showLabel: true,
      stack: true,
      smooth: true,
      horizontal: true,
      axisFontSize: 14,
      axisFontColor: '#333',
    };
    const site = { ...makeChart('bar').site, bgColor: '#001122' };
    const bar = buildCartesianOption(makeChart('bar', { option, site }), twoMeasures).option;
    expect(bar.color).toEqual(['#f00', '#0f0']);
    expect((bar.legend as { show: boolean }).show).toBe(false);
    expect(bar.backgroundColor).toBe('#001122');
    const bars = bar.series as BarSeriesOption[];
    expect(bars.every((s) => s.stack === 'total' && (s.label as { show: boolean }).show)).toBe(true);
    expect((bar.yAxis as Axis).type).toBe('category');
    expect((bar.yAxis as Axis).inverse).toBe(true);
    expect((bar.xAxis as Axis).type).toBe('value');
    expect((bar.yAxis as Axis).axisLabel).toMatchObject({ fontSize: 14, color: '#333' });

    const line = buildCartesianOption(makeChart('line', { option }), twoMeasures).option;
    expect((line.series as LineSeriesOption[]).every((s) => s.smooth === true)).toBe(true);
    // horizontal is for bars only
    expect((line.xAxis as Axis).type).toBe('category');
  });

  it('stacks pivoted series per measure', () => {
    const { option } = buildCartesianOption(makeChart('bar', { cols: 1, option: { stack: true } }), makeData(salesFields, salesRows));
    expect((option.series as BarSeriesOption[]).map((s) => s.stack)).toEqual(['stack-m0', 'stack-m0', 'stack-m1', 'stack-m1']);
  });

  it('tooltip and axis values with thousands separators and the field format', () => {
    const chart = makeChart('bar', { option: { formats: { '101': '0.00%' } } });
    const { option } = buildCartesianOption(chart, twoMeasures);
    const series = option.series as BarSeriesOption[];
    const fmt = (s: BarSeriesOption) => (s.tooltip as { valueFormatter: (v: unknown) => string }).valueFormatter;
    expect(fmt(series[0]!)(1234567.891)).toBe('1,234,567.89');
    expect(fmt(series[1]!)(0.5)).toBe('50.00%');
    expect((option.yAxis as Axis).axisLabel!.formatter!(25000)).toBe('25,000');
    expect((option.tooltip as { trigger: string }).trigger).toBe('axis');
  });
});

describe('pie options', () => {
  it('first dimension × first measure, percent labels', () => {
    const data = makeData(
      [salesFields[0]!, salesFields[2]!, salesFields[3]!],
      [
        { d0: '华东', m0: 300, m1: 1 },
        { d0: '华北', m0: '100', m1: 2 },
      ],
    );
    const { option, points } = buildPieOption(makeChart('pie'), data);
    const series = option.series as PieSeriesOption[];
    expect(series).toHaveLength(1);
    expect(series[0]!.data).toEqual([
      { name: '华东', value: 300 },
      { name: '华北', value: 100 },
    ]);
    // Room around the pie for labels at the ends of their lines; overlapping ones hidden, never cut.
    expect(series[0]!.radius).toBe('62%');
    expect(series[0]!.label).toMatchObject({ show: true, formatter: '{b}: {d}%', alignTo: 'labelLine' });
    expect(series[0]!.labelLayout).toEqual({ hideOverlap: true });
    expect(points).toEqual([['华东'], ['华北']]);
  });

  it('many slices: names in a legend beside the pie, the labels keep the share', () => {
    const rows = Array.from({ length: PIE_NAMED_LABELS_MAX + 1 }, (_, i) => ({ d0: `省公司营业厅${i + 1}`, m0: 100 - i }));
    const { option } = buildPieOption(makeChart('pie'), makeData([salesFields[0]!, salesFields[2]!], rows));
    const series = (option.series as PieSeriesOption[])[0]!;
    expect(series.label).toMatchObject({ formatter: '{d}%' });
    expect(series.center).toEqual(['40%', '52%']);
    expect(option.legend).toMatchObject({ orient: 'vertical', right: 8, type: 'scroll', data: rows.map((r) => r.d0) });
    // Without a legend the labels keep their names: nothing else would say which slice is which.
    const { option: bare } = buildPieOption(makeChart('pie', { option: { showLegend: false } }), makeData([salesFields[0]!, salesFields[2]!], rows));
    expect((bare.series as PieSeriesOption[])[0]!.label).toMatchObject({ formatter: '{b}: {d}%' });
  });

  it('with more than a dozen slices, those under 1.5% get no label (the legend and tooltip still name them)', () => {
    const rows = [{ d0: '广东', m0: 900 }, ...Array.from({ length: 13 }, (_, i) => ({ d0: `省${i}`, m0: i < 3 ? 40 : 5 }))];
    const { option } = buildPieOption(makeChart('pie'), makeData([salesFields[0]!, salesFields[2]!], rows));
    const data = (option.series as PieSeriesOption[])[0]!.data as { name: string; label?: { show: boolean } }[];
    expect(data.filter((d) => d.label?.show === false).map((d) => d.name)).toEqual(Array.from({ length: 10 }, (_, i) => `省${i + 3}`));
  });

  it('donut', () => {
    const data = makeData([salesFields[0]!, salesFields[2]!], [{ d0: '华东', m0: 1 }]);
    const { option } = buildEChartOption(makeChart('pie', { option: { donut: true } }), data);
    expect((option.series as PieSeriesOption[])[0]!.radius).toEqual(['36%', '62%']);
  });
});
