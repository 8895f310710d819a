import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Modal } from 'antd';
import type { Board, Chart, ChartLinkValue } from '@shutu/contracts';
import type { FilterValue } from '../../../shared/charts/FilterControls.tsx';
import type { CubeCell } from '../../../shared/charts/format.ts';
import { preloadChartParts } from '../../../shared/charts/lazy-parts.tsx';
import { BoardChart } from './BoardChart.tsx';
import { QuickCanvas, ScreenCanvas } from './BoardCanvas.tsx';
import { anchoredCharts, dialogCharts, drawnCharts } from './layout.ts';
import {
  anyLinkApplied,
  boardFirstRequests,
  chartLinks,
  clearLinkage,
  CLICK_DRIVER_TYPES,
  clickSelection,
  driverKeys,
  filterSelection,
  initialLinkage,
  select,
  toggleClick,
  type ClickedField,
  type LinkageState,
} from '@shutu/contracts/board-linkage';
import { useBoardBatch } from './useBoardBatch.ts';
import './board-view.css';

/** What the board offers its header (the preview's top bar, the slideshow's toolbar). */
export interface BoardControls {
  /** The board has linked charts: 清除联动 is offered. */
  hasLinkage: boolean;
  /** Some chart is filtered by a driver right now. */
  linkApplied: boolean;
  clearLinkage: () => void;
  /** Anchored charts in reading order (导航). */
  anchors: { key: string; label: string }[];
  scrollToChart: (key: string) => void;
  scrollToTop: () => void;
  /** Charts opened from a button in a dialog (site.isDiglog). */
  dialogCharts: Chart[];
  openDialog: (key: string) => void;
}

export interface BoardViewProps {
  board: Board;
  /** Chart tools (全屏, 导出, 查看数据); default on. Off for a still picture. */
  tools?: boolean;
  /** Rendered above the canvas with the board's controls. */
  header?: (controls: BoardControls) => ReactNode;
  /** Every chart drawn in place has rendered (its picture, its empty state or its error); called once. */
  onReady?: () => void;
  /**
   * The drawn charts' first data in one call (useBoardBatch), each chart read by its own
   * statement; absent, each chart asks by itself.
   */
  batch?: boolean;
}

/** A chart no driver links to (one array for all, so BoardChart's memo holds). */
const NO_LINKS: ChartLinkValue[] = [];

/** Dialog charts open at this share of the window height. */
const DIALOG_HEIGHT_SHARE = 0.75;

/**
 * A board, read-only: the screen canvas (scaled design size, fixed charts) or the quick grid,
 * each chart with its data and the linkage between charts (filter controls and clicks drive
 * the charts that link to them; 清除联动 resets). Dialog charts are not drawn in place: the
 * header gets them as `dialogCharts` and `openDialog` shows one in a large modal.
 */
export function BoardView({ board, tools = true, header, onReady, batch }: BoardViewProps) {
  const [linkage, setLinkage] = useState<LinkageState>(initialLinkage);
  /** Bumped by 清除联动 so filter controls start again empty. */
  const [generation, setGeneration] = useState(0);
  const [dialogKey, setDialogKey] = useState<string | null>(null);

  const links = useMemo(() => chartLinks(board.charts, linkage), [board.charts, linkage]);
  const drivers = useMemo(() => driverKeys(board.charts), [board.charts]);
  const drawn = useMemo(() => drawnCharts(board), [board]);
  const dialogs = useMemo(() => dialogCharts(board), [board]);
  const anchors = useMemo(() => anchoredCharts(board), [board]);
  // After 清除联动 the controls show no default: it no longer applies.
  const charts = useMemo(
    () => new Map(board.charts.map((c) => [c.key, linkage.defaults || !c.ext.defaultValue ? c : { ...c, ext: { ...c.ext, defaultValue: null } }])),
    [board.charts, linkage.defaults],
  );

  // The drawn charts' first data (nothing chosen yet, the filters' defaults), asked for now: in one
  // call when `batch`, else each chart's own request.
  // Their lines are filed once the code of the kinds of charts drawn here is there (it starts
  // loading now, beside their data, after the batch's request: six connections on HTTP/1.1).
  const batchWaiting = useBoardBatch(
    board.id,
    () => boardFirstRequests(board),
    batch,
    () => preloadChartParts(drawn.map((c) => c.name)),
  );
  useEffect(() => void preloadChartParts(drawn.map((c) => c.name)), [drawn]);

  // Ready: every chart drawn in place has rendered once.
  const [rendered, setRendered] = useState<ReadonlySet<string>>(() => new Set());
  const readySent = useRef(false);
  const onRendered = useCallback((key: string) => setRendered((s) => (s.has(key) ? s : new Set(s).add(key))), []);
  useEffect(() => {
    if (readySent.current || !drawn.every((c) => rendered.has(c.key))) return;
    readySent.current = true;
    onReady?.();
  }, [drawn, rendered, onReady]);

  const onFilterChange = useCallback((chart: Chart, values: FilterValue[]) => {
    setLinkage((s) => select(s, chart.key, filterSelection(chart.name, values)));
  }, []);
  const onPointClick = useCallback((chart: Chart, values: CubeCell[], fields: ClickedField[]) => {
    setLinkage((s) => toggleClick(s, chart.key, clickSelection(values, fields)));
  }, []);

  // Anchors and 返回顶部 find their elements by id (no refs read while rendering the header).
  const uid = useId();
  const anchorId = useCallback((key: string) => `${uid}-chart-${key}`, [uid]);
  const viewportId = `${uid}-viewport`;

  const controls: BoardControls = {
    hasLinkage: drivers.size > 0,
    linkApplied: anyLinkApplied(links),
    clearLinkage: () => {
      setLinkage(clearLinkage());
      setGeneration((g) => g + 1);
    },
    anchors,
    scrollToChart: (key) => document.getElementById(anchorId(key))?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }),
    scrollToTop: () => document.getElementById(viewportId)?.scrollTo?.({ top: 0, behavior: 'smooth' }),
    dialogCharts: dialogs,
    openDialog: setDialogKey,
  };

  const screen = board.content.type === 'screen';
  const chartBackground = screen && (board.content.bgColor || board.content.bgImg) ? undefined : '#fff';
  const renderChart = (chart: Chart, inDialog = false) => {
    const own = charts.get(chart.key) ?? chart;
    // In a dialog the modal carries the title: the chart goes without its header.
    const shown = inDialog ? { ...own, site: { ...own.site, isSimple: true } } : own;
    const isFilter = chart.name === 'filterSelect' || chart.name === 'filterDate';
    return (
      <BoardChart
        key={isFilter ? `${chart.key}:${generation}` : chart.key}
        boardId={board.id}
        chart={shown}
        links={links[chart.key] ?? NO_LINKS}
        tools={tools}
        allowFull={!inDialog}
        onRendered={inDialog ? undefined : onRendered}
        onFilterChange={isFilter ? onFilterChange : undefined}
        onPointClick={drivers.has(chart.key) && CLICK_DRIVER_TYPES.includes(chart.name) ? onPointClick : undefined}
        defaultBackground={inDialog ? '#fff' : chartBackground}
        height={inDialog ? Math.round(window.innerHeight * DIALOG_HEIGHT_SHARE) : undefined}
        waiting={!inDialog && batchWaiting(chart.key)}
      />
    );
  };

  const dialogChart = dialogKey ? dialogs.find((c) => c.key === dialogKey) : undefined;
  const canvasProps = { board, charts: drawn, renderChart: (c: Chart) => renderChart(c), viewportId, anchorId };
  return (
    <div className="board-view" data-testid="board-view" data-board-type={board.content.type}>
      {header?.(controls)}
      {screen ? <ScreenCanvas {...canvasProps} /> : <QuickCanvas {...canvasProps} />}
      <Modal
        open={!!dialogChart}
        title={dialogChart?.title}
        footer={null}
        width="90vw"
        centered
        destroyOnHidden
        onCancel={() => setDialogKey(null)}
        styles={{ body: { padding: 0 } }}
      >
        {dialogChart && <div data-testid="board-dialog-chart">{renderChart(dialogChart, true)}</div>}
      </Modal>
    </div>
  );
}
