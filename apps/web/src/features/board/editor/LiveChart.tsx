import { memo, useMemo } from 'react';
import { Typography } from 'antd';
import { QUICK_GRID, STATIC_CHART_TYPES, type ChartDataBody, type ChartLinkValue } from '@shutu/contracts';
import { ChartView, chartDataMode, useChartData } from '../../../shared/charts/index.ts';
import { chartLinks, initialLinkage } from '@shutu/contracts/board-linkage';
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
 * What each chart of the editor receives from the filters at first load (their default values,
 * board-wide or by hand), so the canvas opens as the preview does.
 */
export function useFirstLoadLinks(charts: readonly ChartDraft[]): Record<string, ChartLinkValue[]> {
  return useMemo(() => chartLinks(charts, initialLinkage), [charts]);
}

const NO_LINKS: ChartLinkValue[] = [];

/**
 * A chart of the editor drawn live from its draft dataconfig through the shared renderer
 * (the same ChartView and chart-data path as the preview), with the filters' first-load links.
 * Memoised: moving a chart does not redraw it.
 */
export const LiveChart = memo(
  function LiveChart({ chart, links = NO_LINKS }: { chart: ChartDraft; links?: ChartLinkValue[] }) {
    const hint = missingConfig(chart);
    const input = liveChartInput(chart);
    const { data, loading, error } = useChartData(input && links.length > 0 ? { ...input, links } : input);
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
  },
  // The links are recomputed on every edit of the board: equal values need no redraw.
  (a, b) => a.chart === b.chart && JSON.stringify(a.links ?? NO_LINKS) === JSON.stringify(b.links ?? NO_LINKS),
);
