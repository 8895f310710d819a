import fs from 'node:fs';
import { once } from 'node:events';

/**
 * CSV lines of the order-data file: RFC 4180 (comma, CRLF, quoted when needed, quotes doubled);
 * a text cell starting like a formula (= + - @, tab, CR) gets a leading apostrophe so a
 * spreadsheet shows it as text (OWASP "CSV injection"), as the chart exports do. The rows
 * themselves are formatted by the engine with the same rules (query.ts csvSliceStatement).
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvLine(values: readonly (string | number | null)[], textColumns?: readonly boolean[]): string {
  const fields = values.map((value, i) => {
    if (value === null || value === undefined) return '';
    let out = String(value);
    if ((textColumns?.[i] ?? true) && typeof value === 'string' && FORMULA_START.test(out)) out = `'${out}`;
    return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
  });
  return `${fields.join(',')}\r\n`;
}

const [QUOTE, COMMA, CR, LF] = [0x22, 0x2c, 0x0d, 0x0a];
/** = + - @ tab: a text field starting so gets the guard (a leading CR is caught by the counts). */
const startsFormula = (b: number | undefined) => b === 0x3d || b === 0x2b || b === 0x2d || b === 0x40 || b === 0x09;

/**
 * A plain slice (query.ts csvSliceStatement, `careful` false: `columns` fields joined by `mark`,
 * lines ending in CR joined by LF) turned into CSV lines in place — the mark becomes the comma —
 * when it needs neither quotes nor the formula guard: no quote or comma anywhere, no field
 * starting like a formula, and exactly the marks, CRs and LFs of `lines` lines (so no field holds
 * a mark or a line break). False when it does (the bytes are then half rewritten and of no use):
 * the slice is asked for again with every field looked at. One pass over the bytes, no copy.
 */
export function plainSliceToCsv(bytes: Uint8Array, lines: number, columns: number, mark: number): boolean {
  let marks = 0;
  let crs = 0;
  let lfs = 0;
  if (startsFormula(bytes[0])) return false;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const b = bytes[i]!;
    if (b > COMMA) continue; // digits, letters, UTF-8 multi-byte: nothing to look at
    if (b === mark) {
      marks++;
      bytes[i] = COMMA;
      if (startsFormula(bytes[i + 1])) return false;
    } else if (b === LF) {
      lfs++;
      if (startsFormula(bytes[i + 1])) return false;
    } else if (b === CR) crs++;
    else if (b === QUOTE || b === COMMA) return false;
  }
  return marks === lines * (columns - 1) && crs === lines && lfs === lines - 1;
}

/** = + - @ tab CR: the first bytes of a text that gets the formula guard (csvLine's FORMULA_START). */
const FORMULA_BYTES = [0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d];

/** The first byte of a bound as DuckDB's stats() prints it (bytes ≥ 0x80 as \xHH); null for the empty string. */
function firstByte(printed: string): number | null {
  if (printed === '') return null;
  const hex = /^\\x([0-9A-Fa-f]{2})/.exec(printed);
  return hex ? parseInt(hex[1]!, 16) : printed.charCodeAt(0);
}

/**
 * Whether a column's statistics as the engine prints them (DuckDB `stats()`, query.ts
 * textColumnStatsStatement) prove that none of its values starts like a formula, so its field
 * needs no guard. Text: every value lies between Min and Max, so its first byte lies between
 * theirs (a bound cut short keeps its first byte); the column is safe when no formula byte lies
 * in that range — phone numbers (1…1), Chinese names (\xE4…\xE9). A time: written as
 * yyyy-MM-dd HH:mm:ss, safe when its earliest value has a digit first (no BC year, no
 * -infinity). Anything else — no statistics, an unknown bound (an empty Min, \xFF Max), a
 * printout not read with certainty — is not proof: false, and the column is guarded.
 */
export function statsRuleOutFormula(stats: unknown, kind: 'text' | 'time'): boolean {
  if (typeof stats !== 'string') return false;
  if (kind === 'time') return /^\[Min: \d/.test(stats) && !stats.includes('(BC)');
  // A bound that itself holds ", Max: " would make the printout ambiguous.
  if (stats.split(', Max: ').length !== 2) return false;
  const bounds = /^\[Min: (.*), Max: (.*?), Has Unicode: (?:true|false),/s.exec(stats);
  if (!bounds) return false;
  const lo = firstByte(bounds[1]!) ?? 0;
  const hi = firstByte(bounds[2]!);
  if (hi === null) return true; // every value empty (or NULL)
  return lo <= hi && FORMULA_BYTES.every((b) => b < lo || b > hi);
}

/** Characters gathered before one write to the file (one stream write per line costs more than the line). */
const FLUSH_AT = 64 * 1024;

/**
 * A file written in 64 KiB writes with back-pressure. `bom`: starts with the UTF-8 byte-order
 * mark (Excel reads the Chinese right); `appendAt`: continues a partial file of that many bytes.
 * `checkpoint()` hands everything written so far to the operating system and answers the file's
 * length: what survives the process being killed (a task resumes from there).
 */
export class CsvWriter {
  private readonly out: fs.WriteStream;
  private pending = '';
  private bytes: number;

  constructor(file: string, options: { bom: boolean; appendAt?: number }) {
    this.out = fs.createWriteStream(file, { flags: options.appendAt === undefined ? 'w' : 'a' });
    this.bytes = options.appendAt ?? 0;
    if (options.bom) this.pending = '\ufeff';
  }

  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= FLUSH_AT) await this.flush();
  }

  /** Bytes already UTF-8 (a slice from the engine): written as they are, after what is pending. */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    await this.flush();
    this.bytes += bytes.byteLength;
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }

  /** A file of CSV lines (a slice written by the engine) appended as it is, after what is pending. */
  async writeFile(file: string): Promise<void> {
    await this.flush();
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      this.bytes += chunk.byteLength;
      if (!this.out.write(chunk)) await once(this.out, 'drain');
    }
  }

  private async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = '';
    if (!chunk) return;
    this.bytes += Buffer.byteLength(chunk, 'utf8');
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async checkpoint(): Promise<number> {
    await this.flush();
    // An empty write's callback runs once every earlier write has reached the file.
    await new Promise<void>((resolve, reject) => this.out.write('', (error) => (error ? reject(error) : resolve())));
    return this.bytes;
  }

  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}

/**
 * The records of a CSV text stream (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks), one array of fields per record; the BOM is dropped. For paging through a result file
 * without reading it whole.
 */
export async function* csvRecords(input: AsyncIterable<string>): AsyncGenerator<string[], void, undefined> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let first = true;
  let pendingCr = false;
  for await (let chunk of input) {
    if (first) {
      chunk = chunk.replace(/^\ufeff/, '');
      first = false;
    }
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (quoted) {
        if (ch === '"') {
          quoted = false;
          afterQuote = true;
        } else field += ch;
        continue;
      }
      if (pendingCr) {
        pendingCr = false;
        if (ch === '\n') continue;
      }
      if (ch === '"') {
        if (afterQuote) field += '"'; // a doubled quote inside a quoted field
        quoted = true;
        afterQuote = false;
      } else if (ch === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (ch === '\r' || ch === '\n') {
        fields.push(field);
        yield fields;
        fields = [];
        field = '';
        afterQuote = false;
        pendingCr = ch === '\r';
      } else {
        field += ch;
        afterQuote = false;
      }
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    yield fields;
  }
}

/** A file field as the result table shows it: the formula guard's apostrophe taken off again. */
export const shownField = (field: string) => (/^'[=+\-@\t\r]/.test(field) ? field.slice(1) : field);
