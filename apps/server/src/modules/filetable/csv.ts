/**
 * A streaming CSV parser over decoded text (RFC 4180: quoted fields with "" escapes and line
 * breaks inside; CRLF, LF or CR line ends; one-character delimiter). Hand-written because
 * it sits on the upload's hot path: about three times the throughput of csv-parse here, and
 * it knows the line each record starts on. Records come in batches, one per text chunk.
 * Lenient where Excel is: a quote inside an unquoted field is kept as text.
 */

export interface CsvRecord {
  /** 1-based line the record starts on. */
  row: number;
  /** Fields; empty ones are null. */
  values: (string | null)[];
}

/** Why the text is not CSV, and the line where it went wrong. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly reason: 'unclosedQuote' | 'afterQuote' | 'recordTooLong',
    readonly line: number,
  ) {
    super(`${reason} at line ${line}`);
    this.name = 'CsvSyntaxError';
  }
}

/** Longest record (in characters) held while waiting for its end: an unclosed quote must not buffer the whole file. */
export const MAX_RECORD_CHARS = 4 * 1024 * 1024;

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** The delimiter the header line uses most: comma, tab, semicolon or bar (comma when none). */
export function detectDelimiter(firstLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', '\t', ';', '|']) {
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === candidate && !quoted) count++;
    }
    if (count > bestCount) [best, bestCount] = [candidate, count];
  }
  return best;
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Parses the complete records of `text` into `out`; returns where the first incomplete one
 * starts (text.length when all were complete). `final`: no more text follows.
 */
function scan(text: string, delimiter: number, state: { line: number }, final: boolean, out: CsvRecord[]): number {
  const n = text.length;
  let pos = 0;
  records: while (pos < n) {
    const values: (string | null)[] = [];
    const startLine = state.line;
    let breaks = 0;
    let i = pos;
    for (;;) {
      let value: string;
      if (i < n && text.charCodeAt(i) === QUOTE) {
        value = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) {
            if (final) throw new CsvSyntaxError('unclosedQuote', startLine + breaks);
            break records;
          }
          if (q + 1 >= n && !final) break records;
          value += text.slice(j, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        breaks += countLineBreaks(value);
        const after = i < n ? text.charCodeAt(i) : -1;
        if (after !== -1 && after !== delimiter && after !== LF && after !== CR) throw new CsvSyntaxError('afterQuote', startLine + breaks);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === delimiter || c === LF || c === CR) break;
          j++;
        }
        if (j >= n && !final) break records;
        value = text.slice(i, j);
        i = j;
      }
      values.push(value === '' ? null : value);
      if (i >= n) break; // the text ends the record (final)
      const c = text.charCodeAt(i);
      if (c === delimiter) {
        i++;
        continue;
      }
      if (c === CR) {
        if (i + 1 >= n && !final) break records; // a LF may follow in the next chunk
        i += text.charCodeAt(i + 1) === LF ? 2 : 1;
      } else {
        i++;
      }
      break;
    }
    state.line = startLine + 1 + breaks;
    out.push({ row: startLine, values });
    pos = i;
  }
  return pos;
}

/** Records of the text chunks, in batches. Throws CsvSyntaxError. */
export async function* parseCsv(chunks: AsyncIterable<string>, delimiter: string): AsyncGenerator<CsvRecord[]> {
  const code = delimiter.charCodeAt(0);
  const state = { line: 1 };
  let rest = '';
  let first = true;
  for await (const chunk of chunks) {
    let text = rest + chunk;
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const out: CsvRecord[] = [];
    const pos = scan(text, code, state, false, out);
    rest = pos === 0 ? text : text.slice(pos);
    if (rest.length > MAX_RECORD_CHARS) throw new CsvSyntaxError('recordTooLong', state.line);
    if (out.length > 0) yield out;
  }
  if (rest.length > 0) {
    const out: CsvRecord[] = [];
    scan(rest, code, state, true, out);
    if (out.length > 0) yield out;
  }
}
