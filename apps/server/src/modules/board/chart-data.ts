import {
  boardMessages,
  FILTER_CHART_TYPES,
  formatMessage,
  STATIC_CHART_TYPES,
  type ChartDataConfigParsed,
  type ChartDataRequestParsed,
  type ChartDataResult,
  type Chart,
  type ChartType,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../platform/http/errors.ts';
import { assertUnscoped, type MaybeScoped } from '../../platform/auth/scope.ts';
import { requireViewable } from '../dataset/index.ts';
import type { Caller } from '../perm/index.ts';
import { requireViewableBoard } from './access.ts';
import { runChartQuery } from './chart-query.ts';
import { parseDataConfig, toChart } from './model.ts';
import { findChart, type BoardRow } from './repo.ts';

/** The chart-data request, with the chart type an editor may name for a chart it has not saved yet. */
export type ChartDataBody = ChartDataRequestParsed & { chartType?: ChartType | null | undefined };

/** A saved chart as its board shows it, for a caller allowed to see the board. */
export interface SavedChart {
  board: BoardRow;
  chart: Chart;
  chartType: ChartType;
  title: string;
  /** The chart's saved query; null for text and image charts, which read no data. */
  dataconfig: ChartDataConfigParsed | null;
}

/**
 * A saved chart (boardId + chartKey): the caller must be allowed to see the board (403
 * 没有此大屏权限), the chart must exist (404 图表不存在), and a data chart must have a dataset
 * (400 图表【x】未选择数据集). Chart data and exports read through it.
 */
export async function openSavedChart(ctx: AppContext, caller: Caller & MaybeScoped, boardId: number, chartKey: string): Promise<SavedChart> {
  const board = await requireViewableBoard(ctx, caller, boardId);
  const row = await findChart(ctx.db, board.id, chartKey);
  if (!row) throw notFound(boardMessages.chartNotFound);
  const chart = toChart(row);
  const chartType = row.name as ChartType;
  const title = row.title || row.chartKey;
  if (STATIC_CHART_TYPES.includes(chartType)) return { board, chart, chartType, title, dataconfig: null };
  const dataconfig = parseDataConfig(row.dataconfig);
  if (!dataconfig) throw badRequest(formatMessage(boardMessages.chartNoDataset, { title }));
  return { board, chart, chartType, title, dataconfig };
}

/** What charts that read no data answer. */
const EMPTY_RESULT: ChartDataResult = { dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false };

/**
 * Chart data (POST chart-data). A saved chart (boardId + chartKey): openSavedChart; its
 * dataset must still exist (404 数据集不存在, when the read opens it). An editor's
 * unsaved chart (dataconfig): the caller must be allowed to read the dataset (403 as the
 * dataset preview). Text and image charts answer an empty result. The query itself, with
 * the caller's permission filters, is chart-query.ts.
 *
 * Mode: detail tables always read 'detail', filter controls 'values'; other charts the
 * requested mode (default 'aggregate').
 */
export async function chartData(ctx: AppContext, caller: Caller & MaybeScoped, body: ChartDataBody): Promise<ChartDataResult> {
  let chartType: ChartType;
  let title: string;
  let dataconfig: ChartDataConfigParsed;
  /** A saved chart is read through the board's grant; an editor's chart through the dataset's. */
  let access: 'board' | 'dataset' = 'dataset';
  /** Whose restriction applies beside the caller's: the creator of the board showing a saved chart. */
  let ownerId: number | null | undefined;
  /** 合计: a saved chart's saved style decides; an editor's chart says so in the request. */
  let showTotal: boolean;
  if (body.boardId && body.chartKey) {
    access = 'board';
    const saved = await openSavedChart(ctx, caller, body.boardId, body.chartKey);
    chartType = saved.chartType;
    title = saved.title;
    if (!saved.dataconfig) return EMPTY_RESULT;
    ownerId = saved.board.createUserId;
    dataconfig = saved.dataconfig;
    showTotal = saved.chart.option.showTotal === true;
  } else if (body.dataconfig) {
    chartType = body.chartType ?? (body.mode === 'detail' ? 'detail' : body.mode === 'values' ? 'filterSelect' : 'table');
    title = '';
    // A share link's token reads saved charts of its boards only, never a dataset directly.
    assertUnscoped(caller);
    if (STATIC_CHART_TYPES.includes(chartType)) return EMPTY_RESULT;
    await requireViewable(ctx, caller, body.dataconfig.cubeId);
    dataconfig = body.dataconfig;
    showTotal = body.showTotal === true;
  } else {
    throw notFound(boardMessages.chartNotFound);
  }
  const mode = chartType === 'detail' ? 'detail' : FILTER_CHART_TYPES.includes(chartType) ? 'values' : body.mode;
  return runChartQuery(ctx, caller, {
    chartType,
    title,
    dataconfig,
    mode,
    links: body.links,
    current: body.current,
    size: body.size,
    params: body.params,
    access,
    ownerId,
    showTotal,
  });
}
