import {
  cubeQueryRequestSchema,
  STATIC_CHART_TYPES,
  type ChartDataConfigParsed,
  type ChartDataRequestParsed,
  type ChartDataResult,
  type ChartType,
  type CubeQueryRequestParsed,
  type FieldId,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { keyOf, savedOrder, type FieldRow } from '../dataset/index.ts';
import type { Caller } from '../perm/index.ts';
import { openRead, readPage, type OpenRead, type ReadSubject } from '../read/index.ts';
import { buildChartRequest, normaliseSort, type ChartFieldInfo } from './chart-request.ts';
import { withDefaultGranularity } from './chart-time.ts';
import { chartTotals, totalsRequests } from './chart-totals.ts';

/** What the chart-data route hands over once it knows which chart (saved or in an editor) is asked for. */
export interface ChartQueryInput {
  chartType: ChartType;
  title: string;
  dataconfig: ChartDataConfigParsed;
  mode: ChartDataRequestParsed['mode'];
  links: ChartDataRequestParsed['links'];
  current: number;
  size: number | null | undefined;
  params: ChartDataRequestParsed['params'];
  /**
   * Who decided the caller may read the dataset. 'dataset' (default; the editor's unsaved
   * chart): the caller must be allowed to see the dataset (404 / 403 otherwise). 'board': the
   * route checked that the caller may see the board that shows this saved chart, which is the
   * right to read its dataset. Either way the caller's permission filters apply.
   */
  access?: 'dataset' | 'board';
  /** The creator of the board showing a saved chart: their restriction applies too (dataset/read.ts). */
  ownerId?: number | null;
  /** The chart's style shows 合计 (tables and pivots): the answer carries `totals` (chart-totals.ts). */
  showTotal?: boolean;
}

/**
 * A chart's data (spec 1 §3 "Chart"): read through the read module (read/open.ts — the
 * dataset's model, its global filter, the permission filters of the viewer and of the board's
 * creator), with the request the chart's configuration makes (chart-request.ts). Charts of a
 * board that issue the same query share one execution (read/cache.ts). A table or pivot that
 * shows 合计 runs its totals queries (chart-totals.ts) beside its own, through the same read.
 */

export function chartFieldInfo(fields: readonly FieldRow[]): Map<string, ChartFieldInfo> {
  return new Map(
    fields.map((f) => [
      keyOf(f.id),
      { aggregationType: f.aggregationType, selfAggregating: f.columnAttr === 'VIRTUAL' && f.virtualAggregationStatus === 1, viewDataType: f.viewDataType },
    ]),
  );
}

const EMPTY: ChartDataResult = { dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false };

/** What a chart reads: the opened read, its request, and its 合计 requests when it shows them. */
export interface ChartReadPlan {
  read: OpenRead;
  request: CubeQueryRequestParsed;
  totals: ReturnType<typeof totalsRequests> | null;
}

/** Who reads a chart: the caller, for themself (an editor's chart) or through the board showing it. */
export function chartSubject(caller: Caller, input: Pick<ChartQueryInput, 'access' | 'ownerId'>): ReadSubject {
  return { viewer: caller, ownerId: input.ownerId, access: input.access === 'board' ? 'granted' : 'dataset' };
}

/**
 * Opens the chart's dataset for the subject and makes the chart's request: a detail table
 * without the columns hidden from the subject; an aggregated chart's time dimensions without a
 * granularity get the one their data's span suits (chart-time.ts); the saved order when the
 * chart has none (after the time axis order); `page` replaces the request's own paging
 * (exports read every row).
 */
export async function planChartRead(
  ctx: AppContext,
  subject: ReadSubject,
  input: ChartQueryInput,
  page?: Pick<CubeQueryRequestParsed, 'limit' | 'offset' | 'withTotal'>,
  /** Opens the dataset (a board's batch opens each dataset once for all its charts: chart-batch.ts). */
  open: (cubeId: number) => Promise<OpenRead> = (cubeId) => openRead(ctx, subject, cubeId, input.params),
): Promise<ChartReadPlan> {
  const read = await open(input.dataconfig.cubeId);
  const fields = chartFieldInfo(read.fields);
  const dataconfig = input.mode === 'detail' ? withoutExcludedColumns(input.dataconfig, read.permissions.excludedColumnIds) : input.dataconfig;
  const built = cubeQueryRequestSchema.safeParse({ ...buildChartRequest({ ...input, dataconfig }, fields), ...page });
  if (!built.success) throw badRequest(built.error.issues[0]?.message);
  let request = built.data;
  if (input.mode === 'aggregate') request = await withDefaultGranularity(ctx, read, request, fields);
  if (dataconfig.sortList.length === 0 && input.mode !== 'values') {
    // The time axis order (chart-request.ts) comes first; the saved order sorts the rest.
    const timeKeys = new Set(request.sort.map((s) => keyOf(s.fieldId)));
    const saved = normaliseSort(savedOrder(read.cube.orderByJson, request), fields, request.detail).filter((s) => !timeKeys.has(keyOf(s.fieldId)));
    request = { ...request, sort: [...request.sort, ...saved] };
  }
  const totals = input.showTotal && input.mode === 'aggregate' ? totalsRequests(input.chartType, request, input.dataconfig.rowParamList.length) : null;
  return { read, request, totals };
}

export async function runChartQuery(ctx: AppContext, caller: Caller, input: ChartQueryInput): Promise<ChartDataResult> {
  if (STATIC_CHART_TYPES.includes(input.chartType)) return EMPTY;
  const plan = await planChartRead(ctx, chartSubject(caller, input), input);
  return chartResult(ctx, plan, readPage(ctx, plan.read, plan.request));
}

/** A chart's answer from its main read (run alone or in a board's grouped statement) and its 合计 reads. */
export async function chartResult(ctx: AppContext, plan: ChartReadPlan, mainRead: ReturnType<typeof readPage>): Promise<ChartDataResult> {
  const { read, totals } = plan;
  // Totals go the same way (same dataset, filters, permissions and parameters), so identical
  // ones share executions too.
  const [main, grand, byColumn, byRow] = await Promise.all([
    mainRead,
    totals ? readPage(ctx, read, totals.grand) : null,
    totals?.byColumn ? readPage(ctx, read, totals.byColumn) : null,
    totals?.byRow ? readPage(ctx, read, totals.byRow) : null,
  ]);
  const result: ChartDataResult = { ...main.answer.value, fieldDict: main.fields, shared: main.answer.shared };
  if (grand) {
    const rowsOf = (r: typeof grand) => ({ rows: r.answer.value.dataList, fields: r.fields });
    result.totals = chartTotals(rowsOf(grand), byColumn && rowsOf(byColumn), main.fields, byRow && rowsOf(byRow));
  }
  return result;
}

/**
 * A detail table's columns (its row dimensions and measures' fields) without those the
 * reader may not see: the table shows the rest (as a member's dataset preview does). Only columns read directly are dropped; a computed
 * column reading a hidden one, a filter or a sort on one is still refused by the compiler.
 * Nothing left to show is refused like any hidden column (403).
 */
export function withoutExcludedColumns(dataconfig: ChartDataConfigParsed, excluded: readonly FieldId[]): ChartDataConfigParsed {
  if (excluded.length === 0) return dataconfig;
  const hidden = new Set(excluded.map(keyOf));
  const shown = <T extends { fieldId: FieldId }>(list: readonly T[]) => list.filter((entry) => !hidden.has(keyOf(entry.fieldId)));
  const rowParamList = shown(dataconfig.rowParamList);
  const indexParamList = shown(dataconfig.indexParamList);
  if (rowParamList.length + indexParamList.length === 0) return dataconfig;
  return { ...dataconfig, rowParamList, indexParamList, sortList: shown(dataconfig.sortList) };
}
