import type { ChartType } from '@shutu/contracts';
import { lazyFrom, loader } from './lazy-now.ts';

/**
 * The heavy parts of the chart renderer, loaded when a chart on screen needs them (issue 24,
 * 26): ECharts (≈ 590 kB) for bar, line and pie; antd's table, tree and popover for the tables;
 * antd's select, and its date picker, for the filter controls. A board that has none of a kind never
 * loads its code, and the viewer's first script is smaller, so the app starts (and sends its
 * chart-data batch) sooner. `preloadChartParts` starts the imports as soon as the board is
 * known, so the code arrives while the data is on its way.
 */
const loadEChart = loader(() => import('./EChart.tsx'));
const loadTables = loader(() => import('./TableViews.tsx'));
const loadFilterSelect = loader(() => import('./FilterSelect.tsx'));
const loadFilterDate = loader(() => import('./FilterDate.tsx'));

// Once loaded (preloadChartParts), a part renders without suspending (lazy-now.ts).
export const LazyEChart = lazyFrom(loadEChart, (m) => m.EChart);
export const LazyDataTable = lazyFrom(loadTables, (m) => m.DataTable);
export const LazyStructureFilter = lazyFrom(loadTables, (m) => m.StructureFilter);
export const LazyFilterSelect = lazyFrom(loadFilterSelect, (m) => m.FilterSelect);
export const LazyFilterDate = lazyFrom(loadFilterDate, (m) => m.FilterDate);

const ECHARTS_TYPES: readonly ChartType[] = ['bar', 'line', 'pie'];
const TABLE_TYPES: readonly ChartType[] = ['table', 'detail', 'pivot'];

/**
 * Starts loading the parts the given chart types draw with (each module is fetched once); settles
 * when they are there (or failed: a failed preload is retried by the lazy component, which shows
 * the route's error if it fails too).
 */
export function preloadChartParts(types: Iterable<ChartType>): Promise<void> {
  const wanted = new Set(types);
  const wants = (list: readonly ChartType[]) => list.some((t) => wanted.has(t));
  const loads: Promise<unknown>[] = [];
  if (wants(ECHARTS_TYPES)) loads.push(loadEChart());
  if (wants(TABLE_TYPES)) loads.push(loadTables());
  if (wanted.has('filterSelect')) loads.push(loadFilterSelect());
  if (wanted.has('filterDate')) loads.push(loadFilterDate());
  return Promise.all(loads.map((load) => load.catch(() => undefined))).then(() => undefined);
}

/** Loads every part (tests: a test then waits only for React, not for the modules' first load). */
export async function loadChartParts(): Promise<void> {
  await Promise.all([loadEChart(), loadTables(), loadFilterSelect(), loadFilterDate()]);
}
