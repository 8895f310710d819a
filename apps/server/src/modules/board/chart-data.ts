import {
  boardMessages,
  FILTER_CHART_TYPES,
  formatMessage,
  STATIC_CHART_TYPES,
  datasetMessages,
  type ChartDataConfigParsed,
  type ChartDataRequestParsed,
  type ChartDataResult,
  type ChartType,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../platform/http/errors.ts';
import { assertUnscoped, type MaybeScoped } from '../../platform/auth/scope.ts';
import { requireViewable } from '../dataset/access.ts';
import { findCube } from '../dataset/repo.ts';
import type { Caller } from '../perm/permissions.ts';
import { requireViewableBoard } from './access.ts';
import { runChartQuery } from './chart-query.ts';
import { parseDataConfig, toChart } from './model.ts';
import { findChart } from './repo.ts';

/** The chart-data request, with the chart type an editor may name for a chart it has not saved yet. */
export type ChartDataBody = ChartDataRequestParsed & { chartType?: ChartType | null | undefined };

/** What charts that read no data answer. */
const EMPTY_RESULT: ChartDataResult = { dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false };

/**
 * Chart data (POST chart-data). A saved chart (boardId + chartKey): the caller must be
 * allowed to see the board (403 没有此大屏权限), the chart must exist (404 图表不存在) and its
 * saved dataconfig is read; its dataset must still exist (404 数据集不存在). An editor's
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
    const board = await requireViewableBoard(ctx, caller, body.boardId);
    ownerId = board.createUserId;
    const chart = await findChart(ctx.db, board.id, body.chartKey);
    if (!chart) throw notFound(boardMessages.chartNotFound);
    chartType = chart.name as ChartType;
    title = chart.title || chart.chartKey;
    if (STATIC_CHART_TYPES.includes(chartType)) return EMPTY_RESULT;
    const saved = parseDataConfig(chart.dataconfig);
    if (!saved) throw badRequest(formatMessage(boardMessages.chartNoDataset, { title }));
    if (!(await findCube(ctx.db, saved.cubeId))) throw notFound(datasetMessages.datasetNotFound);
    dataconfig = saved;
    showTotal = toChart(chart).option.showTotal === true;
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
