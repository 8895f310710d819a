import { useMemo, useRef, type CSSProperties } from 'react';
import { Empty } from 'antd';
import * as echartsCore from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { DataZoomComponent } from 'echarts/components';
import { EChart, type EChartClick } from './EChart.tsx';
import { formatNumber } from './format.ts';

// The widgets open zoomed to their first points (spec 3 §9); the shared setup has no zoom.
echartsCore.use([DataZoomComponent]);

/** Spec 1 §2.4 / §9: bars at most 30 wide; more than 10 points open zoomed to the first 10. */
export const WIDGET_BAR_MAX_WIDTH = 30;
export const WIDGET_ZOOM_POINTS = 10;
export const WIDGET_EMPTY_TEXT = '暂无数据';

/** A field of the rows: `name` is the row key, `title` what the user reads. */
export interface WidgetParam {
  name: string;
  title?: string;
}

export type WidgetRow = Record<string, unknown>;

export interface BarLineWidgetProps {
  type: 'bar' | 'line';
  chartData: readonly WidgetRow[];
  /** Category axis: the values of these fields, joined, one point per row. */
  rowParamList: readonly WidgetParam[];
  /** Series split: one series per value of these fields (and per index); empty for one series per index. */
  columnParamList?: readonly WidgetParam[];
  /** The measures drawn. */
  indexParamList: readonly WidgetParam[];
  /** Horizontal bars (category axis on y). */
  horizontal?: boolean;
  /** Clicking a point: its row (the first row of that category). */
  onPointClick?: (row: WidgetRow, index: number) => void;
  onRendered?: () => void;
  height?: CSSProperties['height'];
  className?: string;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const numeric = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** The ECharts option of the widget (exported for tests). */
export function barLineOption(p: Omit<BarLineWidgetProps, 'onPointClick' | 'onRendered' | 'height' | 'className'>): {
  option: EChartsCoreOption;
  rows: WidgetRow[];
} {
  const categoryOf = (r: WidgetRow) => p.rowParamList.map((f) => text(r[f.name])).join(' / ');
  const categories: string[] = [];
  const firstRow = new Map<string, WidgetRow>();
  for (const r of p.chartData) {
    const c = categoryOf(r);
    if (!firstRow.has(c)) {
      firstRow.set(c, r);
      categories.push(c);
    }
  }
  const columns = p.columnParamList ?? [];
  const splits = columns.length ? [...new Set(p.chartData.map((r) => columns.map((f) => text(r[f.name])).join(' / ')))] : [''];
  const series = p.indexParamList.flatMap((index) =>
    splits.map((split) => {
      const values = new Map<string, number | null>();
      for (const r of p.chartData) {
        if (columns.length && columns.map((f) => text(r[f.name])).join(' / ') !== split) continue;
        const c = categoryOf(r);
        values.set(c, (values.get(c) ?? 0) + (numeric(r[index.name]) ?? 0));
      }
      const title = index.title ?? index.name;
      return {
        name: split ? (p.indexParamList.length > 1 ? `${split} ${title}` : split) : title,
        type: p.type,
        barMaxWidth: WIDGET_BAR_MAX_WIDTH,
        smooth: p.type === 'line',
        data: categories.map((c) => values.get(c) ?? null),
      };
    }),
  );
  const zoomed = categories.length > WIDGET_ZOOM_POINTS;
  const category = { type: 'category', data: categories, axisLabel: { hideOverlap: true } };
  const value = { type: 'value', axisLabel: { formatter: (v: number) => formatNumber(v) } };
  const option: EChartsCoreOption = {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => (v === null ? '-' : formatNumber(v)) },
    legend: series.length > 1 ? { top: 0, type: 'scroll' } : undefined,
    grid: { left: 12, right: p.horizontal && zoomed ? 40 : 16, top: series.length > 1 ? 32 : 16, bottom: zoomed && !p.horizontal ? 40 : 8, containLabel: true },
    xAxis: p.horizontal ? value : category,
    yAxis: p.horizontal ? { ...category, inverse: true } : value,
    dataZoom: zoomed
      ? [
          p.horizontal
            ? { type: 'slider', yAxisIndex: 0, startValue: 0, endValue: WIDGET_ZOOM_POINTS - 1, width: 16, right: 4 }
            : { type: 'slider', xAxisIndex: 0, startValue: 0, endValue: WIDGET_ZOOM_POINTS - 1, height: 18, bottom: 4 },
        ]
      : [],
    series,
  };
  return { option, rows: categories.map((c) => firstRow.get(c)!) };
}

/** The reusable bar or line chart of spec 1 §2.4: rows in, 暂无数据 when there are none. */
export function BarLineWidget({ onPointClick, onRendered, height = 320, className, ...props }: BarLineWidgetProps) {
  const { type, chartData, rowParamList, columnParamList, indexParamList, horizontal } = props;
  const { option, rows } = useMemo(
    () => barLineOption({ type, chartData, rowParamList, columnParamList, indexParamList, horizontal }),
    [type, chartData, rowParamList, columnParamList, indexParamList, horizontal],
  );
  const box = useRef<HTMLDivElement>(null);
  /** After the first paint: the pixel of each point of the first series (half way up a bar) in data-points, for tests and tools. */
  const rendered = () => {
    const el = box.current?.firstElementChild as HTMLElement | null;
    const chart = el ? echartsCore.getInstanceByDom(el) : undefined;
    if (chart && box.current) {
      const first = (option.series as { data: (number | null)[] }[])[0]?.data ?? [];
      const points = first.map((v, i) =>
        chart.convertToPixel(
          { seriesIndex: 0 },
          props.horizontal ? [(v ?? 0) / (props.type === 'bar' ? 2 : 1), i] : [i, (v ?? 0) / (props.type === 'bar' ? 2 : 1)],
        ),
      );
      box.current.dataset.points = JSON.stringify(points.map((p) => (Array.isArray(p) ? p.map(Math.round) : null)));
    }
    onRendered?.();
  };
  if (props.chartData.length === 0)
    return (
      <div className={className} style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-empty="true">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={WIDGET_EMPTY_TEXT} />
      </div>
    );
  const click = onPointClick ? (e: EChartClick) => rows[e.dataIndex] && onPointClick(rows[e.dataIndex]!, e.dataIndex) : undefined;
  return (
    <div ref={box} className={className} style={{ height }}>
      <EChart option={option} onClick={click} onRendered={rendered} />
    </div>
  );
}

export function BarWidget(props: Omit<BarLineWidgetProps, 'type'>) {
  return <BarLineWidget type="bar" {...props} />;
}
export function LineWidget(props: Omit<BarLineWidgetProps, 'type'>) {
  return <BarLineWidget type="line" {...props} />;
}
