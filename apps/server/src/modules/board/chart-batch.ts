import { ConnectorError } from '@shutu/connectors';
import {
  boardMessages,
  chartDataBatchChartSchema,
  FILTER_CHART_TYPES,
  formatMessage,
  STATIC_CHART_TYPES,
  zhCN,
  type ChartDataBatchItem,
  type ChartDataBatchRequestParsed,
  type ChartDataResult,
  type ChartType,
} from '@shutu/contracts';
import { batchChartOf, boardFirstRequests } from '@shutu/contracts/board-linkage';
import type { AppContext } from '../../context.ts';
import type { MaybeScoped } from '../../platform/auth/scope.ts';
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { openRead, readPages, type OpenRead } from '../read/index.ts';
import { requireViewableBoard } from './access.ts';
import { chartResult, chartSubject, planChartRead, type ChartQueryInput, type ChartReadPlan } from './chart-query.ts';
import { parseDataConfig, toChart } from './model.ts';
import { findCharts } from './repo.ts';

/**
 * Chart data of several saved charts of one board in one call (POST chart-data/batch, issue
 * 26). The board is checked once (403 没有此大屏权限 fails the call); each chart is then read
 * as POST chart-data reads it (chart-data.ts: the board's grant, the viewer's and the board
 * creator's permission filters, the chart's links and the page's parameters), except that:
 *
 * - each dataset is opened once for the call (its model, the subject's restriction, the
 *   driver, one `now` for relative dates);
 * - the charts' reads go together to the read module (read/grouped.ts). By default (`grouped:
 *   false`, what every page asks) each chart is read alone but for the exact distinct counts of
 *   one column and the time axes of one column, which share one statement each (packages/query
 *   grouped-distinct.ts, grouped-days.ts); `grouped: true` reads the charts that share the same
 *   rows of one data source with one GROUPING SETS statement.
 *
 * A chart's own failure (missing, no dataset, a refused column, an engine error) is its item's
 * `error`, as its own call would have answered it; the other charts are answered. A call that
 * names no charts gets the board's first data (`boardFirstRequests`, what its page asks for).
 */

const EMPTY: ChartDataResult = { dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false };

export async function chartDataBatch(ctx: AppContext, caller: Caller & MaybeScoped, body: ChartDataBatchRequestParsed): Promise<ChartDataBatchItem[]> {
  return Promise.all(await openChartBatch(ctx, caller, body));
}

/**
 * The batch's answers as they come (the NDJSON form of the route): one line per chart, in the
 * order the engine answers — the charts of a grouped statement together, a slow chart alone
 * last — each with its index in the request.
 */
export async function* chartDataBatchLines(answers: Promise<ChartDataBatchItem>[]): AsyncGenerator<string> {
  const waiting = new Map(answers.map((answer, index) => [index, answer.then((item) => ({ index, item }))]));
  while (waiting.size > 0) {
    const { index, item } = await Promise.race(waiting.values());
    waiting.delete(index);
    yield `${JSON.stringify({ index, ...item })}\n`;
  }
}

/**
 * Checks the board (throws 403 / 404 for the whole call) and starts every chart's read; one
 * promise per chart, in request order, which never rejects: a chart's failure is its `error`.
 */
export async function openChartBatch(ctx: AppContext, caller: Caller & MaybeScoped, body: ChartDataBatchRequestParsed): Promise<Promise<ChartDataBatchItem>[]> {
  const board = await requireViewableBoard(ctx, caller, body.boardId);
  const rows = new Map((await findCharts(ctx.db, board.id)).map((row) => [row.chartKey, row]));
  // No charts named: the board's first data, the list its page computes (each line says which request it answers).
  const chosen = !body.charts;
  const charts =
    body.charts ?? boardFirstRequests({ id: board.id, charts: [...rows.values()].map(toChart) }).map((c) => chartDataBatchChartSchema.parse(batchChartOf(c)));
  const subject = chartSubject(caller, { access: 'board', ownerId: board.createUserId });
  const opened = new Map<number, Promise<OpenRead>>();
  const open = (cubeId: number) => {
    let read = opened.get(cubeId);
    if (!read) opened.set(cubeId, (read = openRead(ctx, subject, cubeId, body.params)));
    return read;
  };

  /** Per chart: its plan, an answer without a read (text, image), or its failure. */
  const planned = await Promise.allSettled(
    charts.map(async (item): Promise<ChartReadPlan | ChartDataResult> => {
      const row = rows.get(item.chartKey);
      if (!row) throw notFound(boardMessages.chartNotFound);
      const chartType = row.name as ChartType;
      if (STATIC_CHART_TYPES.includes(chartType)) return EMPTY;
      const title = row.title || row.chartKey;
      const dataconfig = parseDataConfig(row.dataconfig);
      if (!dataconfig) throw badRequest(formatMessage(boardMessages.chartNoDataset, { title }));
      const input: ChartQueryInput = {
        chartType,
        title,
        dataconfig,
        mode: chartType === 'detail' ? 'detail' : FILTER_CHART_TYPES.includes(chartType) ? 'values' : item.mode,
        links: item.links,
        current: item.current,
        size: item.size,
        params: body.params,
        access: 'board',
        ownerId: board.createUserId,
        showTotal: toChart(row).option.showTotal === true,
      };
      return planChartRead(ctx, subject, input, undefined, open);
    }),
  );
  const plans = planned.flatMap((p) => (p.status === 'fulfilled' && 'read' in p.value ? [p.value] : []));
  // grouped: false still shares one aggregation among exact distinct counts of one column (they
  // are the slowest reads; read/grouped.ts), every other chart its own statement.
  const pages = readPages(
    ctx,
    plans.map((p) => ({ read: p.read, request: p.request })),
    { distinctOnly: !body.grouped },
  );
  const pageOf = new Map(plans.map((p, i) => [p, pages[i]!]));
  return planned.map(async (p, i): Promise<ChartDataBatchItem> => {
    const chart = charts[i]!;
    const request = chosen ? { request: chart } : {};
    try {
      if (p.status === 'rejected') throw p.reason;
      const data = 'read' in p.value ? await chartResult(ctx, p.value, pageOf.get(p.value)!) : p.value;
      return { chartKey: chart.chartKey, data, error: null, ...request };
    } catch (error) {
      return { chartKey: chart.chartKey, data: null, error: failure(error), ...request };
    }
  });
}

/** What the error handler answers for this failure alone (its status and Chinese message; anything else a bare 500). */
function failure(error: unknown): { status: number; msg: string } {
  if (error instanceof AppError || error instanceof ConnectorError) return { status: error.status, msg: error.message };
  return { status: 500, msg: zhCN.serverError };
}
