import fs from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { audienceMessages, formatFileSize, formatMessage, zhCN } from '@shutu/contracts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import { SheetDate, type CellValue } from '../../platform/files/sheet-cells.ts';
import { openXlsxSheet, xlsxLimits, XlsxTooLarge, XlsxUnreadable, ZIP_MAGIC, type XlsxLimits, type XlsxSheet } from '../../platform/files/xlsx-sheet.ts';

/**
 * Phone files of 新建导入人群 (spec 3 §5 "Import group"; docs/audiences.md "Import"): one column of
 * mobile numbers. A line is normalised — spaces, dashes, dots, brackets and a leading +86 / 0086 / 86
 * removed — and valid when 11 digits starting with 1. Valid numbers are kept as doubles in a growing
 * Float64Array (8 bytes a line: 1M lines ≈ 8 MB, the text itself is never held), sorted and
 * de-duplicated at the end; a txt file and an xlsx are read as streams.
 */

export interface PhoneCounts {
  valid: number;
  invalid: number;
  duplicate: number;
}

export interface ParsedPhones extends PhoneCounts {
  /** The distinct valid numbers, ascending. */
  phones: Float64Array;
}

const SEPARATORS = /[\s\-.()（）]/g;
const MOBILE = /^1\d{10}$/;

/** The 11-digit mobile number of a line, or null. */
export function normalisePhone(line: string): string | null {
  // Most lines are already bare numbers (optionally with \r): no regular expression for them.
  const bare = line.length === 12 && line.charCodeAt(11) === 13 ? line.slice(0, 11) : line;
  if (bare.length === 11 && MOBILE.test(bare)) return bare;
  let s = line.replace(SEPARATORS, '').replace(/^\uFEFF/, '');
  if (s.startsWith('+86')) s = s.slice(3);
  else if (s.startsWith('0086')) s = s.slice(4);
  else if (s.length === 13 && s.startsWith('86')) s = s.slice(2);
  return MOBILE.test(s) ? s : null;
}

class PhoneCollector {
  private buffer = new Float64Array(1 << 16);
  private length = 0;
  invalid = 0;

  line(text: string): void {
    if (text.trim() === '') return; // blank lines (a trailing newline) are not lines of the file
    const phone = normalisePhone(text);
    if (phone === null) {
      this.invalid += 1;
      return;
    }
    if (this.length === this.buffer.length) {
      const grown = new Float64Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = Number(phone);
  }

  finish(): ParsedPhones {
    const all = this.buffer.subarray(0, this.length).sort();
    let distinct = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i]!;
    return { phones: all.subarray(0, distinct), valid: distinct, invalid: this.invalid, duplicate: this.length - distinct };
  }
}

async function readTxt(file: string, collector: PhoneCollector): Promise<void> {
  let rest = '';
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
      collector.line(text.slice(start, i));
      start = i + 1;
    }
    rest = text.slice(start);
  }
  collector.line(rest);
}

/** The first column's text: a number cell holds the phone as a number (13912345678), text cells as written. */
function cellText(value: CellValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(Math.round(value));
  return value instanceof SheetDate ? value.text : String(value);
}

/**
 * An xlsx is streamed (platform/files/xlsx-sheet.ts, as file tables read it): a million-line
 * list is never held as a workbook. Older workbooks (xls) are small by nature and read whole.
 */
async function readSheet(file: string, collector: PhoneCollector, spreadsheetMaxBytes: number): Promise<void> {
  const head = Buffer.alloc(4);
  const handle = await fs.promises.open(file, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.equals(ZIP_MAGIC)) return readXlsx(file, collector, xlsxLimits(spreadsheetMaxBytes));
  // Read whole: the cap of workbooks read whole, as for file tables (an xls holds at most 65 536 rows anyway).
  if (size > spreadsheetMaxBytes) throw new AppError(413, formatMessage(zhCN.fileTooLarge, { size: formatFileSize(spreadsheetMaxBytes) }));
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(await fs.promises.readFile(file), {
      type: 'buffer',
      dense: true,
      sheets: 0,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
  } catch {
    throw badRequest(audienceMessages.importFileType);
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet || !sheet['!ref']) return;
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const data = (sheet['!data'] ?? []) as (XLSX.CellObject | undefined)[][];
  for (let r = range.s.r; r <= range.e.r; r++) {
    collector.line(cellText(data[r]?.[range.s.c]?.v as CellValue | undefined));
  }
}

async function readXlsx(file: string, collector: PhoneCollector, limits: XlsxLimits): Promise<void> {
  let sheet: XlsxSheet | undefined;
  try {
    sheet = await openXlsxSheet(file, limits, { max: 1, beyond: 'ignore' });
    for await (const batch of sheet.batches) for (const row of batch) collector.line(cellText(row.values[0]));
  } catch (error) {
    if (error instanceof XlsxTooLarge) throw badRequest(formatMessage(zhCN.fileUnpackedTooLarge, { size: formatFileSize(error.limit) }));
    if (error instanceof XlsxUnreadable) throw badRequest(audienceMessages.importFileType);
    throw error;
  } finally {
    sheet?.close();
  }
}

/**
 * Reads a phone file (xlsx, xls or txt, by extension). `spreadsheetMaxBytes` is the cap of
 * workbooks read whole (xls); an xlsx is bounded by what it unpacks to (xlsxLimits of it).
 */
export async function parsePhoneFile(file: string, extension: string, spreadsheetMaxBytes: number): Promise<ParsedPhones> {
  const collector = new PhoneCollector();
  if (extension === 'txt') await readTxt(file, collector);
  else if (extension === 'xlsx' || extension === 'xls') await readSheet(file, collector, spreadsheetMaxBytes);
  else throw badRequest(audienceMessages.importFileType);
  return collector.finish();
}
