import type { ResultField } from './cube.ts';
import type { ChartTotals } from './board.ts';

/**
 * The layout of a pivot table, shared by the screen (web shared/charts/tables.ts, antd nested
 * columns) and the export (server export/pivot-sheet.ts, merged cells in Excel, a flattened
 * grid in CSV), so the two never disagree on which rows, columns, cells and 合计 a pivot has
 * (docs/board-chart-config.md "合计", docs/exports.md "Pivot").
 *
 * Pure data: values stay raw (the renderer formats them); cell properties are stable names
 * (`c{columnIndex}_{measureAlias}` under a column combination, the measure alias without
 * column dimensions, `total_{measureAlias}` in the 合计 column).
 */

/** One value of a result row. */
export type PivotCell = string | number | boolean | null;
type Row = Readonly<Record<string, PivotCell | undefined>>;

/** Text of the 合计 row and column. */
export const PIVOT_TOTAL_LABEL = '合计';
/** The key of the 合计 row. */
export const PIVOT_TOTAL_ROW_KEY = '__total';
/** The key of the 合计 column group. */
export const PIVOT_TOTAL_COLUMN_KEY = '__totalColumn';
/** How a NULL dimension value reads. */
export const EMPTY_DIMENSION_TEXT = '(空)';

/** A stable key of a tuple of dimension values. */
export function tupleKey(values: readonly PivotCell[]): string {
  return JSON.stringify(values);
}

export function tupleOf(row: Row, fields: readonly Pick<ResultField, 'alias'>[]): PivotCell[] {
  return fields.map((f) => row[f.alias] ?? null);
}

/** Distinct tuples in order of first appearance. */
export function distinctTuples(rows: readonly Row[], fields: readonly Pick<ResultField, 'alias'>[]): { key: string; values: PivotCell[] }[] {
  const seen = new Map<string, PivotCell[]>();
  for (const row of rows) {
    const values = tupleOf(row, fields);
    const key = tupleKey(values);
    if (!seen.has(key)) seen.set(key, values);
  }
  return [...seen].map(([key, values]) => ({ key, values }));
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A dimension value as text. Timestamps read as the truncation they were grouped by
 * (YEAR 2026, QUARTER 2026-Q2, MONTH 2026-05, WEEK / DAY 2026-05-04, HOUR 2026-05-04 13:00);
 * without one, midnight drops its time and the ISO 'T' becomes a space. NULL reads (空).
 */
export function dimensionText(value: PivotCell | undefined, granularity?: ResultField['granularity']): string {
  if (value === null || value === undefined) return EMPTY_DIMENSION_TEXT;
  const text = String(value);
  const m = typeof value === 'string' ? TIMESTAMP.exec(text) : null;
  if (!m) return text;
  const [, y, mo, d, h, mi, sec] = m;
  switch (granularity) {
    case 'YEAR':
      return y!;
    case 'QUARTER':
      return `${y}-Q${Math.ceil(Number(mo) / 3)}`;
    case 'MONTH':
      return `${y}-${mo}`;
    case 'WEEK':
    case 'DAY':
      return `${y}-${mo}-${d}`;
    case 'HOUR':
      return `${y}-${mo}-${d} ${h}:00`;
    default:
      return h === '00' && mi === '00' && sec === '00' ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${h}:${mi}:${sec}`;
  }
}

/** A numeric cell (numbers, and the numeric strings some connectors return decimals as), else null. */
function numeric(value: PivotCell | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A measure cell of the grid: which measure, under which column combination (null: none / the 合计 column). */
export interface PivotLeaf {
  property: string;
  measure: ResultField;
  /** The 合计 column's cells (drawn bold). */
  total: boolean;
}

/** A column header: a column-dimension value at `depth`; the last level holds the measures. */
export interface PivotHeader {
  key: string;
  value: PivotCell;
  depth: number;
  children?: PivotHeader[];
  /** Last level only: its measure cells, left to right. */
  leaves?: PivotLeaf[];
}

export interface PivotRow {
  key: string;
  /** The 合计 row. */
  total: boolean;
  /** Row-dimension values by alias (the 合计 row: 合计 in the first) and measure cells by property. */
  cells: Record<string, PivotCell>;
}

export interface PivotLayoutInput {
  rowDims: readonly ResultField[];
  colDims: readonly ResultField[];
  measures: readonly ResultField[];
  dataList: readonly Row[];
  /** The server's totals, when the style shows 合计; a client never adds rows up itself. */
  totals?: ChartTotals | null;
  showTotal: boolean;
  /** Leaf tuple keys the structure filter hides. */
  hiddenRows?: readonly string[];
  hiddenColumns?: readonly string[];
}

export interface PivotLayout {
  /** Every row / column tuple, hidden ones included (the structure filter's members). */
  rowTuples: { key: string; values: PivotCell[] }[];
  colTuples: { key: string; values: PivotCell[] }[];
  /** Column headers of the column dimensions (empty without column dimensions). */
  headers: PivotHeader[];
  /** Measure cells left to right after the row dimensions, 合计 column included. */
  leaves: PivotLeaf[];
  /** The trailing 合计 column (null when not shown). */
  totalColumn: PivotLeaf[] | null;
  rows: PivotRow[];
}

const totalProperty = (m: ResultField) => `total_${m.alias}`;

function headerTree(tuples: readonly { values: PivotCell[]; index: number }[], depth: number, measures: readonly ResultField[]): PivotHeader[] {
  const groups = new Map<string, { value: PivotCell; items: { values: PivotCell[]; index: number }[] }>();
  for (const t of tuples) {
    const key = tupleKey(t.values.slice(0, depth + 1));
    const g = groups.get(key) ?? { value: t.values[depth] ?? null, items: [] };
    g.items.push(t);
    groups.set(key, g);
  }
  return [...groups].map(([key, g]) => {
    const leaf = g.items[0]!;
    if (depth + 1 < leaf.values.length) return { key, value: g.value, depth, children: headerTree(g.items, depth + 1, measures) };
    return { key, value: g.value, depth, leaves: measures.map((m) => ({ property: `c${leaf.index}_${m.alias}`, measure: m, total: false })) };
  });
}

const headerLeaves = (headers: readonly PivotHeader[]): PivotLeaf[] => headers.flatMap((h) => (h.children ? headerLeaves(h.children) : (h.leaves ?? [])));

/**
 * The pivot: the row dimensions as rows, the column dimensions as nested column headers (one
 * level per column dimension) with the measures under each leaf; with 合计 shown and the
 * server's totals, the 合计 row (each visible column's total over all rows, hidden ones
 * included; without column dimensions the grand total) and, with column dimensions and a
 * server that totals rows (byRow), the trailing 合计 column.
 */
export function pivotLayout(input: PivotLayoutInput): PivotLayout {
  const { rowDims, colDims, measures, dataList, totals } = input;
  const rowTuples = distinctTuples(dataList, rowDims);
  const colTuples = distinctTuples(dataList, colDims);
  const hiddenRows = new Set(input.hiddenRows ?? []);
  const hiddenCols = new Set(input.hiddenColumns ?? []);
  const colIndex = new Map(colTuples.map((c, i) => [c.key, i]));

  const rowsByKey = new Map<string, PivotRow>();
  for (const [i, t] of rowTuples.entries()) {
    if (hiddenRows.has(t.key)) continue;
    const cells: Record<string, PivotCell> = {};
    rowDims.forEach((d, j) => (cells[d.alias] = t.values[j] ?? null));
    rowsByKey.set(t.key, { key: `r${i}`, total: false, cells });
  }
  for (const r of dataList) {
    const row = rowsByKey.get(tupleKey(tupleOf(r, rowDims)));
    if (!row) continue;
    const ci = colDims.length > 0 ? colIndex.get(tupleKey(tupleOf(r, colDims)))! : -1;
    for (const m of measures) {
      const k = ci >= 0 ? `c${ci}_${m.alias}` : m.alias;
      const n = numeric(r[m.alias]);
      const prev = row.cells[k];
      row.cells[k] = n === null ? (prev ?? r[m.alias] ?? null) : (numeric(prev) ?? 0) + n;
    }
  }

  const visibleCols = colTuples.map((c, index) => ({ ...c, index })).filter((c) => !hiddenCols.has(c.key));
  const headers = colDims.length > 0 ? headerTree(visibleCols, 0, measures) : [];
  const leaves = colDims.length > 0 ? headerLeaves(headers) : measures.map((m) => ({ property: m.alias, measure: m, total: false }));

  const rows = [...rowsByKey.values()];
  if (input.showTotal && totals && rows.length > 0 && rowDims[0]) {
    const cells: Record<string, PivotCell> = { [rowDims[0].alias]: PIVOT_TOTAL_LABEL };
    if (colDims.length === 0) {
      for (const m of measures) cells[m.alias] = totals.grand[m.alias] ?? null;
    } else {
      const byColumn = new Map(totals.byColumn.map((r) => [tupleKey(tupleOf(r, colDims)), r]));
      for (const c of visibleCols) for (const m of measures) cells[`c${c.index}_${m.alias}`] = byColumn.get(c.key)?.[m.alias] ?? null;
    }
    rows.push({ key: PIVOT_TOTAL_ROW_KEY, total: true, cells });
  }
  // Only from a server that totals rows (byRow present): never a client-side sum.
  let totalColumn: PivotLeaf[] | null = null;
  if (input.showTotal && totals?.byRow && rows.length > 0 && colDims.length > 0) {
    totalColumn = measures.map((m) => ({ property: totalProperty(m), measure: m, total: true }));
    const byRow = new Map(totals.byRow.map((r) => [tupleKey(tupleOf(r, rowDims)), r]));
    for (const row of rows) {
      const values = row.total || rowDims.length === 0 ? totals.grand : byRow.get(tupleKey(tupleOf(row.cells, rowDims)));
      for (const m of measures) row.cells[totalProperty(m)] = values?.[m.alias] ?? null;
    }
  }
  return { rowTuples, colTuples, headers, leaves: [...leaves, ...(totalColumn ?? [])], totalColumn, rows };
}
