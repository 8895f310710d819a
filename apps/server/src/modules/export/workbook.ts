import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dimensionText, type ResultField } from '@shutu/contracts';

/**
 * A streamed .xlsx of one sheet (exceljs' WorkbookWriter): rows go to the file as they are
 * added, so memory stays flat however many rows an export has. The header row holds the
 * column titles (bold, frozen). Numbers stay numbers; dates ('YYYY-MM-DD') and timestamps
 * ('YYYY-MM-DDTHH:mm:ss', the connectors' normal form) become Excel dates with a date
 * format; everything else is text.
 *
 * Column widths are worked out from the titles and the first SAMPLE_ROWS rows, which are
 * held back until then (a streamed sheet's columns are fixed before its first row).
 */

type Cell = string | number | boolean | null | undefined;
export type SheetRow = Record<string, Cell>;

/** Rows looked at for the column widths. */
const SAMPLE_ROWS = 200;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z)?$/;
const DATE_FORMAT = 'yyyy-mm-dd';
const TIMESTAMP_FORMAT = 'yyyy-mm-dd hh:mm:ss';

export interface SheetColumn {
  alias: string;
  title: string;
  type: ResultField['viewDataType'];
  /** A date dimension's truncation: year, quarter and month read as on screen (2026, 2026-Q2, 2026-05). */
  granularity?: ResultField['granularity'];
}

/** Truncations that are not a day: written as the text the chart shows, not as a date. */
const TEXT_GRANULARITIES: readonly ResultField['granularity'][] = ['YEAR', 'QUARTER', 'MONTH'];

/** The sink an export writes its rows into (Excel, streamed; or CSV). */
export interface RowSink {
  /** Data rows added (合计 rows not counted). */
  readonly rowCount: number;
  add(row: SheetRow): void | Promise<void>;
  /** A 合计 row after the data rows. */
  addTotal(row: SheetRow): void | Promise<void>;
  finish(): Promise<void>;
}

/** The Excel value of a connector value: dates as Dates (wall clock kept: Excel has no zones). */
export function excelValue(
  value: Cell,
  type: SheetColumn['type'],
  granularity?: SheetColumn['granularity'],
): { value: string | number | boolean | Date | null; format?: string } {
  if (value === null || value === undefined) return { value: null };
  if (typeof value !== 'string') return { value };
  if (type === 'DATETIME' && granularity && TEXT_GRANULARITIES.includes(granularity)) return { value: dimensionText(value, granularity) };
  if (type === 'DATETIME') {
    const date = DATE.exec(value);
    if (date) return { value: new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!)), format: DATE_FORMAT };
    const ts = TIMESTAMP.exec(value);
    if (ts) {
      const ms = ts[7] ? Math.round(Number(ts[7]) * 1000) : 0;
      return { value: new Date(Date.UTC(+ts[1]!, +ts[2]! - 1, +ts[3]!, +ts[4]!, +ts[5]!, +ts[6]!, ms)), format: TIMESTAMP_FORMAT };
    }
  }
  return { value };
}

/** Display width of text: CJK characters count double. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return width;
}

export class StreamingSheet implements RowSink {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private sample: { row: SheetRow; bold: boolean }[] | null = [];
  /** Data rows added (合计 rows not counted). */
  rowCount = 0;

  /** `target`: a path, or a stored file's writer stream (platform/files/storage.ts). */
  constructor(
    target: string | Writable,
    private readonly columns: readonly SheetColumn[],
    sheetName = 'Sheet1',
  ) {
    const output = typeof target === 'string' ? { filename: target } : { stream: target };
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ ...output, useStyles: true, useSharedStrings: false });
    this.workbook.creator = 'ShuTu 数图';
    this.sheet = this.workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  }

  add(row: SheetRow): void {
    this.rowCount += 1;
    this.append(row, false);
  }

  /** A bold 合计 row after the data rows. */
  addTotal(row: SheetRow): void {
    this.append(row, true);
  }

  /** Writes what is held back and closes the file. */
  async finish(): Promise<void> {
    if (this.sample) this.flushSample();
    this.sheet.commit();
    await this.workbook.commit();
  }

  private append(row: SheetRow, bold: boolean): void {
    if (this.sample) {
      this.sample.push({ row, bold });
      if (this.sample.length >= SAMPLE_ROWS) this.flushSample();
      return;
    }
    this.write(row, bold);
  }

  private flushSample(): void {
    const sample = this.sample ?? [];
    this.sample = null;
    this.sheet.columns = this.columns.map((c) => {
      const widest = sample.reduce((max, { row }) => Math.max(max, this.cellWidth(row[c.alias], c)), textWidth(c.title));
      return { header: c.title, key: c.alias, width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + 2)) };
    });
    const header = this.sheet.getRow(1);
    header.font = { bold: true };
    header.alignment = { vertical: 'middle' };
    header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF2F3F5' } };
    header.commit();
    for (const { row, bold } of sample) this.write(row, bold);
  }

  private cellWidth(value: Cell, column: SheetColumn): number {
    if (value === null || value === undefined) return 0;
    const { value: shown, format } = excelValue(value, column.type, column.granularity);
    if (format) return format.length;
    if (typeof shown === 'string') return textWidth(shown);
    return textWidth(String(value));
  }

  private write(row: SheetRow, bold: boolean): void {
    const added = this.sheet.addRow(this.columns.map(() => null));
    this.columns.forEach((c, i) => {
      const { value, format } = excelValue(row[c.alias], c.type, c.granularity);
      const cell = added.getCell(i + 1);
      cell.value = value;
      if (format) cell.numFmt = format;
      if (bold) cell.font = { bold: true };
    });
    added.commit();
  }
}
