/** The shared chart renderer of dashboards and self-service reports. */
export { ChartView, type ChartViewProps } from './ChartView.tsx';
export { EChart, type EChartProps, type EChartClick } from './EChart.tsx';
export { FilterDate, FilterSelect, type FilterValue } from './FilterControls.tsx';
export { buildCartesianOption, buildEChartOption, buildPieOption, type BuiltEChart, type ChartOption } from './echarts-options.ts';
export { AUTO_FORMAT, formatDimension, formatMeasure, formatNumber, toNumber, type CubeCell } from './format.ts';
export { chartMessages } from './messages.ts';
export { readOptions, safeUrl, splitFields, type ChartDisplayOptions } from './model.ts';
export * from './tables.ts';
export { chartDataBody, chartDataKeys, chartDataMode, fetchChartData, useChartData, type ChartDataMode } from './useChartData.ts';
