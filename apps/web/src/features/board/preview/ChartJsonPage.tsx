import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Space, Typography } from 'antd';
import { CopyOutlined, DownloadOutlined, MinusSquareOutlined, PlusSquareOutlined } from '@ant-design/icons';
import type { Board } from '@shutu/contracts';
import { API, apiPath, CHART_TYPE_LABELS, EXPORTABLE_CHART_TYPES } from '@shutu/contracts';
import { http } from '../../../shared/api.ts';
import { chartDataMode, useChartData } from '../../../shared/charts/index.ts';
import { ExportRecordPopover } from '../../export/ExportRecordPopover.tsx';
import { previewMessages as pm } from '../runtime/messages.ts';
import { BoardStatePanel } from './BoardStatePanel.tsx';
import { JsonTree } from './JsonTree.tsx';
import { failureOf } from './useBoardView.ts';
import '../runtime/board-view.css';
import './json-viewer.css';

/** Rows beyond this start folded (a fully open tree of thousands of rows is slow to draw). */
const OPEN_ROWS_LIMIT = 200;

/**
 * /newbi/json/{boardId}/{chartKey} (spec 1 §2.13, route ours): the data of one saved chart,
 * without links (what the chart shows before any filter is chosen; a detail table's first
 * page), as collapsible, coloured JSON with its row count, 复制 and 导出 (Excel or CSV of the
 * chart's data, docs/exports.md).
 */
export default function ChartJsonPage() {
  const params = useParams();
  const boardId = Number(params.boardId);
  const chartKey = params.chartKey ?? '';
  const { message } = App.useApp();
  const boardQuery = useQuery({
    queryKey: ['board', 'view', boardId],
    queryFn: () => http.get<Board>(apiPath(API.board.board, { id: boardId })),
    enabled: Number.isSafeInteger(boardId) && boardId > 0,
    retry: false,
    meta: { silent: true },
  });
  const chart = boardQuery.data?.charts.find((c) => c.key === chartKey);
  const mode = chart ? chartDataMode(chart.name) : null;
  const { data, error, query } = useChartData(chart && mode ? { boardId, chartKey, mode } : null);
  const [unfold, setUnfold] = useState<{ depth: number; generation: number } | null>(null);

  useEffect(() => {
    document.title = `${pm.jsonTitle}${chart ? ` - ${chart.title || chart.key}` : ''}`;
  }, [chart]);

  // Rows first: they are what one comes to read; the field dictionary explains their keys.
  const shown = useMemo(
    () => (data ? { dataList: data.dataList, fieldDict: data.fieldDict, total: data.total, elapsedMs: data.elapsedMs, shared: data.shared } : null),
    [data],
  );
  const text = useMemo(() => (shown ? JSON.stringify(shown, null, 2) : ''), [shown]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(pm.copied);
    } catch {
      void message.error(pm.copyFailed);
    }
  };

  if (!Number.isSafeInteger(boardId) || boardId <= 0) return <BoardStatePanel failure="forbidden" />;
  if (boardQuery.error) return <BoardStatePanel failure={failureOf(boardQuery.error)} onRetry={() => void boardQuery.refetch()} />;
  if (boardQuery.data && !chart) {
    return (
      <div className="board-state-panel" data-testid="board-failure">
        <Typography.Title level={4}>{pm.chartMissing}</Typography.Title>
      </div>
    );
  }
  const chartError = query.error ? failureOf(query.error) : null;
  if (chartError === 'forbidden') return <BoardStatePanel failure="forbidden" />;
  if (!chart || (mode && !data && !error)) return <BoardStatePanel failure={null} />;

  const rows = data?.dataList.length ?? 0;
  const depthOpen = unfold?.depth ?? (rows > OPEN_ROWS_LIMIT ? 2 : 3);
  return (
    <div className="json-page" data-testid="chart-json-page">
      <div className="board-topbar">
        <div className="board-topbar-title">
          {pm.jsonTitle}
          <Typography.Text type="secondary" style={{ marginLeft: 12, fontWeight: 'normal', fontSize: 14 }}>
            {boardQuery.data!.title} / {chart.title || chart.key}（{CHART_TYPE_LABELS[chart.name]}）
          </Typography.Text>
        </div>
        <Space size={8}>
          {data && (
            <Typography.Text data-testid="json-row-count">
              {pm.rowCount(rows)}
              {data.total !== null && data.total !== undefined && data.total !== rows ? pm.totalCount(data.total) : ''}
            </Typography.Text>
          )}
          <Button icon={<PlusSquareOutlined />} disabled={!data} onClick={() => setUnfold((u) => ({ depth: Infinity, generation: (u?.generation ?? 0) + 1 }))}>
            {pm.expandAll}
          </Button>
          <Button icon={<MinusSquareOutlined />} disabled={!data} onClick={() => setUnfold((u) => ({ depth: 1, generation: (u?.generation ?? 0) + 1 }))}>
            {pm.collapseAll}
          </Button>
          <Button type="primary" icon={<CopyOutlined />} disabled={!data} onClick={() => void copy()} data-testid="json-copy">
            {pm.copy}
          </Button>
          {EXPORTABLE_CHART_TYPES.includes(chart.name) && (
            // The data shown here (no links) as Excel or CSV, through the same export tasks as the chart's 导出.
            <ExportRecordPopover boardId={boardId} chartKey={chartKey} chartTitle={chart.title || chart.key}>
              <Button icon={<DownloadOutlined />} data-testid="json-export">
                {pm.export}
              </Button>
            </ExportRecordPopover>
          )}
        </Space>
      </div>
      <div className="json-body">
        {error && !data ? (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        ) : (
          <JsonTree key={unfold?.generation ?? 0} value={shown ?? { dataList: [], fieldDict: [] }} depthOpen={depthOpen} />
        )}
      </div>
    </div>
  );
}
