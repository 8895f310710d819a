import type { ChartTotals, ResultField } from '@shutu/contracts';
import type { SheetRow } from './workbook.ts';

/**
 * The 合计 row of an exported summary table (docs/exports.md "合计"). The figures are the
 * query engine's (board/chart-totals.ts, run by run-export.ts like the export's own query);
 * here they are only placed the way the table shows them: one row, 合计 in its first
 * dimension column and each measure's total. As on screen: no row when the sheet has no data
 * rows or no dimension to carry the label (a table without dimensions: its row is the total
 * already). A pivot's 合计 row and column are part of its cross-tab (pivot-sheet.ts).
 */
export const TOTAL_LABEL = '合计';

type Cell = SheetRow[string];

/** The 合计 row to append after `rowsWritten` data rows (keyed by the sheet's column aliases), or none. */
export function totalsSheetRows(totals: ChartTotals, fields: readonly ResultField[], rowsWritten: number): SheetRow[] {
  const label = fields.find((f) => f.kind === 'dimension');
  if (!label || rowsWritten === 0) return [];
  const row: SheetRow = { [label.alias]: TOTAL_LABEL };
  for (const m of fields.filter((f) => f.kind === 'measure')) row[m.alias] = (totals.grand[m.alias] as Cell) ?? null;
  return [row];
}
