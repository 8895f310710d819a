import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { dimensionText, PIVOT_TOTAL_LABEL, type PivotCell, type PivotHeader, type PivotLayout, type ResultField } from '@shutu/contracts';
import { CsvWriter, csvLine } from './csv.ts';
import { textWidth } from './workbook.ts';

/**
 * A pivot exported as the cross-tab on screen (docs/exports.md "Pivot"): the grid of the
 * shared layout (@shutu/contracts pivotLayout, the one the web draws) — header rows for the
 * column dimensions (and the measures, when there are several), the row dimensions' titles
 * down the left, the 合计 row and column as the chart shows them. In Excel the headers are
 * merged cells (a column value over its sub-columns, a row dimension's title over the header
 * rows) and equal row-dimension values are merged down; CSV has no merged cells, so every
 * cell carries its label (the grid flattened: each column's header path is complete).
 */

export interface GridMerge {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface PivotGrid {
  /** Every cell, header rows first; merged areas hold their label in every cell. */
  cells: PivotCell[][];
  headerRows: number;
  /** Columns before the measures (the row dimensions). */
  rowHeaderColumns: number;
  merges: GridMerge[];
  /** Bold cells: the 合计 row and column. */
  boldRows: Set<number>;
  boldColumns: Set<number>;
}

interface GridFields {
  rowDims: readonly ResultField[];
  colDims: readonly ResultField[];
  measures: readonly ResultField[];
}

/** Leaves under a header, left to right. */
const leafCount = (h: PivotHeader): number => (h.children ? h.children.reduce((n, c) => n + leafCount(c), 0) : (h.leaves?.length ?? 0));

/** A measure cell as a number where it is one (numeric text from some connectors too). */
function measureValue(value: PivotCell | undefined): PivotCell {
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return value ?? null;
}

export function pivotGrid(layout: PivotLayout, fields: GridFields): PivotGrid {
  const { rowDims, colDims, measures } = fields;
  const several = measures.length > 1;
  const headerRows = Math.max(1, colDims.length + (colDims.length > 0 && several ? 1 : 0));
  const left = rowDims.length;
  const width = left + layout.leaves.length;
  const cells: PivotCell[][] = Array.from({ length: headerRows }, () => Array<PivotCell>(width).fill(null));
  const merges: GridMerge[] = [];
  /** Fills an area with its label and merges it when it is more than one cell. */
  const area = (top: number, col: number, bottom: number, right: number, label: string) => {
    for (let r = top; r <= bottom; r++) for (let c = col; c <= right; c++) cells[r]![c] = label;
    if (bottom > top || right > col) merges.push({ top, left: col, bottom, right });
  };

  rowDims.forEach((d, j) => area(0, j, headerRows - 1, j, d.title));
  if (colDims.length === 0) {
    layout.leaves.forEach((l, i) => area(0, left + i, 0, left + i, l.measure.title));
  } else {
    let col = left;
    const place = (h: PivotHeader) => {
      const span = leafCount(h);
      const label = dimensionText(h.value, colDims[h.depth]?.granularity);
      const leaves = h.leaves ?? [];
      // A single measure: the last column value stands for it (as on screen), down to the last header row.
      const bottom = !h.children && leaves.length === 1 ? headerRows - 1 : h.depth;
      area(h.depth, col, bottom, col + span - 1, label);
      if (h.children) h.children.forEach(place);
      else {
        if (leaves.length > 1) leaves.forEach((l, i) => area(headerRows - 1, col + i, headerRows - 1, col + i, l.measure.title));
        col += span;
      }
    };
    layout.headers.forEach(place);
    const totals = layout.totalColumn ?? [];
    if (totals.length === 1) area(0, col, headerRows - 1, col, PIVOT_TOTAL_LABEL);
    else if (totals.length > 1) {
      area(0, col, headerRows - 2, col + totals.length - 1, PIVOT_TOTAL_LABEL);
      totals.forEach((l, i) => area(headerRows - 1, col + i, headerRows - 1, col + i, l.measure.title));
    }
  }

  const boldRows = new Set<number>();
  for (const row of layout.rows) {
    if (row.total) boldRows.add(cells.length);
    cells.push([
      ...rowDims.map((d) =>
        row.total && row.cells[d.alias] === PIVOT_TOTAL_LABEL ? PIVOT_TOTAL_LABEL : row.total ? null : dimensionText(row.cells[d.alias], d.granularity),
      ),
      ...layout.leaves.map((l) => measureValue(row.cells[l.property])),
    ]);
  }
  // Equal row-dimension values one under another are merged (an outer value over its inner ones).
  for (let j = 0; j < left - 1; j++) {
    let start = headerRows;
    for (let r = headerRows + 1; r <= cells.length; r++) {
      const same = r < cells.length && !boldRows.has(r) && !boldRows.has(start) && cells[r]!.slice(0, j + 1).every((v, k) => v === cells[start]![k]);
      if (same) continue;
      if (r - 1 > start) merges.push({ top: start, left: j, bottom: r - 1, right: j });
      start = r;
    }
  }
  const boldColumns = new Set<number>();
  layout.leaves.forEach((l, i) => l.total && boldColumns.add(left + i));
  return { cells, headerRows, rowHeaderColumns: left, merges, boldRows, boldColumns };
}

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF2F3F5' } };
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FFD9D9D9' } };

/** The grid as an .xlsx of one sheet: merged, bold, grey headers, frozen headers and row titles. */
export async function writePivotXlsx(target: string | Writable, grid: PivotGrid, sheetName = 'Sheet1'): Promise<void> {
  // Loaded with the first pivot workbook, not at the server's start (≈ 28 MiB resident).
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  workbook.creator = 'ShuTu 数图';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: grid.headerRows, xSplit: grid.rowHeaderColumns }] });
  grid.cells.forEach((values, r) => {
    const row = sheet.getRow(r + 1);
    values.forEach((value, c) => {
      const cell = row.getCell(c + 1);
      cell.value = value;
      cell.border = { top: THIN, left: THIN, bottom: THIN, right: THIN };
      const header = r < grid.headerRows;
      if (header || c < grid.rowHeaderColumns) cell.alignment = { vertical: 'middle', horizontal: header ? 'center' : 'left' };
      if (header) cell.fill = HEADER_FILL;
      if (header || grid.boldRows.has(r) || grid.boldColumns.has(c)) cell.font = { bold: true };
    });
  });
  for (const m of grid.merges) sheet.mergeCells(m.top + 1, m.left + 1, m.bottom + 1, m.right + 1);
  const columns = grid.cells[0]?.length ?? 0;
  for (let c = 0; c < columns; c++) {
    const widest = grid.cells.slice(0, 201).reduce((max, row) => Math.max(max, row[c] === null ? 0 : textWidth(String(row[c]))), 0);
    sheet.getColumn(c + 1).width = Math.min(60, Math.max(8, widest + 2));
  }
  if (typeof target === 'string') await workbook.xlsx.writeFile(target);
  else await workbook.xlsx.write(target);
}

/** The grid as CSV (UTF-8 with BOM): every cell, merged labels repeated. */
export async function writePivotCsv(target: string | Writable, grid: PivotGrid): Promise<void> {
  const writer = new CsvWriter(target);
  for (const values of grid.cells) await writer.write(csvLine(values));
  await writer.close();
}
