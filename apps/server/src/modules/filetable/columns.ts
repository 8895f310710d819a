import { parseDateTime, type LoadValue } from '@shutu/connectors';
import {
  COLUMN_COMMENT_MAX_LENGTH,
  COLUMN_NAME_MAX_LENGTH,
  FILE_PREVIEW_ROWS,
  FILE_TABLE_MAX_COLUMNS,
  formatMessage,
  zhCN,
  type FileColumn,
  type ViewDataType,
} from '@shutu/contracts';
import { badRequest } from '../../platform/http/errors.ts';
import { SheetDate, type CellValue, type DataRow } from '../../platform/files/sheet-cells.ts';

/**
 * From a file's header and a sample of its rows: the column list of the structure call
 * (comment = header, a safe physical name, a detected type); and the per-row conversion
 * the confirm call loads with.
 */

/** Data rows the column types are detected from. */
export const SAMPLE_ROWS = 2000;

/**
 * Physical names. No pinyin here: a header made only of ASCII is lower-cased with every run
 * of other characters turned into `_` ('Order ID' → order_id) when that starts with a letter;
 * any other header (Chinese, '2023', '') becomes col_<position> (1-based). Duplicates get
 * _2, _3 …; all names fit 30 characters. The user may rename them in the drawer.
 */
export function physicalNames(headers: readonly string[]): string[] {
  const taken = new Set<string>();
  return headers.map((header, i) => {
    const ascii = /^[\x20-\x7e]*$/.test(header)
      ? header
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_+|_+$/g, '')
      : '';
    let base = /^[a-z]/.test(ascii) ? ascii.slice(0, COLUMN_NAME_MAX_LENGTH).replace(/_+$/, '') : `col_${i + 1}`;
    if (taken.has(base)) {
      let n = 2;
      const stem = (k: number) => `${base.slice(0, COLUMN_NAME_MAX_LENGTH - String(k).length - 1)}_${k}`;
      while (taken.has(stem(n))) n++;
      base = stem(n);
    }
    taken.add(base);
    return base;
  });
}

/** Header text as a comment: trimmed, cut to 100 characters; an empty one is 列<position>. */
export const headerComment = (header: string, i: number) => header.trim().slice(0, COLUMN_COMMENT_MAX_LENGTH) || `列${i + 1}`;

const NUMBER_TEXT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** A number worth detecting as one: no leading zero ('007' is a code) and at most 15 digits. */
function numberLike(text: string): boolean {
  const t = text.trim();
  if (!NUMBER_TEXT.test(t) || !/\d/.test(t)) return false;
  const digits = t.replace(/[^0-9]/g, '');
  if (/^[+-]?0\d/.test(t) || digits.replace(/^0+/, '').length > 15) return false;
  return true;
}
/** Text that reads as a date: year first with separators (20240305 stays a number). */
const DATE_TEXT = /^\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?(?:[ T]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?$/;

type Kind = 'number' | 'date' | 'text';

function kindOf(value: CellValue): Kind | null {
  if (value === null || value === '') return null;
  if (typeof value === 'number') return 'number';
  if (value instanceof SheetDate) return 'date';
  if (typeof value === 'boolean') return 'text';
  if (numberLike(value)) return 'number';
  if (DATE_TEXT.test(value.trim()) && parseDateTime(value) !== null) return 'date';
  return 'text';
}

/** NUMBER when every non-empty sampled value is a number, DATETIME when every one is a date, else STRING. */
export function detectType(values: Iterable<CellValue>): ViewDataType {
  let seen: Kind | null = null;
  for (const v of values) {
    const kind = kindOf(v);
    if (kind === null) continue;
    if (kind === 'text' || (seen !== null && seen !== kind)) return 'STRING';
    seen = kind;
  }
  return seen === 'number' ? 'NUMBER' : seen === 'date' ? 'DATETIME' : 'STRING';
}

/**
 * Columns of the file: as many as the header, or more when sampled rows reach further
 * (those get 列<n> / col_<n>); trailing columns empty in header and sample are dropped.
 */
export function fileWidth(header: readonly string[], sample: readonly DataRow[]): number {
  let width = 0;
  header.forEach((h, i) => {
    if (h.trim() !== '') width = i + 1;
  });
  for (const { values } of sample) {
    for (let i = values.length - 1; i >= width; i--) {
      if (values[i] !== null && values[i] !== '') {
        width = i + 1;
        break;
      }
    }
  }
  if (width > FILE_TABLE_MAX_COLUMNS) throw badRequest(formatMessage(zhCN.fileTooManyColumns, { max: FILE_TABLE_MAX_COLUMNS }));
  return width;
}

export function describeColumns(header: readonly string[], sample: readonly DataRow[]): FileColumn[] {
  const width = fileWidth(header, sample);
  const headers = Array.from({ length: width }, (_, i) => header[i] ?? '');
  const names = physicalNames(headers.map((h) => h.trim()));
  return headers.map((h, i) => ({
    comment: headerComment(h, i),
    columnName: names[i]!,
    columnType: detectType(sample.map((r) => r.values[i] ?? null)),
  }));
}

/** A value as the preview shows it. */
export function displayValue(value: CellValue): string | number | null {
  if (value === null || typeof value === 'number' || typeof value === 'string') return value;
  if (value instanceof SheetDate) return value.text;
  return value ? 'TRUE' : 'FALSE';
}

export function previewRows(columns: readonly FileColumn[], sample: readonly DataRow[]): Record<string, string | number | null>[] {
  return sample.slice(0, FILE_PREVIEW_ROWS).map(({ values }) => Object.fromEntries(columns.map((c, i) => [c.columnName, displayValue(values[i] ?? null)])));
}

const shown = (value: CellValue) => String(displayValue(value)).slice(0, 50);

/** A plain decimal number, the common case, converted without the thousands-separator path. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** 'YYYY-MM-DD HH:mm:ss', the canonical form the driver takes, checked without a Date. */
const CANONICAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function canonicalDateTime(text: string): boolean {
  const m = CANONICAL_DATETIME.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > DAYS[mo - 1]!) return false;
  return !(mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
}

type Convert = (value: CellValue) => LoadValue | typeof BAD;
const BAD = Symbol('bad');

const CONVERTERS: Record<ViewDataType, Convert> = {
  STRING: (v) => (typeof v === 'string' ? v : String(displayValue(v))),
  NUMBER: (v) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'string') {
      if (PLAIN_NUMBER.test(v)) return Number(v);
      const t = v.trim();
      if (NUMBER_TEXT.test(t) && /\d/.test(t)) return Number(t.replace(/,/g, ''));
      return BAD;
    }
    if (typeof v === 'boolean') return v ? 1 : 0;
    return BAD;
  },
  DATETIME: (v) => {
    if (v instanceof SheetDate) return v.text;
    if (typeof v !== 'string') return BAD;
    if (canonicalDateTime(v)) return v;
    return parseDateTime(v) ?? BAD;
  },
};

/**
 * The conversion of one data row to the load values of the chosen types. A value that does
 * not fit its column's type is a 400 naming the file row and the column's comment.
 */
export function rowConverter(columns: readonly FileColumn[]): (row: DataRow) => LoadValue[] {
  const width = columns.length;
  const converters = columns.map((c) => CONVERTERS[c.columnType]);
  return ({ row, values }) => {
    if (values.length > width) checkWidth(row, values, width);
    const out: LoadValue[] = new Array(width);
    for (let i = 0; i < width; i++) {
      const value = values[i] ?? null;
      if (value === null || value === '') {
        out[i] = null;
        continue;
      }
      const converted = converters[i]!(value);
      if (converted === BAD) {
        const column = columns[i]!;
        const message = column.columnType === 'NUMBER' ? zhCN.fileValueNumber : zhCN.fileValueDate;
        throw badRequest(formatMessage(message, { row, column: column.comment, value: shown(value) }));
      }
      out[i] = converted;
    }
    return out;
  };
}

function checkWidth(row: number, values: readonly CellValue[], width: number): void {
  let last = values.length;
  while (last > width && (values[last - 1] === null || values[last - 1] === '')) last--;
  if (last > width) throw badRequest(formatMessage(zhCN.fileRowTooLong, { row, actual: last, expected: width }));
}
