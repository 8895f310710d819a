import { memo } from 'react';
import { Typography } from 'antd';
import { QUICK_GRID, STATIC_CHART_TYPES, type ChartDataBody } from '@shutu/contracts';
import { ChartView, chartDataMode, useChartData } from '../../../shared/charts/index.ts';
import { et } from './messages.ts';
import type { ChartDraft } from './types.ts';

/** The detail table's first page in the editor (the renderer's default page size). */
const EDITOR_DETAIL_SIZE = 20;

/** What the chart still needs before it can be drawn: a dataset, then a field (null: nothing). */
export function missingConfig(chart: ChartDraft): string | null {
  if (STATIC_CHART_TYPES.includes(chart.name)) return null;
  const config = chart.dataconfig;
  if (!config) return et.pickDataset;
  if (config.rowParamList.length + config.columnParamList.length + config.indexParamList.length === 0) return et.pickFields;
  return null;
}

/** The chart-data request of a chart in the editor, or null while it cannot be drawn. */
export function liveChartInput(chart: ChartDraft): ChartDataBody | null {
  const mode = chartDataMode(chart.name);
  const config = chart.dataconfig;
  if (missingConfig(chart) || !mode || !config) return null;
  return {
    dataconfig: config as ChartDataBody['dataconfig'],
    mode,
    chartType: chart.name,
    showTotal: chart.option.showTotal === true,
    ...(mode === 'detail' ? { size: config.pageSize ?? EDITOR_DETAIL_SIZE } : {}),
  };
}

/**
 * A chart of the editor drawn live from its draft dataconfig through the shared renderer
 * (the same ChartView and chart-data path as the preview). Memoised: moving a chart does not
 * redraw it.
 */
export const LiveChart = memo(function LiveChart({ chart }: { chart: ChartDraft }) {
  const hint = missingConfig(chart);
  const { data, loading, error } = useChartData(liveChartInput(chart));
  if (hint) {
    return (
      <div className="be-chart-hint" style={{ backgroundColor: chart.site.bgColor ?? undefined }}>
        {!chart.site.isSimple && (
          <div className="be-chart-hint-title" style={{ height: QUICK_GRID.headerHeight }}>
            {chart.title}
          </div>
        )}
        <div className="be-chart-hint-body">
          <Typography.Text type="secondary">{hint}</Typography.Text>
        </div>
      </div>
    );
  }
  return <ChartView chart={chart} data={data} loading={loading} error={error} />;
});
