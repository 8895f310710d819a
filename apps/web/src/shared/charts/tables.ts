import type { Chart, ChartDataResult, TimeUnit } from '@shutu/contracts';
import type { CubeCell } from './format.ts';
import { formatDimension, formatMeasure, formatTemporal, isDateOnlyColumn, toNumber } from './format.ts';
import { chartMessages } from './messages.ts';
import type { ChartDisplayOptions, ResultField, ResultRow } from './model.ts';
import { distinctTuples, formatOf, readOptions, retitle, splitFields, tupleKey, tupleOf } from './model.ts';

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

export const TOTAL_ROW_KEY = '__total';
/** The key of the pivot's 合计 column group. */
export const TOTAL_COLUMN_KEY = '__totalColumn';

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

/** The header groups of the visible column tuples, one level per column dimension; the leaves hold the measures. */
function columnGroups(
  tuples: readonly { values: CubeCell[]; index: number }[],
  colDims: readonly ResultField[],
  depth: number,
  measures: readonly ResultField[],
  options: ChartDisplayOptions,
): TableColumnSpec[] {
  const groups = new Map<string, { value: CubeCell; items: { values: CubeCell[]; index: number }[] }>();
  for (const t of tuples) {
    const key = tupleKey(t.values.slice(0, depth + 1));
    const g = groups.get(key) ?? { value: t.values[depth] ?? null, items: [] };
    g.items.push(t);
    groups.set(key, g);
  }
  return [...groups].map(([key, g]) => {
    const title = formatDimension(g.value, colDims[depth]?.granularity);
    const leaf = g.items[0]!;
    if (depth + 1 < leaf.values.length) return { key, title, children: columnGroups(g.items, colDims, depth + 1, measures, options) };
    // a leaf: one column per measure, or the leaf itself when there is a single measure
    if (measures.length === 1) return { ...measureColumn(measures[0]!, options, `c${leaf.index}_${measures[0]!.alias}`, title), key };
    return { key, title, children: measures.map((m) => measureColumn(m, options, `c${leaf.index}_${m.alias}`)) };
  });
}

/**
 * The pivot's 合计 row: under each visible column the server's total of that column-dimension
 * combination (over all rows, those the structure filter hides included); without column
 * dimensions the grand total.
 */
function pivotTotalsRow(
  totals: NonNullable<ChartDataResult['totals']>,
  visibleCols: readonly { key: string; index: number }[],
  colDims: readonly ResultField[],
  measures: readonly ResultField[],
  labelKey: string,
): TableRow {
  if (colDims.length === 0)
    return totalsRow(
      totals.grand,
      measures.map((m) => [m.alias, m.alias]),
      labelKey,
    );
  const byColumn = new Map(totals.byColumn.map((r) => [tupleKey(tupleOf(r, colDims)), r]));
  const total = totalsRow(undefined, [], labelKey);
  for (const c of visibleCols) {
    const values = byColumn.get(c.key);
    for (const m of measures) total[`c${c.index}_${m.alias}`] = values?.[m.alias] ?? null;
  }
  return total;
}

/** The row property of a measure's cell in the pivot's 合计 column. */
const totalColumnProperty = (m: ResultField) => `total_${m.alias}`;

/** The pivot's trailing 合计 column group: one bold sub-column per measure (a single measure: the leaf itself). */
function totalColumnGroup(measures: readonly ResultField[], options: ChartDisplayOptions): TableColumnSpec {
  const leaf = (m: ResultField, title?: string) => ({ ...measureColumn(m, options, totalColumnProperty(m), title), total: true });
  if (measures.length === 1) return { ...leaf(measures[0]!, chartMessages.total), key: TOTAL_COLUMN_KEY };
  return { key: TOTAL_COLUMN_KEY, title: chartMessages.total, children: measures.map((m) => leaf(m)) };
}

/**
 * Fills the pivot's 合计 column: each row's server total across every column (its measures
 * grouped by the row dimensions only; hidden columns count, as in the 合计 row), the 合计 row's
 * cell the grand total. Without row dimensions the single row's total is the grand total.
 */
function fillTotalColumn(
  rows: readonly TableRow[],
  totals: NonNullable<ChartDataResult['totals']>,
  rowDims: readonly ResultField[],
  measures: readonly ResultField[],
): void {
  const byRow = new Map((totals.byRow ?? []).map((r) => [tupleKey(tupleOf(r, rowDims)), r]));
  for (const row of rows) {
    const values = row.key === TOTAL_ROW_KEY || rowDims.length === 0 ? totals.grand : byRow.get(tupleKey(tupleOf(row, rowDims)));
    for (const m of measures) row[totalColumnProperty(m)] = values?.[m.alias] ?? null;
  }
}

/**
 * Pivot table: the row dimensions as rows, the column dimensions as nested column headers
 * (one level per column dimension) with the measures under each leaf; the 合计 row and, with
 * column dimensions, the 合计 column from the server's totals when the style shows it;
 * `filter` hides the members the structure filter unticked.
 */
export function buildPivotTable(chart: Chart, data: ChartDataResult, filter: StructureFilterState = SHOW_ALL): PivotModel {
  const options = readOptions(chart);
  const { rowDims, colDims, measures } = splitFields(chart, data);
  const rowTuples = distinctTuples(data.dataList, rowDims);
  const colTuples = distinctTuples(data.dataList, colDims);
  const hiddenRows = new Set(filter.hiddenRows);
  const hiddenCols = new Set(filter.hiddenColumns);

  const colIndex = new Map(colTuples.map((c, i) => [c.key, i]));
  const rowsByKey = new Map<string, TableRow>();
  for (const [i, t] of rowTuples.entries()) {
    if (hiddenRows.has(t.key)) continue;
    const row: TableRow = { key: `r${i}` };
    rowDims.forEach((d, j) => (row[d.alias] = t.values[j] ?? null));
    rowsByKey.set(t.key, row);
  }
  for (const r of data.dataList) {
    const row = rowsByKey.get(tupleKey(tupleOf(r, rowDims)));
    if (!row) continue;
    const ci = colDims.length > 0 ? colIndex.get(tupleKey(tupleOf(r, colDims)))! : -1;
    for (const m of measures) {
      const k = ci >= 0 ? `c${ci}_${m.alias}` : m.alias;
      const n = toNumber(r[m.alias] ?? null);
      const prev = row[k];
      row[k] = n === null ? (prev ?? r[m.alias] ?? null) : (toNumber(prev ?? null) ?? 0) + n;
    }
  }

  const visibleCols = colTuples.map((c, index) => ({ ...c, index })).filter((c) => !hiddenCols.has(c.key));
  const measureCols = colDims.length > 0 ? columnGroups(visibleCols, colDims, 0, measures, options) : measures.map((m) => measureColumn(m, options));
  const columns = [...rowDims.map((d) => dimColumn(d, data.dataList)), ...measureCols];

  const rows = [...rowsByKey.values()];
  if (options.showTotal && data.totals && rows.length > 0 && rowDims[0]) {
    rows.push(pivotTotalsRow(data.totals, visibleCols, colDims, measures, rowDims[0].alias));
  }
  // Only from a server that totals rows (byRow present): never a client-side sum.
  if (options.showTotal && data.totals?.byRow && rows.length > 0 && colDims.length > 0) {
    columns.push(totalColumnGroup(measures, options));
    fillTotalColumn(rows, data.totals, rowDims, measures);
  }
  return {
    columns,
    rows,
    rowMembers: memberTree(
      rowTuples.map((t) => t.values),
      rowDims,
    ),
    columnMembers: memberTree(
      colTuples.map((t) => t.values),
      colDims,
    ),
    rowKeys: rowTuples.map((t) => t.key),
    columnKeys: colTuples.map((t) => t.key),
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
