import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { Chart, ChartDataResult } from '@shutu/contracts';
import { BAR_MAX_WIDTH } from '@shutu/contracts/board-constants';
import type { CubeCell } from './format.ts';
import { formatMeasure, formatNumber, toNumber } from './format.ts';
import type { ChartDisplayOptions, ResultField } from './model.ts';
import { distinctTuples, formatOf, readOptions, splitFields, tupleKey, tupleLabel, tupleOf } from './model.ts';

/**
 * ECharts options of the bar, line and pie charts (spec 1 §2.4): pure functions of the
 * chart and its data, tested without a canvas.
 */

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export interface BuiltEChart {
  option: ChartOption;
  /** The row dimension values of each category (bar, line) or slice (pie), by data index: what a click reports. */
  points: CubeCell[][];
  /** The dimensions of `points`' values, in order (their fields and time granularity). */
  pointFields: ResultField[];
  /** Bar and line with column dimensions: each series' column values, by series index (a click reports them after the point's). */
  seriesPoints?: CubeCell[][];
  /** The dimensions of `seriesPoints`' values. */
  seriesFields?: ResultField[];
}

type MeasureCell = number | null;

function textStyle(options: ChartDisplayOptions) {
  return {
    ...(options.axisFontSize ? { fontSize: options.axisFontSize } : {}),
    ...(options.axisFontColor ? { color: options.axisFontColor } : {}),
  };
}

function base(chart: Pick<Chart, 'site'>, options: ChartDisplayOptions): ChartOption {
  return {
    backgroundColor: chart.site.bgColor || 'transparent',
    ...(options.colors ? { color: options.colors } : {}),
    animationDuration: 300,
  };
}

function legend(options: ChartDisplayOptions, names: string[]): LegendComponentOption {
  return { show: options.showLegend, type: 'scroll', top: 0, data: names, textStyle: textStyle(options) };
}

/** Sums the cells of rows that share a category (the query groups by them, so normally one). */
function add(prev: MeasureCell | undefined, value: CubeCell | undefined): MeasureCell {
  const n = toNumber(value ?? null);
  if (n === null) return prev ?? null;
  return (prev ?? 0) + n;
}

/** Bar and line: x axis = the row dimensions; one series per measure, or per measure × column value. */
export function buildCartesianOption(chart: Chart, data: ChartDataResult): BuiltEChart {
  const options = readOptions(chart);
  const { rowDims, colDims, measures } = splitFields(chart, data);
  const type = chart.name === 'line' ? 'line' : 'bar';
  const categories = distinctTuples(data.dataList, rowDims);
  const catIndex = new Map(categories.map((c, i) => [c.key, i]));
  const colValues = colDims.length > 0 ? distinctTuples(data.dataList, colDims) : [];

  interface SeriesAcc {
    name: string;
    measure: ResultField;
    stack: string | undefined;
    data: MeasureCell[];
  }
  const series: SeriesAcc[] = [];
  const seriesByKey = new Map<string, SeriesAcc>();
  const stackOf = (m: ResultField) => (options.stack ? (colDims.length > 0 ? `stack-${m.alias}` : 'total') : undefined);
  if (colDims.length === 0) {
    for (const m of measures) {
      const s: SeriesAcc = { name: m.title, measure: m, stack: stackOf(m), data: categories.map(() => null) };
      series.push(s);
      seriesByKey.set(m.alias, s);
    }
  } else {
    for (const m of measures) {
      for (const c of colValues) {
        const label = tupleLabel(c.values, colDims);
        const s: SeriesAcc = { name: measures.length > 1 ? `${label} - ${m.title}` : label, measure: m, stack: stackOf(m), data: categories.map(() => null) };
        series.push(s);
        seriesByKey.set(`${m.alias}|${c.key}`, s);
      }
    }
  }
  for (const row of data.dataList) {
    const i = catIndex.get(tupleKey(tupleOf(row, rowDims)))!;
    const colKey = colDims.length > 0 ? tupleKey(tupleOf(row, colDims)) : null;
    for (const m of measures) {
      const s = seriesByKey.get(colKey === null ? m.alias : `${m.alias}|${colKey}`);
      if (s) s.data[i] = add(s.data[i], row[m.alias]);
    }
  }

  const firstFormat = measures[0] ? formatOf(options, measures[0]) : undefined;
  const categoryAxis = {
    type: 'category' as const,
    data: categories.map((c) => tupleLabel(c.values, rowDims)),
    axisLabel: { ...textStyle(options), hideOverlap: true },
  };
  const valueAxis = {
    type: 'value' as const,
    axisLabel: { ...textStyle(options), formatter: (v: number) => formatNumber(v, firstFormat) },
  };
  const horizontal = type === 'bar' && options.horizontal;
  const labelPosition = type === 'bar' ? (options.stack ? 'inside' : horizontal ? 'right' : 'top') : 'top';

  const built: (BarSeriesOption | LineSeriesOption)[] = series.map((s) => {
    const format = formatOf(options, s.measure);
    const common = {
      name: s.name,
      data: s.data,
      ...(s.stack ? { stack: s.stack } : {}),
      label: {
        show: options.showLabel,
        position: labelPosition,
        formatter: (p: { value?: unknown }) => formatMeasure(p.value as CubeCell, format),
      },
      tooltip: { valueFormatter: (v: unknown) => formatMeasure(v as CubeCell, format) },
    };
    if (type === 'bar') return { ...common, type: 'bar', barMaxWidth: BAR_MAX_WIDTH } as BarSeriesOption;
    return { ...common, type: 'line', smooth: options.smooth, connectNulls: true } as LineSeriesOption;
  });

  const option: ChartOption = {
    ...base(chart, options),
    legend: legend(
      options,
      series.map((s) => s.name),
    ),
    tooltip: { trigger: 'axis', axisPointer: { type: type === 'bar' ? 'shadow' : 'line' }, confine: true },
    grid: { left: 8, right: 16, bottom: 8, top: options.showLegend ? 32 : 16 },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
    series: built,
  };
  // A measure-only series (no column dimensions) adds nothing to a click.
  const seriesPoints = colDims.length > 0 ? measures.flatMap(() => colValues.map((c) => c.values)) : undefined;
  return { option, points: categories.map((c) => c.values), pointFields: rowDims, seriesPoints, seriesFields: colDims.length > 0 ? colDims : undefined };
}

/** Beyond this many slices the names move to a legend beside the pie and the labels keep the percentage. */
export const PIE_NAMED_LABELS_MAX = 6;
/** Beyond this many slices, those under PIE_SMALL_SHARE of the whole get no label (a comb of 0.3% labels says nothing). */
const PIE_ALL_LABELS_MAX = 12;
const PIE_SMALL_SHARE = 0.015;

/**
 * Pie: first dimension × first measure; percent labels; a ring when `donut`. Labels must fit
 * (issue 16: "省公司: 4…" was cut): the pie leaves room around it, labels sit at the ends of
 * their lines along the chart's sides, and overlapping ones are hidden (the tooltip and the
 * legend still name every slice). With many slices the names go to a scrolling legend on the
 * right and the labels show only the share.
 */
export function buildPieOption(chart: Chart, data: ChartDataResult): BuiltEChart {
  const options = readOptions(chart);
  const { rowDims, colDims, measures } = splitFields(chart, data);
  const dim = rowDims[0] ?? colDims[0];
  const measure = measures[0];
  const slices = new Map<string, { values: CubeCell[]; name: string; value: MeasureCell }>();
  if (measure) {
    for (const row of data.dataList) {
      const values = dim ? [row[dim.alias] ?? null] : [];
      const key = tupleKey(values);
      const slice = slices.get(key) ?? { values, name: dim ? tupleLabel(values, [dim]) : measure.title, value: null };
      slice.value = add(slice.value, row[measure.alias]);
      slices.set(key, slice);
    }
  }
  const list = [...slices.values()];
  const format = measure ? formatOf(options, measure) : undefined;
  const sideLegend = options.showLegend && list.length > PIE_NAMED_LABELS_MAX;
  const total = list.reduce((sum, s) => sum + Math.abs(s.value ?? 0), 0);
  const outer = sideLegend ? '58%' : '62%';
  const series: PieSeriesOption = {
    type: 'pie',
    name: measure?.title ?? '',
    radius: options.donut ? ['36%', outer] : outer,
    center: sideLegend ? ['40%', '52%'] : ['50%', options.showLegend ? '55%' : '50%'],
    data: list.map((s) => {
      const item = { name: s.name, value: s.value ?? 0 };
      return list.length > PIE_ALL_LABELS_MAX && Math.abs(item.value) < PIE_SMALL_SHARE * total
        ? { ...item, label: { show: false }, labelLine: { show: false } }
        : item;
    }),
    avoidLabelOverlap: true,
    label: {
      show: options.showLabel,
      formatter: sideLegend ? '{d}%' : '{b}: {d}%',
      alignTo: 'labelLine',
      edgeDistance: 8,
      minMargin: 4,
      ...textStyle(options),
    },
    labelLine: { length: 10, length2: 8 },
    labelLayout: { hideOverlap: true },
    tooltip: { valueFormatter: (v: unknown) => formatMeasure(v as CubeCell, format) },
  };
  const names = list.map((s) => s.name);
  const option: ChartOption = {
    ...base(chart, options),
    legend: sideLegend ? { ...legend(options, names), orient: 'vertical', top: 'middle', right: 8 } : legend(options, names),
    tooltip: { trigger: 'item', confine: true },
    series: [series],
  };
  return { option, points: list.map((s) => s.values), pointFields: dim ? [dim] : [] };
}

export function buildEChartOption(chart: Chart, data: ChartDataResult): BuiltEChart {
  return chart.name === 'pie' ? buildPieOption(chart, data) : buildCartesianOption(chart, data);
}
