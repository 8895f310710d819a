import * as echartsCore from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { DataZoomComponent } from 'echarts/components';
import { MARKET_BAR_MAX_WIDTH, MARKET_ZOOM_POINTS, type MarketDailyRow, type MarketFunnelRow } from '@shutu/contracts';
import { dayLabel, mk, percent } from './messages.ts';

// The statistics charts zoom to their first points (spec 3 §9); the shared setup has no zoom.
echartsCore.use([DataZoomComponent]);

const zoom = (points: number) =>
  points > MARKET_ZOOM_POINTS ? [{ type: 'slider', startValue: 0, endValue: MARKET_ZOOM_POINTS - 1, height: 18, bottom: 4 }] : [];
const base = (days: string[]) => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0 },
  grid: { left: 48, right: 24, top: 36, bottom: days.length > MARKET_ZOOM_POINTS ? 48 : 24 },
  xAxis: { type: 'category', data: days.map(dayLabel) },
  dataZoom: zoom(days.length),
});

/** Types 1 and 3: rate and unsubscribe rate per day, as percentages. */
export function rateOption(rows: readonly MarketDailyRow[], type: number): EChartsCoreOption {
  const days = rows.map((r) => r.dt);
  const rate = rows.map((r) => (type === 1 ? r.activate_num_rate : r.receive_num_rate) ?? 0);
  return {
    ...base(days),
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => percent(v) },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => percent(v) } },
    series: [
      { name: type === 1 ? mk.activateRate : mk.receiveRate, type: 'bar', barMaxWidth: MARKET_BAR_MAX_WIDTH, data: rate },
      { name: mk.cancelRate, type: 'bar', barMaxWidth: MARKET_BAR_MAX_WIDTH, data: rows.map((r) => r.cancel_num_rate) },
    ],
  };
}

export type FunnelView = 'bar' | 'total' | 'line';
const STEPS = [
  ['productViews', mk.views],
  ['unifiedAuth', mk.auth],
  ['orderAttempts', mk.attempts],
  ['orderSuccess', mk.success],
] as const;

/** Type 2: the funnel per day as bars or lines, or its totals over the range. */
export function funnelOption(rows: readonly MarketFunnelRow[], view: FunnelView): EChartsCoreOption {
  if (view === 'total') {
    const sums = STEPS.map(([key]) => rows.reduce((a, r) => a + r[key], 0));
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 64, right: 24, top: 24, bottom: 24 },
      xAxis: { type: 'category', data: STEPS.map(([, label]) => label) },
      yAxis: { type: 'value' },
      series: [{ name: mk.total, type: 'bar', barMaxWidth: MARKET_BAR_MAX_WIDTH, data: sums, label: { show: true, position: 'top' } }],
    };
  }
  const days = rows.map((r) => r.dt);
  return {
    ...base(days),
    yAxis: { type: 'value' },
    series: STEPS.map(([key, label]) => ({
      name: label,
      type: view,
      barMaxWidth: MARKET_BAR_MAX_WIDTH,
      smooth: view === 'line',
      data: rows.map((r) => r[key]),
    })),
  };
}
