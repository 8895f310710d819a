import type { ChartTotals, ResultField } from '@shutu/contracts';
import type { SheetRow } from './workbook.ts';

/**
 * The 合计 rows of an exported table or pivot (docs/exports.md "合计"). The figures are the
 * query engine's (board/chart-totals.ts, run by run-export.ts like the export's own query);
 * here they are only laid out in the sheet the way the chart shows them:
 *
 * - summary table: one row, 合计 in its first dimension column and each measure's total;
 * - pivot: the export flattens a pivot to one row per (row dimensions, column dimensions)
 *   group, so each on-screen column (a column-dimension combination) gets its own 合计 row:
 *   合计 in the first row-dimension column, the combination in the column-dimension columns,
 *   its totals (`byColumn`) under the measures; without column dimensions one row of `grand`.
 *
 * As on screen: no row when the sheet has no data rows or no dimension to carry the label
 * (a table without dimensions, a pivot without row dimensions: their rows are totals already).
 */

export const TOTAL_LABEL = '合计';

type Cell = SheetRow[string];

export interface TotalsLayout {
  /** The fields of the export's query: dimensions (row then column), then measures. */
  fields: readonly ResultField[];
  /** How many leading dimensions are row dimensions (a table's are all of them). */
  rowDimensionCount: number;
  /** A pivot lays its column dimensions out as columns; a table shows them in each row. */
  pivot: boolean;
}

const tupleKey = (values: readonly unknown[]) =>
  JSON.stringify(
    values.map((v) => (v === undefined ? null : v)),
    (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );

/** The column-dimension combinations of the written rows, in the order they first appear (the pivot's columns). */
export class ColumnCombinations {
  private readonly seen = new Set<string>();
  readonly order: { key: string; values: Cell[] }[] = [];
  rows = 0;

  constructor(private readonly columnAliases: readonly string[]) {}

  add(row: Readonly<Record<string, unknown>>): void {
    this.rows += 1;
    if (this.columnAliases.length === 0) return;
    const values = this.columnAliases.map((a) => (row[a] ?? null) as Cell);
    const key = tupleKey(values);
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.order.push({ key, values });
    }
  }
}

/** The column-dimension aliases of a layout: a pivot's trailing dimensions, none for a table. */
export function columnAliases(layout: TotalsLayout): string[] {
  if (!layout.pivot) return [];
  return layout.fields
    .filter((f) => f.kind === 'dimension')
    .slice(layout.rowDimensionCount)
    .map((f) => f.alias);
}

/** The 合计 rows to append after the data rows (keyed by the sheet's column aliases). */
export function totalsSheetRows(totals: ChartTotals, layout: TotalsLayout, written: ColumnCombinations): SheetRow[] {
  const dims = layout.fields.filter((f) => f.kind === 'dimension');
  const measures = layout.fields.filter((f) => f.kind === 'measure');
  const label = layout.pivot ? (layout.rowDimensionCount > 0 ? dims[0] : undefined) : dims[0];
  if (!label || written.rows === 0) return [];
  const rowOf = (values: Readonly<Record<string, Cell>> | undefined, extra: SheetRow = {}): SheetRow => {
    const row: SheetRow = { ...extra, [label.alias]: TOTAL_LABEL };
    for (const m of measures) row[m.alias] = values?.[m.alias] ?? null;
    return row;
  };
  const colAliases = columnAliases(layout);
  if (colAliases.length === 0) return [rowOf(totals.grand as Record<string, Cell>)];
  const byColumn = new Map(totals.byColumn.map((r) => [tupleKey(colAliases.map((a) => r[a])), r as Record<string, Cell>]));
  return written.order.map(({ key, values }) => rowOf(byColumn.get(key), Object.fromEntries(colAliases.map((a, i) => [a, values[i] ?? null]))));
}
