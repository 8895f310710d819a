import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { isDateFormat, serialDates, SheetDate, type CellValue, type DataRow } from './sheet-cells.ts';

/**
 * The first sheet of an xlsx, read by streaming (issue 26: "xlsx converted once by
 * streaming"): the zip's directory is read from the stored file (yauzl: random access, so the
 * parts are read in the order needed whatever their order in the zip), the small parts
 * (relationships, workbook, styles) and the shared strings are read whole, and the sheet's XML is
 * inflated and parsed (saxes) as the rows are taken, a batch at a time. Memory is the shared
 * strings plus one batch, whatever the sheet's length; SheetJS held the whole workbook. The
 * cells come out as SheetJS's did (cells.ts), so the rest of the load does not know which read it.
 */

/** What the reader finds wrong with a workbook; anything else thrown while reading becomes XlsxUnreadable. */
class XlsxError extends Error {}
/** Not a workbook this reader can read (no first sheet, broken zip or XML). */
export class XlsxUnreadable extends XlsxError {}
/** A part unpacks to more than allowed (a zip bomb, or a workbook too large to read). */
export class XlsxTooLarge extends XlsxError {
  /** The limit (bytes) the part or the whole zip went past, for the message. */
  constructor(readonly limit: number) {
    super(`unpacks to more than ${limit} bytes`);
  }
}
/** A value lies past the columns the reader was told to take (`SheetColumns`, beyond: 'refuse'). */
export class XlsxTooWide extends XlsxError {}

/**
 * How many columns a row may have, counted from the sheet's first: empty cells past them are
 * dropped either way (a stray styled cell in column XFD must not make every row 16 384 wide);
 * a value there is refused (file tables) or ignored (a phone list reads one column).
 */
export interface SheetColumns {
  max: number;
  beyond: 'refuse' | 'ignore';
}

/** Excel's own limit on a cell's text is 32 767 characters; a cell far past that is no workbook Excel wrote. */
const MAX_CELL_CHARS = 1 << 20;
/** A workbook has a few dozen parts; a zip directory of more is no workbook (and its listing alone would fill memory). */
const MAX_ENTRIES = 10_000;
/** Relationships, workbook and styles parts are small (styles of a heavily formatted workbook: a few MB). */
const SMALL_PART_MAX_BYTES = 64 << 20;

export interface XlsxLimits {
  /** The whole zip, unpacked (bounds the time a sheet takes). */
  unpackedMaxBytes: number;
  /** The shared strings part, unpacked (held in memory). */
  sharedStringsMaxBytes: number;
}

/**
 * What an xlsx may unpack to, from the cap of workbooks read whole (UPLOAD_SPREADSHEET_MAX_MB):
 * its shared strings, held in memory, 10 times it (what SheetJS was allowed to inflate in all);
 * the whole zip 20 times it (the time a sheet takes, and what a single text node can grow to
 * inside the XML parser: 1 GB by default, where the 1M-row bench workbook unpacks to 0.34 GB).
 */
export const xlsxLimits = (spreadsheetMaxBytes: number): XlsxLimits => ({
  unpackedMaxBytes: spreadsheetMaxBytes * 20,
  sharedStringsMaxBytes: spreadsheetMaxBytes * 10,
});

/** The first bytes of a zip (an xlsx, also when named .xls). */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const BATCH_ROWS = 1000;

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/** Built-in number formats Excel writes by id only; the CJK and Thai date ids map to a date format as in SheetJS's table. */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78,
  79, 80, 81,
]);

/** '_x000D_' and the like: characters OOXML escapes in strings. */
const unescapeOoxml = (text: string) =>
  text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;

/** 'AB12' → 27 (0-based column). */
function columnOf(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return i === 0 ? -1 : column - 1;
}

function openZip(file: string): Promise<{ zip: ZipFile; entries: Map<string, Entry> }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error) return reject(new XlsxUnreadable(error.message));
      const entries = new Map<string, Entry>();
      zip.on('entry', (entry: Entry) => {
        entries.set(entry.fileName.replace(/\\/g, '/').replace(/^\//, ''), entry);
        if (entries.size > MAX_ENTRIES) {
          zip.close();
          reject(new XlsxUnreadable(`more than ${MAX_ENTRIES} entries`));
        } else zip.readEntry();
      });
      zip.on('end', () => resolve({ zip, entries }));
      zip.on('error', (e: Error) => {
        zip.close();
        reject(new XlsxUnreadable(e.message));
      });
      zip.readEntry();
    });
  });
}

type Handlers = {
  open?: (tag: SaxesTagPlain, name: string) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

function parserFor(handlers: Handlers): SaxesParser {
  const parser = new SaxesParser({ position: false });
  if (handlers.open) parser.on('opentag', (tag) => handlers.open!(tag as SaxesTagPlain, localName(tag.name)));
  if (handlers.close) parser.on('closetag', (tag) => handlers.close!(localName(tag.name)));
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  return parser; // no error handler: saxes then throws from write(), which feed() turns into XlsxUnreadable
}

/** Feeds a part's text to `parser`, yielding after each chunk (the caller takes the rows it made). */
async function* feed(zip: ZipFile, entry: Entry, parser: SaxesParser, track: (stream: Readable) => void): AsyncGenerator<void> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new XlsxUnreadable((error as Error).message);
  }
  track(stream);
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(decoder.decode(chunk, { stream: true }));
      yield;
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof XlsxError) throw error;
    throw new XlsxUnreadable((error as Error).message);
  } finally {
    stream.destroy();
  }
}

async function parsePart(zip: ZipFile, entry: Entry, handlers: Handlers, maxBytes = SMALL_PART_MAX_BYTES): Promise<void> {
  if (entry.uncompressedSize > maxBytes) throw new XlsxUnreadable(`${entry.fileName} unpacks to ${entry.uncompressedSize} bytes`);
  const chunks = feed(zip, entry, parserFor(handlers), () => undefined);
  while (!(await chunks.next()).done);
}

/** Relationship ids to part paths, resolved against the part the relationships belong to. */
async function relationships(zip: ZipFile, entries: Map<string, Entry>, owner: string): Promise<{ id: string; type: string; target: string }[]> {
  const relsPath = path.join(path.dirname(owner), '_rels', `${path.basename(owner)}.rels`);
  const entry = entries.get(relsPath);
  if (!entry) return [];
  const found: { id: string; type: string; target: string }[] = [];
  await parsePart(zip, entry, {
    open: (tag, name) => {
      if (name !== 'Relationship' || tag.attributes.TargetMode === 'External') return;
      const target = String(tag.attributes.Target ?? '');
      const resolved = target.startsWith('/') ? target.slice(1) : path.normalize(path.join(path.dirname(owner), target));
      found.push({ id: String(tag.attributes.Id ?? ''), type: String(tag.attributes.Type ?? ''), target: resolved });
    },
  });
  return found;
}

interface WorkbookParts {
  sheet: Entry;
  sharedStrings: Entry | undefined;
  styles: Entry | undefined;
  date1904: boolean;
}

async function workbookParts(zip: ZipFile, entries: Map<string, Entry>): Promise<WorkbookParts> {
  const root = await relationships(zip, entries, '');
  const workbookPath = root.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbook = entries.get(workbookPath);
  if (!workbook) throw new XlsxUnreadable('no workbook part');
  let firstSheetId: string | undefined;
  let date1904 = false;
  await parsePart(zip, workbook, {
    open: (tag, name) => {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(String(tag.attributes.date1904 ?? ''));
      if (name === 'sheet' && firstSheetId === undefined) {
        const key = Object.keys(tag.attributes).find((k) => localName(k) === 'id' && k.includes(':'));
        firstSheetId = key ? String(tag.attributes[key]) : undefined;
      }
    },
  });
  const rels = await relationships(zip, entries, workbookPath);
  const sheetPath = rels.find((r) => r.id === firstSheetId)?.target;
  const sheet = sheetPath ? entries.get(sheetPath) : undefined;
  if (!sheet) throw new XlsxUnreadable('no first sheet');
  const part = (type: string) => {
    const target = rels.find((r) => r.type.endsWith(`/${type}`))?.target;
    return target ? entries.get(target) : undefined;
  };
  return { sheet, sharedStrings: part('sharedStrings'), styles: part('styles'), date1904 };
}

/** Per cell style (the `s` of a cell): whether its number format shows a date. */
async function dateStyles(zip: ZipFile, styles: Entry | undefined): Promise<boolean[]> {
  if (!styles) return [];
  const formats = new Map<number, string>();
  const dated: boolean[] = [];
  let inCellXfs = false;
  await parsePart(zip, styles, {
    open: (tag, name) => {
      if (name === 'numFmt') formats.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0);
        const custom = formats.get(id);
        dated.push(custom !== undefined ? isDateFormat(custom) : DATE_FORMAT_IDS.has(id));
      }
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return dated;
}

/** The shared strings, rich text runs joined, phonetic runs (rPh) left out. */
async function sharedStrings(zip: ZipFile, entry: Entry | undefined): Promise<string[]> {
  if (!entry) return [];
  const strings: string[] = [];
  let text = '';
  let inText = false;
  let phonetic = 0;
  await parsePart(
    zip,
    entry,
    {
      open: (_, name) => {
        if (name === 'si') text = '';
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && phonetic === 0) inText = true;
      },
      text: (t) => {
        if (inText) text += t;
      },
      close: (name) => {
        if (name === 't') inText = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') strings.push(unescapeOoxml(text));
      },
    },
    Infinity,
  ); // bounded by XlsxLimits.sharedStringsMaxBytes before it is read
  return strings;
}

/** An ISO date cell (t="d") as written, to the second. */
function isoDate(text: string): SheetDate | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?))?/.exec(text.trim());
  if (!m) return null;
  const time = m[2] ?? '00:00:00';
  return new SheetDate(`${m[1]} ${time.length === 5 ? `${time}:00` : time}`);
}

export interface XlsxSheet {
  batches: AsyncIterable<DataRow[]>;
  close(): void;
}

/** Opens the first sheet of the xlsx at `file`; its rows are read as the batches are taken. */
export async function openXlsxSheet(file: string, limits: XlsxLimits, columns: SheetColumns): Promise<XlsxSheet> {
  const { zip, entries } = await openZip(file);
  let stream: Readable | null = null;
  let open = true;
  const close = () => {
    open = false;
    stream?.destroy();
    zip.close();
  };
  try {
    const parts = await workbookParts(zip, entries);
    if ((parts.sharedStrings?.uncompressedSize ?? 0) > limits.sharedStringsMaxBytes) throw new XlsxTooLarge(limits.sharedStringsMaxBytes);
    let unpacked = 0;
    for (const entry of entries.values()) unpacked += entry.uncompressedSize;
    if (unpacked > limits.unpackedMaxBytes) throw new XlsxTooLarge(limits.unpackedMaxBytes);
    const [strings, dated] = [await sharedStrings(zip, parts.sharedStrings), await dateStyles(zip, parts.styles)];
    const batches = sheetRows(
      zip,
      parts.sheet,
      { strings, dated, date1904: parts.date1904, columns },
      (s) => (stream = s),
      () => open,
    );
    return { batches, close };
  } catch (error) {
    close();
    throw error;
  }
}

interface SheetContext {
  strings: string[];
  dated: boolean[];
  date1904: boolean;
  columns: SheetColumns;
}

async function* sheetRows(zip: ZipFile, sheet: Entry, context: SheetContext, track: (s: Readable) => void, isOpen: () => boolean): AsyncGenerator<DataRow[]> {
  const { strings, dated, date1904, columns } = context;
  const dates = serialDates(date1904);
  let ready: DataRow[] = [];
  /** The sheet's first column (its dimension's), the values' index 0. */
  let firstColumn = 0;
  let rowNumber = 0;
  let values: CellValue[] = [];
  let nextColumn = 0;
  let column = 0;
  let type = 'n';
  let style = 0;
  let text = '';
  let inValue = false;
  let inInline = false;
  let phonetic = 0;

  const cellValue = (): CellValue => {
    switch (type) {
      case 's': {
        if (text.trim() === '') return null; // a styled cell with no value
        const s = strings[Number(text)];
        if (s === undefined) throw new XlsxUnreadable(`shared string ${text}`);
        return s === '' ? null : s;
      }
      case 'str':
      case 'inlineStr':
        return text === '' ? null : unescapeOoxml(text);
      case 'b':
        return text.trim() === '' ? null : text.trim() === '1' || text.trim() === 'true';
      case 'e':
        return null;
      case 'd':
        return isoDate(text);
      default: {
        if (text.trim() === '') return null;
        const v = Number(text);
        if (!Number.isFinite(v)) return null;
        if (dated[style]) return dates(v) ?? v;
        return v;
      }
    }
  };

  const parser = parserFor({
    open: (tag, name) => {
      switch (name) {
        case 'row':
          rowNumber = tag.attributes.r ? Number(tag.attributes.r) : rowNumber + 1;
          values = [];
          nextColumn = firstColumn;
          break;
        case 'c': {
          const ref = tag.attributes.r;
          column = ref ? columnOf(ref) : nextColumn;
          if (column < firstColumn) throw new XlsxUnreadable(`cell ${String(ref)} left of the dimension`);
          type = tag.attributes.t ?? 'n';
          style = tag.attributes.s === undefined ? 0 : Number(tag.attributes.s);
          text = '';
          break;
        }
        case 'v':
          inValue = true;
          break;
        case 'is':
          inInline = true;
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (inInline && phonetic === 0) inValue = true;
          break;
        case 'dimension': {
          const start = columnOf(String(tag.attributes.ref ?? ''));
          if (start > 0 && rowNumber === 0) firstColumn = nextColumn = start;
          break;
        }
      }
    },
    text: (t) => {
      if (!inValue) return;
      text += t;
      if (text.length > MAX_CELL_CHARS) throw new XlsxUnreadable('cell text too long');
    },
    close: (name) => {
      switch (name) {
        case 'v':
        case 't':
          inValue = false;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c': {
          const index = column - firstColumn;
          const value = cellValue();
          nextColumn = column + 1;
          if (index >= columns.max) {
            if (value !== null && columns.beyond === 'refuse') throw new XlsxTooWide(`a value in column ${column + 1}`);
            break;
          }
          for (let i = values.length; i < index; i++) values.push(null);
          values[index] = value;
          break;
        }
        case 'row':
          ready.push({ row: rowNumber, values });
          break;
      }
    },
  });
  const chunks = feed(zip, sheet, parser, track);
  try {
    while (!(await chunks.next()).done) {
      if (!isOpen()) return;
      if (ready.length >= BATCH_ROWS) {
        const batch = ready;
        ready = [];
        yield batch;
      }
    }
    if (ready.length > 0 && isOpen()) yield ready;
  } finally {
    await chunks.return(undefined);
  }
}
