import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Empty, Spin, Typography } from 'antd';
import type { Chart, ChartDataResult } from '@shutu/contracts';
import { boardMessages, QUICK_GRID } from '@shutu/contracts/board-constants';
import { buildEChartOption } from './echarts-options.ts';
import type { FilterValue } from './FilterControls.tsx';
import type { CubeCell } from './format.ts';
import {
  LazyDataTable as DataTable,
  LazyEChart as EChart,
  LazyFilterDate as FilterDate,
  LazyFilterSelect as FilterSelect,
  LazyStructureFilter as StructureFilter,
} from './lazy-parts.tsx';
import { chartMessages } from './messages.ts';
import { readOptions, safeUrl, splitFields, type ResultField } from './model.ts';
import {
  buildCard,
  buildDetailTable,
  buildPivotTable,
  buildSummaryTable,
  detailPagination,
  filterOptions,
  SHOW_ALL,
  type StructureFilterState,
} from './tables.ts';
import { chartDataMode, DEFAULT_DETAIL_SIZE } from '@shutu/contracts/board-linkage';

export interface ChartViewProps {
  chart: Chart;
  /** The chart's data (null before the first answer, and for charts that read none). */
  data: ChartDataResult | null;
  loading: boolean;
  error?: string | null;
  /** Filter controls: the chosen values (select: values; date: [from, to] as yyyy-MM-dd; cleared: []). */
  onFilterChange?: (values: FilterValue[]) => void;
  /** Detail table: the page asked for. */
  onPage?: (current: number, size: number) => void;
  /** Detail table: the page shown (default 1 and dataconfig.pageSize or 20). */
  page?: { current: number; size: number };
  /**
   * A bar, point, slice or table row clicked: its dimension values and their fields (linkage;
   * a bar or point of a series of column dimensions adds the series' values).
   */
  onPointClick?: (dimensionValues: CubeCell[], fields: ResultField[]) => void;
  /** Called once, after the first complete paint (ECharts 'finished', or once a table / state is rendered). */
  onRendered?: () => void;
  /** Pixel height; default fills the parent. */
  height?: number;
  /** More header tools (export, full screen …), right of 结构筛选. */
  extra?: ReactNode;
  /**
   * 拼命加载中 without a spinner (a board's charts): twenty animated spinners kept the browser's
   * compositor busy through the whole load, 0.3–0.5 s of a 10M board's cold load on two cores, and
   * the server's own headless renders (thumbnails, subscriptions, PDF) pay it too (docs/board-speed.md).
   */
  quietLoading?: boolean;
}

/** The server's default page of a detail table. */

function Centered({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  return <div style={{ height: '100%', minHeight: 60, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 8, ...style }}>{children}</div>;
}

function Loading({ quiet }: { quiet?: boolean }) {
  return (
    <Centered>
      {!quiet && <Spin size="small" />}
      <Typography.Text type="secondary">{boardMessages.loading}</Typography.Text>
    </Centered>
  );
}

/** Runs `onMount` once its Suspense boundary shows the loaded part (not while the fallback is shown). */
function OnMount({ onMount }: { onMount: () => void }) {
  useEffect(onMount, [onMount]);
  return null;
}

/**
 * One chart of a dashboard or report: its header (unless site.isSimple) and its body by type
 * (spec 1 §2.4, §2.10): ECharts for bar/line/pie, antd tables for the table types, the
 * indicator card, text, image and the filter controls; 拼命加载中 while loading, 暂无数据 without rows.
 */
export function ChartView(props: ChartViewProps) {
  const { chart, data, loading, error, onFilterChange, onPage, page, onPointClick, onRendered, height, extra, quietLoading } = props;
  const options = useMemo(() => readOptions(chart), [chart]);
  const [structure, setStructure] = useState<StructureFilterState>(SHOW_ALL);

  const renderedRef = useRef(false);
  const onRenderedRef = useRef(onRendered);
  useEffect(() => {
    onRenderedRef.current = onRendered;
  });
  const markRendered = useCallback(() => {
    if (renderedRef.current) return;
    renderedRef.current = true;
    onRenderedRef.current?.();
  }, []);

  const type = chart.name;
  const needsData = chartDataMode(type) !== null;
  const hasRows = !!data && data.dataList.length > 0;
  const waiting = needsData && type !== 'filterSelect' && !data && loading;
  const failed = needsData && type !== 'filterSelect' && !data && !!error;
  const usesECharts = (type === 'bar' || type === 'line' || type === 'pie') && !waiting && !failed && hasRows;
  // Bodies whose code loads on demand (lazy-parts.tsx) report their paint from inside the Suspense boundary.
  const isFilter = type === 'filterSelect' || type === 'filterDate';
  const isTable = (type === 'table' || type === 'detail' || type === 'pivot') && !waiting && !failed && hasRows;
  const lazyBody = usesECharts || isTable || (isFilter && !waiting && !failed);

  useEffect(() => {
    if (!waiting && !lazyBody) markRendered();
  }, [waiting, lazyBody, markRendered]);

  const echart = useMemo(() => (usesECharts && data ? buildEChartOption(chart, data) : null), [usesECharts, chart, data]);
  const pivot = useMemo(() => (type === 'pivot' && data && hasRows ? buildPivotTable(chart, data, structure) : null), [type, chart, data, hasRows, structure]);
  // Kept between renders: the table draws its rows in steps (TableViews.tsx) for as long as they are the same rows.
  const summary = useMemo(() => (type === 'table' && data && hasRows ? buildSummaryTable(chart, data) : null), [type, chart, data, hasRows]);

  const pointClick = (values: CubeCell[] | undefined, fields: ResultField[]) => {
    if (values && onPointClick) onPointClick(values, fields);
  };
  /** A table row reports the values of `dims` in it. */
  const rowClick = (dims: ResultField[]) =>
    onPointClick
      ? (row: Record<string, CubeCell>) =>
          pointClick(
            dims.map((d) => row[d.alias] ?? null),
            dims,
          )
      : undefined;
  const echartClick = (built: NonNullable<typeof echart>, p: { dataIndex: number; seriesIndex?: number }) => {
    const series = p.seriesIndex === undefined ? undefined : built.seriesPoints?.[p.seriesIndex];
    const point = built.points[p.dataIndex];
    if (!point) return;
    pointClick(series ? [...point, ...series] : point, series ? [...built.pointFields, ...(built.seriesFields ?? [])] : built.pointFields);
  };

  let body: ReactNode;
  if (waiting) {
    body = <Loading quiet={quietLoading} />;
  } else if (failed) {
    body = (
      <Centered>
        <Typography.Text type="danger" role="alert">
          {error || chartMessages.loadFailed}
        </Typography.Text>
      </Centered>
    );
  } else if (type === 'text') {
    body = (
      <div
        data-testid="chart-text"
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          height: '100%',
          overflow: 'auto',
          textAlign: options.textAlign,
          ...(options.textFontSize ? { fontSize: options.textFontSize } : {}),
          ...(options.textColor ? { color: options.textColor } : {}),
        }}
      >
        {chart.ext.text ?? ''}
      </div>
    );
  } else if (type === 'image') {
    const src = safeUrl(chart.ext.imageUrl);
    body = src ? (
      <img src={src} alt={chart.title} style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} />
    ) : (
      <Centered>
        <Typography.Text type="secondary">{chartMessages.imageMissing}</Typography.Text>
      </Centered>
    );
  } else if (type === 'filterSelect') {
    body = (
      <Centered style={{ minHeight: 0, padding: '0 8px' }}>
        <FilterSelect options={filterOptions(data)} defaultValue={chart.ext.defaultValue} loading={loading} onFilterChange={onFilterChange} />
      </Centered>
    );
  } else if (type === 'filterDate') {
    body = (
      <Centered style={{ minHeight: 0, padding: '0 8px' }}>
        <FilterDate defaultValue={chart.ext.defaultValue} onFilterChange={onFilterChange} />
      </Centered>
    );
  } else if (!data || !hasRows) {
    body = (
      <Centered>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={boardMessages.noData} />
      </Centered>
    );
  } else if (echart) {
    body = <EChart option={echart.option} onRendered={markRendered} onClick={(p) => echartClick(echart, p)} />;
  } else if (type === 'card') {
    const card = buildCard(chart, data);
    body = card ? (
      <Centered style={{ flexDirection: 'column', gap: 4 }}>
        <Typography.Text type="secondary">{card.title}</Typography.Text>
        <div data-testid="chart-card-value" style={{ fontSize: 32, fontWeight: 600, lineHeight: 1.2 }}>
          {card.value}
        </div>
        {card.compare && (
          <Typography.Text type="secondary">
            {card.compare.title} {card.compare.value}
            {card.compare.rate !== null && (
              <span style={{ marginLeft: 8, color: card.compare.rate >= 0 ? '#cf1322' : '#3f8600' }}>
                {card.compare.rate >= 0 ? '↑' : '↓'} {(Math.abs(card.compare.rate) * 100).toFixed(2)}%
              </span>
            )}
          </Typography.Text>
        )}
      </Centered>
    ) : (
      <Centered>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={boardMessages.noData} />
      </Centered>
    );
  } else if (type === 'detail') {
    const model = buildDetailTable(chart, data);
    const current = page?.current ?? 1;
    const size = page?.size ?? chart.dataconfig?.pageSize ?? DEFAULT_DETAIL_SIZE;
    body = <DataTable columns={model.columns} rows={model.rows} pagination={detailPagination(current, size, data.total ?? model.rows.length, onPage)} />;
  } else if (pivot) {
    const rowDims = splitFields(chart, data).rowDims;
    body = <DataTable columns={pivot.columns} rows={pivot.rows} onRowClick={rowClick(rowDims)} />;
  } else {
    const model = summary ?? buildSummaryTable(chart, data);
    const { rowDims, colDims } = splitFields(chart, data);
    const dims = [...rowDims, ...colDims];
    body = <DataTable columns={model.columns} rows={model.rows} onRowClick={rowClick(dims)} />;
  }

  const site = chart.site;
  const bgImage = safeUrl(site.bgBackgroundSrc);
  const showStructure = !!pivot && options.structureFilter;
  return (
    <div
      className="shutu-chart"
      data-chart-key={chart.key}
      style={{
        height: height ?? '100%',
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        ...(site.bgColor ? { backgroundColor: site.bgColor } : {}),
        ...(bgImage ? { backgroundImage: `url(${JSON.stringify(bgImage)})`, backgroundSize: '100% 100%' } : {}),
      }}
    >
      {!site.isSimple && (
        <div style={{ height: QUICK_GRID.headerHeight, flex: 'none', display: 'flex', alignItems: 'center', padding: '0 8px', gap: 4 }}>
          <div
            className="shutu-chart-title"
            title={chart.title}
            style={{
              flex: 1,
              minWidth: 0,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              color: site.titleFontColor ?? undefined,
              fontSize: site.titleFontSize ?? 14,
              fontWeight: site.fontWeight ?? 'bold',
            }}
          >
            {chart.title}
          </div>
          {showStructure && (
            <Suspense fallback={null}>
              <StructureFilter
                rowMembers={pivot.rowMembers}
                columnMembers={pivot.columnMembers}
                rowKeys={pivot.rowKeys}
                columnKeys={pivot.columnKeys}
                value={structure}
                onChange={setStructure}
              />
            </Suspense>
          )}
          {extra}
        </div>
      )}
      <div className="shutu-chart-body" style={{ flex: 1, minHeight: 0, overflow: usesECharts ? 'hidden' : 'auto', position: 'relative' }}>
        {lazyBody && !usesECharts ? (
          <Suspense fallback={<Loading quiet={quietLoading} />}>
            {body}
            <OnMount onMount={markRendered} />
          </Suspense>
        ) : (
          <Suspense fallback={<Loading quiet={quietLoading} />}>{body}</Suspense>
        )}
      </div>
    </div>
  );
}
