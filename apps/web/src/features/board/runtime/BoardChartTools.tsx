import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { CloseOutlined, DownloadOutlined, FullscreenOutlined, FileTextOutlined } from '@ant-design/icons';
import { EXPORTABLE_CHART_TYPES } from '@shutu/contracts/board-constants';
import type { Chart, ChartLinkValue } from '@shutu/contracts';
import { previewMessages as pm } from './messages.ts';

/** 导出's popover (its forms and the export records): loaded with the first chart that offers it. */
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
}

/** A board chart's header tools: 全屏, 导出 (its popover loads on first use), 查看数据. */
export function BoardChartTools({ boardId, chart, links, allowFull, full, onToggleFull, viewData }: BoardChartToolsProps) {
  // A click on 导出 before the popover's code has arrived is kept: the popover opens once it loads.
  const [exportClicked, setExportClicked] = useState(false);
  const exportButton = (onClick?: () => void) => (
    <Button size="small" type="text" icon={<DownloadOutlined />} data-testid="chart-export" onClick={onClick}>
      {pm.export}
    </Button>
  );
  return (
    <span className="board-chart-tools" onClick={(e) => e.stopPropagation()}>
      {allowFull && (
        <Button size="small" type="text" icon={full ? <CloseOutlined /> : <FullscreenOutlined />} onClick={onToggleFull} data-testid="chart-full">
          {full ? pm.close : pm.fullscreen}
        </Button>
      )}
      {EXPORTABLE_CHART_TYPES.includes(chart.name) && (
        <Suspense fallback={exportButton(() => setExportClicked(true))}>
          <ExportRecordPopover boardId={boardId} chartKey={chart.key} chartTitle={chart.title} links={links} defaultOpen={exportClicked}>
            {exportButton()}
          </ExportRecordPopover>
        </Suspense>
      )}
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
