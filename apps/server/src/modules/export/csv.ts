import fs from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { dimensionText } from '@shutu/contracts';
import type { RowSink, SheetColumn, SheetRow } from './workbook.ts';

/**
 * CSV exports (docs/exports.md "Formats"): UTF-8 with a byte-order mark, so Excel opens the
 * Chinese text correctly on a double click; RFC 4180 (comma, CRLF, fields with a comma, quote
 * or line break quoted, quotes doubled). Dates and timestamps read as the spec writes them
 * (yyyy-MM-dd, yyyy-MM-dd HH:mm:ss; a truncated date as the chart shows it: 2026-05, 2026-Q2).
 * A text cell that starts like a formula (= + - @, tab, CR) gets a leading apostrophe, so a
 * spreadsheet shows it as text instead of running it (OWASP "CSV injection"); numbers stay as
 * they are.
 */

export const UTF8_BOM = '\ufeff';
const FORMULA_START = /^[=+\-@\t\r]/;

type Cell = SheetRow[string] | Date;

/** One CSV field. `text`: a text cell, guarded against being read as a formula. */
export function csvField(value: Cell, text = true): string {
  if (value === null || value === undefined) return '';
  let out = value instanceof Date ? value.toISOString() : String(value);
  if (text && typeof value === 'string' && FORMULA_START.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

export function csvLine(values: readonly Cell[], textColumns?: readonly boolean[]): string {
  return `${values.map((v, i) => csvField(v, textColumns?.[i] ?? true)).join(',')}\r\n`;
}

/** A value of a column as the CSV shows it: dates as the spec writes them, NULL empty. */
export function csvValue(value: SheetRow[string], column: Pick<SheetColumn, 'type' | 'granularity'>): SheetRow[string] {
  if (value === null || value === undefined) return null;
  if (column.type === 'DATETIME' && typeof value === 'string') return dimensionText(value, column.granularity);
  return value;
}

/** A file (a path, or a stored file's writer stream) written line by line (the stream's back-pressure respected). */
export class CsvWriter {
  private readonly out: Writable;

  constructor(target: string | Writable) {
    this.out = typeof target === 'string' ? fs.createWriteStream(target, { encoding: 'utf8' }) : target;
    this.out.write(UTF8_BOM);
  }

  async write(line: string): Promise<void> {
    if (!this.out.write(line)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** A flat export as CSV: the header of column titles, then the rows, then any 合计 rows. Each write is awaited by the caller. */
export class CsvSheet implements RowSink {
  private readonly writer: CsvWriter;
  private readonly text: boolean[];
  private header: Promise<void>;
  rowCount = 0;

  constructor(
    target: string | Writable,
    private readonly columns: readonly SheetColumn[],
  ) {
    this.writer = new CsvWriter(target);
    this.text = columns.map((c) => c.type !== 'NUMBER');
    this.header = this.writer.write(csvLine(columns.map((c) => c.title)));
  }

  async add(row: SheetRow): Promise<void> {
    this.rowCount += 1;
    await this.append(row);
  }

  async addTotal(row: SheetRow): Promise<void> {
    await this.append(row);
  }

  async finish(): Promise<void> {
    await this.header;
    await this.writer.close();
  }

  private async append(row: SheetRow): Promise<void> {
    await this.header;
    await this.writer.write(
      csvLine(
        this.columns.map((c) => csvValue(row[c.alias], c)),
        this.text,
      ),
    );
  }
}
