import type { Writable } from 'node:stream';
import { dimensionText, type ResultField } from '@shutu/contracts';
import { excelSerial, XlsxStreamWriter, XlsxStyle } from './xlsx-writer.ts';

/**
 * A streamed .xlsx of one sheet (xlsx-writer.ts): rows go to the file as they are added, so
 * memory stays flat however many rows an export has. The header row holds the column titles
 * (bold, grey, frozen). Numbers stay numbers; dates ('YYYY-MM-DD') and timestamps
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
/** The width a date or timestamp shows with (its format's: yyyy-mm-dd, yyyy-mm-dd hh:mm:ss). */
const FORMAT_WIDTH = { date: 10, timestamp: 19 } as const;

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

/** How a column's values are written: decided once per column, not per cell. */
type ColumnKind = 'number' | 'date' | 'dateText' | 'other';

const kindOf = (column: Pick<SheetColumn, 'type' | 'granularity'>): ColumnKind =>
  column.type === 'NUMBER'
    ? 'number'
    : column.type === 'DATETIME'
      ? column.granularity && TEXT_GRANULARITIES.includes(column.granularity)
        ? 'dateText'
        : 'date'
      : 'other';

/** Numeric text (some connectors' decimals) that a number holds exactly (≤ 15 digits, Excel's precision). */
const EXACT_NUMBER = /^[-+]?(?=(?:\D*\d){1,15}\D*$)\d*\.?\d+$/;

/** The number written by text[from, to) in decimal digits, or -1 when it is not all digits. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

const FRACTION = /^\.\d+Z?$|^Z$/;

/**
 * The Excel serial of a connector date ('YYYY-MM-DD') or timestamp ('YYYY-MM-DDTHH:mm:ss',
 * optionally '.fff' and 'Z'), wall clock kept (Excel has no zones); null for other text. Read
 * by character codes, not a regular expression: it runs for every date cell of an export.
 */
export function dateSerial(text: string): number | null {
  const length = text.length;
  if ((length !== 10 && length < 19) || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null;
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 7);
  const d = digitsAt(text, 8, 10);
  if (y < 0 || mo < 0 || d < 0) return null;
  if (length === 10) return excelSerial(Date.UTC(y, mo - 1, d));
  if (text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return null;
  const h = digitsAt(text, 11, 13);
  const mi = digitsAt(text, 14, 16);
  const sec = digitsAt(text, 17, 19);
  if (h < 0 || mi < 0 || sec < 0) return null;
  let ms = 0;
  if (length > 19) {
    const rest = text.slice(19);
    if (!FRACTION.test(rest)) return null;
    if (rest[0] === '.') ms = Math.round(Number(`0${rest.replace('Z', '')}`) * 1000);
  }
  return excelSerial(Date.UTC(y, mo - 1, d, h, mi, sec, ms));
}

/** Styles of a row's cells: plain, or bold for a 合计 row. */
const PLAIN = { text: XlsxStyle.plain, date: XlsxStyle.date, timestamp: XlsxStyle.timestamp };
const BOLD = { text: XlsxStyle.bold, date: XlsxStyle.boldDate, timestamp: XlsxStyle.boldTimestamp };

/** Display width of text: CJK characters count double. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return width;
}

export class StreamingSheet implements RowSink {
  private writer: XlsxStreamWriter | null = null;
  private readonly kinds: ColumnKind[];
  private sample: { row: SheetRow; bold: boolean }[] | null = [];
  /** Data rows added (合计 rows not counted). */
  rowCount = 0;

  /** `target`: a path, or a stored file's writer stream (platform/files/storage.ts). */
  constructor(
    private readonly target: string | Writable,
    private readonly columns: readonly SheetColumn[],
    private readonly sheetName = 'Sheet1',
  ) {
    this.kinds = columns.map(kindOf);
  }

  add(row: SheetRow): void | Promise<void> {
    this.rowCount += 1;
    return this.append(row, false);
  }

  /** A bold 合计 row after the data rows. */
  addTotal(row: SheetRow): void | Promise<void> {
    return this.append(row, true);
  }

  /** Writes what is held back and closes the file. */
  async finish(): Promise<void> {
    if (this.sample) await this.flushSample();
    await this.writer!.finish();
  }

  private append(row: SheetRow, bold: boolean): void | Promise<void> {
    if (this.sample) {
      this.sample.push({ row, bold });
      if (this.sample.length >= SAMPLE_ROWS) return this.flushSample();
      return;
    }
    return this.write(row, bold);
  }

  private async flushSample(): Promise<void> {
    const sample = this.sample ?? [];
    this.sample = null;
    const columns = this.columns.map((c, i) => {
      const widest = sample.reduce((max, { row }) => Math.max(max, this.cellWidth(row[c.alias], i)), textWidth(c.title));
      return { title: c.title, width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + 2)) };
    });
    this.writer = new XlsxStreamWriter(this.target, columns, { sheetName: this.sheetName, frozenRows: 1 });
    await this.writer.addRow(
      columns.map((c) => c.title),
      XlsxStyle.header,
      XlsxStyle.header,
    );
    for (const { row, bold } of sample) await this.write(row, bold);
  }

  /** The characters a cell shows (dates: their format's width; CJK counts double). */
  private cellWidth(value: Cell, index: number): number {
    if (value === null || value === undefined) return 0;
    const kind = this.kinds[index]!;
    if (typeof value === 'string' && kind === 'date' && dateSerial(value) !== null) return value.length === 10 ? FORMAT_WIDTH.date : FORMAT_WIDTH.timestamp;
    if (typeof value === 'string' && kind === 'dateText') return textWidth(dimensionText(value, this.columns[index]!.granularity));
    return textWidth(String(value));
  }

  /** One row's cells straight into the sheet's XML (no value objects: this runs a million times). */
  private write(row: SheetRow, bold: boolean): void | Promise<void> {
    const writer = this.writer!;
    const style = bold ? BOLD : PLAIN;
    writer.startRow();
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i]!;
      const value = row[column.alias];
      const kind = this.kinds[i]!;
      if (value === null || value === undefined) writer.skipCell();
      else if (typeof value === 'number') writer.addNumber(value, style.text);
      else if (typeof value === 'boolean') writer.addBoolean(value, style.text);
      else if (kind === 'date') {
        const serial = dateSerial(value);
        if (serial === null) writer.addText(value, style.text);
        else writer.addNumber(serial, value.length === 10 ? style.date : style.timestamp);
      } else if (kind === 'number' && EXACT_NUMBER.test(value)) writer.addNumber(Number(value), style.text);
      else if (kind === 'dateText') writer.addText(dimensionText(value, column.granularity), style.text);
      else writer.addText(value, style.text);
    }
    return writer.endRow();
  }
}
