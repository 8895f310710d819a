import fs from 'node:fs';
import iconv from 'iconv-lite';
import * as XLSX from '@e965/xlsx';
import { FILE_TABLE_MAX_COLUMNS, formatFileSize, formatMessage, zhCN, type FileTableExtension } from '@shutu/contracts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import type { UploadedFile } from '../../platform/files/upload.ts';
import { CsvSyntaxError, detectDelimiter, parseCsv } from './csv.ts';
import { openXlsxSheet, xlsxLimits, XlsxTooLarge, XlsxTooWide, XlsxUnreadable, ZIP_MAGIC, type XlsxSheet } from '../../platform/files/xlsx-sheet.ts';
import { isDateFormat, serialDate, SheetDate, type CellValue, type DataRow } from '../../platform/files/sheet-cells.ts';

/**
 * Reads the first sheet of an uploaded xlsx / xls / csv as a header row plus data rows.
 * CSV is streamed (UTF-8 with or without BOM, else GBK, decoded as its superset GB18030);
 * so is xlsx (platform/files/xlsx-sheet.ts); older workbooks (xls) are parsed whole by SheetJS (@e965/xlsx),
 * so they get their own size cap.
 */

export { SheetDate, type CellValue, type DataRow } from '../../platform/files/sheet-cells.ts';

export interface TableFile {
  fileType: FileTableExtension;
  encoding: 'UTF-8' | 'GBK' | null;
  header: string[];
  /** The header's row number (its first line). */
  headerRow: number;
  /** CSV only: the field delimiter. */
  delimiter?: string;
  /** Data rows after the header in batches, blank rows skipped; iterate once. */
  batches: AsyncIterable<DataRow[]>;
  /** Stops reading (closes the file). */
  close(): void;
}

export interface ReadOptions {
  spreadsheetMaxBytes: number;
  /** Parse only this many rows of a workbook (the structure call needs a sample only). */
  sheetRows?: number;
}

const isBlank = (values: CellValue[]) => values.every((v) => v === null || (typeof v === 'string' && v.trim() === ''));

/** Opens the file; refuses empty and header-only files. */
export async function openTableFile(file: UploadedFile, options: ReadOptions): Promise<TableFile> {
  if (file.size === 0) throw badRequest(zhCN.fileEmpty);
  const type = file.extension as FileTableExtension;
  const source = type === 'csv' ? await readCsv(file) : await readWorkbook(file, type, options);
  const iterator = source.batches[Symbol.asyncIterator]();
  /** The rows of the batch being read that are not taken yet. */
  let pending: DataRow[] = [];
  const nextBatch = async (): Promise<DataRow[] | undefined> => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return undefined;
      const rows = next.value.filter((r) => !isBlank(r.values));
      if (rows.length > 0) return rows;
    }
  };
  const take = async (): Promise<DataRow | undefined> => {
    if (pending.length === 0) pending = (await nextBatch()) ?? [];
    return pending.shift();
  };
  try {
    const header = await take();
    if (!header) throw badRequest(zhCN.fileEmpty);
    if (pending.length === 0) pending = (await nextBatch()) ?? [];
    if (pending.length === 0) throw badRequest(zhCN.fileHeaderOnly);
    const batches = (async function* () {
      yield pending;
      for (let batch = await nextBatch(); batch; batch = await nextBatch()) yield batch;
    })();
    const headerText = header.values.map((v) => (v === null ? '' : v instanceof SheetDate ? v.text : String(v)));
    return {
      fileType: type,
      encoding: source.encoding,
      header: headerText,
      headerRow: header.row,
      ...(source.delimiter ? { delimiter: source.delimiter } : {}),
      batches,
      close: source.close,
    };
  } catch (error) {
    source.close();
    throw error;
  }
}

interface RawSource {
  encoding: 'UTF-8' | 'GBK' | null;
  delimiter?: string;
  batches: AsyncIterable<DataRow[]>;
  close(): void;
}

// ---------------------------------------------------------------- CSV

const CSV_REASONS: Record<CsvSyntaxError['reason'], string> = {
  unclosedQuote: '引号没有闭合',
  afterQuote: '引号后面有多余的字符',
  recordTooLong: '单行内容过长',
};

async function firstLineOf(file: UploadedFile): Promise<string> {
  const handle = await fs.promises.open(file.path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    const text = file.utf8 ? bytes.toString('utf8') : iconv.decode(bytes, 'gb18030');
    return text.replace(/^\uFEFF/, '').split(/\r?\n|\r/, 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

async function readCsv(file: UploadedFile): Promise<RawSource> {
  const delimiter = detectDelimiter(await firstLineOf(file));
  const input = fs.createReadStream(file.path, { highWaterMark: 256 * 1024, ...(file.utf8 ? { encoding: 'utf8' as const } : {}) });
  // Valid UTF-8 (with or without BOM) is read as UTF-8; anything else as GBK (decoded as its superset GB18030).
  const text = (file.utf8 ? input : input.pipe(iconv.decodeStream('gb18030'))) as AsyncIterable<string>;
  const close = () => input.destroy();
  async function* batches(): AsyncGenerator<DataRow[]> {
    try {
      yield* parseCsv(text, delimiter);
    } catch (error) {
      if (error instanceof CsvSyntaxError) throw badRequest(formatMessage(zhCN.fileMalformed, { row: error.line, reason: CSV_REASONS[error.reason] }));
      throw error;
    } finally {
      close();
    }
  }
  return { encoding: file.utf8 ? 'UTF-8' : 'GBK', delimiter, batches: batches(), close };
}

// ---------------------------------------------------------------- workbooks

const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** What a file must start with to be read as a workbook (SheetJS reads anything else as text). */
function looksLike(type: 'xlsx' | 'xls', bytes: Buffer): boolean {
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) return true; // an xlsx, also when named .xls
  if (type === 'xlsx') return false;
  if (bytes.subarray(0, 8).equals(CFB_MAGIC)) return true; // BIFF8 / BIFF5 in a compound file
  if (bytes[0] === 0x09 && [0x00, 0x02, 0x04, 0x08].includes(bytes[1] ?? -1)) return true; // bare BIFF2-4
  // Spreadsheet XML 2003 or an HTML table saved as .xls (what many systems export).
  return /^\s*</.test(
    bytes
      .subarray(0, 512)
      .toString('latin1')
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, ''),
  );
}

function cellValue(cell: XLSX.CellObject | undefined, date1904: boolean): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case 's':
      return cell.v === undefined || cell.v === '' ? null : String(cell.v);
    case 'b':
      return Boolean(cell.v);
    case 'n': {
      const v = Number(cell.v);
      if (typeof cell.z === 'string' && isDateFormat(cell.z)) {
        const date = serialDate(v, date1904);
        if (date) return date;
      }
      return Number.isFinite(v) ? v : null;
    }
    case 'd': {
      const d = cell.v instanceof Date ? cell.v : new Date(String(cell.v));
      if (Number.isNaN(d.getTime())) return null;
      return new SheetDate(d.toISOString().slice(0, 19).replace('T', ' '));
    }
    default:
      return null; // errors (#N/A) and stubs
  }
}

async function readWorkbook(file: UploadedFile, type: 'xlsx' | 'xls', options: ReadOptions): Promise<RawSource> {
  const corrupted = () => badRequest(formatMessage(zhCN.fileCorrupted, { type }));
  const head = Buffer.alloc(512);
  const handle = await fs.promises.open(file.path, 'r');
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const start = head.subarray(0, bytesRead);
  if (!looksLike(type, start)) throw corrupted();
  if (start.subarray(0, 4).equals(ZIP_MAGIC)) return readXlsx(file, options, corrupted);
  // Other workbooks (BIFF, XML 2003, HTML) are parsed whole by SheetJS: their own size cap.
  if (file.size > options.spreadsheetMaxBytes) throw new AppError(413, formatMessage(zhCN.fileTooLarge, { size: formatFileSize(options.spreadsheetMaxBytes) }));
  const bytes = await fs.promises.readFile(file.path);
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      dense: true,
      sheets: 0,
      cellNF: true,
      cellText: false,
      cellHTML: false,
      cellFormula: false,
      cellStyles: false,
      bookVBA: false,
      ...(options.sheetRows ? { sheetRows: options.sheetRows } : {}),
    });
  } catch {
    throw corrupted();
  }
  const sheet = workbook.SheetNames[0] === undefined ? undefined : workbook.Sheets[workbook.SheetNames[0]];
  if (!sheet) throw corrupted();
  const date1904 = Boolean(workbook.Workbook?.WBProps?.date1904);
  const range = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']) : null;
  const data = (sheet['!data'] ?? []) as (XLSX.CellObject | undefined)[][];
  let open = true;
  async function* batches(): AsyncGenerator<DataRow[]> {
    if (!range) return;
    let batch: DataRow[] = [];
    for (let r = range.s.r; r <= range.e.r && open; r++) {
      const line = data[r] ?? [];
      const values: CellValue[] = [];
      for (let c = range.s.c; c <= range.e.c; c++) values.push(cellValue(line[c], date1904));
      data[r] = []; // release cells as they are consumed
      batch.push({ row: r + 1, values });
      if (batch.length >= 1000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0 && open) yield batch;
  }
  return { encoding: null, batches: batches(), close: () => (open = false) };
}

/** An xlsx streamed (platform/files/xlsx-sheet.ts): any size the upload takes, bounded in what it unpacks to (xlsxLimits). */
async function readXlsx(file: UploadedFile, options: ReadOptions, corrupted: () => AppError): Promise<RawSource> {
  let sheet: XlsxSheet;
  try {
    sheet = await openXlsxSheet(file.path, xlsxLimits(options.spreadsheetMaxBytes), { max: FILE_TABLE_MAX_COLUMNS, beyond: 'refuse' });
  } catch (error) {
    if (error instanceof XlsxTooLarge) throw badRequest(formatMessage(zhCN.fileUnpackedTooLarge, { size: formatFileSize(error.limit) }));
    if (error instanceof XlsxUnreadable) throw corrupted();
    throw error;
  }
  async function* batches(): AsyncGenerator<DataRow[]> {
    try {
      yield* sheet.batches;
    } catch (error) {
      if (error instanceof XlsxUnreadable) throw corrupted();
      if (error instanceof XlsxTooWide) throw badRequest(formatMessage(zhCN.fileTooManyColumns, { max: FILE_TABLE_MAX_COLUMNS }));
      throw error;
    } finally {
      sheet.close();
    }
  }
  return { encoding: null, batches: batches(), close: sheet.close };
}
