import type { Writable } from 'node:stream';
import { pivotLayout, type ExportFormat, type ResultField } from '@shutu/contracts';
import type { CompiledQuery } from '@shutu/query';
import { type OpenRead, readRows } from '../read/index.ts';
import { chartTotals } from '../board/index.ts';
import { pivotGrid, writePivotCsv, writePivotXlsx } from './pivot-sheet.ts';
import { EXPORT_QUERY_TIMEOUT_MS, totalsRows } from './export-reads.ts';

/** What a pivot export reads: the planned query of the chart (run-export.ts planExport) and its totals queries. */
export interface PivotSource {
  read: OpenRead;
  compiled: CompiledQuery;
  /** The sheet's column titles (the chart's renamed titles), in the query's field order. */
  columns: readonly { title: string }[];
  limit: number;
  totals: { grand: CompiledQuery; byColumn: CompiledQuery | null; byRow: CompiledQuery | null } | null;
}

/**
 * A pivot's export (docs/exports.md "Pivot"): the chart's rows (as many as the chart draws:
 * its limit, else CHART_MAX_ROWS) and, when its style shows 合计, its totals (grand, per
 * column, per row) — read as the task's owner like any export — laid out by the same
 * pivotLayout the screen uses, then written as the cross-tab (Excel: merged headers; CSV: the
 * grid flattened). The cross-tab needs every row before its header can be written, so a pivot
 * is held in memory; its rows are bounded by the chart's limit. Returns the data rows written.
 */
export async function writePivotExport(plan: PivotSource, rowDimensionCount: number, format: ExportFormat, file: string | Writable): Promise<number> {
  const { read, compiled, totals: totalsPlan } = plan;
  const rows = await readRows(read.driver, compiled, plan.limit, { timeoutMs: EXPORT_QUERY_TIMEOUT_MS });
  const [grand, byColumn, byRow] = totalsPlan
    ? await Promise.all([
        totalsRows(read, totalsPlan.grand),
        totalsPlan.byColumn ? totalsRows(read, totalsPlan.byColumn) : null,
        totalsPlan.byRow ? totalsRows(read, totalsPlan.byRow) : null,
      ])
    : [null, null, null];
  // The chart's titles where it renames a field (the export's column titles).
  const titled: ResultField[] = compiled.fields.map((f, i) => ({ ...f, title: plan.columns[i]?.title ?? f.title }));
  const dims = titled.filter((f) => f.kind === 'dimension');
  const fields = {
    rowDims: dims.slice(0, rowDimensionCount),
    colDims: dims.slice(rowDimensionCount),
    measures: titled.filter((f) => f.kind === 'measure'),
  };
  const layout = pivotLayout({
    ...fields,
    dataList: rows as Parameters<typeof pivotLayout>[0]['dataList'],
    totals: grand ? chartTotals(grand, byColumn, compiled.fields, byRow) : null,
    showTotal: totalsPlan !== null,
  });
  const grid = pivotGrid(layout, fields);
  if (format === 'csv') await writePivotCsv(file, grid);
  else await writePivotXlsx(file, grid);
  return layout.rows.filter((r) => !r.total).length;
}
