import { CHART_MAX_ROWS, type ChartTotals, type ChartType, type CubePreviewResult, type CubeQueryRequestParsed, type ResultField } from '@shutu/contracts';

/**
 * 合计 of tables and pivots (style showTotal), computed by the query engine rather than by
 * adding up the rows the browser received: the chart's own query without its row dimensions,
 * so each measure keeps its aggregation (an AVG total is the average of all rows, a COUNT
 * DISTINCT total counts distinct values once) over every row the filters, links, parameters
 * and the caller's permission filters let through, whatever the chart's row limit. Pure: the
 * requests here run through chart-query.ts like the chart's own.
 */

/** Chart types whose style may show 合计. */
export const TOTAL_CHART_TYPES: readonly ChartType[] = ['table', 'pivot'];

type Row = CubePreviewResult['dataList'][number];

export interface TotalsRequests {
  /** Every dimension removed: one row of the measures. */
  grand: CubeQueryRequestParsed;
  /** A pivot with column dimensions: grouped by them only (its totals row); else null. */
  byColumn: CubeQueryRequestParsed | null;
  /** A pivot with row and column dimensions: grouped by the row dimensions only (its 合计 column); else null. */
  byRow: CubeQueryRequestParsed | null;
}

/**
 * The totals queries of a chart's aggregate request, or null when there is nothing to total
 * (a detail read, no measures). `rowDimensionCount`: how many leading dimensions of the request
 * are row dimensions (the rest are a pivot's column dimensions). A summary table shows its
 * column dimensions as columns of each row, so only its grand total applies.
 */
export function totalsRequests(chartType: ChartType, request: CubeQueryRequestParsed, rowDimensionCount: number): TotalsRequests | null {
  if (!TOTAL_CHART_TYPES.includes(chartType) || request.detail || request.measures.length === 0) return null;
  // No sort (the browser lays the totals out by the chart's own rows) and no paging.
  const base: CubeQueryRequestParsed = { ...request, sort: [], offset: null, withTotal: false };
  const columnDimensions = chartType === 'pivot' ? request.dimensions.slice(rowDimensionCount) : [];
  const rowDimensions = request.dimensions.slice(0, rowDimensionCount);
  return {
    grand: { ...base, dimensions: [], limit: 1 },
    byColumn: columnDimensions.length > 0 ? { ...base, dimensions: columnDimensions, limit: CHART_MAX_ROWS } : null,
    // Without row dimensions the pivot's one row is totalled by `grand` already.
    byRow: columnDimensions.length > 0 && rowDimensions.length > 0 ? { ...base, dimensions: rowDimensions, limit: CHART_MAX_ROWS } : null,
  };
}

/**
 * Rows of a totals query keyed by the chart answer's aliases: its dimensions are the chart's
 * trailing (column) dimensions, or with `dimensionsAt: 'leading'` its leading (row) ones; its
 * measures the chart's measures, position by position.
 */
export function relabelTotals(
  rows: readonly Row[],
  totalsFields: readonly ResultField[],
  chartFields: readonly ResultField[],
  dimensionsAt: 'leading' | 'trailing' = 'trailing',
): Row[] {
  const chartDims = chartFields.filter((f) => f.kind === 'dimension');
  const chartMeasures = chartFields.filter((f) => f.kind === 'measure');
  const totalsDims = totalsFields.filter((f) => f.kind === 'dimension');
  const offset = dimensionsAt === 'leading' ? 0 : chartDims.length - totalsDims.length;
  const aliases = new Map<string, string>();
  totalsDims.forEach((f, i) => aliases.set(f.alias, chartDims[offset + i]!.alias));
  totalsFields.filter((f) => f.kind === 'measure').forEach((f, i) => aliases.set(f.alias, chartMeasures[i]!.alias));
  return rows.map((row) => {
    const out: Row = {};
    for (const [alias, value] of Object.entries(row)) {
      const target = aliases.get(alias);
      if (target !== undefined) out[target] = value;
    }
    return out;
  });
}

type TotalsAnswer = { rows: readonly Row[]; fields: readonly ResultField[] };

/**
 * The answer's totals from the rows of the grand query and, for a pivot, of the column query
 * (its 合计 row) and the row query (its 合计 column).
 */
export function chartTotals(
  grand: TotalsAnswer,
  byColumn: TotalsAnswer | null,
  chartFields: readonly ResultField[],
  byRow: TotalsAnswer | null = null,
): ChartTotals {
  return {
    grand: relabelTotals(grand.rows.slice(0, 1), grand.fields, chartFields)[0] ?? {},
    byColumn: byColumn ? relabelTotals(byColumn.rows, byColumn.fields, chartFields) : [],
    byRow: byRow ? relabelTotals(byRow.rows, byRow.fields, chartFields, 'leading') : [],
  };
}
