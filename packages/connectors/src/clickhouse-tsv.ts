/**
 * ClickHouse's TabSeparated text: the one streaming format that carries the column types
 * on 18.16 (no JSONCompactEachRowWithNamesAndTypes there) and keeps 64-bit integers exact.
 */

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '\0', "'": "'", '\\': '\\', a: '\x07', v: '\v' };

/** One field: `\N` is NULL; backslash escapes decoded. */
export function tsvField(text: string): string | null {
  if (text === '\\N') return null;
  if (!text.includes('\\')) return text;
  return text.replace(/\\(.)/gs, (_m, c: string) => ESCAPES[c] ?? c);
}

/** One line into its fields (tabs inside values are escaped, so a plain split is exact). */
export function tsvLine(line: string): (string | null)[] {
  return line.split('\t').map(tsvField);
}

/**
 * The exception ClickHouse appends to a response whose headers were already sent (18.16
 * does this when a limit such as max_execution_time strikes mid-stream).
 */
export const MID_STREAM_EXCEPTION = /^Code: (\d+), e\.displayText\(\) = ([\s\S]*)$/;

export class ClickHouseStreamError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClickHouseStreamError';
  }
}

/** The error a trailing exception line stands for, or null when the line is data. */
export function trailingException(line: string): ClickHouseStreamError | null {
  const m = MID_STREAM_EXCEPTION.exec(line);
  return m ? new ClickHouseStreamError(m[1]!, line) : null;
}
