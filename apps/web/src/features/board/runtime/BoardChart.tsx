import { memo, useCallback, useDeferredValue, useMemo, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { EXPORTABLE_CHART_TYPES } from '@shutu/contracts/board-constants';
import type { Chart, ChartLinkValue } from '@shutu/contracts';
import { boardChartRequest, chartDataMode, DEFAULT_DETAIL_SIZE } from '@shutu/contracts/board-linkage';
// The renderer's own files, not the charts' index: the index re-exports ECharts and the tables, which load on demand.
import { ChartView } from '../../../shared/charts/ChartView.tsx';
import type { FilterValue } from '../../../shared/charts/FilterControls.tsx';
import type { CubeCell } from '../../../shared/charts/format.ts';
import { useChartData } from '../../../shared/charts/useChartData.ts';
import type { ClickedField } from '@shutu/contracts/board-linkage';
import { BoardChartTools } from './BoardChartTools.tsx';
import { boardChartRefetchOnMount, boardChartStaleTime } from './useBoardBatch.ts';

export { chartJsonPath } from './BoardChartTools.tsx';

export interface BoardChartProps {
  boardId: number;
  chart: Chart;
  /** The drivers' values applied to this chart now (linkage). */
  links: ChartLinkValue[];
  /** Header tools (全屏, 导出, 查看数据). */
  tools?: boolean;
  /** Offer 全屏 (not inside a dialog, which is already large). */
  allowFull?: boolean;
  /** Called once when the chart has painted (or shows its empty / error state). */
  onRendered?: (key: string) => void;
  /** A filter control changed. */
  onFilterChange?: (chart: Chart, values: FilterValue[]) => void;
  /** A click on a bar / point / slice / row, when this chart drives others. */
  onPointClick?: (chart: Chart, values: CubeCell[], fields: ClickedField[]) => void;
  /** The frame's background when the chart sets none. */
  defaultBackground?: string;
  /** Pixel height (dialog); default fills the parent. */
  height?: number;
  /** The board's first batch (useBoardBatch) is bringing this chart's data: do not ask for it meanwhile. */
  waiting?: boolean;
}

/**
 * One chart of a read-only board: its data (chart-data with the board id, chart key and the
 * links), the shared renderer and the hover toolbar. 全屏 moves the chart into an overlay over
 * the whole window (a portal, so the board's scale transform does not confine it).
 *
 * Memoised: the board renders again as each of its charts reports its first picture (its ready
 * state) or a link changes, and without it every chart — its table's rows, its ECharts
 * component — rendered again each time, twenty times over on a board of twenty (issue 26).
 */
export const BoardChart = memo(function BoardChart(props: BoardChartProps) {
  const { boardId, chart, links, tools = true, allowFull = true, onRendered, onFilterChange, onPointClick, defaultBackground, height, waiting } = props;
  const mode = chartDataMode(chart.name);
  const linksKey = JSON.stringify(links);
  // The detail page resets to 1 when the links change (a new filter, a new result).
  const [paging, setPaging] = useState<{ linksKey: string; current: number; size: number } | null>(null);
  const current = paging && paging.linksKey === linksKey ? paging.current : 1;
  const size = paging?.size ?? chart.dataconfig?.pageSize ?? DEFAULT_DETAIL_SIZE;
  const page = useMemo(() => ({ current, size }), [current, size]);
  const answer = useChartData(boardChartRequest(boardId, chart, links, page), {
    enabled: !waiting,
    staleTime: boardChartStaleTime,
    refetchOnMount: boardChartRefetchOnMount,
  });
  // A new answer is drawn in a deferred render (a transition): React renders it in slices of a few
  // milliseconds and lets the browser paint and take input between them. Twenty answers arriving
  // together had been drawn in one synchronous render (react-query's store updates are
  // synchronous), the share link's longest tasks on a phone (issue 26, Lighthouse's blocking time).
  // One transition per chart, one after another, cut the longest task further but made the 200k
  // board 0.1–0.15 s slower to be ready on a desktop (docs/web-performance.md, session 18).
  const data = useDeferredValue(answer.data, null);
  const error = useDeferredValue(answer.error, null);
  const drawing = data !== answer.data || error !== answer.error;
  // Waiting for the board's batch is loading too (not an empty chart), and so is an answer not yet drawn.
  const loading = answer.loading || drawing || (!!waiting && !data);
  const [full, setFull] = useState(false);

  // No empty floating box when nothing applies (e.g. a text chart that may not go full screen).
  const hasTools = tools && (allowFull || EXPORTABLE_CHART_TYPES.includes(chart.name) || !!mode);
  const toggleFull = useCallback(() => setFull((f) => !f), []);
  // The tools' heavier parts (导出's popover) mount once the pointer or the focus comes to the chart.
  const [toolsWanted, setToolsWanted] = useState(false);
  const wantTools = useCallback(() => setToolsWanted(true), []);
  // The header's tools and the chart's view are kept while nothing they show changes, so that a
  // render of this chart for another reason (its answer arriving before it is drawn, the board's
  // batch state) does not draw its table or ECharts again.
  const toolbar = useMemo(
    () =>
      hasTools ? (
        <BoardChartTools
          boardId={boardId}
          chart={chart}
          links={links}
          allowFull={allowFull}
          full={full}
          onToggleFull={toggleFull}
          viewData={!!mode}
          toolsWanted={toolsWanted}
        />
      ) : null,
    [hasTools, boardId, chart, links, allowFull, full, toggleFull, mode, toolsWanted],
  );

  const onPage = useCallback((current: number, size: number) => setPaging({ linksKey, current, size }), [linksKey]);
  // The board's handlers bound to this chart; absent when the board gives none.
  const filterChanged = useMemo(() => onFilterChange && ((values: FilterValue[]) => onFilterChange(chart, values)), [onFilterChange, chart]);
  const pointClicked = useMemo(
    () => onPointClick && ((values: CubeCell[], fields: ClickedField[]) => onPointClick(chart, values, fields)),
    [onPointClick, chart],
  );
  const rendered = useMemo(() => onRendered && (() => onRendered(chart.key)), [onRendered, chart.key]);
  const view = useMemo(
    () => (
      <ChartView
        chart={chart}
        data={data}
        loading={loading}
        error={error}
        page={page}
        onPage={onPage}
        onFilterChange={filterChanged}
        onPointClick={pointClicked}
        onRendered={rendered}
        height={height}
        extra={chart.site.isSimple ? undefined : toolbar}
        quietLoading
      />
    ),
    [chart, data, loading, error, page, onPage, filterChanged, pointClicked, rendered, height, toolbar],
  );

  const frameStyle: CSSProperties = { background: chart.site.bgColor || chart.site.bgBackgroundSrc ? undefined : defaultBackground };
  const frame = (className: string, style?: CSSProperties) => (
    <div
      className={className}
      style={{ ...frameStyle, ...style }}
      data-testid="board-chart"
      data-chart-key={chart.key}
      data-chart-type={chart.name}
      // What the chart shows, for scripts and tests that cannot read a canvas.
      data-row-count={data ? data.dataList.length : undefined}
      data-link-count={links.length}
      data-loading={loading ? 'true' : undefined}
      onPointerEnter={toolsWanted ? undefined : wantTools}
      onFocus={toolsWanted ? undefined : wantTools}
    >
      {view}
      {chart.site.isSimple && toolbar && <div className="board-chart-tools-floating">{toolbar}</div>}
    </div>
  );

  if (full) {
    return (
      <>
        <div className="board-chart board-chart-placeholder" style={frameStyle} />
        {createPortal(frame('board-chart board-chart-full', { background: frameStyle.background ?? '#fff' }), document.body)}
      </>
    );
  }
  return frame('board-chart');
});
