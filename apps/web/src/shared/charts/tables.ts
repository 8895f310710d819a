import type { TablePaginationConfig } from 'antd';
import type { Chart, ChartDataResult, PivotHeader, PivotLeaf, TimeUnit } from '@shutu/contracts';
import { DETAIL_PAGE_SIZES } from '@shutu/contracts/board-constants';
import { PIVOT_TOTAL_COLUMN_KEY, PIVOT_TOTAL_ROW_KEY, pivotLayout } from '@shutu/contracts/pivot-layout';
import type { CubeCell } from './format.ts';
import { formatDimension, formatMeasure, formatTemporal, isDateOnlyColumn, toNumber } from './format.ts';
import { chartMessages } from './messages.ts';
import type { ChartDisplayOptions, ResultField, ResultRow } from './model.ts';
import { formatOf, readOptions, retitle, splitFields, tupleKey } from './model.ts';

/**
 * Table shapes (summary table, detail table, pivot table with its structure filter), the
 * indicator card and the filter-select values: pure functions, rendered by ChartView with
 * antd components.
 */

/** A column of a table; `children` makes a header group (pivot column dimensions). */
export interface TableColumnSpec {
  key: string;
  title: string;
  /** The row property it shows (leaves only). */
  dataIndex?: string;
  align?: 'left' | 'right';
  kind?: 'dimension' | 'measure';
  /** The numberDataFormat of a measure column. */
  format?: string;
  /** The date truncation of a dimension column. */
  granularity?: TimeUnit | null;
  /** An ungrouped DATETIME column: shown as yyyy-MM-dd ('date') or yyyy-MM-dd HH:mm:ss ('datetime'). */
  temporal?: 'date' | 'datetime';
  /** A cell of the pivot's 合计 column (drawn bold). */
  total?: boolean;
  children?: TableColumnSpec[];
}

export type TableRow = { key: string } & Record<string, CubeCell>;

export interface TableModel {
  columns: TableColumnSpec[];
  rows: TableRow[];
}

export const TOTAL_ROW_KEY = PIVOT_TOTAL_ROW_KEY;
/** The key of the pivot's 合计 column group. */
export const TOTAL_COLUMN_KEY = PIVOT_TOTAL_COLUMN_KEY;

/** The text of a cell of `column`. */
export function cellText(column: TableColumnSpec, value: CubeCell | undefined): string {
  if (column.kind === 'measure') return formatMeasure(value ?? null, column.format);
  if (value === undefined) return '';
  if (column.temporal && value !== null) return formatTemporal(value, column.temporal === 'datetime');
  return formatDimension(value, column.granularity);
}

/**
 * A dimension column. A DATETIME field without a date truncation reads as dates when every
 * row's value is a date (or midnight), else with its time on every row — decided over the
 * rows shown, so one column never mixes both forms.
 */
function dimColumn(f: ResultField, rows: readonly ResultRow[] = []): TableColumnSpec {
  const column: TableColumnSpec = { key: f.alias, title: f.title, dataIndex: f.alias, align: 'left', kind: 'dimension', granularity: f.granularity };
  if (f.viewDataType === 'DATETIME' && !f.granularity) column.temporal = isDateOnlyColumn(rows.map((r) => r[f.alias])) ? 'date' : 'datetime';
  return column;
}

function measureColumn(f: ResultField, options: ChartDisplayOptions, dataIndex = f.alias, title = f.title): TableColumnSpec {
  return { key: dataIndex, title, dataIndex, align: 'right', kind: 'measure', format: formatOf(options, f) };
}

/**
 * The 合计 row from the server's totals (each measure's own aggregation over every row the
 * query matches, computed by the query engine): `cells` maps a property of the row to the
 * measure alias it shows. No totals from the server: no row (adding up the received rows is
 * wrong for averages, distinct counts, maxima and limited results).
 */
function totalsRow(values: Readonly<Record<string, CubeCell>> | undefined, cells: readonly [string, string][], labelKey: string): TableRow {
  const total: TableRow = { key: TOTAL_ROW_KEY, [labelKey]: chartMessages.total };
  for (const [property, alias] of cells) total[property] = values?.[alias] ?? null;
  return total;
}

/** Summary table: the dimension columns then the measure columns, one row per result row. */
export function buildSummaryTable(chart: Chart, data: ChartDataResult): TableModel {
  const options = readOptions(chart);
  const { rowDims, colDims, measures } = splitFields(chart, data);
  const dims = [...rowDims, ...colDims];
  const columns = [...dims.map((d) => dimColumn(d, data.dataList)), ...measures.map((m) => measureColumn(m, options))];
  const rows: TableRow[] = data.dataList.map((r, i) => ({ ...r, key: String(i) }));
  // Only with a dimension: without one the single row is the total already.
  if (options.showTotal && data.totals && rows.length > 0 && dims[0]) {
    rows.push(
      totalsRow(
        data.totals.grand,
        measures.map((m) => [m.alias, m.alias]),
        dims[0].alias,
      ),
    );
  }
  return { columns, rows };
}

/** Detail table: every column of the result in order; NUMBER columns formatted and right-aligned. */
export function buildDetailTable(chart: Chart, data: ChartDataResult): TableModel {
  const options = readOptions(chart);
  const columns = retitle(data.fieldDict, chart.dataconfig?.rowParamList).map((f) =>
    f.kind === 'measure' || f.viewDataType === 'NUMBER' ? measureColumn(f, options) : dimColumn(f, data.dataList),
  );
  return { columns, rows: data.dataList.map((r, i) => ({ ...r, key: String(i) })) };
}

// ---------------------------------------------------------------------------------------
// Pivot

/** A member of the structure filter tree; leaves are whole tuples (their key is tupleKey(values)). */
export interface MemberNode {
  key: string;
  title: string;
  children?: MemberNode[];
}

/** The members the structure filter hides: leaf tuple keys of rows and columns (members that appear later are shown). */
export interface StructureFilterState {
  hiddenRows: readonly string[];
  hiddenColumns: readonly string[];
}

export const SHOW_ALL: StructureFilterState = { hiddenRows: [], hiddenColumns: [] };

export interface PivotModel extends TableModel {
  rowMembers: MemberNode[];
  columnMembers: MemberNode[];
  /** All leaf keys (for "show all"). */
  rowKeys: string[];
  columnKeys: string[];
}

/** Groups tuples level by level into a tree; a node's key is the tupleKey of its path. */
export function memberTree(tuples: readonly CubeCell[][], fields?: readonly Pick<ResultField, 'granularity'>[]): MemberNode[] {
  interface Acc {
    node: MemberNode;
    children: Map<string, Acc>;
  }
  const root = new Map<string, Acc>();
  for (const values of tuples) {
    let level = root;
    values.forEach((v, depth) => {
      const path = values.slice(0, depth + 1);
      const key = tupleKey(path);
      let acc = level.get(key);
      if (!acc) {
        acc = { node: { key, title: formatDimension(v, fields?.[depth]?.granularity) }, children: new Map() };
        level.set(key, acc);
      }
      level = acc.children;
    });
  }
  const toNodes = (level: Map<string, Acc>): MemberNode[] =>
    [...level.values()].map(({ node, children }) => (children.size > 0 ? { ...node, children: toNodes(children) } : node));
  return toNodes(root);
}

/** The antd column groups of the shared layout's headers: one level per column dimension, the measures under each leaf. */
function headerColumns(headers: readonly PivotHeader[], colDims: readonly ResultField[], options: ChartDisplayOptions): TableColumnSpec[] {
  return headers.map((h) => {
    const title = formatDimension(h.value, colDims[h.depth]?.granularity);
    if (h.children) return { key: h.key, title, children: headerColumns(h.children, colDims, options) };
    const leaves = h.leaves ?? [];
    // A single measure: the leaf itself carries it.
    if (leaves.length === 1) return { ...measureColumn(leaves[0]!.measure, options, leaves[0]!.property, title), key: h.key };
    return { key: h.key, title, children: leaves.map((l) => measureColumn(l.measure, options, l.property)) };
  });
}

/** The pivot's trailing 合计 column group: one bold sub-column per measure (a single measure: the leaf itself). */
function totalColumnGroup(leaves: readonly PivotLeaf[], options: ChartDisplayOptions): TableColumnSpec {
  const leaf = (l: PivotLeaf, title?: string) => ({ ...measureColumn(l.measure, options, l.property, title), total: true });
  if (leaves.length === 1) return { ...leaf(leaves[0]!, chartMessages.total), key: TOTAL_COLUMN_KEY };
  return { key: TOTAL_COLUMN_KEY, title: chartMessages.total, children: leaves.map((l) => leaf(l)) };
}

/**
 * Pivot table: the shared layout (@shutu/contracts pivotLayout, the same the export writes)
 * drawn as antd columns — the row dimensions as rows, the column dimensions as nested column
 * headers with the measures under each leaf, the 合计 row and column from the server's totals
 * when the style shows them; `filter` hides the members the structure filter unticked.
 */
export function buildPivotTable(chart: Chart, data: ChartDataResult, filter: StructureFilterState = SHOW_ALL): PivotModel {
  const options = readOptions(chart);
  const { rowDims, colDims, measures } = splitFields(chart, data);
  const layout = pivotLayout({
    rowDims,
    colDims,
    measures,
    dataList: data.dataList,
    totals: data.totals,
    showTotal: options.showTotal,
    hiddenRows: filter.hiddenRows,
    hiddenColumns: filter.hiddenColumns,
  });
  const measureCols = colDims.length > 0 ? headerColumns(layout.headers, colDims, options) : measures.map((m) => measureColumn(m, options));
  const columns = [...rowDims.map((d) => dimColumn(d, data.dataList)), ...measureCols];
  if (layout.totalColumn) columns.push(totalColumnGroup(layout.totalColumn, options));
  return {
    columns,
    rows: layout.rows.map((r) => ({ ...r.cells, key: r.key })),
    rowMembers: memberTree(
      layout.rowTuples.map((t) => t.values),
      rowDims,
    ),
    columnMembers: memberTree(
      layout.colTuples.map((t) => t.values),
      colDims,
    ),
    rowKeys: layout.rowTuples.map((t) => t.key),
    columnKeys: layout.colTuples.map((t) => t.key),
  };
}

/** The leaf columns of a column tree, left to right. */
export function leafColumns(columns: readonly TableColumnSpec[]): TableColumnSpec[] {
  return columns.flatMap((c) => (c.children ? leafColumns(c.children) : [c]));
}

/** Tree keys ticked in the structure filter → the leaf keys it hides. */
export function hiddenLeaves(checked: readonly string[], allLeaves: readonly string[]): string[] {
  const set = new Set(checked);
  return allLeaves.filter((k) => !set.has(k));
}

// ---------------------------------------------------------------------------------------
// Indicator card and filter values

export interface CardModel {
  title: string;
  value: string;
  compare: { title: string; value: string; /** (first − second) / |second|, null when not computable. */ rate: number | null } | null;
}

/** Indicator card: the first measure of the first row big, with its title; a second measure as comparison. */
export function buildCard(chart: Chart, data: ChartDataResult): CardModel | null {
  const options = readOptions(chart);
  const { measures } = splitFields(chart, data);
  const row: ResultRow | undefined = data.dataList[0];
  const [first, second] = measures;
  if (!first || !row) return null;
  const value = formatMeasure(row[first.alias] ?? null, formatOf(options, first));
  let compare: CardModel['compare'] = null;
  if (second) {
    const a = toNumber(row[first.alias] ?? null);
    const b = toNumber(row[second.alias] ?? null);
    compare = {
      title: second.title,
      value: formatMeasure(row[second.alias] ?? null, formatOf(options, second)),
      rate: a !== null && b !== null && b !== 0 ? (a - b) / Math.abs(b) : null,
    };
  }
  return { title: first.title || chart.title, value, compare };
}

/** Filter select: the first dimension's distinct non-null values. */
export function filterOptions(data: ChartDataResult | null): { label: string; value: string | number }[] {
  const dim = data?.fieldDict.find((f) => f.kind === 'dimension') ?? data?.fieldDict[0];
  if (!data || !dim) return [];
  const seen = new Set<string | number>();
  const out: { label: string; value: string | number }[] = [];
  for (const r of data.dataList) {
    const v = r[dim.alias];
    if (v === null || v === undefined) continue;
    const value = typeof v === 'number' ? v : String(v);
    if (seen.has(value)) continue;
    seen.add(value);
    out.push({ label: String(value), value });
  }
  return out;
}

/** The detail table's pager: current and size from the caller, total from the result. */
export function detailPagination(current: number, size: number, total: number, onPage?: (current: number, size: number) => void): TablePaginationConfig {
  return {
    current,
    pageSize: size,
    total,
    size: 'small',
    showSizeChanger: true,
    pageSizeOptions: DETAIL_PAGE_SIZES.map(String),
    showTotal: (t) => chartMessages.pageTotal.replace('{total}', String(t)),
    onChange: (c, s) => onPage?.(s !== size ? 1 : c, s),
  };
}
