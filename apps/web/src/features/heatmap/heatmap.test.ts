import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { HEATMAP_POINT_VALUE } from '@shutu/contracts';
import { frameHeight, frameWidth, layerData } from './heat-layer.ts';
import { rangePresets } from './HeatmapPage.tsx';

describe('heat layer', () => {
  const points = [
    { x: 0.75, y: 500, width: 1920 },
    { x: 0.75, y: 500, width: 1280 },
  ];

  it('places clicks made at two widths on the same spot of the page shown at a third', () => {
    expect(layerData(points, 1000)).toEqual([
      [750, 500, HEATMAP_POINT_VALUE],
      [750, 500, HEATMAP_POINT_VALUE],
    ]);
    // The frame narrows (side menu opened): the points follow the page's layout.
    expect(layerData(points, 800).map(([x]) => x)).toEqual([600, 600]);
  });

  it('frames H5 pages at a phone width and the others at the space there is', () => {
    expect(frameWidth('H5', 1200)).toBe(390);
    expect(frameWidth('H5', 300)).toBe(300);
    expect(frameWidth('PC', 1200)).toBe(1200);
    expect(frameHeight(3200, points)).toBe(3200);
    expect(frameHeight(null, [{ x: 0, y: 1500, width: 1 }])).toBe(1700);
    expect(frameHeight(null, [])).toBe(900);
  });
});

describe('date range', () => {
  it('defaults to yesterday and the day before, with a week, a month and three months up to today', () => {
    const today = dayjs('2026-11-25');
    const { initial, presets } = rangePresets(today);
    const f = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');
    expect(initial.map(f)).toEqual(['2026-11-23', '2026-11-24']);
    expect(presets.map((p) => [p.label, ...p.value.map(f)])).toEqual([
      ['最近一周', '2026-11-18', '2026-11-25'],
      ['最近一个月', '2026-10-25', '2026-11-25'],
      ['最近三个月', '2026-08-25', '2026-11-25'],
    ]);
  });
});
