import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { CloseOutlined, DownloadOutlined, FullscreenOutlined, FileTextOutlined } from '@ant-design/icons';
import { EXPORTABLE_CHART_TYPES } from '@shutu/contracts/board-constants';
import type { Chart, ChartLinkValue } from '@shutu/contracts';
import { previewMessages as pm } from './messages.ts';

/**
 * 导出's popover (its forms, the export records and the contracts' schemas): mounted on a chart
 * once the pointer comes over the chart (its tools fade in then: `toolsWanted`) or 导出 is
 * clicked, its code loaded then. Mounted with every chart as the board drew, twenty popovers and
 * their code took the main thread while the charts' first pictures were being drawn (issue 26).
 */
const ExportRecordPopover = lazy(() => import('../../export/ExportRecordPopover.tsx').then((m) => ({ default: m.ExportRecordPopover })));

/** The JSON viewer of one saved chart (a new tab). */
export function chartJsonPath(boardId: number, chartKey: string): string {
  return `/newbi/json/${boardId}/${encodeURIComponent(chartKey)}`;
}

export interface BoardChartToolsProps {
  boardId: number;
  chart: Chart;
  links: ChartLinkValue[];
  /** Offer 全屏 / 关闭. */
  allowFull: boolean;
  full: boolean;
  onToggleFull: () => void;
  /** Offer 查看数据 (the chart reads data). */
  viewData: boolean;
  /** The pointer or the focus has come to the chart: its tools are about to be used. */
  toolsWanted?: boolean;
}

/** A board chart's header tools: 全屏, 导出 (its popover loads on first use), 查看数据. */
export function BoardChartTools({ boardId, chart, links, allowFull, full, onToggleFull, viewData, toolsWanted = false }: BoardChartToolsProps) {
  // A click on 导出 before the popover's code has arrived is kept: the popover opens once it loads.
  const [exportClicked, setExportClicked] = useState(false);
  const exportWanted = toolsWanted || full || exportClicked;
  const exportButton = (onClick?: () => void) => (
    <Button size="small" type="text" icon={<DownloadOutlined />} data-testid="chart-export" onClick={onClick}>
      {pm.export}
    </Button>
  );
  const clickedBeforeLoad = () => setExportClicked(true);
  return (
    <span className="board-chart-tools" onClick={(e) => e.stopPropagation()}>
      {allowFull && (
        <Button size="small" type="text" icon={full ? <CloseOutlined /> : <FullscreenOutlined />} onClick={onToggleFull} data-testid="chart-full">
          {full ? pm.close : pm.fullscreen}
        </Button>
      )}
      {EXPORTABLE_CHART_TYPES.includes(chart.name) &&
        (exportWanted ? (
          <Suspense fallback={exportButton(clickedBeforeLoad)}>
            <ExportRecordPopover boardId={boardId} chartKey={chart.key} chartTitle={chart.title} links={links} defaultOpen={exportClicked}>
              {exportButton()}
            </ExportRecordPopover>
          </Suspense>
        ) : (
          exportButton(clickedBeforeLoad)
        ))}
      {viewData && (
        <Button
          size="small"
          type="text"
          icon={<FileTextOutlined />}
          data-testid="chart-json"
          onClick={() => window.open(chartJsonPath(boardId, chart.key), '_blank', 'noopener')}
        >
          {pm.viewData}
        </Button>
      )}
    </span>
  );
}
