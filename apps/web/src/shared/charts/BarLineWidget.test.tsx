import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { BarWidget, barLineOption } from './BarLineWidget.tsx';

afterEach(cleanup);

interface Series {
  name: string;
  type: string;
  barMaxWidth: number;
  data: (number | null)[];
}
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}`, channel: i % 2 ? '线上' : '线下', num: i + 1 }));

describe('bar and line widgets (spec 1 §2.4)', () => {
  it('draws one series per index, bars at most 30 wide, one point per row value', () => {
    const { option } = barLineOption({
      type: 'bar',
      chartData: rows(3),
      rowParamList: [{ name: 'month' }],
      indexParamList: [{ name: 'num', title: '用户数' }],
    });
    const series = option.series as Series[];
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ name: '用户数', type: 'bar', barMaxWidth: 30, data: [1, 2, 3] });
    expect((option.xAxis as { data: string[] }).data).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(option.dataZoom).toEqual([]);
  });

  it('splits series by the column params and zooms to the first 10 points of more', () => {
    const { option } = barLineOption({
      type: 'line',
      chartData: rows(12),
      rowParamList: [{ name: 'month' }],
      columnParamList: [{ name: 'channel' }],
      indexParamList: [{ name: 'num' }],
    });
    const series = option.series as Series[];
    expect(series.map((s) => s.name)).toEqual(['线下', '线上']);
    expect(series[0]!.data.slice(0, 3)).toEqual([1, null, 3]);
    expect(option.dataZoom).toEqual([expect.objectContaining({ startValue: 0, endValue: 9 })]);
  });

  it('shows 暂无数据 without rows', () => {
    render(<BarWidget chartData={[]} rowParamList={[{ name: 'month' }]} indexParamList={[{ name: 'num' }]} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
  });
});
