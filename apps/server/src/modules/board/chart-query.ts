import { createHash } from 'node:crypto';
import {
  cubeQueryRequestSchema,
  STATIC_CHART_TYPES,
  type ChartDataConfigParsed,
  type ChartDataRequestParsed,
  type ChartDataResult,
  type ChartType,
  type CubePreviewResult,
  type CubeQueryRequestParsed,
  type FieldId,
} from '@shutu/contracts';
import type { CompiledQuery } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { SingleFlightCache, type SingleFlightStats } from '../../platform/cache/single-flight.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { keyOf } from '../dataset/model.ts';
import { openDatasetRead, savedOrder } from '../dataset/read.ts';
import type { FieldRow } from '../dataset/repo.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/permissions.ts';
import { compilePreview, runPreview } from '../query/service.ts';
import { buildChartRequest, normaliseSort, type ChartFieldInfo } from './chart-request.ts';
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
 * A chart's data (spec 1 §3 "Chart"): read through the dataset read path (dataset/read.ts —
 * the dataset's model, its global filter, the caller's permission filters), compiled by the
 * query engine and run by the data source's driver (query/service.ts compilePreview and runPreview), with single
 * flight and a short result cache.
 *
 * Charts of a board that issue the same query share one execution: the key is a hash of the
 * data source, the compiled SQL and its bound values (the caller's permission filters are
 * compiled into them, so users with different filters never share). The answer is kept for
 * CHART_CACHE_TTL_MS; failures are not kept. The cache lives per AppContext.
 *
 * A table or pivot that shows 合计 runs its totals queries (chart-totals.ts) beside its own,
 * through the same read path and cache.
 */

/** How long a chart's answer is kept. */
export const CHART_CACHE_TTL_MS = 30_000;
/** Most answers kept per server. */
export const CHART_CACHE_MAX_ENTRIES = 500;
/** Most rows kept in total per server (an answer larger than this alone is not kept). */
export const CHART_CACHE_MAX_ROWS = 200_000;

/** What is shared: the rows, the total and the time of the execution (the field dictionary is each caller's own). */
type SharedRows = Pick<CubePreviewResult, 'dataList' | 'total' | 'elapsedMs'>;

const caches = new WeakMap<AppContext, SingleFlightCache<SharedRows>>();

function cacheOf(ctx: AppContext): SingleFlightCache<SharedRows> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new SingleFlightCache<SharedRows>({
      ttlMs: CHART_CACHE_TTL_MS,
      maxEntries: CHART_CACHE_MAX_ENTRIES,
      maxWeight: CHART_CACHE_MAX_ROWS,
      weigh: (value) => value.dataList.length + 1,
    });
    caches.set(ctx, cache);
  }
  return cache;
}

/** Executions, hits, shared flights and the size of the chart cache of this server (tests, diagnostics). */
export function chartCacheStats(ctx: AppContext): SingleFlightStats {
  return cacheOf(ctx).stats();
}

/** Forgets the kept chart answers of this server. */
export function clearChartCache(ctx: AppContext): void {
  cacheOf(ctx).clear();
}

export function chartFieldInfo(fields: readonly FieldRow[]): Map<string, ChartFieldInfo> {
  return new Map(
    fields.map((f) => [keyOf(f.id), { aggregationType: f.aggregationType, selfAggregating: f.columnAttr === 'VIRTUAL' && f.virtualAggregationStatus === 1 }]),
  );
}

const EMPTY: ChartDataResult = { dataList: [], fieldDict: [], total: null, elapsedMs: 0, shared: false };

export async function runChartQuery(ctx: AppContext, caller: Caller, input: ChartQueryInput): Promise<ChartDataResult> {
  if (STATIC_CHART_TYPES.includes(input.chartType)) return EMPTY;
  const read = await openDatasetRead(ctx, caller, input.dataconfig.cubeId, input.params, {
    access: input.access === 'board' ? 'granted' : 'dataset',
    ownerId: input.ownerId,
  });
  const fields = chartFieldInfo(read.fields);
  const dataconfig = input.mode === 'detail' ? withoutExcludedColumns(input.dataconfig, read.permissions.excludedColumnIds) : input.dataconfig;
  const built = cubeQueryRequestSchema.safeParse(buildChartRequest({ ...input, dataconfig }, fields));
  if (!built.success) throw badRequest(built.error.issues[0]?.message);
  let request = built.data;
  if (request.sort.length === 0 && input.mode !== 'values') {
    request = { ...request, sort: normaliseSort(savedOrder(read.cube.orderByJson, request), fields, request.detail) };
  }

  const datasourceId = read.cube.datasourceId;
  const driver = await getDataSourceDriver(ctx, datasourceId);
  const dialect = await driver.dialect();
  const now = new Date();
  // Compiled once: its SQL and bound values are the key, and it is what runs. Totals go the same
  // way (same dataset, filters, permissions and parameters), so they share executions too.
  const run = async (cubeRequest: CubeQueryRequestParsed) => {
    const compiled = compilePreview(dialect, { model: read.model, request: cubeRequest, params: input.params }, read.permissions, now);
    const answer = await cacheOf(ctx).run(chartKey(datasourceId, compiled), async () => {
      const result = await runPreview(driver, compiled);
      return { dataList: result.dataList, total: result.total, elapsedMs: result.elapsedMs };
    });
    return { answer, fields: compiled.fields };
  };
  const totals = input.showTotal && input.mode === 'aggregate' ? totalsRequests(input.chartType, request, input.dataconfig.rowParamList.length) : null;
  const [main, grand, byColumn, byRow] = await Promise.all([
    run(request),
    totals ? run(totals.grand) : null,
    totals?.byColumn ? run(totals.byColumn) : null,
    totals?.byRow ? run(totals.byRow) : null,
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

/** sha256 of the data source, the SQL and its bound values (and those of the count query). */
export function chartKey(datasourceId: number, compiled: Pick<CompiledQuery, 'sql' | 'params' | 'count'>): string {
  const text = JSON.stringify(
    [datasourceId, compiled.sql, compiled.params, compiled.count?.sql ?? null, compiled.count?.params ?? null],
    (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
  return createHash('sha256').update(text).digest('hex');
}
